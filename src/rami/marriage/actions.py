"""Marriage action vocabulary: the verbs of a turn and their canonical text.

Every step of a turn is one small ``Action`` (see ``rami.engine``) with a stable text:

- ``expose 6♥`` / ``pass`` – M-3, tunnelas exposed right after the deal;
- ``draw`` (stock top) / ``take`` (latest discard) – M-5;
- ``show 3♠ 4♠ 5♠`` – one pure meld towards seeing (M-6);
- ``dublee 7♣ 7♣`` – one dublee towards seeing on the dublee path (M-6, M-9);
- ``see`` – see the tiplu with three or more tunnelas exposed at the deal (M-3, M-6);
- ``meld 5♦ 6♦ J♣`` / ``add 8♥ @2`` – Indian table melding (M-10), ``@N`` counting the
  seat's own table melds from 0;
- ``takeback`` – pick up every card laid on the table this turn (M-10, Indian);
- ``finish K♦`` – finish the deal with that discard (M-8, M-9);
- ``discard 7♣`` – end the turn.

Actions that name a multiset of cards are stored with their cards sorted, so one
move has exactly one text in logs and replays.
"""

from __future__ import annotations

from rami.cards import CARDS, Card, sort_key
from rami.engine import Action
from rami.errors import IllegalAction
from rami.marriage.phases import Verb

__all__ = [
    "ADD",
    "DISCARD",
    "DISCARD_TEXTS",
    "DRAW",
    "DUBLEE",
    "EXPOSE",
    "FINISH",
    "FINISH_TEXTS",
    "MELD",
    "PASS",
    "SEE",
    "SHOW",
    "TAKE",
    "TAKEBACK",
    "VERBS",
    "discard_action",
    "expose_action",
    "finish_action",
    "normalise",
]

DRAW = Action("draw")
TAKE = Action("take")
PASS = Action("pass")
SEE = Action("see")
TAKEBACK = Action("takeback")
EXPOSE = "expose"
SHOW = "show"
DUBLEE = "dublee"
MELD = "meld"
ADD = "add"
FINISH = "finish"
DISCARD = "discard"

VERBS = tuple(v.value for v in Verb)  # plain strings: ``in`` tests on every move

# One shared instance per card for the verbs that name a single card: legal action
# lists are rebuilt at every decision and should not allocate.
_DISCARDS = tuple(Action(DISCARD, (c,)) for c in CARDS)
_FINISHES = tuple(Action(FINISH, (c,)) for c in CARDS)
_EXPOSES = tuple(Action(EXPOSE, (c,)) for c in CARDS)


DISCARD_TEXTS = tuple(str(a) for a in _DISCARDS)
FINISH_TEXTS = tuple(str(a) for a in _FINISHES)


def discard_action(c: int) -> Action:
    return _DISCARDS[c]


def finish_action(c: int) -> Action:
    return _FINISHES[c]


def expose_action(c: int) -> Action:
    return _EXPOSES[c]


def _one_card(action: Action) -> Card:
    if len(action.cards) != 1:
        raise IllegalAction(f"'{action.kind}' names exactly one card, e.g. '{action.kind} 7♣'")
    return action.cards[0]


def _no_target(action: Action) -> None:
    if action.target is not None:
        raise IllegalAction(f"'{action.kind}' takes no meld reference (@{action.target})")


def normalise(action: Action) -> Action:
    """Check an action's shape (verb, number of cards, ``@N``) and give its canonical form.

    Whether it is legal here is for the state to decide; this only rejects text that
    cannot be a Marriage move at all.
    """
    kind = action.kind
    if kind == DISCARD and action.target is None and len(action.cards) == 1:
        return _DISCARDS[action.cards[0]]  # the most frequent move first
    if kind not in VERBS:
        raise IllegalAction(f"unknown action '{kind}': use one of {', '.join(VERBS)}")
    if kind in ("draw", "take", "pass", "see", "takeback"):
        if action.cards or action.target is not None:
            raise IllegalAction(f"'{kind}' takes no cards")
        return {"draw": DRAW, "take": TAKE, "pass": PASS, "see": SEE, "takeback": TAKEBACK}[kind]
    if kind == ADD:
        if action.target is None:
            raise IllegalAction("'add' needs the meld to add to, e.g. 'add 8♥ @2'")
        return Action(ADD, (_one_card(action),), action.target)
    _no_target(action)
    if kind == DISCARD:
        return _DISCARDS[_one_card(action)]
    if kind == FINISH:
        return _FINISHES[_one_card(action)]
    if kind == EXPOSE:
        cards = action.cards
        if len(cards) == 3 and cards[0] == cards[1] == cards[2]:
            return _EXPOSES[cards[0]]
        return _EXPOSES[_one_card(action)]
    if kind == DUBLEE:
        cards = action.cards
        if len(cards) == 1:
            cards = (cards[0], cards[0])
        if len(cards) != 2 or cards[0] != cards[1]:
            raise IllegalAction("a dublee is two identical cards, e.g. 'dublee 7♣ 7♣'")
        return Action(DUBLEE, cards)
    # show / meld: a multiset of at least three cards
    if len(action.cards) < 3:
        raise IllegalAction(f"'{kind}' needs at least three cards, e.g. '{kind} 3♠ 4♠ 5♠'")
    return Action(kind, tuple(sorted(action.cards, key=sort_key)))
