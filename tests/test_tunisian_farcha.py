"""T-9: the winner's last card (the farcha) is thrown face down (seed 002).

Only its thrower reads it: the other seats' and a spectator's views, the messages the
server and the solo worker send (the view and its aids), an unrevealed record and the
RL observations must not depend on which card it was. The leak test plays a deal to
the winning discard and throws, in a twin of that position, another card instead (the
swap is among cards nobody else saw): everything the others receive must be the same.
"""

from __future__ import annotations

import json
import random

from tunisian_game_support import layer

from rami.cards import CARDS, JOKER, from_counts
from rami.games import get_game
from rami.records.model import Move, deal_record
from rami.server.aids import table_aids
from rami.tunisian.game import TunisianState
from rami.tunisian.observation import encoder
from rami.tunisian.opening_search import UNIT as _UNIT
from rami.tunisian.rules import rules_from

SPEC = get_game("tunisian")


def _before_farcha(preset: str, players: int, seed: int = 0) -> TunisianState:
    """A dealt deal (layer play) just before a winning discard, the winner holding one card."""
    for s in range(seed, seed + 200):
        state = SPEC.new_deal(rules_from(preset), players, s, 0)
        assert isinstance(state, TunisianState)
        rng = random.Random(s)
        while not state.is_over:
            action = layer(state, rng)
            seat = state.to_move
            assert seat is not None
            if action.kind == "discard" and state.hand_sizes[seat] == 1:
                return state
            state.apply(action)
    raise AssertionError("no deal was won")


def _twin(state: TunisianState) -> tuple[TunisianState, str, TunisianState, str]:
    """``state`` and a clone whose winner holds another card (swapped with a stock card),
    with each one's last card, both before the winning discard."""
    seat = state.to_move
    assert seat is not None
    (mine,) = from_counts(state._hands[seat])
    other = next(c for c in reversed(state._stock) if c != mine and CARDS[c] != JOKER)
    twin = state.clone()
    assert isinstance(twin, TunisianState)
    twin._hands[seat][mine] -= 1
    twin._hands[seat][other] += 1
    twin._keys[seat] += _UNIT[other] - _UNIT[mine]
    twin._stock[twin._stock.index(other)] = mine
    twin._legal = None
    return state, str(CARDS[mine]), twin, str(CARDS[other])


def _received(state: TunisianState, seat: int | None) -> str:
    """What ``seat`` gets of a state: its view and the table's aids (the state message)."""
    view = state.view(seat)
    return json.dumps([view, table_aids("tunisian", view)], sort_keys=True, ensure_ascii=False)


def test_T9_the_farcha_lies_face_down_and_reads_farcha_in_the_log() -> None:
    state, card, _, _ = _twin(_before_farcha("1v1", 2))
    winner = state.to_move
    assert winner is not None
    pile = state.view(None)["discard_pile"]
    state.apply(f"discard {card}")
    assert state.result is not None and state.result.winner == winner
    for seat in (None, *range(2)):
        view = state.view(seat)
        mine = seat == winner
        assert view["discard_pile"] == pile  # the farcha is not on the visible pile
        assert view["farcha"] == {"seat": winner, "card": card if mine else None}
        moves = [h for h in view["history"] if "move" in h]
        assert moves[-1] == {"seat": winner, "move": f"farcha {card}" if mine else "farcha"}
    assert state.events[-2]["action"] == f"discard {card}"  # the log keeps the real action


def test_T9_the_farcha_card_never_reaches_another_seat() -> None:
    """Views, messages, records before the reveal and RL observations: the same whatever
    card the winner threw (fails while the farcha was shown face up)."""
    for preset, players in (("1v1", 2), ("2v2", 4)):
        state, card, twin, other = _twin(_before_farcha(preset, players, 7))
        winner = state.to_move
        assert winner is not None
        before = [deal_record(SPEC, s, 1, reveal=False) for s in (state, twin)]
        rules = rules_from(preset)
        kept = [encoder(players, rules) for _ in (state, twin)]  # read the farcha incrementally
        for enc, s in zip(kept, (state, twin), strict=True):
            for seat in range(players):
                enc.encode_state(s, seat)
        state.apply(f"discard {card}")
        twin.apply(f"discard {other}")
        assert twin.result is not None and twin.result.winner == winner
        for seat in (None, *range(players)):
            if seat == winner:  # its thrower reads it: the twins differ (the test can fail)
                assert _received(state, seat) != _received(twin, seat)
                continue
            assert _received(state, seat) == _received(twin, seat), f"seat {seat} sees it"
        assert before[0] == before[1]
        hidden = [deal_record(SPEC, s, 1, reveal=False) for s in (state, twin)]
        assert hidden[0] == hidden[1] and hidden[0].steps[-1] == Move(winner, "farcha")
        for seat in range(players):
            if seat == winner:
                continue
            fast = [enc.encode_state(s, seat) for enc, s in zip(kept, (state, twin), strict=True)]
            slow = [encoder(players, rules).encode(s.view(seat)) for s in (state, twin)]
            assert (fast[0] == fast[1]).all() and (fast[0] == slow[0]).all()
            assert (slow[0] == slow[1]).all()


def test_T9_the_revealed_record_replays_the_farcha() -> None:
    """Once the deal is over the record reveals it (the deal's end): it replays."""
    state, card, _, _ = _twin(_before_farcha("1v1", 2, 3))
    state.apply(f"discard {card}")
    record = deal_record(SPEC, state, 1)
    assert f"discard {card}" in [getattr(m, "action", None) for m in record.steps]
