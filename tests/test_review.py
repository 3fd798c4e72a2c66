"""The move-by-move review (issue 24, part 4; docs/review.md).

A planted blunder is found and labelled a blunder (Marriage: discarding instead of the
finish the hand holds, M-9; Tunisian rami: discarding when the hand goes out this turn,
T-9); the review reads views only, is cached per deal and seat, runs in a thread with
progress, and ``rami review`` prints it as a table or the issue's JSON. Bad input gets
one line.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

import rami.review as rv
import rami.review.core as core
from rami.bots import make_bot
from rami.bots.kit import kit_of
from rami.cli import main
from rami.engine import Action
from rami.games import get_game
from rami.review import label_of, review

SAMPLES = 10


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAMI_CACHE_DIR", str(tmp_path / "cache"))


def _play(game: str, preset: str, seats: int, seed: int, plant: Any = None) -> Any:
    """A deal of ``medium`` bots; ``plant(view)`` may return seat 0's move instead (the
    deal then stops right after it)."""
    spec = get_game(game)
    assert spec.new_deal is not None
    state = spec.new_deal(spec.rules_from({"preset": preset}), seats, seed, 0)
    bots = [make_bot(game, "medium", s) for s in range(seats)]
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        view = state.view(mover)
        if mover == 0 and plant is not None:
            move = plant(view)
            if move is not None:
                state.apply(move)
                return state
        state.apply(bots[mover].act(view))
    return state


def _planted(game: str, preset: str, seats: int, plant: Any) -> Any:
    """The first seeded deal (from seed 1) where ``plant`` found its moment."""
    for seed in range(1, 40):
        state = _play(game, preset, seats, seed, plant)
        if not state.is_over:
            return state
    pytest.fail("no deal reached the planted position")


def _skip_finish(view: Any) -> str | None:
    """A discard that breaks the finish the hand holds (M-9)."""
    legal = view["legal_actions"]
    finishing = {a.split(" ", 1)[1] for a in legal if a.startswith("finish ")}
    bad = [a for a in legal if a.startswith("discard ") and a.split(" ", 1)[1] not in finishing]
    return bad[0] if finishing and bad else None


def _skip_going_out(view: Any) -> str | None:
    """A discard when the exact search says the hand goes out this turn (T-9)."""
    hooks = get_game("tunisian").review
    assert hooks is not None
    verdict = hooks().exact(view)
    if verdict is None or verdict.best.kind == "discard":
        return None
    return next((a for a in view["legal_actions"] if a.startswith("discard ")), None)


def test_a_skipped_marriage_finish_is_a_blunder() -> None:
    """M-9: medium bots play until seat 0 can finish; it discards a card the finish needs."""
    state = _planted("marriage", "nepali", 4, _skip_finish)
    taken = Action.parse(state.to_json()["actions"][-1])
    assert taken.kind == "discard"
    spec = get_game("marriage")
    assert spec.review is not None
    hooks = spec.review()
    doc = state.to_json()
    assert spec.load_deal is not None
    start = spec.load_deal({**doc, "actions": doc["actions"][:-1]})
    view = start.view(0)
    decision = core.evaluate(kit_of("marriage"), hooks, view, taken, 0, SAMPLES)
    assert decision.label == "blunder", decision
    assert decision.best.startswith("finish")
    assert decision.why and "finish" in decision.why
    assert decision.loss >= hooks.thresholds(view["rules"])[2]


def _draw_instead_of_a_finishing_take(view: Any) -> str | None:
    """A blind draw when the pile's top card completes the hand (M-5, M-9)."""
    hooks = get_game("marriage").review
    assert hooks is not None
    verdict = hooks().exact(view)
    return "draw" if verdict is not None and verdict.best == Action("take") else None


def test_not_taking_the_card_that_finishes_is_a_blunder_and_says_so() -> None:
    state = _planted("marriage", "nepali", 4, _draw_instead_of_a_finishing_take)
    got = review(state, 0, samples=SAMPLES)
    last = got.decisions[-1]
    assert (last.move, last.best, last.label) == ("draw", "take", "blunder"), last
    assert last.why and last.why.endswith("finished your hand: take it")


def test_a_skipped_tunisian_going_out_is_a_blunder_in_the_whole_review() -> None:
    """T-9: the last decision of the review (through ``review``) is the planted one."""
    state = _planted("tunisian", "1v1", 2, _skip_going_out)
    got = review(state, 0, samples=SAMPLES)
    last = got.decisions[-1]
    assert last.index == len(state.to_json()["actions"]) - 1
    assert last.move.startswith("discard")
    assert last.label == "blunder", last
    assert last.why and "go out" in last.why
    assert got.points_lost >= last.loss > 0
    assert got.accuracy < 100


def test_labels_follow_the_thresholds_and_the_noise() -> None:
    th = (1.0, 3.0, 6.0)
    assert label_of(0.5, 0.1, th) == "good"
    assert label_of(1.5, 0.1, th) == "inaccuracy"
    assert label_of(3.0, 0.5, th) == "mistake"
    assert label_of(9.0, 1.0, th) == "blunder"
    assert label_of(9.0, 5.0, th) == "good"  # within two standard errors of nothing


