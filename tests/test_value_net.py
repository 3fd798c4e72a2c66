"""The learned Marriage value at the IS-MCTS depth cut (issue 25): the shipped file
loads without numpy, scores positions deterministically from features of the seat's
side, the ``hard+value`` bot that uses it plays legally and the same from a redealt twin
(hidden cards redealt as in ``test_bots.py``, M-7), and ``rami train
--policy value`` runs end to end on a tiny budget."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from rami.bots import check_spec, make_bot
from rami.bots.ismcts import ISMCTSBot
from rami.bots.kit import kit_of
from rami.bots.value_net import ValueNet, read_npz, shipped_value
from rami.errors import InputError
from rami.games import get_game
from rami.marriage.game import MarriageState, new_deal
from rami.marriage.value import FEATURES, features, model_name, tree_leaf


def _deal(preset: str, players: int, seed: int) -> MarriageState:
    return new_deal(get_game("marriage").rules_from(preset), players, seed, 0)


def _positions(preset: str, seed: int, every: int = 5) -> list[tuple[MarriageState, int]]:
    """Turn-start positions of a greedy deal (state copies, seat to move)."""
    kit = kit_of("marriage")
    state = _deal(preset, 4, seed)
    out: list[tuple[MarriageState, int]] = []
    last = -1
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if state.turn != last and state.turn % every == 0:
            out.append((state.clone(), seat))
        last = state.turn
        state.apply(kit.policy(state))
    return out


def test_the_shipped_nepali_value_loads_and_scores_positions_deterministically() -> None:
    net = shipped_value(model_name("nepali", 4))
    assert net is not None
    assert net.meta["game"] == "marriage" and net.meta["players"] == 4
    assert net.size == len(FEATURES) == net.meta["features"]
    values = []
    for state, seat in _positions("nepali", 5):
        x = features(state, seat)
        assert len(x) == len(FEATURES) and all(math.isfinite(v) for v in x)
        v = tree_leaf(state, seat)
        assert v == tree_leaf(state, seat) and math.isfinite(v)
        values.append(v)
    assert values and len(set(values)) > 1


def test_a_finished_deal_is_worth_its_exact_nets() -> None:
    """M-13: the leaf of a finished deal is the settlement, not an estimate."""
    kit = kit_of("marriage")
    state = _deal("nepali", 4, 3)
    while not state.is_over:
        state.apply(kit.policy(state))
    assert state.result is not None
    for seat in range(4):
        assert tree_leaf(state, seat) == state.result.scores[seat]


def test_hard_value_plays_legally_deterministically_and_alike_on_a_redealt_twin() -> None:
    """``hard+value`` uses the learned leaf; it acts from the view only: a twin deal
    with the hidden cards redealt (M-7, ``test_bots.hide_marriage``) gets its move."""
    from test_bots import hide_marriage

    assert kit_of("marriage").learned_leaf is tree_leaf
    bot = make_bot("marriage", "hard+value:6it", 5)
    assert isinstance(bot, ISMCTSBot) and bot.leaf is tree_leaf
    assert bot.name == "hard+value:6it"
    assert make_bot("marriage", "expert+value", 1).name == "expert+value"
    plain = make_bot("marriage", "hard", 1)
    assert isinstance(plain, ISMCTSBot) and plain.leaf is not tree_leaf  # the estimate
    rng = random.Random(2)
    played = 0
    for state, seat in _positions("nepali", 8, every=4)[:3]:
        view = state.view(seat)
        a = bot.act(view)
        assert a in state.legal_actions()
        assert a == make_bot("marriage", "hard+value:6it", 5).act(view)
        twin = hide_marriage(state, seat, rng)
        assert twin.view(seat) == view and bot.act(twin.view(seat)) == a
        played += 1
    assert played


def test_value_levels_are_only_for_searchers_with_a_learned_value() -> None:
    for spec in ("medium+value", "search+value", "random+value"):
        with pytest.raises(InputError, match="only ismcts, hard and expert"):
            check_spec("marriage", spec)
    with pytest.raises(InputError, match="no learned value"):
        make_bot("tunisian", "hard+value", 0)
    check_spec("marriage", "hard+value:8it")


def test_tables_without_a_shipped_value_keep_the_race_estimate() -> None:
    from rami.marriage.greedy_bot import tree_leaf_value

    assert shipped_value(model_name("nepali", 3)) is None
    kit = kit_of("marriage")
    state = _deal("nepali", 3, 4)
    for _ in range(6):
        state.apply(kit.policy(state))
    seat = state.to_move
    assert seat is not None
    assert tree_leaf(state, seat) == tree_leaf_value(state, seat)


def test_training_a_tiny_value_runs_and_the_file_reads_back_without_numpy(
    tmp_path: Path,
) -> None:
    np = pytest.importorskip("numpy")
    from rami.rl.train import TrainConfig, train

    out = tmp_path / "v.npz"
    lines: list[str] = []
    summary = train(
        TrainConfig(
            game="marriage",
            preset="nepali",
            policy="value",
            samples=300,
            minutes=0.5,
            epochs=2,
            net=(4,),
            out=str(out),
        ),
        log=lines.append,
    )
    assert summary["policy"] == "value" and summary["features"] == len(FEATURES)
    assert any("held-out" in line for line in lines)
    net = ValueNet.load(out)
    arrays = np.load(out)
    # the pure-Python reader gives numpy's float16 values, and the same prediction
    assert read_npz(out)["w0"][1] == [float(v) for v in arrays["w0"].ravel()]
    state, seat = _positions("nepali", 2)[1]
    x = np.asarray(features(state, seat))
    z = (x - arrays["mean"].astype(float)) / arrays["std"].astype(float)
    w0, b0 = arrays["w0"].astype(float), arrays["b0"].astype(float)
    want = float(
        np.tanh(w0 @ z + b0) @ arrays["w1"].astype(float)
        + float(arrays["b1"][0])
        + z @ arrays["skip"].astype(float)
    )
    assert net(list(x)) == pytest.approx(want, abs=1e-6)


def test_bad_value_training_options_and_files_fail_with_one_line(tmp_path: Path) -> None:
    from rami.rl.train import TrainConfig, check_config

    with pytest.raises(InputError, match="--policy value"):
        check_config(TrainConfig(game="marriage", preset="nepali", policy="value", resume=True))
    with pytest.raises(InputError, match="unknown --policy"):
        check_config(TrainConfig(game="marriage", policy="values"))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(InputError, match="not a value file"):
        ValueNet.load(bad)
