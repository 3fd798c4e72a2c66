"""Tunisian rami rule options (``shared/rules/tunisian.md``) and the mode presets.

The three modes are presets: ``1v1`` (2 players), ``ffa`` (4, each for themselves) and
``2v2`` (4, seats 0 and 2 against 1 and 3). ``rules_from(spec)`` reads a mode name or
``{"preset": "ffa", option: value, …}`` and rejects unknown options.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rami.errors import InputError
from rami.options import build_rules, rules_to_json
from rami.views import RulesJson

__all__ = ["MODES", "PRESETS", "TunisianRules", "rules_from"]


@dataclass(frozen=True)
class TunisianRules:
    preset_name: str = "1v1"  # T-1: the mode, 1v1 / ffa / 2v2
    players: int = 2  # T-1
    teams: bool = False  # T-1: 2v2 partners sit opposite
    decks: int = 2  # T-1
    jokers: int = 4  # T-1
    hand_size: int = 14  # T-2 (the dealer gets one more)
    opening_threshold: int = 71  # T-6
    opening_step: int = 1  # T-6
    taken_card_in_opening: bool = False  # T-8: must the taken discard be in the opening
    ace_in_hand: int = 10  # T-5
    joker_in_hand: int = 50  # T-5, T-10
    unopened_penalty: int = 100  # T-10
    rediscard_taken: bool = False  # T-3: may the taken discard be discarded the same turn
    max_turns: int | None = 400  # T-11: cap on a deal's turns; 0 (or null) for no cap
    elimination: int = 701  # T-13 (1v1, ffa)
    team_elimination: int = 1001  # T-13 (2v2)

    def validate(self) -> None:
        if self.preset_name == "1v1" and self.players != 2:
            raise InputError("mode 1v1 has 2 players")
        if self.preset_name in ("ffa", "2v2") and self.players != 4:
            raise InputError(f"mode {self.preset_name} has 4 players")
        if not 1 <= self.decks <= 3:
            raise InputError("decks must be 1 to 3 (the solvers count at most 3 copies)")
        if self.jokers > 7:
            raise InputError("jokers must be 0 to 7")
        if self.players * self.hand_size + 2 > 52 * self.decks + self.jokers:
            raise InputError("not enough cards for this many players")

    @property
    def mode(self) -> str:
        return self.preset_name

    def to_json(self) -> RulesJson:
        return rules_to_json(self)


ONE_V_ONE = TunisianRules()
PRESETS: dict[str, TunisianRules] = {
    "1v1": ONE_V_ONE,
    "ffa": replace(ONE_V_ONE, preset_name="ffa", players=4),
    "2v2": replace(ONE_V_ONE, preset_name="2v2", players=4, teams=True),
}
MODES = tuple(PRESETS)


def rules_from(spec: object = None) -> TunisianRules:
    """Rules from a mode name, an options object, or ``None`` (``1v1``); like Marriage's
    ``rules_from``, ``spec`` is unchecked input."""
    return build_rules(TunisianRules, PRESETS, spec)
