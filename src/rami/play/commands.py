"""The forgiving command language of ``rami play``, mapped onto the engine's actions.

A person types ``d``, ``t``, ``x 7c``, ``show``, ``lay 5♥ 6♥ 7♥``, ``lay 8♥ @2``,
``swap 7♥ @1``, ``open``, ``?`` …; ``parse_command`` turns that into a ``Command``.
It reads only the seat's view, and asks the view which actions are legal only to
resolve what was meant (``show`` with no cards lists the legal shows, ``add 8♥``
finds the meld it fits). Whether a move is legal is always for the engine to say:
the session applies the action and shows the engine's reason when it refuses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from rami.bots.base import legal_actions
from rami.cards import JOKER, Card, CardError, parse_card
from rami.engine import Action
from rami.errors import IllegalAction, InputError
from rami.play.hooks import hooks_of
from rami.views import GameView

__all__ = [
    "ALIASES",
    "Command",
    "act",
    "choose",
    "describe_refusal",
    "lay",
    "legal_actions",
    "meld_groups",
    "parse_command",
    "pick",
    "read_cards",
    "refuse",
]

ALIASES: dict[str, str] = {
    "d": "draw",
    "draw": "draw",
    "stock": "draw",
    "t": "take",
    "take": "take",
    "pick": "take",
    "x": "discard",
    "discard": "discard",
    "throw": "discard",
    "drop": "discard",
    "f": "finish",
    "finish": "finish",
    "out": "finish",
    "show": "show",
    "sh": "show",
    "see": "see",
    "pass": "pass",
    "open": "open",
    "o": "open",
    "lay": "lay",
    "l": "lay",
    "meld": "lay",
    "m": "lay",
    "add": "add",
    "a": "add",
    "swap": "swap",
    "sw": "swap",
    "help": "help",
    "h": "help",
    "?": "hint",
    "hint": "hint",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
    "save": "quit",
    "log": "log",
    "history": "log",
    "table": "table",
    "melds": "table",
}

MAX_OPTIONS = 12  # a numbered list longer than this would not fit the screen
_GLUED_VERBS = ("x", "discard", "f", "finish")  # 'x7c' is 'x 7c' (games add their own)
_GROUPS = re.compile(r"[;|]")


@dataclass(frozen=True)
class Command:
    """What the player asked for.

    ``kind``: ``act`` (play ``actions`` in order, each checked by the engine),
    ``choose`` (``options`` to offer, numbered, under ``title``), ``open`` (lay or
    show what the solver finds, step by step: ``TerminalHooks.quick_lay``), ``help``,
    ``hint``, ``log`` or ``quit``.
    """

    kind: str
    actions: tuple[Action, ...] = ()
    options: tuple[Action, ...] = ()
    title: str = ""


# ``act``, ``choose``, ``read_cards``, ``pick``, ``meld_groups``, ``refuse`` and ``lay``
# are also the parts a game's own commands (``TerminalHooks.commands``) are written with.
def act(*actions: Action) -> Command:
    """Play ``actions`` in order."""
    return Command("act", tuple(actions))


def choose(title: str, options: Sequence[Action], none: str) -> Command:
    """Offer ``options``; one option is simply played, none is ``none`` as an error."""
    if not options:
        raise InputError(none)
    if len(options) == 1:
        return act(options[0])
    if len(options) > MAX_OPTIONS:
        title += f"; the first {MAX_OPTIONS} of {len(options)}, or type the cards"
    return Command("choose", options=tuple(options[:MAX_OPTIONS]), title=title)


def read_cards(words: Sequence[str]) -> tuple[list[Card], int | None]:
    """Cards and an optional ``@N`` meld reference from the words after the verb."""
    cards: list[Card] = []
    target: int | None = None
    for pos, word in enumerate(words, start=1):
        if word.startswith("@"):
            if target is not None or not word[1:].isdigit():
                raise InputError(f"bad meld reference '{word}': write @0, @1, …")
            target = int(word[1:])
            continue
        try:
            cards.append(parse_card(word, pos))
        except CardError as exc:
            raise InputError(str(exc)) from None
    return cards, target


def _one(verb: str, cards: Sequence[Card], example: str) -> Card:
    if len(cards) != 1:
        raise InputError(f"'{verb}' names one card, e.g. '{example}'")
    return cards[0]


def _lays_on_table(view: GameView) -> bool:
    """Melds laid on the table (Tunisian rami, Indian Marriage) rather than shown."""
    return hooks_of(view).lays_on_table(view)


def refuse(verb: str, view: GameView) -> None:
    """``InputError`` with the game's reason when it has no such verb."""
    reason = hooks_of(view).refusals.get(verb)
    if reason is not None:
        raise InputError(reason)


