"""The verbs of a Marriage turn, each one rule object (``rami.kernel.Verb``).

``expose`` or ``pass`` right after the deal (M-3); ``draw`` or ``take`` (M-5); ``show``,
``dublee`` and ``see`` towards seeing the tiplu (M-6, M-7); ``meld``, ``add`` and
``takeback`` on the Indian table (M-10); ``finish`` (M-8, M-9) or ``discard`` ends the turn
(M-5). Each verb lists what it allows now (``options``, fed by
``rami.marriage.meld_options`` and the finish search where speed matters), says why a move
is illegal (``problem``: the reason a person reads, with its rule id and key; ``judge``
raises it) and plays a legal one (``play``). The conditions several verbs share are stated
once in ``rami.marriage.conditions`` and read by both the listing and the judgement
(tests/test_marriage_legality.py compares the three on random positions).

The verbs change the deal's table state (``rami.marriage.game.MarriageState``'s fields):
they are the game's rules, part of its engine, as the deal's own methods were.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import TYPE_CHECKING

from rami.cards import CARDS, format_cards
from rami.engine import Action
from rami.errors import IllegalAction, Reason
from rami.kernel import Ruling, Verb
from rami.marriage import actions as act
from rami.marriage.conditions import (
    DUBLEES_PATH,
    MELDS_PATH,
    SHOW_MELDS,
    discard_problem,
    free_play_problem,
    holding_problem,
    phase_problem,
    play_finishes,
    seat_finish,
    seat_finishes,
    spare,
    table_problem,
    table_steps,
    take_problem,
    tiplu_problem,
    turn_start,
    without,
)
from rami.marriage.meld_options import show_steps
from rami.marriage.melds import is_meld, is_pure_meld, is_show_meld
from rami.marriage.phases import Phase
from rami.marriage.solver import Finish, dublee_count, max_show_melds

if TYPE_CHECKING:
    from rami.marriage.game import MarriageState

__all__ = ["BY_KIND", "BY_PHASE", "SEEN_PLAY", "VERBS"]

EXPOSE_PHASE = Phase.EXPOSE
DRAW_PHASE = Phase.DRAW
PLAY_PHASE = Phase.PLAY

_KINDS52 = range(52)
_TEXT = tuple(str(c) for c in CARDS)  # card index -> its text
# {action: None} per listed action made once: ``dict.update`` from these reuses the stored
# hash, so listing them does not hash each action again
_DISCARDS = tuple(act.discard_action(c) for c in range(52))
_DUBLEE_ENTRIES = tuple({Action(act.DUBLEE, (CARDS[k], CARDS[k])): None} for k in range(52))
_FINISHES = tuple(act.finish_action(c) for c in range(52))
_DRAW_ENTRY: dict[Action, object] = {act.DRAW: None}
_TAKE_ENTRY: dict[Action, object] = {act.TAKE: None}
_PASS_ENTRY: dict[Action, object] = {act.PASS: None}
_SEE_ENTRY: dict[Action, object] = {act.SEE: None}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _cards_text(cards: Sequence[int]) -> str:
    return format_cards(cards, sort=True)


class _Rule(Verb["MarriageState"]):
    """A Marriage verb: its rule is ``problem`` (the reason, or None); ``judge`` gives
    the canonical move (``actions.normalise``) or raises the reason."""

    __slots__ = ()

    def problem(self, deal: MarriageState, action: Action) -> Reason | None:
        raise NotImplementedError

    def judge(self, deal: MarriageState, action: Action) -> Ruling:
        a = act.normalise(action)
        problem = self.problem(deal, a)
        if problem is not None:
            raise IllegalAction(problem)
        return a, None


class _Expose(_Rule):
    """``expose``: a tunnela dealt shown right after the deal (M-3)."""

    __slots__ = ()
    name = "expose"
    aliases = ()
    help = "expose a tunnela dealt to you (three identical cards), right after the deal"
    shorthand = "e"
    rules: tuple[str, ...] = ("M-3",)

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        hand = deal._hands[deal._to_move]
        for c in compress(_KINDS52, hand):
            e = act.expose_action(c)
            if self.problem(deal, e) is None:
                legal[e] = None

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-3: right after the deal, a seat may expose a tunnela (three identical cards)."""
        problem = phase_problem(deal, EXPOSE_PHASE)
        if problem is None and deal._hands[deal._to_move][a.cards[0]] < 3:
            return Reason(
                f"you do not hold three {a.cards[0]} to expose as a tunnela", key="no_tunnela"
            )
        return problem

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        c = a.cards[0]
        deal._hands[s][c] -= 3
        deal._sizes[s] -= 3
        deal._exposed[s].append(c)
        deal._log(str(a))


