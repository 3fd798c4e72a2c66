"""The ``hard`` and ``expert`` bots: information-set Monte Carlo tree search (IS-MCTS).

Single-observer IS-MCTS from the bot's own view (Cowling, Powley and Whitehouse, 2012):

1. Each iteration deals a fresh *determinization*: the cards the seat cannot see are
   dealt at random, consistent with the view (``rami.<game>.determinize.sample_state``),
   weighted by what each opponent's picks, refusals and discards say about their hand
   (``rami.bots.opponent_model``).
2. The tree holds the bot's own decisions of the turn it is playing, every kind of them
   (Marriage: draw or take, show or wait, which meld to show, discard; Tunisian rami:
   draw or take, open now or wait, lay off, swap a joker, discard): a node is the
   sequence of the bot's moves so far, its children the engine's legal moves at that
   point in this determinization. A Marriage show is laid meld by meld: each step is a
   node, so "show or wait" is one choice and "which meld" the next. Moves that the rules
   or the exact solvers settle (a single legal move, exposing at the deal, seeing the
   tiplu, finishing, going out in Tunisian rami) are played without branching.
3. Children are chosen by UCB1 with *availability* counts (a move offered in only some
   determinizations is judged against the visits it could have had), a progressive bias
   towards the greedy move, and *progressive widening*: a node with ``n`` visits
   considers only its best ``2 + sqrt(n)/2`` moves in the greedy order (discards ranked
   by greedy's scores plus the danger of feeding the next player), so a 13-card hand
   does not spread a small budget over 13 discards.
4. After the new node, every seat plays greedy (``policy``) until the bot's next turn
   (the depth cut, ``rounds`` rounds), and the position is scored for the bot in points
   by ``leaf_value`` (the exact result if the deal ended, otherwise the expected ledger
   or point difference of a race between the players' distances to finishing).
5. The move played is the root child with the most visits.

The budget is a number of iterations (the same moves on any machine for a seed) or a
time per decision (a sample that would overrun it is not started).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rami.bots.base import Bot, legal_actions
from rami.bots.opponent_model import OpponentModel, model_of
from rami.cards import CARDS
from rami.engine import Action
from rami.errors import IllegalAction, InputError
from rami.views import GameView, own_seat

__all__ = ["ISMCTSBot", "Node"]

_RESERVE = 0.004  # seconds of a time budget kept for choosing the move


@dataclass
class Node:
    """Statistics of one sequence of the bot's own moves."""

    rank: int = 0  # the move's place in the greedy order at its parent (0 = greedy's)
    visits: int = 0
    avail: int = 0
    total: float = 0.0
    squares: float = 0.0
    children: dict[Action, Node] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of ``mean`` (infinite below two visits)."""
        n = self.visits
        if n < 2:
            return math.inf
        var = max(0.0, (self.squares - self.total * self.total / n) / (n - 1))
        return math.sqrt(var / n)


@dataclass(frozen=True)
class Game:
    """What the search needs from one game."""

    observe: Callable[[GameView], Any]
    observe_state: Callable[[Any, int], Any]
    moves: Callable[[Any, OpponentModel, int], list[Action]]
    sample: Callable[..., Any]
    policy: Callable[[Any], Action]
    leaf_value: Callable[[Any, int], float]
    wilds: Callable[[Any], frozenset[int]]
    scale: float  # points of advantage over the greedy line that count as one unit in UCB


# --------------------------------------------------------------------------- Marriage

DANGER_MARRIAGE = 4.0  # discard-score units (10 = one card of deficiency) per danger
DANGER_TUNISIAN = 5.0


def _marriage_moves(obs: Any, model: OpponentModel, width: int) -> list[Action]:
    """The bot's moves at one node, the greedy order first (see the module docstring)."""
    from rami.bots import marriage_greedy as g

    legal = obs.legal
    if len(legal) <= 1:
        return list(legal)
    first = g.decide(obs)
    if obs.phase == "expose" or first.kind in ("finish", "see"):
        return [first]
    if obs.phase == "draw":
        return [first] + [a for a in legal if a != first and a.kind in ("draw", "take")]
    out = [first]
    if first.kind == "show":
        shows = [a for a in legal if a.kind == "show" and a != first]
        if shows:
            out.append(_second_show(obs, shows))
    scores = g.discard_scores(obs)
    if scores:
        ranked = sorted(scores, key=lambda c: (scores[c] + DANGER_MARRIAGE * model.danger(c), c))
        discards = [Action("discard", (CARDS[c],)) for c in ranked if scores[c] < 100.0]
        if first.kind == "discard":
            out = discards[:1] or [first]
            if first not in out:
                out.append(first)
        for a in discards:
            if len(out) >= width:
                break
            if a not in out:
                out.append(a)
    else:
        for a in sorted(legal, key=str):
            if len(out) >= min(width, 3):
                break
            if a not in out and a.kind in ("dublee", "meld", "add"):
                out.append(a)
    return out