def _top_discard(view: GameView) -> str | None:
    pile = view.get("discard_pile") or []
    return str(pile[-1]) if pile else None


def parse_command(text: str, view: GameView, pending: Sequence[Action] = ()) -> Command:
    """Read one line typed at the prompt; ``InputError`` with a one-line reason if unreadable.

    ``pending`` is the numbered list last offered, so a bare ``2`` picks its second item.
    """
    line = text.strip()
    if not line:
        raise InputError("type a move, or 'help'")
    if line.isdigit():
        return pick(int(line), pending)
    words = line.replace(",", " ").split()
    head = words[0].lower()
    hooks = hooks_of(view)
    aliases = {**ALIASES, **hooks.aliases}
    if head not in aliases:
        glued = _glued(hooks.glued).match(words[0])
        if glued and _is_card(glued.group(2)):  # 'x7c' is 'x 7c'; 'foo' is a typo
            head = glued.group(1).lower()
            words = [head, glued.group(2), *words[1:]]
        else:
            own = _game_verb(line, view)  # a verb of the game's own, typed as the engine writes it
            return own if own is not None else _unknown(words[0], view)
    verb = aliases[head]
    rest = words[1:]
    if verb in ("help", "hint", "log", "quit", "table"):
        return Command(verb)
    legal = legal_actions(view)
    command = hooks.commands.get(verb)
    if command is not None:  # a command of the game's own (or its own form of one)
        return command(rest, view, legal)
    if verb in ("draw", "pass", "see"):
        return act(Action(verb))
    if verb == "take":
        cards, _ = read_cards(rest)
        top = _top_discard(view)
        if cards and top is not None and str(cards[0]) != top:
            raise InputError(f"only the latest discard ({top}) can be taken")
        return act(Action("take"))
    if verb == "discard":
        cards, _ = read_cards(rest)
        if not cards:
            raise InputError("which card? e.g. 'x 7♣' (or 'x 7c')")
        return act(Action("discard", (_one("x", cards, "x 7♣"),)))
    if verb == "finish":
        return _finish(rest, view, legal)
    if verb == "open":
        return Command("open")
    if verb == "show":  # a game with shows has its own command
        refuse("show", view)
        raise InputError("there is nothing to show in this game")
    if verb == "lay":
        return lay(rest, view, legal)
    if verb == "add":
        return _add(rest, view, legal)
    return _swap(rest, view, legal)


def _game_verb(line: str, view: GameView) -> Command | None:
    """``knock 5♠`` in a game whose legal actions have that verb: the action itself."""
    try:
        action = Action.parse(line)
    except IllegalAction:
        return None
    if action.kind in {a.kind for a in legal_actions(view)}:
        return act(action)
    return None


def pick(number: int, pending: Sequence[Action]) -> Command:
    """The ``number``-th (from 1) of the numbered list ``pending``."""
    if not pending:
        raise InputError("no numbered choices now: 'show', 'lay' or 'swap' lists some")
    if not 1 <= number <= len(pending):
        raise InputError(f"choose a number from 1 to {len(pending)}")
    return act(pending[number - 1])