class _Pass(_Rule):
    """``pass``: the end of a seat's exposing after the deal (M-3)."""

    __slots__ = ()
    name = "pass"
    aliases = ()
    help = "expose nothing more after the deal"
    shorthand = ""
    rules: tuple[str, ...] = ("M-3",)

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        legal.update(_PASS_ENTRY)

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-3: 'pass' ends a seat's exposing; once every seat passed, play begins."""
        if deal._phase != EXPOSE_PHASE:
            return Reason(
                "'pass' ends your tunnela exposure after the deal; now draw, take or discard",
                key="pass_after_deal",
            )
        return None

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        deal._log(str(a))
        deal._passes += 1
        if deal._passes >= deal._n:
            deal._phase = DRAW_PHASE
            deal._to_move = deal.next_seat(deal.dealer)
        else:
            deal._to_move = deal.next_seat(deal._to_move)


class _Draw(_Rule):
    """``draw``: the top card of the stock starts the turn (M-5)."""

    __slots__ = ()
    name = "draw"
    aliases = ("stock",)
    help = "draw the top card of the stock"
    shorthand = "d"
    rules: tuple[str, ...] = ("M-5",)

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        if deal._stock:  # the draw phase (the listing's): the stock decides (``problem``)
            legal.update(_DRAW_ENTRY)

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-5: a turn starts by drawing the top card of the stock (or taking, below)."""
        problem = phase_problem(deal, DRAW_PHASE)
        if problem is None and not deal._stock:
            return Reason("the stock is empty: take the discard", key="stock_empty")
        return problem

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        c = deal._stock.pop()
        deal._card_in(s, c)
        deal._phase = PLAY_PHASE
        deal._log("draw", _TEXT[c])


class _Take(_Rule):
    """``take``: the latest discard starts the turn, if it may be taken (M-5, M-7, M-9)."""

    __slots__ = ()
    name = "take"
    aliases = ("pick",)
    help = "take the latest discard"
    shorthand = "t"
    rules: tuple[str, ...] = ("M-5", "M-7", "M-9")

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        if take_problem(deal, deal._to_move) is None:  # in the draw phase (the listing's)
            legal.update(_TAKE_ENTRY)

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-5: or by taking the latest discard, when ``take_problem`` allows it."""
        problem = phase_problem(deal, DRAW_PHASE)
        return take_problem(deal, deal._to_move) if problem is None else problem

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        c = deal._pile.pop()
        deal._card_in(s, c)
        deal._taken = c
        deal._must_finish = deal._seen[s] and deal._path[s] == DUBLEES_PATH
        deal._phase = PLAY_PHASE
        deal._log("take", _TEXT[c])


