"""The ``hard`` and ``expert`` bots: information-set Monte Carlo tree search (IS-MCTS).

Single-observer IS-MCTS from the bot's own view (Cowling, Powley and Whitehouse, 2012):

1. Each iteration deals a fresh *determinization*: the cards the seat cannot see are
   dealt at random, consistent with the view (the game kit's ``sample``), weighted by
   what each opponent's picks, refusals and discards say about their hand
   (``rami.bots.opponent_model``).
2. The tree holds the bot's own decisions of the turn it is playing, every kind of them
   (draw or take, show or open now or wait, which meld, lay off, swap a joker, discard:
   the game kit's ``tree_moves``): a node is the sequence of the bot's moves so far, its
   children the engine's legal moves at that point in this determinization. A show laid
   meld by meld is one node per meld, so "show or wait" is one choice and "which meld"
   the next. Moves that the rules or the exact solvers settle (a single legal move,
   finishing or going out) are played without branching.
3. Children are chosen by UCB1 with *availability* counts (a move offered in only some
   determinizations is judged against the visits it could have had), a progressive bias
   towards the greedy move, and *progressive widening*: a node with ``n`` visits
   considers only its best ``2 + sqrt(n)/2`` moves in the greedy order (discards ranked
   by greedy's scores plus the danger of feeding the next player), so a 13-card hand
   does not spread a small budget over 13 discards.
4. After the new node, every seat plays greedy (``policy``; the bot itself its kit's
   ``own_policy`` when it has one) until the bot's next turn
   (the depth cut, ``rounds`` rounds), and the position is scored for the bot in points
   by ``leaf_value`` (the exact result if the deal ended, otherwise the expected ledger
   or point difference of a race between the players' distances to finishing).
5. The move played is the root child with the most visits.

The budget is a number of iterations (the same moves on any machine for a seed) or a
time per decision (a sample that would overrun it is not started). A game's kit may
spend an iteration budget where the decision is close (``tree_settle``): fewer
iterations when greedy's move is clearly best or clearly beaten, more otherwise.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from rami.bots.base import Bot
from rami.bots.kit import BotKit, kit_of
from rami.bots.opponent_model import OpponentModel, model_of
from rami.engine import Action
from rami.errors import IllegalAction, InputError
from rami.views import TypedView, own_seat

__all__ = ["ISMCTSBot", "Node", "game_for"]

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


def game_for(name: str) -> BotKit[Any, Any]:
    """The bot kit of the registered game ``name`` (``rami.bots.kit.kit_of``)."""
    return kit_of(name)


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
        valued: bool = False,
    ) -> None:
        super().__init__(seed)
        if budget_ms is None and iterations is None:
            raise InputError("a search bot needs a time budget or a number of iterations")
        self.game = game
        self.rules = kit_of(game)
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
        # iteration budgets spent where the decision is close (the kit's tree_settle)
        self.settle = self.rules.tree_settle
        gm = self.rules
        # the value at the depth cut: the learned one (``+value``) or the kit's estimate
        learned = gm.learned_leaf if valued else None
        self.leaf = learned or gm.tree_leaf or gm.leaf_value

    def choose(self, view: TypedView) -> Action:
        start = time.perf_counter()
        gm = self.rules
        legal = list(view.legal)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        model = model_of(view, gm.wilds(view), gm.play_step(view))
        root_moves = gm.tree_moves(gm.observe(view), model, self.width)
        if len(root_moves) <= 1:
            self.last_iterations = 0
            return root_moves[0] if root_moves else legal[0]
        weights = model.weights() if self.modelled else None
        seat = own_seat(view)
        turn = view.turn
        players = view.players
        stop = turn + self.rounds * players
        rng = self.rng(view, "ismcts")
        deadline = None
        if self.budget_ms is not None:
            deadline = start + self.budget_ms / 1000.0 - _RESERVE
        root = Node()
        done = 0
        cost = 0.0
        limit = self.iterations
        checkpoint: int | None = limit
        most = limit
        if limit is not None and self.paired and self.settle is not None:
            low, high = self.settle
            checkpoint, most = max(1, round(limit * low)), max(limit, round(limit * high))
        while limit is None or done < limit:
            if done == checkpoint and most is not None:
                # close: spend up to ``most``; clear: stop at ``checkpoint``
                limit = most if self._close(root) else checkpoint
                if done >= limit:
                    break
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

    def _close(self, root: Node) -> bool:
        """Whether some move other than greedy's is within one standard error of beating
        it (paired values: greedy's line is worth zero) without clearly beating it."""
        for child in root.children.values():
            if child.visits < 2 or child.squares == 0.0:
                continue
            err = child.stderr
            if child.mean + err > 0.0 and child.mean < 2.0 * err:
                return True
        return False

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
        scale = self.rules.tree_scale
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
                moves = gm.tree_moves(gm.observe_state(state, seat), model, self.width)
            if len(moves) == 1:
                if greedy_line and base is not None and moves[0] != self._own(state):
                    greedy_line = False
                state.apply(moves[0])
                moves = None
                continue
            action, child = self._select(node, moves)
            if greedy_line and base is not None and action != self._own(state):
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

    def _own(self, state: Any) -> Action:
        """The bot's own default move (the kit's ``own_policy``, else ``policy``)."""
        gm = self.rules
        return gm.own_policy(state) if gm.own_policy is not None else gm.policy(state)

    def _rollout(self, state: Any, seat: int, stop: int, deadline: float | None) -> float | None:
        """Greedy for every seat up to the depth cut, then the value for ``seat``
        (``None`` if the deadline passed first)."""
        gm = self.rules
        steps = 0
        while not state.is_over and state.turn < stop and steps < self.max_steps:
            if deadline is not None and (steps & 7) == 0 and time.perf_counter() > deadline:
                return None
            action = self._own(state) if state.to_move == seat else gm.policy(state)
            try:
                state.apply(action)
            except IllegalAction:
                state.apply(state.legal_actions()[0])
            steps += 1
        return self.leaf(state, seat)