def _second_show(obs: Any, shows: list[Action]) -> Action:
    from rami.bots import marriage_greedy as g

    tun = obs.rules.tunnela_melds
    hand = obs.hand
    need = 3 - obs.shown - 1

    def rest_cost(a: Action) -> tuple[float, str]:
        for c in a.cards:
            hand[c] -= 1
        cost = g.cover_cost(hand, frozenset(), tun)[0] + 2 * g.show_deficiency(hand, need, tun)
        for c in a.cards:
            hand[c] += 1
        return (cost, str(a))

    return min(shows, key=rest_cost)


def _marriage_wilds(view: GameView) -> frozenset[int]:
    from rami.bots.base import card_of
    from rami.marriage.melds import wild_kinds

    tiplu = view.get("tiplu")
    if view.get("seen") and isinstance(tiplu, str) and tiplu:
        return frozenset(int(k) for k in wild_kinds(card_of(tiplu)))
    return frozenset()


def _marriage() -> Game:
    from rami.bots import marriage_greedy as g
    from rami.marriage.determinize import sample_state

    return Game(
        g.observe,
        g.observe_state,
        _marriage_moves,
        sample_state,
        g.policy,
        g.leaf_value,
        _marriage_wilds,
        6.0,
    )


# --------------------------------------------------------------------------- Tunisian


def _tunisian_moves(obs: Any, model: OpponentModel, width: int) -> list[Action]:
    from rami.bots import tunisian_greedy as g

    legal = obs.legal
    if len(legal) <= 1:
        return list(legal)
    if obs.phase == "draw":
        first = g.decide(obs)
        return [first] + [a for a in legal if a != first and a.kind in ("draw", "take")]
    out: list[Action] = []
    if obs.phase != "first_discard":
        step = g._going_out_step(obs)
        if step is not None:
            return [step]  # the exact solver: the hand can be emptied this turn
        first = g.decide(obs)
        if first.kind != "discard":
            out.append(first)
    scores = g.discard_scores(obs)
    ranked = sorted(scores, key=lambda c: (scores[c] + DANGER_TUNISIAN * model.danger(c), -c))
    for c in ranked:
        if len(out) >= width:
            break
        if c != g._JOKER or len(scores) == 1:
            out.append(Action("discard", (CARDS[c],)))
    return out or list(legal[:1])


def _tunisian() -> Game:
    from rami.bots import tunisian_greedy as g
    from rami.tunisian.determinize import sample_state

    return Game(
        g.observe,
        g.observe_state,
        _tunisian_moves,
        sample_state,
        g.policy,
        g.leaf_value,
        lambda view: frozenset(),
        10.0,
    )


_GAMES: dict[str, Game] = {}


def game_for(name: str) -> Game:
    found = _GAMES.get(name)
    if found is None:
        if name == "marriage":
            found = _marriage()
        elif name == "tunisian":
            found = _tunisian()
        else:
            raise InputError(f"unknown game {name!r}: choose marriage or tunisian")
        _GAMES[name] = found
    return found


# --------------------------------------------------------------------------- the bot