class _Show(_Rule):
    """``show``: a pure meld shown towards seeing the tiplu (M-4, M-6, M-7)."""

    __slots__ = ()
    name = "show"
    aliases = ()
    help = "show a pure meld (three in all to see the tiplu)"
    shorthand = "sh"
    rules: tuple[str, ...] = ("M-4", "M-6", "M-7")

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        """The show steps of an unseen seat that keep the show completable (M-6, from
        ``meld_options.show_steps``), or ``see`` (its listing: where a show would be);
        never tiplu-dependent. ``show_ub`` bounds the seat's disjoint show melds from
        above (``MarriageState._card_in``)."""
        s = deal._to_move
        if deal._seen[s] or deal._path[s] == DUBLEES_PATH:
            return
        if deal._tiplu is None and not deal._stock:
            return  # nothing could become the tiplu (``tiplu_problem``)
        need = SHOW_MELDS - len(deal._melds[s]) - len(deal._exposed[s])
        if need <= 0:  # three tunnelas exposed at the deal: ``see`` instead (M-3)
            SEE_VERB.options(deal, legal)
            return
        if deal._show_ub[s] < need:
            return  # too few show melds
        steps = show_steps(deal._hands[s], deal.rules, need, deal._sizes[s], deal._taken)
        if steps is None:
            deal._show_ub[s] = need - 1  # fewer than ``need`` disjoint show melds
        elif steps:
            legal.update(dict.fromkeys(steps))

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-6: an unseen seat shows pure melds (three in all) to see the tiplu (M-7).

        A show may be spread over steps of one turn, but each step must leave the rest
        of the hand able to complete it and a card to discard.
        """
        problem = free_play_problem(deal)
        if problem is not None:
            return problem
        s = deal._to_move
        rules = deal.rules
        if deal._seen[s]:
            if rules.table_melding:
                return Reason(
                    "you have already seen the tiplu: lay melds with 'meld'", key="seen_already"
                )
            return Reason("you have already seen the tiplu", key="seen_already")
        if deal._path[s] == DUBLEES_PATH:
            return Reason(
                "you are showing dublees; the meld and dublee paths exclude each other (M-6)",
                key="paths_exclusive",
            )
        need = SHOW_MELDS - len(deal._melds[s]) - len(deal._exposed[s])
        if need <= 0:
            return Reason("your exposed tunnelas already let you see: use 'see'", key="use_see")
        problem = tiplu_problem(deal)
        if problem is not None:
            return problem
        cards = a.cards
        if not rules.melds_at_least3 and len(cards) != 3:
            return Reason("a meld is exactly three cards (M-4)", key="meld_three")
        if not is_show_meld(cards, rules):
            kinds = "pure sequence or tunnela" if rules.tunnela_melds else "pure sequence or trial"
            return Reason(f"{_cards_text(cards)} is not a {kinds} (M-6)", key="not_show_meld")
        problem = holding_problem(deal, s, cards)
        if problem is not None:
            return problem
        rest = without(deal, s, cards)
        left = need - 1
        if spare(deal, s, rest, len(cards)) < 3 * left + 1:
            return Reason(
                "showing these cards would leave you nothing to discard", key="nothing_to_discard"
            )
        if left and max_show_melds(rest, rules, left) < left:
            return Reason(
                f"the rest of your hand cannot complete the show: it needs "
                f"{_plural(left, 'more pure meld')} (M-6)",
                key="show_incomplete",
            )
        return None

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        cards = a.cards
        left = SHOW_MELDS - len(deal._melds[s]) - len(deal._exposed[s]) - 1
        deal._hands[s] = without(deal, s, cards)
        deal._sizes[s] -= len(cards)
        deal._melds[s].append(cards)
        deal._path[s] = MELDS_PATH
        deal._log(str(a))
        if left == 0:
            deal._see(s)


class _Dublee(_Rule):
    """``dublee``: a pair shown on the dublee path (M-6, M-7, M-9)."""

    __slots__ = ()
    name = "dublee"
    aliases = ()
    help = "show a dublee (seven to see the tiplu)"
    shorthand = "dub"
    rules: tuple[str, ...] = ("M-6", "M-7", "M-9")

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        """The dublees of an unseen seat that keep the show completable (M-6, M-9)."""
        s = deal._to_move
        shown = deal._dublee_show  # 0: no dublee path at this table (M-9)
        if not shown or deal._seen[s] or deal._exposed[s] or deal._path[s] == MELDS_PATH:
            return
        if deal._tiplu is None and not deal._stock:
            return  # nothing could become the tiplu (``tiplu_problem``)
        need = shown - len(deal._dublees[s])
        if deal._pair_ub[s] < need:
            return  # too few dublees in hand (an upper bound: ``MarriageState._card_in``)
        hand = deal._hands[s]
        have = deal._pair_ub[s] = dublee_count(hand)
        if have < need:
            return
        # showing the dublee of k leaves enough dublees (k is held twice or more): only
        # the cards left to discard decide (``spare`` of the hand without those two)
        left = need - 1
        taken = deal._taken
        base = deal._sizes[s] - 2
        for k in range(52):
            if hand[k] < 2:
                continue
            room = base
            if taken is not None:
                room -= hand[taken] - (2 if k == taken else 0)
            if room >= 2 * left + 1:
                legal.update(_DUBLEE_ENTRIES[k])

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-6, M-9: the dublee path: seven dublees shown to see, the eighth to finish."""
        problem = free_play_problem(deal)
        if problem is not None:
            return problem
        s = deal._to_move
        if not deal.rules.dublees_allowed(deal._n):
            if not deal.rules.dublees:
                return Reason("these rules have no dublee path (M-9)", key="no_dublees")
            return Reason(
                f"the dublee path needs at least {deal.rules.dublees_min_players} players (M-9)",
                key="dublees_players",
            )
        if deal._seen[s]:
            return Reason("you have already seen the tiplu", key="seen_already")
        if deal._path[s] == MELDS_PATH:
            return Reason(
                "you are showing melds; the meld and dublee paths exclude each other (M-6)",
                key="paths_exclusive",
            )
        if deal._exposed[s]:
            # Decision: an exposed tunnela counts as a shown meld (M-3), so its owner
            # is on the meld path (M-6: the paths exclude each other).
            return Reason(
                "your tunnela exposed at the deal counts as a shown meld: you are on the "
                "meld path, not the dublee path (M-3, M-6)",
                key="tunnela_meld_path",
            )
        problem = tiplu_problem(deal) or holding_problem(deal, s, a.cards)
        if problem is not None:
            return problem
        rest = without(deal, s, a.cards)
        left = deal.show_dublees - len(deal._dublees[s]) - 1
        if spare(deal, s, rest, 2) < 2 * left + 1:
            return Reason(
                "showing this dublee would leave you nothing to discard", key="nothing_to_discard"
            )
        if dublee_count(rest) < left:
            return Reason(
                f"the rest of your hand cannot complete the show: it needs "
                f"{_plural(left, 'more dublee')} (M-6)",
                key="show_incomplete",
            )
        return None

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        left = deal.show_dublees - len(deal._dublees[s]) - 1
        deal._hands[s] = without(deal, s, a.cards)
        deal._sizes[s] -= 2
        deal._dublees[s].append(a.cards[0])
        deal._path[s] = DUBLEES_PATH
        deal._log(str(a))
        if left == 0:
            deal._see(s)


