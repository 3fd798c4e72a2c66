"""Marriage's fixed action space (integer ids), one numbering per rules object.

Blocks, in id order (see ``docs/rl.md`` for the table of each preset):

- ``draw``, ``take``, ``pass``, ``see`` (M-3, M-5, M-6): one id each;
- ``expose c``, ``discard c``, ``finish c``, ``dublee c c``: one id per card kind (52);
- ``show …``: every pure meld a show may use (M-6): three-card sequences (ace low or
  high), tunnelas or trials, and with ``meld_size=at_least3`` the longer sequences and
  four-card trials;
- ``meld …`` (table melding, M-10, Indian): every multiset of three cards (wild cards
  make any three cards a candidate) and the longer pure melds;
- ``add c @i``: a card added to the seat's own table meld ``i`` (``i`` below
  ``hand_size // 3``);
- ``takeback`` (M-10, Indian): one id, last, so the ids before it did not move.

The numbering depends only on the rules, never on a deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement

from rami.action_space import ActionSpace
from rami.cards import CARDS, Card
from rami.engine import Action, GameState
from rami.marriage import actions as act
from rami.marriage.rules import MarriageRules, rules_from

__all__ = ["action_space", "owns"]


def _pure_melds(rules: MarriageRules) -> Iterator[tuple[Card, ...]]:
    """Every pure meld ``show_meld_options`` can return under ``rules``, sorted cards."""
    longest = 13 if rules.melds_at_least3 else 3
    for suit in range(4):
        for start in range(1, 13):
            for length in range(3, longest + 1):
                if start + length - 1 > 14:
                    break
                run = [CARDS[suit * 13 + (p - 1) % 13] for p in range(start, start + length)]
                yield tuple(sorted(run))
    if rules.show_kinds == "sequence+tunnela":
        for k in range(52):
            yield (CARDS[k],) * 3
    else:
        sizes = (3, 4) if rules.melds_at_least3 else (3,)
        for rank in range(13):
            for size in sizes:
                for suits in combinations(range(4), size):
                    yield tuple(CARDS[s * 13 + rank] for s in suits)


def _triples(rules: MarriageRules) -> Iterator[tuple[Card, ...]]:
    for combo in combinations_with_replacement(range(52), 3):
        if combo[0] == combo[2] and rules.decks < 3:
            continue
        if rules.decks < 2 and (combo[0] == combo[1] or combo[1] == combo[2]):
            continue
        yield tuple(CARDS[c] for c in combo)


@cache
def _space(rules: MarriageRules) -> ActionSpace:
    kinds = CARDS[:52]
    blocks: list[tuple[str, str, list[Action]]] = [
        ("draw", "draw from the stock (M-5)", [act.DRAW]),
        ("take", "take the latest discard (M-5)", [act.TAKE]),
        ("pass", "expose no more tunnelas (M-3)", [act.PASS]),
        ("see", "see with three exposed tunnelas (M-3, M-6)", [act.SEE]),
        ("expose", "expose the tunnela of this card (M-3)", [act.expose_action(c) for c in kinds]),
        ("discard", "discard this card", [act.discard_action(c) for c in kinds]),
        ("finish", "finish with this discard (M-8, M-9)", [act.finish_action(c) for c in kinds]),
        (
            "dublee",
            "show the dublee of this card (M-6, M-9)",
            [Action(act.DUBLEE, (c, c)) for c in kinds],
        ),
        ("show", "show this pure meld (M-6)", [Action(act.SHOW, m) for m in _pure_melds(rules)]),
    ]
    if rules.table_melding:
        melds = [Action(act.MELD, m) for m in _triples(rules)]
        melds += [Action(act.MELD, m) for m in _pure_melds(rules) if len(m) > 3]
        blocks.append(("meld", "lay this meld on the table (M-10)", melds))
        cap = rules.hand_size // 3
        adds = [Action(act.ADD, (c,), i) for i in range(cap) for c in kinds]
        blocks.append(("add", f"add a card to own table meld @0 … @{cap - 1} (M-10)", adds))
        blocks.append(("takeback", "pick up the cards laid this turn (M-10)", [act.TAKEBACK]))
    return ActionSpace(f"marriage/{rules.preset_name}", blocks)


def action_space(rules: object) -> ActionSpace:
    """The action space of Marriage under ``rules`` (a preset name, options or rules)."""
    return _space(rules_from(rules))


def owns(state: GameState) -> bool:
    """Whether ``state`` is a Marriage deal."""
    from rami.marriage.game import MarriageState

    return isinstance(state, MarriageState)
