"""Views reuse each seat's rendered history between calls (rami.view_cache): a kept
view must equal one built from scratch, whatever happened in between."""

from __future__ import annotations

import json
import random

import pytest

from rami.games import GAMES

CASES = [
    ("marriage", {"preset": "nepali"}, 4),
    ("marriage", {"preset": "indian"}, 3),
    ("tunisian", {"preset": "1v1"}, 2),
    ("tunisian", {"preset": "2v2"}, 4),
]


def _text(view: object) -> str:
    return json.dumps(view, ensure_ascii=False)


@pytest.mark.parametrize(("game", "rules", "players"), CASES)
def test_kept_views_equal_fresh_views(game: str, rules: dict[str, str], players: int) -> None:
    rng = random.Random(7)
    state = GAMES[game].new_match({**rules, "max_turns": 60}, players, 3).current
    seats: list[int | None] = [*range(players), None]
    while True:
        for seat in rng.sample(seats, len(seats)):
            kept = state.view(seat)
            fresh = state.clone().view(seat)  # a clone starts without a cache
            assert _text(kept) == _text(fresh)
            kept["history"].append({"seat": 0, "move": "bogus"})  # a caller's own list
            if kept.get("legal_actions"):
                kept["legal_actions"].append("bogus")
            assert _text(state.view(seat)) == _text(fresh)
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("game", "rules", "players"), CASES[::2])
def test_a_replaced_event_log_is_read_again(game: str, rules: dict[str, str], players: int) -> None:
    state = GAMES[game].new_match(rules, players, 5).current
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    before = state.view(0)["history"]
    assert before
    events = state.events
    assert isinstance(events, list)
    del events[1:]  # shortened in place (as a tool rewriting the log would)
    assert len(state.view(0)["history"]) == 1
    assert state.view(0)["history"][0] == before[0]