class _See(_Rule):
    """``see``: three tunnelas exposed at the deal let a seat see the tiplu (M-3, M-6, M-7)."""

    __slots__ = ()
    name = "see"
    aliases = ()
    help = "see the tiplu with three tunnelas exposed at the deal"
    shorthand = ""
    rules: tuple[str, ...] = ("M-3", "M-6", "M-7")

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        """``see`` when the rule allows it (asked by ``show``'s listing)."""
        s = deal._to_move
        if (
            len(deal._exposed[s]) >= SHOW_MELDS
            and deal._path[s] is None
            and self.problem(deal, act.SEE) is None  # the rest of the rule
        ):
            legal.update(_SEE_ENTRY)

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-3, M-6: three tunnelas exposed at the deal let a seat see without showing."""
        problem = free_play_problem(deal)
        if problem is not None:
            return problem
        s = deal._to_move
        if deal._seen[s]:
            return Reason("you have already seen the tiplu", key="seen_already")
        if deal._path[s] is not None or len(deal._exposed[s]) < SHOW_MELDS:
            return Reason(
                "to see the tiplu, show three pure melds (or seven dublees); 'see' alone "
                "needs three tunnelas exposed at the deal (M-6)",
                key="see_needs_show",
            )
        return tiplu_problem(deal)

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        deal._path[s] = MELDS_PATH
        deal._log(str(a))
        deal._see(s)


class _Meld(_Rule):
    """``meld``: a seen Indian player lays a meld on the table (M-4, M-10); its listing
    also gives the ``add`` steps (one call of ``rami.marriage.meld_options``)."""

    __slots__ = ()
    name = "meld"
    aliases = ("lay",)
    help = "lay a meld on the table after seeing (Indian)"
    shorthand = "l"
    rules: tuple[str, ...] = ("M-4", "M-10")

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        moves: list[Action] = []
        self.extend(deal, moves)
        legal.update(dict.fromkeys(moves))

    def extend(self, deal: MarriageState, moves: list[Action]) -> None:
        """A short canonical list of melds and additions (``table_steps``, each once);
        ``apply`` accepts any valid meld."""
        s = deal._to_move
        if deal._seen[s] and deal.rules.table_melding and not deal._must_finish:
            moves += table_steps(deal, s)

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-10 (M-4): a seen Indian player lays any valid meld, keeping a card to discard."""
        s = deal._to_move
        problem = table_problem(deal) or holding_problem(deal, s, a.cards)
        if problem is not None:
            return problem
        if not is_meld(a.cards, deal.rules, deal._wilds):
            return Reason(f"{_cards_text(a.cards)} is not a valid meld (M-4)", key="not_a_meld")
        if spare(deal, s, without(deal, s, a.cards), len(a.cards)) < 1:
            return Reason(
                "melding these cards would leave you nothing to discard", key="nothing_to_discard"
            )
        return None

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        deal._laying(s, a.cards)
        deal._hands[s] = without(deal, s, a.cards)
        deal._sizes[s] -= len(a.cards)
        deal._melds[s].append(a.cards)
        deal._log(str(a))


