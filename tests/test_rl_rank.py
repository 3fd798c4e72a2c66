"""Ranking policies (``rami train --policy rank``): each legal action is scored from what
it leads to on a determinization of the seat's view (``rami.rl.afterstate``); the
numpy ``RankPolicy`` plays it through the same ``learned:PATH`` spec."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from rami.bots import make_bot
from rami.bots.base import legal_actions
from rami.cli import main
from rami.errors import InputError
from rami.games import get_game
from rami.rl.afterstate import CHANCE_VERBS, AfterstateFeatures
from rami.rl.imitate import make_teacher, network_layers, rank_network, record_ranked
from rami.rl.observation import encoder_for
from rami.rl.policy import MlpPolicy, RankPolicy, load_policy
from rami.rl.train import TrainConfig, _make_env, train


def _positions(deals: int = 3, turns: int = 40) -> list[dict[str, object]]:
    """Views of the seat to move in greedy 1 v 1 deals, a choice to make in each."""
    views = []
    for deal in range(deals):
        state = get_game("tunisian").new_match("1v1", None, 70 + deal).current
        bots = [make_bot("tunisian", "greedy", deal + s) for s in range(2)]
        while not state.is_over and state.turn < turns:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            if len(legal_actions(view)) > 1:
                views.append(view)
            state.apply(bots[seat].act(view))
    return views


def test_T3_T6_candidates_describe_what_each_legal_action_leads_to() -> None:
    """One entry per legal action; the position is ``encode(view)``; a discard (T-3)
    takes one copy of its card out of the own-hand row; a draw is a chance move, scored
    from the position before it; a meld (T-6, T-7) moves the scalars (staged value, opened)."""
    views = _positions()
    features = AfterstateFeatures(views[0])
    k = features.encoder.kinds
    seen_discard = seen_draw = seen_meld = 0
    for view in views:
        c = features.build(view, random.Random(1))
        assert c.legal == legal_actions(view)
        assert len(c.idx) == len(c.val) == c.extra.shape[0] == len(c.legal)
        assert np.array_equal(c.before, encoder_for(view).encode(view))
        for i, action in enumerate(c.legal):
            verb = features.extras.index(f"verb {action.kind}")
            assert c.extra[i, verb] == 1.0 and c.extra[i, : len(features.verbs)].sum() == 1
            if action.kind in CHANCE_VERBS:
                assert len(c.idx[i]) == 0 and c.extra[i, features.extras.index("chance move")]
                seen_draw += 1
            elif action.kind == "discard":
                after = c.before.copy()
                after[c.idx[i]] += c.val[i]
                hand_row = after[:k] - c.before[:k]
                assert list(np.flatnonzero(hand_row)) == [int(action.cards[0])]
                assert hand_row.min() < 0
                seen_discard += 1
            elif action.kind == "meld":  # staged or laid: a scalar (staged value) moves
                assert (c.idx[i] >= features.encoder.plane_size).any()
                seen_meld += 1
    assert seen_discard > 50 and seen_draw > 5 and seen_meld > 0


def test_candidates_depend_on_the_view_and_the_generator_only() -> None:
    """The same view and generator state give the same inputs (the bot's moves are
    reproducible); the hidden cards come from the determinizer, never the deal."""
    views = _positions(deals=1)
    features = AfterstateFeatures(views[0])
    for view in views[::5]:
        a = features.build(view, random.Random(4))
        b = AfterstateFeatures(view).build(view, random.Random(4))
        assert np.array_equal(a.before, b.before) and np.array_equal(a.extra, b.extra)
        for x, y in zip(a.idx, b.idx, strict=True):
            assert np.array_equal(x, y)


def test_redealing_hidden_cards_leaves_the_candidates_unchanged() -> None:
    """Other hands and the stock re-dealt (``test_bots.HIDERS``): the same inputs for
    every legal action, so the ranking policy's move cannot depend on hidden cards."""
    from test_bots import HIDERS

    rng = random.Random(5)
    compared = 0
    for seed in range(2):
        state = get_game("tunisian").new_match("1v1", None, 90 + seed).current
        greedy = make_bot("tunisian", "greedy", seed)
        while not state.is_over and state.turn < 60:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            if len(legal_actions(view)) > 1 and rng.random() < 0.3:
                twin = HIDERS["tunisian"](state, seat, rng)
                a = AfterstateFeatures(view).build(view, random.Random(8))
                other = twin.view(seat)
                b = AfterstateFeatures(other).build(other, random.Random(8))
                assert a.legal == b.legal and np.array_equal(a.before, b.before)
                assert np.array_equal(a.extra, b.extra)
                for x, y, u, v in zip(a.idx, b.idx, a.val, b.val, strict=True):
                    assert np.array_equal(x, y) and np.array_equal(u, v)
                compared += 1
            state.apply(greedy.act(view))
    assert compared >= 5


def test_rank_policy_scores_equal_the_torch_network_on_the_after_positions() -> None:
    """``RankPolicy``'s shortcut (the position's rows once, each action's changed rows)
    gives the torch network's score of ``[before + change, extras]``."""
    views = _positions(deals=1)
    features = AfterstateFeatures(views[0])
    width = features.size + len(features.extras)
    for net in ((8,), (12, 6)):
        model = rank_network(width, net, seed=2)
        meta = {"policy": "rank", "game": "tunisian", "observation_size": features.size}
        policy = RankPolicy(meta, network_layers(model))
        for view in views[::4]:
            c = features.build(view, random.Random(0))
            rows = []
            for i in range(len(c.legal)):
                after = c.before.copy()
                after[c.idx[i]] += c.val[i]
                rows.append(np.concatenate([after, c.extra[i]]))
            with torch.no_grad():
                want = model(torch.as_tensor(np.stack(rows))).squeeze(-1).numpy()
            assert np.allclose(policy.scores(c), want, atol=1e-4)
            assert policy.best(c) == int(np.argmax(want))


