"""One line of help per Marriage rules option, naming its rule (shared/rules/marriage.md).

The lobby's and the rules page's option lists (``Game.option_help``).
"""

from __future__ import annotations

__all__ = ["OPTION_HELP"]

OPTION_HELP: dict[str, str] = {
    "min_players": "M-1: fewest players",
    "max_players": "M-1: most players",
    "decks": "M-1/T-1: standard decks in the shoe (the preset's; library and CLI only)",
    "decks_6_players": "M-1: decks at a table of six or seven (indian 4; empty: as decks)",
    "direction": "M-2: direction of play and of the deal",
    "hand_size": "M-2/T-2: cards dealt to each player (the preset's; library and CLI only)",
    "deal_tunnela_bonus": "M-3: tunnelas may be exposed right after the deal for a bonus",
    "meld_size": "M-4: melds of exactly three cards, or three or more",
    "tunnela_melds": "M-4: three identical cards (tunnela) are a meld",
    "dublees": "M-4, M-9: the dublee path (seven dublees to see, eight to finish)",
    "show_kinds": "M-6: melds that may be shown to see the tiplu",
    "table_melding": "M-10: melds are laid on the table during play",
    "seen_may_take_wild_discard": "M-5: a seen player may take a wild card from the discard",
    "tiplu_chosen": "M-7: when the tiplu is drawn",
    "dublees_min_players": "M-9: fewest players for the dublee path",
    "stock_recycles": "M-11: how often the discard pile becomes the stock (empty: unlimited)",
    "shuffle_recycled": "M-11: the recycled discard pile is shuffled",
    "max_turns": "M-11/T-11: cap on a deal's turns (empty: none; Tunisian also 0)",
    "scoring": "M-12 … M-15: Nepali maal and settlement, or Indian scoring",
    "unseen_maal_counts": "M-12: an unseen player's maal counts",
    "seen_fee": "M-13: what a seen player pays the finisher",
    "unseen_fee": "M-13: what an unseen player pays the finisher",
    "dublee_bonus": "M-9, M-13: extra paid to a dublee finisher",
    "unseen_value_cap": "M-15: most value points an unseen player collects (min(actual, cap))",
    "leaver_rule": (
        "M-16: the seed's record rule for a leaver, meant for penalty points (off: rami"
        " counts points won, where it would reward leaving)"
    ),
}
