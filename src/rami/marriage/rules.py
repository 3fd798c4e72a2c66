"""Marriage rule options and the presets ``nepali`` (default) and ``indian``.

Each field is an option named in ``shared/rules/marriage.md`` (the rule id that
defines it is in the comment). ``rules_from(spec)`` reads a preset name or an object
``{"preset": "nepali", option: value, …}`` and rejects unknown options.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from rami.errors import InputError
from rami.options import build_rules, rules_to_json
from rami.views import OptionValue, RulesJson

__all__ = [
    "INDIAN",
    "NEPALI",
    "PRESETS",
    "MarriageRules",
    "dublees_to_finish",
    "melds_to_finish",
    "rules_from",
]


@dataclass(frozen=True)
class MarriageRules:
    preset_name: str = "nepali"
    min_players: int = 2  # M-1
    max_players: int = 5  # M-1: 5 nepali, 7 indian
    decks: int = 3  # M-1
    # M-1 (indian): the decks of a table of six or seven; None: ``decks`` at any size.
    # Three decks leave 8 cards in the stock at seven players (156 − 7·21 − 1): the
    # indian preset deals those tables from four (60 in the stock).
    decks_6_players: int | None = None
    direction: str = "clockwise"  # M-2: clockwise / counterclockwise
    hand_size: int = 21  # M-2
    deal_tunnela_bonus: bool = True  # M-3 (nepali only)
    meld_size: str = "exactly3"  # M-4: exactly3 / at_least3
    tunnela_melds: bool = True  # M-4: three identical cards are a meld (nepali)
    dublees: bool = True  # M-4, M-9 (nepali only)
    show_kinds: str = "sequence+tunnela"  # M-6: sequence+tunnela / sequence+trial
    table_melding: bool = False  # M-10 (indian)
    seen_may_take_wild_discard: bool = False  # M-5
    tiplu_chosen: str = "at_first_show"  # M-7: at_first_show / after_deal
    dublees_min_players: int = 2  # M-9
    stock_recycles: int | None = None  # M-11: None = unlimited (nepali), 1 (indian)
    shuffle_recycled: bool = True  # M-11: nepali shuffles, indian turns over
    max_turns: int | None = None  # M-11: cap on a deal's turns, off by default
    scoring: str = "nepali"  # M-12..M-14 (nepali) or M-15 (indian)
    unseen_maal_counts: bool = True  # M-12
    seen_fee: int = 3  # M-13
    unseen_fee: int = 10  # M-13
    dublee_bonus: int = 5  # M-9, M-13
    unseen_value_cap: int = 14  # M-15 (indian)
    leaver_rule: bool = False  # M-16: indian record rule for a player who leaves

    def validate(self) -> None:
        """Reject combinations that cannot be played (called by ``rules_from``)."""
        if not 2 <= self.min_players <= self.max_players:
            raise InputError("min_players must be at least 2 and at most max_players")
        if self.decks < 1:
            raise InputError("decks must be at least 1")
        if self.decks != 3 and "nepali" in (self.preset_name, self.scoring):
            # M-1: the nepali maal table (M-12) counts at most three identical cards.
            raise InputError(
                f"nepali plays with exactly 3 decks (decks {self.decks} given): its maal "
                "table counts at most three identical cards"
            )
        if self.decks_6_players is not None and self.decks_6_players < 1:
            raise InputError("decks_6_players must be at least 1, or null")
        if self.hand_size < 3:
            raise InputError("hand_size must be at least 3")
        need = self.max_players * self.hand_size + 3
        if need > 52 * self.decks:
            raise InputError(
                f"{self.decks} decks cannot deal {self.hand_size} cards to "
                f"{self.max_players} players"
            )

    @property
    def melds_at_least3(self) -> bool:
        return self.meld_size == "at_least3"

    @property
    def clockwise(self) -> bool:
        return self.direction == "clockwise"

    def for_players(self, players: int) -> MarriageRules:
        """These rules at a table of ``players`` (M-1): six or more players play with
        ``decks_6_players`` decks when that is more than ``decks`` (never with nepali
        maal, which counts three decks). Idempotent."""
        six = self.decks_6_players
        if six is None or players < 6 or six <= self.decks:
            return self
        if "nepali" in (self.preset_name, self.scoring):
            return self  # its maal table counts three identical cards at most (M-12)
        return dataclasses.replace(self, decks=six)

    def dublees_allowed(self, players: int) -> bool:
        """M-9: whether the dublee path is open at a table of ``players``."""
        return self.dublees and players >= self.dublees_min_players

    def to_json(self) -> RulesJson:
        return rules_to_json(self)


NEPALI = MarriageRules()
INDIAN = MarriageRules(
    preset_name="indian",
    max_players=7,
    direction="counterclockwise",
    deal_tunnela_bonus=False,
    meld_size="at_least3",
    tunnela_melds=False,
    dublees=False,
    show_kinds="sequence+trial",
    table_melding=True,
    seen_may_take_wild_discard=True,
    stock_recycles=1,
    shuffle_recycled=False,
    scoring="indian",
    decks_6_players=4,
)
PRESETS: dict[str, MarriageRules] = {"nepali": NEPALI, "indian": INDIAN}

CHOICES: dict[str, tuple[OptionValue, ...]] = {
    "direction": ("clockwise", "counterclockwise"),
    "meld_size": ("exactly3", "at_least3"),
    "show_kinds": ("sequence+tunnela", "sequence+trial"),
    "tiplu_chosen": ("at_first_show", "after_deal"),
    "scoring": ("nepali", "indian"),
}


def rules_from(spec: object = None) -> MarriageRules:
    """Rules from a preset name, an options object, or ``None`` (``nepali``).

    ``spec`` is unchecked input (a file, a request, a view's ``rules``): anything else,
    an unknown option or a badly typed value is an ``InputError``.
    """
    rules = build_rules(MarriageRules, PRESETS, spec, CHOICES)
    if isinstance(spec, Mapping) and "decks_6_players" not in spec and set(spec) >= _ALL_BUT_SIX:
        # a whole rules document written before the option: its tables were dealt from
        # ``decks`` at every size, and a replay must deal them so again
        rules = dataclasses.replace(rules, decks_6_players=None)
    return rules


_ALL_BUT_SIX = frozenset({"decks", "hand_size", "scoring", "max_players", "table_melding"})


def melds_to_finish(rules: MarriageRules) -> int:
    """M-8: melds that make a finished hand (seven for 21 cards)."""
    return rules.hand_size // 3


def dublees_to_finish(rules: MarriageRules) -> int:
    """M-9: dublees that finish (eight for 21 cards); one fewer shows."""
    return rules.hand_size // 2 - 2