def test_recorded_labels_are_the_teachers_moves() -> None:
    config = TrainConfig(max_turns=40, opponents=("greedy",))
    teacher = make_teacher("tunisian", "own", 1)
    data = record_ranked(_make_env(config, "greedy", 0), teacher, 30, seed=3)
    assert len(data) >= 30 and data.deals >= 1
    assert all(0 <= label < n for label, n in zip(data.labels, data.counts, strict=True))
    assert len(data.idx) == sum(data.counts) == sum(len(e) for e in data.extra)
    again = record_ranked(_make_env(config, "greedy", 0), teacher, 30, seed=3)
    assert again.labels == data.labels  # seeded: the same deals and labels


def test_ranking_policy_trains_plays_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rank.npz"
    config = TrainConfig(
        policy="rank", imitate="own", samples=120, epochs=2, dagger=1, dagger_samples=60,
        net=(16, 8), max_turns=40, opponents=("greedy",), envs=1, minutes=0, out=str(out),
        half=True,
    )  # fmt: skip
    summary = train(config, log=lambda _line: None)
    assert not out.with_suffix(".sb3.zip").exists()  # the numpy file only
    cloned = summary["imitation"]
    assert isinstance(cloned, dict) and cloned["samples"] >= 180 and cloned["dagger_rounds"] == 1
    policy = load_policy(out)
    assert isinstance(policy, RankPolicy) and policy.meta["policy"] == "rank"
    bot = make_bot("tunisian", f"learned:{out}", 1)
    state = get_game("tunisian").new_match("1v1", None, 3).current
    greedy = make_bot("tunisian", "greedy", 2)
    while not state.is_over and state.turn < 200:
        seat = state.to_move
        assert seat is not None
        state.apply((bot if seat == 0 else greedy).act(state.view(seat)))
    main(["simulate", "tunisian", "--bots", f"learned:{out},greedy", "--games", "2",
          "--max-turns", "40", "--quiet"])  # fmt: skip
    assert "learned:" in capsys.readouterr().out
    more = TrainConfig(
        policy="rank", imitate="own", samples=40, epochs=1, net=(16, 8), max_turns=40,
        opponents=("greedy",), envs=1, minutes=0, out=str(out), resume=True,
    )  # fmt: skip
    train(more, log=lambda _line: None)
    resumed = load_policy(out)
    assert len(resumed.meta["imitation"]) == 2  # the history is kept
    with pytest.raises(InputError):
        train(TrainConfig(policy="rank", imitate="own", net=(4,), resume=True, out=str(out)),
              log=lambda _line: None)  # fmt: skip


def test_a_flat_file_still_loads_as_a_flat_policy(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(3, 5)).astype(np.float32), np.zeros(3, np.float32))]
    MlpPolicy({"game": "tunisian"}, layers).save(tmp_path / "flat.npz")
    assert isinstance(load_policy(tmp_path / "flat.npz"), MlpPolicy)
    RankPolicy({"game": "tunisian", "policy": "odd", "observation_size": 4},
               [(layers[0][0][:1], layers[0][1][:1])]).save(tmp_path / "odd.npz")  # fmt: skip
    with pytest.raises(InputError):
        load_policy(tmp_path / "odd.npz")


@pytest.mark.parametrize(
    "args",
    [
        ["--policy", "bogus", "--imitate", "own"],
        ["--policy", "rank"],
        ["--policy", "rank", "--imitate", "own", "--backend", "ray"],
    ],
)
def test_bad_rank_options_are_one_line_errors(
    args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["train", "tunisian", *args, "--out", str(tmp_path / "p.npz")])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1
    assert not (tmp_path / "p.npz").exists()


def test_the_shipped_tunisian_model_loads_by_name_and_plays_a_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``learned:tunisian_1v1`` (``rami/rl/models``, package data) is a ranking policy
    for Tunisian 1 v 1 that plays a whole deal against greedy, in ``make_bot`` and in
    ``rami simulate``; it was trained for these actions and inputs."""
    from rami.bots.learned import shipped_models

    assert "tunisian_1v1" in shipped_models()
    bot = make_bot("tunisian", "learned:tunisian_1v1", 1)
    policy = bot.policy
    assert isinstance(policy, RankPolicy)
    space = get_game("tunisian").action_space
    assert space is not None
    assert policy.meta["action_space_digest"] == space("1v1").digest()
    state = get_game("tunisian").new_match("1v1", None, 11).current
    greedy = make_bot("tunisian", "greedy", 2)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        move = (bot if seat == 0 else greedy).act(view)
        assert move in legal_actions(view)
        state.apply(move)
    assert state.result is not None
    main(["simulate", "tunisian", "--bots", "learned:tunisian_1v1,greedy", "--games", "2",
          "--quiet"])  # fmt: skip
    assert "learned:tunisian_1v1" in capsys.readouterr().out
    with pytest.raises(InputError, match="tunisian_1v1"):
        make_bot("tunisian", "learned:no_such_model", 1)
