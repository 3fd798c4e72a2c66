"""The TypedDicts of rami.views and of each game's view module describe the JSON the
games really send: every key a view, seat entry, history entry, result or standing
holds is declared, and every required key is there (so mypy's checks are about the
real wire format, docs/protocol.md)."""

from __future__ import annotations

import functools
import random
import sys
import typing
from collections.abc import Mapping
from typing import Any

import pytest

import rami.views
from rami.games import GAMES
from rami.marriage.view import (
    FinishJson,
    MarriageDetails,
    MarriagePlayerResult,
    MarriageResultJson,
    MarriageSeatView,
    MarriageView,
    is_marriage_view,
)
from rami.tunisian.view import (
    MeldJson,
    TunisianDetails,
    TunisianResultJson,
    TunisianSeatView,
    TunisianView,
    is_tunisian_view,
)
from rami.views import HistoryEntry, Standing, StandingDeal

CASES = [
    ("marriage", {"preset": "nepali"}, 4),
    ("marriage", {"preset": "indian"}, 3),
    ("tunisian", {"preset": "1v1"}, 2),
    ("tunisian", {"preset": "2v2"}, 4),
]


@functools.cache
def _keys(shape: Any) -> tuple[set[str], set[str]]:
    """Required and optional keys (read from the hints: with postponed annotations the
    runtime's ``__required_keys__`` does not see ``NotRequired``)."""
    names = {**vars(rami.views), **vars(sys.modules[shape.__module__])}
    hints = typing.get_type_hints(shape, globalns=names, include_extras=True)
    optional = {k for k, t in hints.items() if typing.get_origin(t) is typing.NotRequired}
    return set(hints) - optional, optional


def _fits(doc: Mapping[str, Any], shape: Any, where: str) -> None:
    keys = set(doc)
    required, optional = _keys(shape)
    declared = required | optional
    assert keys <= declared, f"{where}: undeclared keys {sorted(keys - declared)}"
    missing = required - keys
    assert not missing, f"{where}: missing required keys {sorted(missing)}"


def _check_marriage(view: Mapping[str, Any]) -> None:
    _fits(view, MarriageView, "marriage view")
    for s in view["seats"]:
        _fits(s, MarriageSeatView, "marriage seat")
    result = view.get("result")
    if result is not None:
        _fits(result, MarriageResultJson, "marriage result")
        _fits(result["details"], MarriageDetails, "marriage details")
        for p in result["details"]["players"]:
            _fits(p, MarriagePlayerResult, "marriage player result")
        if result["details"]["finish"] is not None:
            _fits(result["details"]["finish"], FinishJson, "marriage finish")


def _check_tunisian(view: Mapping[str, Any]) -> None:
    _fits(view, TunisianView, "tunisian view")
    for s in view["seats"]:
        _fits(s, TunisianSeatView, "tunisian seat")
    for m in view["table"]:
        _fits(m, MeldJson, "tunisian meld")
    result = view["result"]
    if result is not None:
        _fits(result, TunisianResultJson, "tunisian result")
        _fits(result["details"], TunisianDetails, "tunisian details")


@pytest.mark.parametrize(("game", "rules", "players"), CASES)
def test_views_results_and_standings_match_their_typed_dicts(
    game: str, rules: dict[str, str], players: int
) -> None:
    rng = random.Random(11)
    match = GAMES[game].new_match({**rules, "max_turns": 80}, players, 5)
    seats: list[int | None] = [*range(players), None]
    for _deal in range(2):
        state = match.current
        while True:
            for seat in seats:
                view = match.view(seat)
                if is_marriage_view(view):
                    _check_marriage(view)
                else:
                    assert is_tunisian_view(view)
                    _check_tunisian(view)
                for entry in view["history"]:
                    _fits(entry, HistoryEntry, f"{game} history entry")
                standing = view["match"]
                _fits(standing, Standing, f"{game} standing")
                for deal in standing["deals"]:
                    _fits(deal, StandingDeal, f"{game} standing deal")
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if match.is_over:
            break
        match.next_deal()
