"""A fast Tunisian rami player built on the exact solvers (T-3 … T-10).

What it knows, in order of importance:

- go out whenever the exact search says the hand can be emptied (``can_go_out``),
  playing one step at a time that keeps going out possible;
- open as soon as the rules allow (T-6, T-8) with the most valuable opening
  (``best_opening``): it sheds the most cards and raises the next threshold for the
  others; take the discard to open when that is the only way;
- once opened, lay every meld and lay off every card it can (T-7), a joker last;
- keep cards close to melds (neighbours in suit, same rank in other suits), never
  discard a joker, shed high cards when an opponent is close to going out, and avoid
  discarding a card that fits a meld on the table while an opponent has opened.

The policy reads an ``Observation``: one seat's knowledge, built from a view
(``observe``) or, inside the search bot's simulations, from a sampled state
(``observe_state``). Both give the same observation for the same position.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rami.bots.greedy import GreedyBot, discard_candidates, noisy_choice, pick_discard
from rami.bots.opponent_model import OpponentModel
from rami.cards import CARDS, JOKER, Card
from rami.engine import Action
from rami.runs import ACE_HIGH, ACE_LOW, RUN_KINDS, kind_at, positions
from rami.tunisian.melds import Meld, add_to_meld, make_meld, swap_joker
from rami.tunisian.rules import TunisianRules
from rami.tunisian.settle import card_points
from rami.tunisian.solver import best_opening, can_go_out
from rami.tunisian.view import tunisian_typed
from rami.views import GameView, TypedView, own_seat

if TYPE_CHECKING:
    from rami.tunisian.game import TunisianState

__all__ = [
    "HARD_STYLE",
    "Observation",
    "Style",
    "TunisianGreedy",
    "candidates",
    "card_use",
    "decide",
    "leaf_value",
    "observe",
    "observe_state",
    "own_policy",
    "policy",
    "race_value",
    "tree_moves",
]

_JOKER = int(JOKER)
_DRAW = Action("draw")
_TAKE = Action("take")


@dataclass
class Observation:
    """What one seat knows that the policy uses."""

    rules: TunisianRules
    seat: int
    phase: str
    first_round: bool
    hand: list[int]
    opened: list[bool]
    sizes: list[int]
    active: list[bool]
    threshold: int
    staged_value: int
    table: list[tuple[Meld, int]]
    pile: list[int]
    legal: list[Action]

    @property
    def players(self) -> int:
        return len(self.sizes)

    def opponents(self) -> list[int]:
        """Seats still in the deal that play against this one (partners excluded, T-1)."""
        out = []
        for s in range(self.players):
            if s == self.seat or not self.active[s]:
                continue
            if self.rules.teams and s % 2 == self.seat % 2:
                continue
            out.append(s)
        return out


def observe(view: TypedView | GameView) -> Observation:
    """The observation of a Tunisian view (the only input a bot gets): its typed values
    as they are, cards as ``Card`` and legal moves as ``Action``."""
    view = tunisian_typed(view)
    hand = [0] * len(CARDS)
    for c in view.hand or ():
        hand[c] += 1
    return Observation(
        rules=view.rules,
        seat=own_seat(view),
        phase=view.phase,
        first_round=view.first_round,
        hand=hand,
        opened=list(view.opened),
        sizes=list(view.hand_sizes),
        active=list(view.active),
        threshold=view.threshold,
        staged_value=view.staged_value,
        table=list(view.table),
        pile=[int(c) for c in view.discard_pile],
        legal=list(view.legal),
    )


def observe_state(state: TunisianState, seat: int) -> Observation:
    """The same observation read straight from a state (for simulations on sampled deals).

    Reads only what the view of ``seat`` shows: its own hand and public facts.
    """
    return Observation(
        rules=state.rules,
        seat=seat,
        phase=state.phase,
        first_round=state.first_round,
        hand=list(state.hand_counts(seat)),
        opened=list(state.opened),
        sizes=list(state.hand_sizes),
        active=list(state.active),
        threshold=state.threshold,
        staged_value=state.staged_value if state.to_move is not None else 0,
        table=list(state.table),
        pile=[int(c) for c in state.discard_pile],
        legal=state.legal_actions() if state.to_move == seat else [],
    )


# --------------------------------------------------------------------------- evaluation


def _held(hand: Sequence[int], suit: int, position: int) -> bool:
    if position < ACE_LOW or position > ACE_HIGH:
        return False
    return hand[RUN_KINDS[suit][position]] > 0


def card_use(hand: Sequence[int], c: int, copies: bool = True) -> float:
    """How close card ``c`` of ``hand`` is to a meld: 3 in a meld shape, 0 isolated.

    Runs count neighbours in suit (both sides, or two on one side: 3; one neighbour:
    2; a one-card gap: 1); sets count the same rank in other suits (two or more: 3;
    one: 2). A joker in hand turns any near-meld into a meld, so partials gain a half.
    A second copy of a card is worth less: it cannot join the same meld.
    """
    if c == _JOKER:
        return 6.0
    suit, r = divmod(c, 13)
    best = 0.0
    for p in positions(r):
        l1, r1 = _held(hand, suit, p - 1), _held(hand, suit, p + 1)
        l2, r2 = _held(hand, suit, p - 2), _held(hand, suit, p + 2)
        if (l1 and r1) or (l1 and l2) or (r1 and r2):
            best = max(best, 3.0)
        elif l1 or r1:
            best = max(best, 2.0)
        elif l2 or r2:
            best = max(best, 1.0)
    others = sum(1 for s in range(4) if s != suit and hand[s * 13 + r])
    if others >= 2:
        best = max(best, 3.0)
    elif others == 1:
        best = max(best, 2.0)
    if hand[_JOKER] and 1.0 <= best < 3.0:
        best += 0.5
    if copies and hand[c] >= 2:
        best *= 0.6
    return best


def table_fits(table: Sequence[tuple[Meld, int]]) -> set[int]:
    """Card kinds that some meld on the table would take (T-7): run ends, missing suits."""
    fits: set[int] = set()
    for meld, _owner in table:
        if meld.kind == "set":
            if len(meld.cards) < 4:
                rank = meld.rank
                have = {c.suit for c in meld.cards if c != _JOKER}
                fits.update(s * 13 + rank - 1 for s in range(4) if s not in have)
            if not meld.has_joker and len(meld.cards) < 4:
                fits.add(_JOKER)
            continue
        low, high = meld.span
        suit = meld.suit
        for p in (low - 1, high + 1):
            if ACE_LOW <= p <= ACE_HIGH:
                fits.add(kind_at(suit, p))
        if not meld.has_joker and (low > ACE_LOW or high < ACE_HIGH):
            fits.add(_JOKER)
    return fits


def _danger(obs: Observation, c: int, fits: set[int]) -> float:
    """How much discarding ``c`` helps an opponent: it fits a table meld they may use."""
    if c not in fits:
        return 0.0
    return 1.0 if any(obs.opened[s] for s in obs.opponents()) else 0.0


def _could_go_out(obs: Observation, fits: set[int]) -> bool:
    """A cheap necessary condition for going out: at most one card needs a joker.

    A card with no neighbour in suit and no card of its rank in another suit, that no
    table meld takes, can join a meld only with a joker (in hand, or won by a swap), or
    be the discard.
    """
    hand = obs.hand
    spare = hand[_JOKER] + sum(1 for m, _o in obs.table if m.has_joker)
    weak = 0
    for c in range(52):
        if hand[c] and c not in fits and card_use(hand, c, copies=False) < 2.0:
            weak += hand[c]
            if weak > 1 + spare:
                return False
    return True


def _risk(obs: Observation) -> float:
    """Weight of points in hand: higher when an opponent is close to going out."""
    sizes = [obs.sizes[s] for s in obs.opponents() if obs.opened[s]]
    if not sizes:
        return 0.05
    smallest = min(sizes)
    return 0.6 if smallest <= 3 else 0.3 if smallest <= 6 else 0.1


@dataclass(frozen=True)
class Style:
    """How ``hard`` plays its own moves differently from ``greedy`` (``None`` there).

    Before opening it keeps high cards and the cards of a near opening: the opening
    needs 71 points or more (T-6), which high cards reach in fewer melds. Once opened it
    keeps a hand that one more card would take out (T-9).
    """

    keep_high: float = 2.0  # discard-score units per point of the card
    reach: float = 10.0  # units per point of the best opening one card away without it
    reach_cap: int = 20  # points above the threshold that still count for ``reach``
    out_next: float = 25.0  # units off a discard after which one more card goes out (T-9)


def discard_scores(obs: Observation, style: Style | None = None) -> dict[int, float]:
    """A cost per card that may be discarded: lower is a better discard.

    With a ``style`` (``hard``'s own play) and the seat not opened, a card costs
    ``keep_high`` more per point, and ``reach`` less per point of the best opening the
    hand would hold without it given one more card of its choice (a joker added),
    counted up to ``reach_cap`` above the threshold (T-6); once opened, ``out_next``
    less if the hand without it goes out with one more card (T-9).
    """
    hand = obs.hand
    risk = _risk(obs)
    fits = table_fits(obs.table)
    out: dict[int, float] = {}
    for a in obs.legal:
        if a.kind != "discard":
            continue
        c = int(a.cards[0])
        if c == _JOKER:
            out[c] = 1000.0
            continue
        cost = 10.0 * card_use(hand, c) - risk * card_points(c, obs.rules)
        cost += 12.0 * _danger(obs, c, fits)
        out[c] = cost
    if style is not None:
        if not obs.opened[obs.seat]:
            _shut_scores(obs, style, out)
        elif style.out_next and len(out) > 1:
            _open_scores(obs, style, out)
    return out


def _open_scores(obs: Observation, style: Style, out: dict[int, float]) -> None:
    """``discard_scores``' term of ``hard``'s own play once opened: a discard after which
    the hand goes out with one more card of its choice (a joker added, T-9) costs
    ``out_next`` less."""
    table = [m for m, _o in obs.table]
    plus = obs.hand[:]
    plus[_JOKER] += 1
    for c in out:
        if c == _JOKER:
            continue
        plus[c] -= 1
        if can_go_out(plus, table, True, 0):
            out[c] -= style.out_next
        plus[c] += 1


def _shut_scores(obs: Observation, style: Style, out: dict[int, float]) -> None:
    """``discard_scores``' terms of ``hard``'s own play before opening (T-6)."""
    cap = obs.threshold + style.reach_cap
    plus = obs.hand[:]
    plus[_JOKER] += 1
    several = len(out) > 1
    for c in out:
        if c == _JOKER:
            continue
        out[c] += style.keep_high * card_points(c, obs.rules)
        if several and style.reach:
            plus[c] -= 1
            best = best_opening(plus)
            plus[c] += 1
            out[c] -= style.reach * min(best.value if best is not None else 0, cap)


def _higher(c: int) -> int:
    return -c  # of two equal discards, shed the higher card


def _choose_discard(
    obs: Observation, rng: random.Random | None, noise: float, style: Style | None = None
) -> Action:
    return pick_discard(discard_scores(obs, style), rng, noise, _higher)


# --------------------------------------------------------------------------- steps


def _after(obs: Observation, a: Action) -> tuple[list[int], list[Meld]] | None:
    """The hand and table melds after a laying step (``None`` if it cannot be read)."""
    hand = obs.hand[:]
    table = [m for m, _o in obs.table]
    c = int(a.cards[0]) if a.cards else -1
    if a.kind == "meld":
        for x in a.cards:
            hand[x] -= 1
        table.append(make_meld(a.cards))
        return hand, table
    if a.target is None or not 0 <= a.target < len(table):
        return None
    if a.kind == "add":
        new = add_to_meld(table[a.target], c)
        if new is None:
            return None
        hand[c] -= 1
        table[a.target] = new
        return hand, table
    if a.kind == "swap":
        new = swap_joker(table[a.target], c)
        if new is None:
            return None
        hand[c] -= 1
        hand[_JOKER] += 1
        table[a.target] = new
        return hand, table
    return None


def _laid_open(obs: Observation) -> bool:
    """Opened, or an opening staged this turn that already reaches the threshold."""
    return obs.opened[obs.seat] or obs.staged_value >= obs.threshold


def going_out_step(obs: Observation) -> Action | None:
    """A step that keeps going out this turn possible, if the hand can be emptied."""
    hand = obs.hand
    size = sum(hand)
    discards = [a for a in obs.legal if a.kind == "discard"]
    if size == 1 and discards:
        return discards[0]
    if obs.first_round:
        return None
    opened = _laid_open(obs)
    if not _could_go_out(obs, table_fits(obs.table) if opened else set()):
        return None
    need = 0 if opened else obs.threshold - obs.staged_value
    if not opened:
        best = best_opening(hand)  # memoised; the engine asked the same when listing melds
        if best is None or best.value < need:
            return None
        rest = hand[:]
        for m in best.melds:
            for c in m.cards:
                rest[c] -= 1
        fits = table_fits(obs.table)
        stuck = sum(rest[c] for c in range(52) if rest[c] and c not in fits)
        if stuck > 2 + hand[_JOKER]:
            return None  # the most valuable opening leaves too much to go out this turn
    table = [m for m, _o in obs.table]
    if not can_go_out(hand, table, opened, need):
        return None
    steps = [a for a in obs.legal if a.kind in ("meld", "add", "swap")]
    steps.sort(key=lambda a: (a.kind != "meld", -len(a.cards), str(a)))
    for a in steps:
        after = _after(obs, a)
        if after is None:
            continue
        new_hand, new_table = after
        if sum(new_hand) == 0:
            continue
        laid_now = opened
        left = need
        if not opened and a.kind == "meld":
            value = new_table[-1].value
            left = max(0, need - value)
            laid_now = left == 0
        if can_go_out(new_hand, new_table, laid_now, left):
            return a
    return None


def _opening_step(obs: Observation) -> Action | None:
    """Stage the next meld of the most valuable opening (T-6)."""
    melds = [a for a in obs.legal if a.kind == "meld"]
    if not melds:
        return None
    best = best_opening(obs.hand)
    wanted = {tuple(sorted(m.cards)) for m in best.melds} if best is not None else set()
    for a in melds:
        if tuple(sorted(a.cards)) in wanted:
            return a
    if obs.staged_value >= obs.threshold:
        return None  # the opening is complete; the rest is laid after it commits
    value = {a: make_meld(a.cards).value for a in melds}
    return max(melds, key=lambda a: (value[a], str(a)))


def _laying_step(obs: Observation) -> Action | None:
    """Once opened: lay new melds (jokerless first), then lay off cards (T-7)."""
    hand = obs.hand
    melds = [a for a in obs.legal if a.kind == "meld"]
    if melds:
        melds.sort(key=lambda a: (JOKER in a.cards, -len(a.cards), str(a)))
        return melds[0]
    risk = _risk(obs)
    adds = [a for a in obs.legal if a.kind == "add"]
    for a in sorted(adds, key=str):
        c = int(a.cards[0])
        if c == _JOKER and risk < 0.3 and sum(hand) > 3:
            continue  # keep a joker while nobody threatens to go out
        return a
    for a in sorted((a for a in obs.legal if a.kind == "swap"), key=str):
        c = int(a.cards[0])
        if card_use(hand, c) <= 1.0 and risk < 0.3:
            return a  # trade a loose card for a joker
    return None


def _draw_or_take(obs: Observation) -> Action:
    legal = obs.legal
    if _TAKE not in legal or not obs.pile:
        return _DRAW if _DRAW in legal else legal[0]
    top = obs.pile[-1]
    hand = obs.hand
    if not obs.opened[obs.seat]:
        # Taking before opening commits to opening this turn (T-8): the engine offers
        # it only when that is possible. Take unless the hand opens without it anyway.
        now = best_opening(hand)
        if now is None or now.value < obs.threshold:
            return _TAKE
        with_it = hand[:]
        with_it[top] += 1
        later = best_opening(with_it)
        return _TAKE if later is not None and later.value > now.value else _DRAW
    if top == _JOKER or top in table_fits(obs.table):
        return _TAKE
    if sum(hand) < 3:
        # With the top card the hand is too small for a meld that keeps a discard, and
        # the taken card may not go back (T-3): taking only passes cards round in circles.
        return _DRAW
    with_it = hand[:]
    with_it[top] += 1
    use = card_use(with_it, top)
    if use >= 3.0:
        return _TAKE
    worst = min(
        (card_use(hand, c) for c in range(52) if hand[c]),
        default=0.0,
    )
    return _TAKE if use >= 2.0 and worst < 1.0 else _DRAW


def decide(
    obs: Observation,
    rng: random.Random | None = None,
    noise: float = 0.0,
    style: Style | None = None,
) -> Action:
    """The greedy move for ``obs`` (``noise`` > 0 blurs its choices of discard and draw;
    a ``style`` is ``hard``'s own play, see ``discard_scores``)."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    if obs.phase == "draw":
        blurred = noisy_choice(legal, rng, noise, min(0.3, noise / 40))
        return blurred if blurred is not None else _draw_or_take(obs)
    if obs.phase == "first_discard":
        return _choose_discard(obs, rng, noise, style)
    step = going_out_step(obs)
    if step is not None:
        return step
    if not obs.opened[obs.seat]:
        step = _opening_step(obs)
        if step is not None:
            return step
    if _laid_open(obs):
        step = _laying_step(obs)
        if step is not None and (step in legal):
            return step
    if any(a.kind == "discard" for a in legal):
        return _choose_discard(obs, rng, noise, style)
    return legal[0]  # a staged opening must be completed: any offered meld does it


class TunisianGreedy(GreedyBot[Observation]):
    """``greedy`` (``medium``); with ``noise`` > 0 it is ``easy``."""

    def observe(self, view: TypedView) -> Observation:
        return observe(view)

    def decide(self, obs: Observation, rng: random.Random | None, noise: float) -> Action:
        return decide(obs, rng, noise)


def _card(c: int) -> Card:
    return CARDS[c]


# --------------------------------------------------------------------------- search hooks


def candidates(obs: Observation, k: int) -> list[Action]:
    """The moves worth comparing by search, the greedy move first (at most ``k``).

    Only the choices greedy is least sure of are searched: draw or take, and which
    card to discard; laying steps follow the exact solvers.
    """
    legal = obs.legal
    if len(legal) <= 1:
        return list(legal)
    first = decide(obs)
    if obs.phase == "draw":
        return [first] + [a for a in legal if a != first and a.kind in ("draw", "take")]
    if first.kind != "discard":
        return [first]
    return discard_candidates(first, discard_scores(obs), k, _higher, lambda c: c != _JOKER)


DANGER = 5.0  # discard-score units per danger (IS-MCTS)
# ``hard``'s own play (``Style``). Greedy with it against greedy, 400 duplicate 1 v 1
# deals (seed 11, 95 % intervals about +-3 points): ``keep_high`` 0.5, 1.5, 2, 3, 5
# and 8 alone gave -6.7, -11.8, -12.7, -12.2, -10.6 and -5.7 points a deal; with
# ``keep_high`` 2, ``reach`` 0.5, 1.5, 4 and 10 gave -12.9, -13.5, -13.8 and -14.1
# (``reach`` 10 against none, paired: -1.5 +- 1.4); ``out_next`` 10, 25 and 60 on top
# gave -14.2, -14.7 and -14.7 (25 against none, paired: -0.6 +- 0.5).
HARD_STYLE = Style()


def tree_moves(obs: Observation, model: OpponentModel, width: int) -> list[Action]:
    """The bot's moves at one IS-MCTS node (``rami.bots.ismcts``): draw or take (T-8),
    going out when the exact solver says the hand empties, open now or wait (T-6), lay
    off or swap, then discards ranked by greedy's scores plus the danger of feeding the
    next player."""
    legal = obs.legal
    if len(legal) <= 1:
        return list(legal)
    if obs.phase == "draw":
        first = decide(obs)
        return [first] + [a for a in legal if a != first and a.kind in ("draw", "take")]
    out: list[Action] = []
    if obs.phase != "first_discard":
        step = going_out_step(obs)
        if step is not None:
            return [step]  # the exact solver: the hand can be emptied this turn
        first = decide(obs, style=HARD_STYLE)
        if first.kind != "discard":
            out.append(first)
    scores = discard_scores(obs, HARD_STYLE)
    ranked = sorted(scores, key=lambda c: (scores[c] + DANGER * model.danger(c), -c))
    for c in ranked:
        if len(out) >= width:
            break
        if c != _JOKER or len(scores) == 1:
            out.append(Action("discard", (CARDS[c],)))
    return out or list(legal[:1])


def play_step(view: TypedView) -> int:
    """T-2: play passes to (seat - 1) mod n."""
    return -1


def policy(state: TunisianState) -> Action:
    """The greedy move of the seat to move, from what that seat may know."""
    seat = state.to_move
    assert seat is not None
    return decide(observe_state(state, seat))


def own_policy(state: TunisianState) -> Action:
    """``hard``'s own default move (its tree's first move and its rollouts): greedy's,
    playing ``HARD_STYLE`` before opening."""
    seat = state.to_move
    assert seat is not None
    return decide(observe_state(state, seat), style=HARD_STYLE)


def _distance(hand: Sequence[int], fits: set[int], opened: bool, threshold: int) -> float:
    """Rough turns to go out: loose cards count one, half-made melds a half."""
    d = 0.0
    for c in range(52):
        if not hand[c] or c in fits:
            continue
        use = card_use(hand, c)
        if use < 2.0:
            d += hand[c]
        elif use < 3.0:
            d += 0.5 * hand[c]
    if not opened:
        best = best_opening(hand)
        value = best.value if best is not None else 0
        d += 1.0 + max(0, threshold - value) / 10.0
    return d


def leaf_value(state: TunisianState, seat: int, scale: float = 1.5) -> float:
    """What the position is worth to ``seat``: others' expected points minus its own.

    Over: the exact deal points (T-10). Otherwise a race: each player's chance to go
    out first falls with its distance (``_distance``), and a player who does not go
    out pays the cards in hand (opened) or the unopened penalty.
    """
    rules = state.rules
    n = rules.players
    active = state.active
    result = state.result
    if result is not None:
        points = [float(p) for p in result.scores]
    else:
        import math

        fits = table_fits(state.table)
        opened = state.opened
        threshold = state.threshold
        dist: list[float] = []
        pay: list[float] = []
        for s in range(n):
            if not active[s]:
                dist.append(math.inf)
                pay.append(0.0)
                continue
            hand = state.hand_counts(s)
            dist.append(_distance(hand, fits, opened[s], threshold))
            if opened[s]:
                pay.append(float(sum(card_points(c, rules) * hand[c] for c in range(53))))
            else:
                pay.append(float(rules.unopened_penalty))
        low = min(dist)
        weights = [math.exp(-(d - low) / scale) if math.isfinite(d) else 0.0 for d in dist]
        total = sum(weights)
        points = [(1.0 - weights[s] / total) * pay[s] for s in range(n)]
    return _seat_value(points, seat, rules.teams, active)


def _seat_value(points: list[float], seat: int, teams: bool, active: Sequence[bool]) -> float:
    """``seat``'s value of expected points per seat (T-10, points are bad): the others'
    mean (the other team's, in 2 v 2) minus its own."""
    n = len(points)
    if teams:
        mine = sum(points[s] for s in range(n) if s % 2 == seat % 2)
        theirs = sum(points[s] for s in range(n) if s % 2 != seat % 2)
        return (theirs - mine) / 2.0
    others = [points[s] for s in range(n) if s != seat and active[s]]
    return (sum(others) / len(others) if others else 0.0) - points[seat]


# Fitted by least squares on 22,088 positions of 1,000 greedy 1 v 1 deals (the draw of
# each turn after the first round) against the deal's final point difference (held-out
# squared error 2,157 against 3,483 for ``leaf_value``; the outcome's variance 6,005).
# The logit of going out first falls with an unopened hand's shortfall from the opening
# threshold *with one more card of its choice* (``best_opening`` with a joker added:
# a hand one card from opening is nearly open) and with an opened hand's loose cards
# and size; jokers in hand and the move help. A loser that cannot open even with one
# more card stays unopened and pays 100 (T-10); one closer may still open.
_W_OPEN = -0.081
_W_SHORT = -0.379  # per 10 points an unopened hand lacks with one more card (T-6)
_W_LOOSE = -0.369  # per loose card of an opened hand (``_distance``)
_W_SIZE_OPEN = -0.197  # per card in an opened hand
_W_SIZE_SHUT = -0.179  # per card in an unopened hand
_W_JOKER = 0.200  # per joker in hand
_W_TEMPO = 0.138  # the seat to move
# logit of an unopened loser staying unopened: constant, per 10 points short now, per
# point short with one more card (capped), per 10 cards of stock
_STAY = (-0.302, 1.051, 16.69, -0.192)
_STAY_CAP = 1.5  # points short with one more card beyond which staying is certain
_OPEN_PAY = 8.77  # an opened loser's expected points


def race_value(state: TunisianState, seat: int) -> float:
    """The IS-MCTS leaf (``hard``, ``expert``): ``leaf_value``'s race, calibrated.

    Over: the exact deal points (T-10). Otherwise each player's chance to go out first
    is a softmax of a fitted logit (see the weights above), and a player who does not
    go out pays ``_OPEN_PAY`` if opened, else 100 with its fitted chance of staying
    unopened. ``leaf_value`` was overconfident (it said ±90 where the deals gave ±70)
    and blind to a hand one card from opening.
    """
    if state.result is not None:
        return leaf_value(state, seat)
    rules = state.rules
    n = rules.players
    active = state.active
    opened = state.opened
    threshold = state.threshold
    fits = table_fits(state.table)
    stock = state.stock_size / 10.0
    mover = state.to_move
    logits: list[float] = []
    pay: list[float] = []
    for s in range(n):
        if not active[s]:
            logits.append(-math.inf)
            pay.append(0.0)
            continue
        hand = state.hand_counts(s)
        size = sum(hand)
        z = _W_JOKER * hand[_JOKER]
        if opened[s]:
            z += _W_OPEN + _W_LOOSE * _distance(hand, fits, True, threshold)
            z += _W_SIZE_OPEN * size
            pay.append(_OPEN_PAY)
        else:
            best = best_opening(hand)
            short = max(0, threshold - (best.value if best is not None else 0)) / 10.0
            plus = list(hand)
            plus[_JOKER] += 1
            near = best_opening(plus)
            short1 = max(0, threshold - (near.value if near is not None else 0))
            z += _W_SHORT * short1 / 10.0 + _W_SIZE_SHUT * size
            a, b, c, d = _STAY
            x = a + b * short + c * min(short1, _STAY_CAP) + d * stock
            stay = 1.0 / (1.0 + math.exp(-x))
            pay.append(100.0 * stay + (1.0 - stay) * _OPEN_PAY)
        if s == mover:
            z += _W_TEMPO
        logits.append(z)
    top = max(logits)
    weights = [math.exp(z - top) if math.isfinite(z) else 0.0 for z in logits]
    total = sum(weights)
    points = [(1.0 - weights[s] / total) * pay[s] for s in range(n)]
    return _seat_value(points, seat, rules.teams, active)
