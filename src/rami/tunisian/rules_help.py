"""One line of help per Tunisian rami rules option, naming its rule (shared/rules/tunisian.md).

The lobby's and the rules page's option lists (``Game.option_help``).
"""

from __future__ import annotations

__all__ = ["OPTION_HELP"]

OPTION_HELP: dict[str, str] = {
    "decks": "M-1/T-1: standard decks in the shoe (the preset's; library and CLI only)",
    "hand_size": "M-2/T-2: cards dealt to each player (the preset's; library and CLI only)",
    "max_turns": "M-11/T-11: cap on a deal's turns (empty: none; Tunisian also 0)",
    "players": "T-1: players at the table",
    "teams": "T-1: partners sit opposite (2 v 2)",
    "jokers": "T-1: printed jokers in the shoe (the preset's; library and CLI only)",
    "opening_threshold": "T-6: value the first man3a needs",
    "opening_step": "T-6: each later man3a needs this much more than the previous one",
    "taken_card_in_opening": "T-8: the discard taken before opening must be in the man3a",
    "rediscard_taken": "T-3: the card taken from the discard pile may be discarded that turn",
    "ace_in_hand": "T-5: an ace left in hand counts",
    "joker_in_hand": "T-5, T-10: a joker left in hand counts",
    "unopened_penalty": "T-10: a player who never opened scores",
    "elimination": "T-13: total that eliminates a player",
    "team_elimination": "T-13: total that eliminates a team (2 v 2)",
}