def test_review_reads_views_only_runs_in_a_thread_and_is_cached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _play("tunisian", "1v1", 2, 3)
    seen: list[dict[str, Any]] = []
    real = core.evaluate

    def spy(kit: Any, hooks: Any, view: Any, *args: Any) -> core.Decision:
        seen.append(view)
        return real(kit, hooks, view, *args)

    monkeypatch.setattr(rv, "evaluate", spy)
    calls: list[tuple[int, int]] = []
    out: list[rv.Review] = []
    worker = threading.Thread(
        target=lambda: out.append(review(state, 1, lambda d, t: calls.append((d, t)), samples=4))
    )
    worker.start()
    worker.join(120)
    assert out, "the review did not finish in its thread"
    got = out[0]
    total = len(got.decisions)
    assert total and calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == list(range(total + 1))
    # every decision was judged from seat 1's own view: its cards, never seat 0's
    assert len(seen) == total
    for view in seen:  # typed views (rami.views.TypedView), as the engine builds them
        assert view.seat == 1 and view.to_move == 1
    # cached: the second review is read back, not computed
    monkeypatch.setattr(rv, "evaluate", lambda *a: pytest.fail("not cached"))
    again = review(state, 1, samples=4)
    assert again.to_json() == got.to_json()
    doc = got.to_json()
    assert set(doc) >= {"seat", "decisions", "points_lost", "accuracy"}
    assert set(doc["decisions"][0]) == {"index", "move", "best", "loss", "stderr", "label", "why"}


def test_saved_matches_and_play_saves_give_their_deals() -> None:
    for name, players in (("marriage", 3), ("tunisian", None)):
        spec = get_game(name)
        match = spec.new_match(spec.rules_from({}), players, 5)
        bots = [make_bot(name, "medium", s) for s in range(8)]
        for _ in range(2):
            while not match.current.is_over:
                mover = match.current.to_move
                assert mover is not None
                match.apply(bots[mover].act(match.current.view(mover)))
            finished = rv.deal_of(match.current).doc["actions"]
            match.next_deal()
        match.apply(bots[0].act(match.current.view(match.current.to_move)))
        deals = rv.deals_from_json(match.to_json())
        assert len(deals) == 3 and deals[1].doc["actions"] == finished
        assert all(d.game == name for d in deals)
        save = {"format": "rami-play/1", "game": name, "human": 1, "match": match.to_json()}
        assert rv.deals_from_json(save)[0].seat == 1


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_rami_review_prints_json_a_table_and_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = _play("tunisian", "1v1", 2, 4)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(state.to_json(), ensure_ascii=False), encoding="utf-8")
    code, out, _ = _run(capsys, "review", str(path), "--seat", "1", "--json", "--samples", "4")
    assert code == 0
    doc = json.loads(out)
    assert doc["seat"] == 1 and doc["decisions"] and 0 <= doc["accuracy"] <= 100
    code, out, _ = _run(capsys, "review", str(path), "--seat", "1", "--samples", "4")
    assert code == 0 and "accuracy" in out and "decisions" in out
    bad = tmp_path / "bad.json"
    for text, words in (
        ("{", "not JSON"),
        ('{"game": "chess"}', "not a saved deal"),
        (json.dumps({**state.to_json(), "actions": ["discard 5♠"] * 3}), "cannot be replayed"),
    ):
        bad.write_text(text, encoding="utf-8")
        code, out, err = _run(capsys, "review", str(bad), "--samples", "4")
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    code, _out, err = _run(capsys, "review", str(path), "--seat", "7")
    assert code == 2 and "seat 7" in err
    code, _out, err = _run(capsys, "review", str(tmp_path / "none.json"))
    assert code == 2 and err.startswith("error:")


def test_a_rami_record_is_reviewed_from_its_human_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A ``.rami`` record (docs/records.md; skipped where rami.records is absent)."""
    records = pytest.importorskip("rami.records")
    state = _play("tunisian", "1v1", 2, 4)
    seats = [records.SeatInfo("bot", "bot", "medium"), records.SeatInfo("me", "human")]
    record = records.single_deal_record(
        get_game("tunisian"), state, seats, date="2026-12-02", salt="s"
    )
    path = tmp_path / "deal.rami"
    path.write_text(records.write(record), encoding="utf-8")
    code, out, _ = _run(capsys, "review", str(path), "--json", "--samples", "4")
    assert code == 0 and json.loads(out)["seat"] == 1
    direct = review(state, 1, samples=4, cache=False)
    assert json.loads(out) == direct.to_json()
    assert review(record.deals[0], 1, samples=4, cache=False).to_json() == direct.to_json()
    path.write_text("rami-record 1\nGame: chess\n", encoding="utf-8")
    code, _out, err = _run(capsys, "review", str(path))
    assert code == 2 and "line" in err and len(err.strip().splitlines()) == 1, err