class _Add(_Rule):
    """``add``: a card added to one's own table meld (M-6, M-10); listed with ``meld``."""

    __slots__ = ()
    name = "add"
    aliases = ()
    help = "add a card to your table meld @N (Indian)"
    shorthand = "a"
    rules: tuple[str, ...] = ("M-6", "M-10")

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-10, M-6: a card added to one's own table meld, three pure melds kept."""
        problem = table_problem(deal)
        if problem is not None:
            return problem
        s = deal._to_move
        table = deal._melds[s]
        i = a.target
        assert i is not None
        if i >= len(table):
            last = f"@0 … @{len(table) - 1}" if len(table) > 1 else "@0"
            return Reason(f"you have no table meld @{i} (yours are {last})", key="no_such_meld")
        c = a.cards[0]
        problem = holding_problem(deal, s, a.cards)
        if problem is not None:
            return problem
        new = tuple(sorted((*table[i], c)))
        if not is_meld(new, deal.rules, deal._wilds):
            return Reason(
                f"{c} does not fit meld @{i} ({_cards_text(table[i])})", key="does_not_fit"
            )
        if is_pure_meld(table[i], deal.rules) and not is_pure_meld(new, deal.rules):
            pure = sum(is_pure_meld(m, deal.rules) for m in table)
            if pure - 1 < SHOW_MELDS:
                return Reason(
                    "you must keep at least three pure melds on the table (M-6)",
                    key="keep_pure_melds",
                )
        if spare(deal, s, without(deal, s, a.cards), 1) < 1:
            return Reason(
                "adding this card would leave you nothing to discard", key="nothing_to_discard"
            )
        return None

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        i = a.target
        assert i is not None
        deal._laying(s, a.cards)
        deal._hands[s] = without(deal, s, a.cards)
        deal._sizes[s] -= 1
        deal._melds[s][i] = tuple(sorted((*deal._melds[s][i], a.cards[0])))
        deal._log(str(a))


