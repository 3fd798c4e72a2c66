"""``hard``'s own play in Marriage ``nepali`` (issue 25): greedy whose discard also
counts the *outs* a hand keeps (``rami.marriage.greedy_bot.outs``).

Checked here: the suit-by-suit fast path of ``helps`` gives the deficiency that the full
computation gives, for every card kind, on hands of greedy play (seen and unseen, M-6,
M-7, dublee path M-9); ``outs`` counts only copies the seat cannot see (M-1: three
decks); the own move is a legal greedy-like move that differs from greedy's only at
discards, and only where the outs tell the cards apart; ``indian``'s own play (its own
outs weight, and taking the discard where the outs grow) differs from greedy only there,
and ``hard`` plays it in ``indian`` too; the kit hands the IS-MCTS bot this own play.
"""

from __future__ import annotations

from typing import Any

from rami.bots import make_bot
from rami.bots.kit import kit_of
from rami.bots.opponent_model import model_of
from rami.marriage import greedy_bot as g
from rami.marriage.game import new_deal


def _observations(preset: str, seeds: range) -> Any:
    """Observations of the seat to move along greedy deals."""
    for seed in seeds:
        state = new_deal({"preset": preset, "max_turns": 200}, 4, seed)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            obs = g.observe_state(state, seat)
            yield state, obs
            state.apply(g.decide(obs))


def _slow_helps(obs: g.Observation) -> list[tuple[int, float]]:
    hand = obs.hand
    base = g.deficiency(obs, hand)
    out: list[tuple[int, float]] = []
    if base <= 0.0:
        return out
    for k in range(52):
        if k in obs.wilds:
            continue
        hand[k] += 1
        more = g.deficiency(obs, hand)
        hand[k] -= 1
        if more < base - 0.01:
            out.append((k, base - more))
    return out


def test_helps_equals_the_full_deficiency_for_every_card() -> None:
    checked = {True: 0, False: 0}
    for _state, obs in _observations("nepali", range(3)):
        if obs.phase != "play":
            continue
        assert list(g.helps(obs)) == _slow_helps(obs)
        checked[obs.seen] += 1
    assert checked[True] and checked[False]  # both sides of seeing were met


def test_outs_count_unseen_copies_only() -> None:
    for _state, obs in _observations("nepali", range(1)):
        if obs.phase != "play":
            continue
        for c in range(52):
            if not obs.hand[c]:
                continue
            obs.hand[c] -= 1
            helps = g.helps(obs)
            want = 0.0
            for k, drop in helps:
                want += max(0, 3 - obs.hand[k] - obs.pile.count(k)) * drop
            obs.hand[c] += 1
            assert g.outs(obs, c) == want
        break


def test_own_move_is_greedy_except_which_discard() -> None:
    differ = 0
    for _state, obs in _observations("nepali", range(4)):
        own = g.own_decide(obs)
        greedy = g.decide(obs)
        assert own in obs.legal
        if own != greedy:
            assert own.kind == greedy.kind == "discard"
            scores = g.discard_scores(obs)
            # within one card of deficiency of greedy's choice, and never a known wild
            assert scores[int(own.cards[0])] < scores[int(greedy.cards[0])] + g.OUTS_WINDOW
            assert int(own.cards[0]) not in obs.wilds
            differ += 1
    assert differ > 0


def test_indian_own_move_is_greedy_except_discard_and_take() -> None:
    """``indian``: the own play differs from greedy only in which card it discards and,
    with ``own_take``, in taking the discard where greedy draws (M-5); never a known
    wild card (M-7), never a discard of a card taken this turn (M-5)."""
    differ = {"discard": 0, "take": 0}
    for _state, obs in _observations("indian", range(30)):
        own = g.own_decide(obs)
        greedy = g.decide(obs)
        assert own in obs.legal
        if own == greedy:
            continue
        if own.kind == "take":
            assert greedy.kind == "draw" and g.TAKE_MARGIN_INDIAN is not None
            top = obs.pile[-1]
            assert top not in obs.wilds
            differ["take"] += 1
            continue
        assert own.kind == greedy.kind == "discard"
        window = g.OWN_OUTS["indian"][1]
        scores = g.discard_scores(obs)
        assert scores[int(own.cards[0])] < scores[int(greedy.cards[0])] + window
        assert int(own.cards[0]) not in obs.wilds
        differ["discard"] += 1
    assert differ["discard"] > 0
    assert (differ["take"] > 0) == (g.TAKE_MARGIN_INDIAN is not None)


def test_indian_hard_plays_the_own_policy() -> None:
    """``hard`` in ``indian`` starts its tree from the own move and keeps it when search
    does not overrule it: with one iteration it plays the own move where greedy's
    differs (the test fails if ``indian`` falls back to greedy's discard)."""
    kit = kit_of("marriage")
    played = 0
    for state, obs in _observations("indian", range(6)):
        own = g.own_decide(obs)
        if obs.phase != "play" or own == g.decide(obs):
            continue
        assert kit.own_policy is not None and kit.own_policy(state) == own
        view = state.view(obs.seat)
        model = model_of(view, kit.wilds(view), kit.play_step(view))
        assert kit.tree_moves(kit.observe(view), model, 6)[0] == own
        assert make_bot("marriage", "hard:1it", 3).act(view) == own
        played += 1
        if played == 3:
            break
    assert played == 3


def test_hard_plays_the_own_policy_in_its_tree() -> None:
    kit = kit_of("marriage")
    assert kit.own_policy is g.own_policy
    played = False
    for state, obs in _observations("nepali", range(1)):
        if obs.phase == "play" and g.own_decide(obs) != g.decide(obs):
            assert kit.own_policy(state) == g.own_decide(obs)
            bot = make_bot("marriage", "hard:8it", 1)
            move = bot.act(state.view(obs.seat))
            assert move in state.legal_actions()
            played = True
            break
    assert played
