"""The Marriage determinizer deals only tiplus that the table allows (M-4, M-7, M-10).

A seen Indian player's table melds may hold wild cards, so they are public evidence of
which tiplus are possible. A sample that drew a tiplu under which such a meld is invalid
gave the solvers a position no deal can reach (the Indian finish search then failed).
"""

from __future__ import annotations

import random

from rami.marriage.determinize import sample_state
from rami.marriage.game import MarriageState, new_deal
from rami.marriage.melds import is_meld, is_pure_meld, wild_kinds
from rami.marriage.rules import rules_from


def _dirty_table_position(rules_preset: str = "indian") -> tuple[MarriageState, int]:
    """A seeded random deal played until a seen player has a dirty table meld while a
    seat that has not seen the tiplu is to be viewed."""
    rules = rules_from({"preset": rules_preset})
    for seed in range(200):
        state = new_deal(rules, 4, seed)
        rng = random.Random(seed)
        while not state.is_over:
            actions = state.legal_actions()
            melds = [a for a in actions if str(a).startswith("meld")]
            state.apply(rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(actions))
            dirty = any(not is_pure_meld(m, rules) for seat in state.melds for m in seat)
            unseen = [s for s in range(4) if not state.seen[s]]
            if dirty and unseen and state.tiplu_picked and not state.is_over:
                return state, unseen[0]
    raise AssertionError("no position with a dirty table meld in 200 deals")


def test_M7_M10_sampled_tiplu_keeps_every_table_meld_valid() -> None:
    state, viewer = _dirty_table_position()
    view = state.view(viewer)
    rules = state.rules
    tiplus = set()
    for i in range(200):
        sample = sample_state(view, random.Random(i))
        assert sample.tiplu is not None
        tiplus.add(int(sample.tiplu))
        wilds = wild_kinds(sample.tiplu)
        for seat in sample.melds:
            for meld in seat:
                assert is_meld(meld, rules, wilds), (meld, sample.tiplu)
        sample.legal_actions()  # the solvers answer on the sampled position
    assert int(state.tiplu) in tiplus or len(tiplus) > 1  # still drawn at random
