"""Legality once (Tunisian rami): ``legal_actions``, ``check`` and ``apply`` agree.

``apply`` and ``check`` run each verb's ``judge`` (rami.tunisian.verbs, T-2 … T-9); the listing
comes from the same helpers. Over random deals of every mode: every listed action
passes ``check``; draw, take and every discard are listed exactly when ``check``
accepts them; a refused action changes nothing.
"""

from __future__ import annotations

import json
import random

import pytest

from rami.cards import CARDS
from rami.engine import Action
from rami.errors import IllegalAction
from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.rules import rules_from

CANDIDATES = [Action("draw"), Action("take"), *(Action("discard", (c,)) for c in CARDS)]


@pytest.mark.parametrize(("mode", "seed"), [("1v1", 1), ("ffa", 2), ("2v2", 3)])
def test_listing_check_and_apply_agree(mode: str, seed: int) -> None:
    rng = random.Random(seed)
    seats = rules_from(mode).players
    for deal in range(3):
        rules = {"preset": mode, "max_turns": 120}
        state: TunisianState = new_deal(rules, seats, seed + deal, (seed + deal) % seats)
        while not state.is_over:
            legal = state.legal_actions()
            for action in legal:
                assert state.check(action) is None, (str(action), state.check(action))
            listed = {str(a) for a in legal}
            for action in CANDIDATES:
                ok = state.check(action) is None
                assert ok == (str(action) in listed), (str(action), state.check(action))
            refused = next((a for a in CANDIDATES if state.check(a) is not None), None)
            if refused is not None:
                before = json.dumps(state.to_json())
                with pytest.raises(IllegalAction):
                    state.apply(refused)
                assert json.dumps(state.to_json()) == before
            state.apply(rng.choice(legal))
