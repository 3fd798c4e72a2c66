"""What the lobby and the rules pages show about each game: presets and their options.

Until the project's own rules pages (``docs/rules-<game>.md``) exist, the rules page is
a summary generated from the options of a preset, each with one line of help naming
the rule it comes from.
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

from rami.games import GAMES, get_game
from rami.server.bots import bot_levels

__all__ = ["OPTION_HELP", "games_info", "rules_document", "rules_summary"]

OPTION_HELP: dict[str, str] = {
    # Marriage (shared/rules/marriage.md)
    "min_players": "M-1: fewest players",
    "max_players": "M-1: most players",
    "decks": "M-1/T-1: standard decks in the shoe",
    "direction": "M-2: direction of play and of the deal",
    "hand_size": "M-2/T-2: cards dealt to each player",
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
    "unseen_value_cap": "M-15: cap on an unseen player's value points",
    "leaver_rule": "M-16: Indian record rule for a player who leaves",
    # Tunisian rami (shared/rules/tunisian.md)
    "players": "T-1: players at the table",
    "teams": "T-1: partners sit opposite (2 v 2)",
    "jokers": "T-1: printed jokers in the shoe",
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

#: Options a table may not change from the lobby (they define the preset itself).
FIXED_OPTIONS = frozenset({"preset", "preset_name", "players", "teams", "min_players"})

_CHOICE_MODULES = {"marriage": "rami.marriage.rules", "tunisian": "rami.tunisian.rules"}


def _choices(game: str) -> dict[str, tuple[object, ...]]:
    module = importlib.import_module(_CHOICE_MODULES[game])
    found = getattr(module, "CHOICES", {})
    return dict(found) if isinstance(found, dict) else {}


def _type_name(value: object, hint: str) -> str:
    if "bool" in hint:
        return "bool"
    if "int" in hint:
        return "int|null" if "None" in hint else "int"
    return "str"


def games_info() -> list[dict[str, object]]:
    """Every game with its presets (rules and allowed player counts) and the bot levels."""
    out: list[dict[str, object]] = []
    for spec in GAMES.values():
        presets = []
        for name in spec.presets:
            rules = spec.rules_from(name)
            presets.append(
                {"name": name, "players": list(spec.players_for(rules)), "rules": rules.to_json()}
            )
        out.append(
            {
                "name": spec.name,
                "title": spec.title,
                "preset_label": spec.preset_label,
                "presets": presets,
                "bot_levels": list(bot_levels()),
            }
        )
    return out


def rules_summary(
    game: str, preset: str, changes: dict[str, object] | None = None
) -> dict[str, object]:
    """The options of ``preset`` (with ``changes`` applied) and a line of help for each."""
    spec = get_game(game)
    base = spec.rules_from(preset)
    rules = spec.rules_from({"preset": preset, **(changes or {})})
    choices = _choices(spec.name)
    options = []
    for f in dataclasses.fields(rules):
        if f.name in FIXED_OPTIONS:
            continue
        value = getattr(rules, f.name)
        options.append(
            {
                "name": f.name,
                "value": value,
                "default": getattr(base, f.name),
                "choices": list(choices[f.name]) if f.name in choices else None,
                "type": _type_name(value, str(f.type)),
                "help": OPTION_HELP.get(f.name, ""),
            }
        )
    return {
        "game": spec.name,
        "title": spec.title,
        "preset": preset,
        "players": list(spec.players_for(rules)),
        "options": options,
        "document": rules_document(spec.name),
    }


def rules_document(game: str) -> str | None:
    """The project's rules page for ``game`` (``docs/rules-<game>.md``) when it exists."""
    root = Path(__file__).resolve().parents[3]
    for candidate in (root / "docs" / f"rules-{game}.md", root / "docs" / "rules" / f"{game}.md"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    return None
