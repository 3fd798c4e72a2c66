"""Tunisian rami ``hard``/``expert``: the calibrated leaf of the IS-MCTS (T-6, T-10).

``race_value`` scores a position for a seat as the expected point difference of the deal
(T-10: the winner 0, an opened loser its hand, an unopened one 100). It must be exact on
finished deals, zero-sum in 1 v 1, and predict greedy self-play outcomes better than the
``leaf_value`` that ``search`` keeps.
"""

from __future__ import annotations

from rami.bots import make_bot
from rami.bots.kit import kit_of
from rami.tunisian import greedy_bot as g
from rami.tunisian.game import TunisianState, new_deal


def _greedy_deal(seed: int) -> tuple[list[TunisianState], TunisianState]:
    """Positions at each draw after the first round, and the finished deal."""
    state = new_deal({"preset": "1v1"}, 2, seed, seed % 2)
    bots = [make_bot("tunisian", "medium", s) for s in range(2)]
    positions = []
    while not state.is_over:
        if state.phase == "draw" and not state.first_round:
            positions.append(state.clone())
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    return positions, state


def test_T10_race_value_is_exact_when_the_deal_is_over() -> None:
    """T-10: a finished deal is worth the others' points less one's own."""
    _positions, done = _greedy_deal(3)
    assert done.result is not None
    scores = done.result.scores
    assert g.race_value(done, 0) == float(scores[1] - scores[0])
    assert g.race_value(done, 1) == float(scores[0] - scores[1])


def test_race_value_is_zero_sum_and_bounded_in_1v1() -> None:
    positions, _done = _greedy_deal(5)
    assert positions
    for state in positions:
        a, b = g.race_value(state, 0), g.race_value(state, 1)
        assert abs(a + b) < 1e-9
        assert -100.0 <= a <= 100.0


def test_race_value_predicts_greedy_outcomes_better_than_leaf_value() -> None:
    """The calibration (T-6, T-10): on greedy deals not used for the fit, the squared
    error of the predicted point difference is well below ``leaf_value``'s."""
    race = leaf = 0.0
    count = 0
    for seed in range(40):
        positions, done = _greedy_deal(70_000 + seed)
        assert done.result is not None
        outcome = done.result.scores[1] - done.result.scores[0]
        for state in positions:
            race += (g.race_value(state, 0) - outcome) ** 2
            leaf += (g.leaf_value(state, 0) - outcome) ** 2
            count += 1
    assert count > 400
    assert race < 0.8 * leaf


def test_the_tree_uses_the_calibrated_leaf_and_search_keeps_its_own() -> None:
    kit = kit_of("tunisian")
    assert kit.tree_leaf is g.race_value
    assert kit.leaf_value is g.leaf_value


def _views(seeds: range) -> list[dict[str, object]]:
    """Views of the seat to move from greedy play, discards among the legal moves."""
    out = []
    for seed in seeds:
        state = new_deal({"preset": "1v1"}, 2, seed, seed % 2)
        bots = [make_bot("tunisian", "medium", s) for s in range(2)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            if sum(a.kind == "discard" for a in state.legal_actions()) > 1:
                out.append(dict(view))
            state.apply(bots[seat].act(view))
    return out


def test_T6_hard_style_keeps_high_cards_before_opening() -> None:
    """T-6: before opening the style adds ``keep_high`` per point of the card to its
    discard cost (a joker stays unthrowable); once opened it changes nothing here."""
    from rami.tunisian.settle import card_points

    style = g.Style(keep_high=2.0, reach=0.0, out_next=0.0)
    shut = opened = 0
    for view in _views(range(3)):
        obs = g.observe(view)
        plain, styled = g.discard_scores(obs), g.discard_scores(obs, style)
        assert plain.keys() == styled.keys()
        for c, cost in plain.items():
            if c == 52 or obs.opened[obs.seat]:
                assert styled[c] == cost
            else:
                assert abs(styled[c] - cost - 2.0 * card_points(c, obs.rules)) < 1e-9
        if obs.opened[obs.seat]:
            opened += 1
        else:
            shut += 1
    assert shut and opened


def test_hard_own_play_differs_from_greedy_only_in_discards() -> None:
    """``own_policy`` (the tree's default line) is greedy's move but for the discard."""
    differ = 0
    for seed in range(4):
        state = new_deal({"preset": "1v1"}, 2, seed, seed % 2)
        bots = [make_bot("tunisian", "medium", s) for s in range(2)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            mine, greedy = g.own_policy(state), g.policy(state)
            if mine != greedy:
                assert mine.kind == greedy.kind == "discard"
                differ += 1
            state.apply(bots[seat].act(state.view(seat)))
    assert differ
