"""What the lobby and the rules pages show about each game: presets and their options.

The rules page shows a preset's players' guide (static files ``static/rules/``), the
game's complete rules (``docs/rules-<game>.md``, packaged at build time) and its options,
each with one line of help naming the rule it comes from.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Mapping
from pathlib import Path

from rami.bots.strength import bot_strength
from rami.games import GAMES, get_game
from rami.server.bots import bot_levels

__all__ = [
    "CLIENT_PAGES",
    "OPTION_HELP",
    "PACKAGED_DOCS",
    "client_folders",
    "games_info",
    "learned_seat_levels",
    "rules_document",
    "rules_summary",
]


class _OptionHelp(Mapping[str, str]):
    """Every game's option help merged (a game's own line wins in ``rules_summary``)."""

    def _merged(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for spec in GAMES.values():
            if spec.option_help is not None:
                for name, text in spec.option_help().items():
                    out.setdefault(name, text)
        return out

    def __getitem__(self, name: str) -> str:
        return self._merged()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._merged())

    def __len__(self) -> int:
        return len(self._merged())


#: One line of help per option of every registered game (``Game.option_help``).
OPTION_HELP: Mapping[str, str] = _OptionHelp()

#: Options a table may not change from the lobby (they define the preset itself).
FIXED_OPTIONS = frozenset({"preset", "preset_name", "players", "teams", "min_players"})

#: Options the lobby does not offer (``"lobby": false``): the shoe and the hand, which
#: each preset fixes and no rule varies (docs/rules-*.md, "Decisions"); the library,
#: the CLI and the API still take them.
LIBRARY_OPTIONS = frozenset({"decks", "hand_size", "jokers"})


def _choices(game: str) -> dict[str, tuple[object, ...]]:
    spec = get_game(game)
    return dict(spec.option_choices()) if spec.option_choices is not None else {}


def _help_of(game: str) -> Mapping[str, str]:
    spec = get_game(game)
    return spec.option_help() if spec.option_help is not None else {}


def _type_name(value: object, hint: str) -> str:
    if "bool" in hint:
        return "bool"
    if "int" in hint:
        return "int|null" if "None" in hint else "int"
    return "str"


#: The pages whose per-game code a game's client folder may hold (``<page>.js``).
CLIENT_PAGES = ("table", "score")


def client_folders() -> dict[str, Path]:
    """Each game's folder of browser modules (``WebHooks.client``), served under
    ``/static/games/NAME/``."""
    out: dict[str, Path] = {}
    for spec in GAMES.values():
        folder = spec.web().client if spec.web is not None else None
        if folder is not None and folder.is_dir():
            out[spec.name] = folder
    return out


def _client_modules(name: str, folders: Mapping[str, Path]) -> dict[str, str | None]:
    """The URL of the game's module for each page, None where it has none (the page then
    shows what every game shares)."""
    folder = folders.get(name)
    return {
        page: f"/static/games/{name}/{page}.js"
        if folder is not None and (folder / f"{page}.js").is_file()
        else None
        for page in CLIENT_PAGES
    }


def learned_seat_levels(
    game: str, preset: str, players: tuple[int, ...]
) -> list[dict[str, object]]:
    """The shipped learned levels (``learned:NAME``) of a preset, each with the seat count
    it was trained for, so the lobby offers a model only at the table it fits. The server
    still judges a table's levels itself (``rami.server.lifecycle``); none without numpy."""
    return [{"level": level, "players": n} for level, n in _learned(game, preset, players)]


@functools.cache
def _learned(game: str, preset: str, players: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """Read once per process: the shipped models are files of the installed package, and
    looking them up per ``/api/games`` call doubled its cost (profiled)."""
    try:
        from rami.bots.learned import learned_levels
    except ImportError:  # pragma: no cover - the rl extra is missing
        return ()
    return tuple((level, n) for n in players for level in learned_levels(game, n, preset))


def games_info() -> list[dict[str, object]]:
    """Every game with its presets (rules, allowed player counts, the learned levels that
    fit them, the levels' measured strength from the shipped ladder) and the bot levels."""
    out: list[dict[str, object]] = []
    folders = client_folders()
    for spec in GAMES.values():
        presets = []
        for name in spec.presets:
            rules = spec.rules_from(name)
            players = spec.players_for(rules)
            presets.append(
                {
                    "name": name,
                    "players": list(players),
                    "rules": rules.to_json(),
                    "learned_levels": learned_seat_levels(spec.name, name, tuple(players)),
                    "bot_strength": bot_strength(spec.name, name),
                }
            )
        out.append(
            {
                "name": spec.name,
                "title": spec.title,
                "preset_label": spec.preset_label,
                "presets": presets,
                "bot_levels": list(bot_levels()),
                "signed_points": spec.signed_points,
                "higher_wins": spec.reward_sign > 0,
                "client": _client_modules(spec.name, folders),
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
    helps = _help_of(spec.name)
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
                "help": helps.get(f.name, ""),
                "lobby": f.name not in LIBRARY_OPTIONS,
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


#: Where a built package holds the complete rules documents: setup.py's ``build_py``
#: copies ``docs/rules-<game>.md`` here, so docs/ stays their one source and a
#: non-editable install still serves them (issue 28).
PACKAGED_DOCS = Path(__file__).resolve().parent / "rules_docs"


def rules_document(game: str) -> str | None:
    """The complete rules of ``game`` (``docs/rules-<game>.md``): the installed package's
    copy, else the checkout's docs/ (a run from the source tree)."""
    root = Path(__file__).resolve().parents[3]
    for candidate in (
        PACKAGED_DOCS / f"rules-{game}.md",
        root / "docs" / f"rules-{game}.md",
    ):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    return None