class _Takeback(_Rule):
    """``takeback``: this turn's laid cards back to the hand (M-10)."""

    __slots__ = ()
    name = "takeback"
    aliases = ()
    help = "pick up every card you laid on the table this turn (Indian)"
    shorthand = ""
    rules: tuple[str, ...] = ("M-10",)

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        moves: list[Action] = []
        self.extend(deal, moves)
        legal.update(dict.fromkeys(moves))

    def extend(self, deal: MarriageState, moves: list[Action]) -> None:
        if deal._laid and not deal._must_finish and deal._seen[deal._to_move]:
            moves.append(act.TAKEBACK)  # laid cards: table melding (M-10)

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-10 (seed 003): a player who changed his mind may pick up the cards laid out in
        the current turn (melds and additions; not the show, which let him see), all of
        them, and lay them again another way. Earlier turns' cards stay."""
        problem = table_problem(deal)
        if problem is None and not deal._laid:
            return Reason(
                "you have laid no cards on the table this turn: only those may be taken "
                "back (M-10)",
                key="nothing_laid",
            )
        return problem

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        deal._pick_up(deal._to_move)
        deal._log(str(a))


class _Finish(_Rule):
    """``finish``: a seen seat ends the deal discarding its last spare card (M-8, M-9, M-10)."""

    __slots__ = ()
    name = "finish"
    aliases = ("out",)
    help = "finish, discarding the one card left over"
    shorthand = "f"
    rules: tuple[str, ...] = ("M-8", "M-9", "M-10")

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        moves: list[Action] = []
        self.extend(deal, moves)
        legal.update(dict.fromkeys(moves))

    def extend(self, deal: MarriageState, moves: list[Action]) -> None:
        """The finishing discards but the card taken this turn: searched once a turn
        when there are none (``play_finishes``), every time when one is due."""
        s = deal._to_move
        if deal._must_finish:
            found = seat_finishes(deal, s)
        elif deal._seen[s]:
            found = play_finishes(deal, s)
        else:
            return
        taken = deal._taken
        for c in found:
            if c != taken:
                moves.append(_FINISHES[c])

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-8, M-9, M-10: a seen seat finishes by discarding the one card left over."""
        problem = free_play_problem(deal, finishing=True)
        if problem is not None:
            return problem
        s = deal._to_move
        c = a.cards[0]
        if not deal._seen[s]:
            if deal.showing(s):
                problem = discard_problem(deal, s, c)
            return problem or Reason("you must show and see the tiplu before you can finish (M-8)")
        problem = discard_problem(deal, s, c, turn_start(deal, s)[0])
        if problem is not None:
            return problem
        if seat_finish(deal, s, c) is None:
            if deal._path[s] == DUBLEES_PATH:
                what = "eight dublees"
            elif deal.rules.table_melding:
                what = "valid melds on the table"
            else:
                what = "seven melds with your shown ones"
            return Reason(
                f"you cannot finish by discarding {c}: the rest does not make {what}",
                key="no_finish",
            )
        return None

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        c = a.cards[0]
        fin = seat_finish(deal, s, c)
        assert fin is not None  # judged by ``problem``
        deal._pick_up(s)  # M-10: the finish lays the turn's cards its own way
        deal._hands[s][c] -= 1
        deal._sizes[s] -= 1
        deal._pile.append(c)
        deal._log(str(a))
        deal._close(s, fin, "finish")


class _Discard(_Rule):
    """``discard``: ends the turn (M-5, M-6); the Indian hand's last card finishes (M-8)."""

    __slots__ = ()
    name = "discard"
    aliases = ("throw", "drop")
    help = "discard a card, ending your turn"
    shorthand = "x"
    rules: tuple[str, ...] = ("M-5", "M-6", "M-8")

    def options(self, deal: MarriageState, legal: dict[Action, object]) -> None:
        moves: list[Action] = []
        self.extend(deal, moves)
        legal.update(dict.fromkeys(moves))

    def extend(self, deal: MarriageState, moves: list[Action]) -> None:
        """``options`` as a plain list (the play phase's listing ends with it:
        ``MarriageState._list_legal``): the held cards but the one taken, when no show
        is in progress and no finish is due (``problem``)."""
        s = deal._to_move
        if deal._must_finish or (not deal._seen[s] and deal._path[s] is not None):
            return  # a finish is due (M-9), or a show to complete (``showing``, M-6)
        taken = deal._taken
        hand = deal._hands[s]
        if taken is not None and hand[taken]:
            hand = hand[:]  # the taken card's kind out (M-5)
            hand[taken] = 0
        # the held kinds' moves, picked in C (``compress``)
        moves += compress(_DISCARDS, hand)

    def problem(self, deal: MarriageState, a: Action) -> Reason | None:
        """M-5, M-6: a turn ends with a discard (not the discard taken this turn)."""
        return free_play_problem(deal) or discard_problem(deal, deal._to_move, a.cards[0])

    def play(self, deal: MarriageState, a: Action, detail: object) -> None:
        s = deal._to_move
        c = a.cards[0]
        deal._hands[s][c] -= 1
        deal._sizes[s] -= 1
        deal._pile.append(c)
        deal._log(act.DISCARD_TEXTS[c])
        if deal.rules.table_melding and deal._sizes[s] == 0:
            # M-8 (indian): every card melded on the table and the last one discarded.
            fin = Finish(MELDS_PATH, tuple(deal._melds[s]), CARDS[c])
            deal._close(s, fin, "finish")
            return
        deal._end_turn()


