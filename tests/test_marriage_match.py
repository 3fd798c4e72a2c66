"""M-16 (and M-2 rotation): a Marriage match, its ledger, resuming, the leaver rule."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from marriage_support import signature

from rami.errors import IllegalAction, InputError
from rami.marriage.match import DealRecord, Match

SHORT_NEPALI = {"preset": "nepali", "max_turns": 30}
SHORT_INDIAN = {"preset": "indian", "max_turns": 30}


def play_out(match: Match, rng: random.Random) -> None:
    state = match.current
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))


def play_match(match: Match, seed: int = 1) -> None:
    rng = random.Random(seed)
    while True:
        play_out(match, rng)
        if match.is_over:
            return
        match.next_deal()


@pytest.mark.parametrize(("rules", "step"), [(SHORT_NEPALI, 1), (SHORT_INDIAN, -1)])
def test_M16_whole_rotation_and_ledger(rules: dict[str, object], step: int) -> None:
    match = Match(rules, 4, seed=3)
    assert match.deals == 4
    dealers = []
    while True:
        dealers.append(match.current.dealer)
        play_out(match, random.Random(len(dealers)))
        if match.is_over:
            break
        match.next_deal()
    assert sorted(dealers) == [0, 1, 2, 3]  # everyone deals once
    assert all((b - a) % 4 == step % 4 for a, b in itertools.pairwise(dealers))
    rows = match.ledger()
    assert len(rows) == 4
    running = [0, 0, 0, 0]
    for row in rows:
        assert sum(row["nets"]) == 0
        running = [r + x for r, x in zip(running, row["nets"], strict=True)]
        assert row["balances"] == running
    assert match.balances == running and sum(running) == 0
    best = max(running)
    assert match.winners == [s for s in range(4) if running[s] == best]
    with pytest.raises(IllegalAction, match="match is over"):
        match.next_deal()


def test_M16_configurable_number_of_deals() -> None:
    match = Match(SHORT_NEPALI, 3, seed=5, deals=6)
    play_match(match)
    assert len(match.ledger()) == 6
    dealers = [row["dealer"] for row in match.ledger()]
    assert dealers[:3] == dealers[3:]  # two whole rotations


def test_M16_next_deal_needs_the_deal_over() -> None:
    match = Match(SHORT_NEPALI, 3, seed=1)
    with pytest.raises(IllegalAction, match="not over"):
        match.next_deal()


def test_M16_ties_share_the_win() -> None:
    match = Match(SHORT_NEPALI, 3, seed=1)
    match.records.append(DealRecord(0, 0, 1, (), (6, 6, -12), 0))
    assert match.winners == [0, 1]


def test_M16_resume_an_interrupted_match() -> None:
    match = Match(SHORT_NEPALI, 3, seed=8)
    rng = random.Random(4)
    play_out(match, rng)
    match.next_deal()
    state = match.current
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    doc = json.loads(json.dumps(match.to_json()))
    resumed = Match.from_json(doc)
    assert resumed.ledger() == match.ledger()
    assert signature(resumed.current) == signature(match.current)
    assert resumed.deal_number == match.deal_number == 1
    # both go on identically
    play_match(match, seed=9)
    play_match(resumed, seed=9)
    assert resumed.ledger() == match.ledger()


def test_M16_resume_rejects_bad_documents() -> None:
    match = Match(SHORT_NEPALI, 3, seed=8)
    doc = match.to_json()
    with pytest.raises(InputError, match="unknown key"):
        Match.from_json({**doc, "oops": 1})
    with pytest.raises(InputError, match=r"action 1"):
        Match.from_json({**doc, "current": {"actions": ["discard 7♣"]}})
    with pytest.raises(InputError):
        Match.from_json({**doc, "completed": [{"actions": []}]})


def test_M16_leaver_record_rule() -> None:
    rules = {**SHORT_INDIAN, "leaver_rule": True}
    match = Match(rules, 4, seed=2)
    match.records.append(DealRecord(0, 0, 1, (), (10, 4, -6, -8), 0))
    match.leave(3)
    assert match.is_over and not match.void
    assert match.totals() == [10, 4, -6, 14]  # the two highest completed totals
    assert match.winners == [0]  # only players who completed can win
    with pytest.raises(IllegalAction, match="ended"):
        match.next_deal()


def test_M16_leaving_is_saved_and_resumed() -> None:
    match = Match({**SHORT_NEPALI, "leaver_rule": True}, 3, seed=6)
    play_out(match, random.Random(2))
    match.leave(2)
    doc = json.loads(json.dumps(match.to_json()))
    resumed = Match.from_json(doc)
    assert resumed.totals() == match.totals() and resumed.left == [2]
    assert len(resumed.ledger()) == 1 and resumed.is_over


def test_M16_leaver_rule_void_with_fewer_than_two_completers() -> None:
    match = Match({**SHORT_INDIAN, "leaver_rule": True}, 2, seed=2)
    match.leave(0)
    assert match.void and match.totals() is None and match.winners == []


def test_M16_leaving_without_the_rule_keeps_balances() -> None:
    match = Match(SHORT_NEPALI, 3, seed=2)
    match.records.append(DealRecord(0, 0, 1, (), (3, -1, -2), 0))
    match.leave(1)
    assert match.totals() == [3, -1, -2] and not match.void


def test_M16_match_offers_the_match_protocol_itself() -> None:
    """The registry hands out the Marriage match itself (no adapter): apply/standing/view."""
    from rami.games import get_game

    match = get_game("marriage").new_match(SHORT_NEPALI, 3, 4)
    assert isinstance(match, Match)
    state = match.current
    seat = state.to_move
    assert seat is not None
    with pytest.raises(IllegalAction, match="turn"):
        match.apply(state.legal_actions()[0], seat=(seat + 1) % 3)
    applied = match.apply(state.legal_actions()[0], seat=seat)
    assert state.actions[-1] == str(applied)
    standing = match.standing()
    assert standing["deal_number"] == 0 and standing["deals_total"] == 3
    assert standing["totals"] == [0, 0, 0] and standing["game_over"] is False
    assert standing["winners"] is None and standing["deals"] == []
    assert match.view(seat)["match"] == standing
    play_match(match)
    standing = match.standing()
    assert standing["game_over"] and standing["winners"] == match.winners
    assert [d["points"] for d in standing["deals"]] == [list(r["nets"]) for r in match.ledger()]
    assert standing["totals"] == match.balances
    with pytest.raises(IllegalAction, match="over"):
        match.apply("draw")