class ISMCTSBot(Bot):
    """IS-MCTS over the bot's own decisions with greedy rollouts (``hard``, ``expert``)."""

    name = "ismcts"

    def __init__(
        self,
        game: str,
        seed: int = 0,
        budget_ms: float | None = None,
        iterations: int | None = 64,
        width: int = 6,
        rounds: int = 1,
        exploration: float = 0.5,
        bias: float = 0.4,
        modelled: bool = True,
        paired: bool = True,
        margin: float = 1.0,
        max_steps: int = 400,
    ) -> None:
        super().__init__(seed)
        if budget_ms is None and iterations is None:
            raise InputError("a search bot needs a time budget or a number of iterations")
        self.game = game
        self.rules = game_for(game)
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.width = width
        self.rounds = rounds
        self.exploration = exploration
        self.bias = bias
        self.modelled = modelled
        self.paired = paired
        self.margin = margin
        self.max_steps = max_steps
        self.last_iterations = 0
        self.last_root: Node | None = None

    def choose(self, view: GameView) -> Action:
        start = time.perf_counter()
        gm = self.rules
        legal = legal_actions(view)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        model = model_of(view, gm.wilds(view))
        root_moves = gm.moves(gm.observe(view), model, self.width)
        if len(root_moves) <= 1:
            self.last_iterations = 0
            return root_moves[0] if root_moves else legal[0]
        weights = model.weights() if self.modelled else None
        seat = own_seat(view)
        turn = int(view["turn"])
        players = view["players"]
        stop = turn + self.rounds * players
        rng = self.rng(view, "ismcts")
        deadline = None
        if self.budget_ms is not None:
            deadline = start + self.budget_ms / 1000.0 - _RESERVE
        root = Node()
        done = 0
        cost = 0.0
        while self.iterations is None or done < self.iterations:
            now = time.perf_counter()
            if deadline is not None and done and now + cost > deadline:
                break
            state = gm.sample(view, rng, weights)
            value = self._iterate(state, root, root_moves, model, seat, stop, deadline)
            if value is None:
                break
            done += 1
            spent = time.perf_counter() - now
            cost = spent if done == 1 else max(spent, 0.7 * cost + 0.3 * spent)
        self.last_iterations = done
        self.last_root = root
        if not done:
            return root_moves[0]
        return self._pick(root, root_moves[0])

    def _pick(self, root: Node, prior_first: Action) -> Action:
        """The most visited root move; with paired values, a move other than greedy's
        (whose value is zero by construction) only if its mean advantage exceeds
        ``margin`` standard errors: sampling noise does not overrule a good default."""
        ranked = sorted(
            root.children.items(),
            key=lambda kv: (-kv[1].visits, -kv[1].mean, kv[1].rank),
        )
        if not self.paired:
            return ranked[0][0]
        for action, child in ranked:
            if child.visits and child.mean > self.margin * child.stderr:
                return action
            if child.visits and abs(child.mean) < 1e-12 and child.squares == 0.0:
                return action  # the greedy line itself (advantage exactly zero)
        return prior_first

    def _select(self, node: Node, moves: list[Action]) -> tuple[Action, Node]:
        """UCB1 with availability counts and a bias to the greedy order, over the first
        ``2 + sqrt(visits)/2`` moves (progressive widening)."""
        k = min(len(moves), self.width, 2 + int(math.sqrt(node.visits) / 2))
        offered: list[tuple[Action, Node]] = []
        for rank, a in enumerate(moves[:k]):
            child = node.children.get(a)
            if child is None:
                child = Node(rank=rank)
                node.children[a] = child
            child.avail += 1
            offered.append((a, child))
        for a, child in offered:
            if child.visits == 0:
                return a, child
        scale = self.rules.scale
        c = self.exploration
        best = offered[0]
        best_score = -math.inf
        for a, child in offered:
            prior = self.bias if child.rank == 0 else 0.0
            score = (
                child.mean / scale
                + c * math.sqrt(math.log(child.avail) / child.visits)
                + prior / (child.visits + 1)
            )
            if score > best_score:
                best, best_score = (a, child), score
        return best

    def _iterate(
        self,
        state: Any,
        root: Node,
        root_moves: list[Action],
        model: OpponentModel,
        seat: int,
        stop: int,
        deadline: float | None,
    ) -> float | None:
        """One determinization: descend, expand one node, roll out, back up.

        With ``paired`` the value backed up is the rollout's value less that of the
        greedy line played on the same determinization (common random numbers): the
        hidden cards' luck, the same for every move, cancels out of the comparison.
        """
        gm = self.rules
        base = state.clone() if self.paired else None
        greedy_line = True  # every move so far is the one greedy plays
        node = root
        path = [root]
        moves: list[Action] | None = root_moves
        while not state.is_over and state.to_move == seat and state.turn < stop:
            if moves is None:
                moves = gm.moves(gm.observe_state(state, seat), model, self.width)
            if len(moves) == 1:
                if greedy_line and base is not None and moves[0] != gm.policy(state):
                    greedy_line = False
                state.apply(moves[0])
                moves = None
                continue
            action, child = self._select(node, moves)
            if greedy_line and base is not None and action != gm.policy(state):
                greedy_line = False
            state.apply(action)
            moves = None
            node = child
            path.append(child)
            if child.visits == 0:
                break
        if base is not None and greedy_line:
            value = 0.0  # the rest is greedy too: the same line as the baseline
        else:
            got = self._rollout(state, seat, stop, deadline)
            if got is None:
                return None
            value = got
            if base is not None:
                baseline = self._rollout(base, seat, stop, deadline)
                if baseline is None:
                    return None
                value -= baseline
        for nd in path:
            nd.visits += 1
            nd.total += value
            nd.squares += value * value
        return value

    def _rollout(self, state: Any, seat: int, stop: int, deadline: float | None) -> float | None:
        """Greedy for every seat up to the depth cut, then the value for ``seat``
        (``None`` if the deadline passed first)."""
        gm = self.rules
        steps = 0
        while not state.is_over and state.turn < stop and steps < self.max_steps:
            if deadline is not None and (steps & 7) == 0 and time.perf_counter() > deadline:
                return None
            action = gm.policy(state)
            try:
                state.apply(action)
            except IllegalAction:
                state.apply(state.legal_actions()[0])
            steps += 1
        return gm.leaf_value(state, seat)
