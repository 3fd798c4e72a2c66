"""What each opponent's public moves say about their hand, read from one seat's view.

The rummy games show every pick from the discard pile, every refusal (a player who draws
blind while a discard lies on the pile) and every discard (M-5, T-8). A player who took
the 7♥ collects cards near it; one who refused or threw the 7♥ does not need it. The
model turns that into two figures per opponent and card kind:

- ``weights[s][c]``: how much more likely than average ``c`` is in seat ``s``'s hand,
  used by the game's determinizer (its bot kit's ``sample``) to deal hidden cards;
- ``danger(c)``: how much discarding ``c`` feeds the next player, used by the hard
  bots to rank their discards (do not give the next player what they visibly collect).

An opponent who has seen the wild cards (M-7) keeps every wild card it draws: the bot
that knows the wild cards (the kit's ``wilds``) puts them in seen hands more often than
in the stock.

Everything comes from the view: two deals that show the seat the same view give the
same model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rami.cards import KINDS
from rami.engine import read_action
from rami.runs import positions
from rami.views import GameView, TypedView, own_seat, typed_view

__all__ = ["OpponentModel", "affinity", "model_of"]

TAKE_WEIGHT = 0.7  # log-weight per unit of affinity with a card the seat took
REFUSE_WEIGHT = 0.35  # ... with a card it refused
DISCARD_WEIGHT = 0.35  # ... with a card it discarded
WILD_WEIGHT = 0.8  # log-weight of a wild card in the hand of an opponent who has seen (M-7)
LOW, HIGH = 0.25, 4.0  # bounds of one weight


def affinity(a: int, b: int) -> float:
    """How much holding ``b`` makes ``a`` useful (the same card, a neighbour in suit, the
    same rank in another suit): the cards that make melds together in rummy."""
    if a >= 52 or b >= 52:
        return 0.0
    if a == b:
        return 1.0
    sa, ra = divmod(a, 13)
    sb, rb = divmod(b, 13)
    if sa == sb:  # the ace is high and low: the nearer of its positions
        gap = min(abs(p - q) for p in positions(ra) for q in positions(rb))
        return 0.8 if gap == 1 else 0.45 if gap == 2 else 0.0
    return 0.5 if ra == rb else 0.0


_AFFINITY = [[affinity(a, b) for b in range(KINDS)] for a in range(KINDS)]


@dataclass
class OpponentModel:
    """Per seat: cards taken from the pile, refused and discarded (card indices)."""

    seat: int
    players: int
    next_seat: int
    took: list[list[int]] = field(default_factory=list)
    refused: list[list[int]] = field(default_factory=list)
    discarded: list[list[int]] = field(default_factory=list)
    wilds: frozenset[int] = frozenset()
    knows_wilds: list[bool] = field(default_factory=list)  # per seat (M-7)

    def interest(self, s: int, c: int) -> float:
        """Log-weight of card kind ``c`` in seat ``s``'s hand."""
        aff = _AFFINITY[c]
        x = TAKE_WEIGHT * sum(aff[t] for t in self.took[s])
        x -= REFUSE_WEIGHT * sum(aff[t] for t in self.refused[s])
        x -= DISCARD_WEIGHT * sum(aff[t] for t in self.discarded[s])
        if c in self.wilds and self.knows_wilds[s]:
            x += WILD_WEIGHT
        return x

    def weights(self) -> list[list[float]]:
        """``weights[s][c]`` for every seat (1.0 for the observing seat: unused)."""
        out: list[list[float]] = []
        for s in range(self.players):
            if s == self.seat:
                out.append([1.0] * KINDS)
                continue
            row = []
            for c in range(KINDS):
                row.append(min(HIGH, max(LOW, math.exp(self.interest(s, c)))))
            out.append(row)
        return out

    def danger(self, c: int) -> float:
        """How much the next player wants ``c`` (0 when nothing points at it)."""
        s = self.next_seat
        aff = _AFFINITY[c]
        x = sum(aff[t] for t in self.took[s])
        x -= 0.5 * sum(aff[t] for t in self.refused[s])
        if c in self.refused[s]:
            x -= 1.0  # refused this very card once: it will probably refuse it again
        return max(0.0, x)


def model_of(
    view: TypedView | GameView, wilds: frozenset[int] = frozenset(), step: int | None = None
) -> OpponentModel:
    """The model of ``view``'s history (``take X``, ``draw``, ``discard X``); ``step`` is
    +1 or -1, the way play goes (M-2, T-2), by default the game kit's ``play_step``."""
    view = typed_view(view)
    n = view.players
    seat = own_seat(view)
    if step is None or wilds:
        from rami.bots.kit import kit_of

        kit = kit_of(view.game)
        step = kit.play_step(view) if step is None else step
        knowers = kit.wild_knowers(view) if wilds else [False] * n
    else:
        knowers = [False] * n  # no wild cards: nobody keeps one
    active = view.seats_active()
    nxt = (seat + step) % n
    for _ in range(n):
        if active[nxt] and nxt != seat:
            break
        nxt = (nxt + step) % n
    model = OpponentModel(
        seat=seat,
        players=n,
        next_seat=nxt,
        took=[[] for _ in range(n)],
        refused=[[] for _ in range(n)],
        discarded=[[] for _ in range(n)],
        wilds=wilds,
        knows_wilds=knowers,
    )
    top: int | None = None
    for entry in view.history:
        move = entry.get("move")
        who = entry.get("seat")
        if not move or who is None:
            if entry.get("news") == "restock":
                top = None  # the pile became the stock
            continue
        action = read_action(move)
        verb, cards = action.kind, action.cards
        if verb == "discard" and cards:
            top = int(cards[0])
            if who != seat:
                model.discarded[who].append(top)
        elif verb == "take" and cards:
            if who != seat:
                model.took[who].append(int(cards[0]))
            top = None
        elif verb == "draw":
            if top is not None and who != seat:
                model.refused[who].append(top)
            top = None
    return model