EXPOSE_VERB = _Expose()
PASS_VERB = _Pass()
DRAW_VERB = _Draw()
TAKE_VERB = _Take()
SHOW_VERB = _Show()
DUBLEE_VERB = _Dublee()
SEE_VERB = _See()
MELD_VERB = _Meld()
ADD_VERB = _Add()
TAKEBACK_VERB = _Takeback()
FINISH_VERB = _Finish()
DISCARD_VERB = _Discard()

VERBS: tuple[Verb[MarriageState], ...] = (
    EXPOSE_VERB,
    PASS_VERB,
    DRAW_VERB,
    TAKE_VERB,
    SHOW_VERB,
    DUBLEE_VERB,
    SEE_VERB,
    MELD_VERB,
    ADD_VERB,
    TAKEBACK_VERB,
    FINISH_VERB,
    DISCARD_VERB,
)
BY_KIND: dict[str, Verb[MarriageState]] = {v.name: v for v in VERBS}
#: the verbs that may list moves in each phase, in the legal list's order; in the play
#: phase by whether the seat to move has seen the tiplu (``MarriageState._list_legal``):
#: an unseen seat lists show steps (or ``see``), dublees and discards, a seen one its
#: finishes, table melds and additions, ``takeback`` and discards (only finishes when one
#: is due, M-9)
SEEN_PLAY = "play seen"
BY_PHASE: dict[str, tuple[Verb[MarriageState], ...]] = {
    EXPOSE_PHASE: (EXPOSE_VERB, PASS_VERB),
    DRAW_PHASE: (DRAW_VERB, TAKE_VERB),
    PLAY_PHASE: (SHOW_VERB, DUBLEE_VERB, DISCARD_VERB),  # ``show`` asks ``see``
    SEEN_PLAY: (FINISH_VERB, MELD_VERB, TAKEBACK_VERB, DISCARD_VERB),
    Phase.OVER: (),
}