@cache
def _glued(extra: tuple[str, ...]) -> re.Pattern[str]:
    """The verbs a card may be typed against ('x7c'), the game's ``extra`` ones too."""
    verbs = "|".join(map(re.escape, (*_GLUED_VERBS, *extra)))
    return re.compile(rf"^({verbs})(\S+)$", re.IGNORECASE)


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except CardError:
        return False
    return True


def _unknown(word: str, view: GameView) -> Command:
    try:
        c = parse_card(word)
    except CardError:
        raise InputError(f"unknown command '{word}': type 'help' for the commands") from None
    raise InputError(f"to discard {c}, type 'x {c}'; type 'help' for the other commands")


def _finish(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    cards, _ = read_cards(rest)
    if "finish" in hooks_of(view).refusals:  # going out is discarding the last card
        hand = view.get("hand") or []
        if len(hand) == 1:
            return act(Action("discard", (parse_card(hand[0]),)))
        refuse("finish", view)
    if cards:
        return act(Action("finish", (_one("finish", cards, "finish K♦"),)))
    options = [a for a in legal if a.kind == "finish"]
    return choose(
        "you can finish with one of these discards",
        options,
        "you cannot finish now (type ? for a hint)",
    )


def meld_groups(rest: Sequence[str]) -> list[list[str]]:
    """Words split into melds at ';' or '|' ('lay 5♥ 6♥ 7♥ ; 9♠ 9♥ 9♦')."""
    joined = " ".join(rest)
    return [g.split() for g in _GROUPS.split(joined) if g.split()]


def lay(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    """``lay 5♥ 6♥ 7♥`` (several melds: ';'), ``lay 8♥ @2``; ``lay`` alone lists melds."""
    if not rest:
        options = [a for a in legal if a.kind == "meld"]
        return choose(
            "melds you may lay (pick a number)",
            options,
            "no meld can be laid now (type ? for a hint)",
        )
    actions: list[Action] = []
    for group in meld_groups(rest):
        cards, target = read_cards(group)
        if not cards:
            raise InputError("which cards? e.g. 'lay 5♥ 6♥ 7♥' or 'lay 8♥ @2'")
        if target is not None:
            actions.extend(Action("add", (c,), target) for c in cards)
        else:
            actions.append(Action("meld", tuple(cards)))
    return act(*actions)


def _add(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    if not _lays_on_table(view):
        refuse("add", view)
    cards, target = read_cards(rest)
    if not cards:
        options = [a for a in legal if a.kind == "add"]
        return choose(
            "cards you may add (pick a number)", options, "no card fits a meld on the table"
        )
    if target is not None:
        return act(*(Action("add", (c,), target) for c in cards))
    c = _one("add", cards, "add 8♥ @2")
    options = [a for a in legal if a.kind == "add" and a.cards[0] == c]
    return choose(f"{c} fits several melds", options, f"{c} fits no meld you may add to")


def _swap(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    refuse("swap", view)
    cards, target = read_cards(rest)
    cards = [c for c in cards if c != JOKER]  # 'swap JK 7♥ @1' names the joker too
    swaps = [a for a in legal if a.kind == "swap"]
    if len(cards) > 1:
        raise InputError("swap names the one real card that replaces a joker, e.g. 'swap 7♥ @1'")
    if cards and target is not None:
        return act(Action("swap", (cards[0],), target))
    if cards:
        swaps = [a for a in swaps if a.cards[0] == cards[0]]
    elif target is not None:
        swaps = [a for a in swaps if a.target == target]
    return choose(
        "joker swaps you may make (pick a number)", swaps, "no joker swap is possible now"
    )


def describe_refusal(exc: IllegalAction | InputError) -> str:
    """The one line shown for a refused command."""
    text = str(exc).strip().splitlines()
    return text[0] if text else "not allowed"
