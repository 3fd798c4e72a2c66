"""The terminal reads a game's command words from its verbs' own metadata (``Game.verbs``:
name, aliases, shorthand), so no terminal hook holds a game's verb words (issue 22)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from toy_game import GAME as TOY
from toy_game.game import VERBS

from rami.cards import parse_card
from rami.engine import Action
from rami.errors import InputError
from rami.games import get_game, register, unregister
from rami.play.commands import parse_command
from rami.play.hooks import TerminalHooks
from rami.play.panels import help_lines
from rami.views import GameView

# every preset, so that the verbs of each rule set (Indian Marriage's table melds, M-10)
# meet a deal they belong to
CASES = [(g, p) for g in ("marriage", "tunisian") for p in get_game(g).presets]


def _view(game: str, preset: str) -> GameView:
    spec = get_game(game)
    return spec.new_match(preset, None, 7).view(0)


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_every_verbs_aliases_and_shorthand_are_terminal_words(game: str, preset: str) -> None:
    """Each alias and shorthand a verb declares is a word the terminal reads (M-*, T-*
    verbs alike): typed alone, it is a command or a clear request for more, never
    'unknown command'."""
    view = _view(game, preset)
    verbs = get_game(game).verbs
    assert verbs is not None
    words = [(v.name, w) for v in verbs() for w in (*v.aliases, v.shorthand) if w]
    assert words
    for name, word in words:
        try:
            parse_command(word, view)
        except InputError as exc:
            assert "unknown command" not in str(exc), (name, word, str(exc))
            assert not str(exc).startswith("to discard"), (name, word, str(exc))


def test_marriage_words_come_from_its_verbs() -> None:
    """'dub 7c', 'e 6h' and the card glued to a one-letter shorthand ('e6h') are read as
    the game's own verbs (M-3, M-6), though the terminal's hooks hold no word for them."""
    view = _view("marriage", "nepali")
    assert not hasattr(TerminalHooks(), "aliases") and not hasattr(TerminalHooks(), "glued")
    six = parse_card("6h")
    assert parse_command("e 6h", view).actions == (Action("expose", (six,)),)
    assert parse_command("e6h", view).actions == (Action("expose", (six,)),)
    assert parse_command("expose6h", view).actions == (Action("expose", (six,)),)
    seven = parse_card("7c")
    assert parse_command("dub 7c", view).actions == (Action("dublee", (seven, seven)),)
    with pytest.raises(InputError, match="unknown command 'dub7c'"):
        parse_command("dub7c", view)  # a longer shorthand takes no glued card


def test_tunisian_has_no_marriage_words() -> None:
    """A verb of another game is no word here (T-*: Tunisian rami has no dublee)."""
    view = _view("tunisian", get_game("tunisian").presets[0])
    with pytest.raises(InputError, match="unknown command 'dub'"):
        parse_command("dub 7c", view)


def test_a_plugin_verb_is_typed_by_its_shorthand_and_helped_by_its_metadata() -> None:
    """A game that writes no terminal hooks (the toy) gets its verbs' words and help
    lines from the verbs themselves: 'k 7c' and 'k7c' knock, 'help' says what knock is."""
    toy = register(replace(TOY, verbs=lambda: VERBS))  # a plug-in that gives its verbs
    try:
        match = toy.new_match(toy.presets[0], None, 3)
        state = match.current
        while state.to_move != 0 or not any(a.kind == "knock" for a in state.legal_actions()):
            assert not state.is_over
            state.apply(state.legal_actions()[0])
        view = state.view(0)
        knock = next(a for a in state.legal_actions() if a.kind == "knock")
        card = str(knock.cards[0])
        assert parse_command(f"k {card}", view).actions == (knock,)
        assert parse_command(f"k{card}", view).actions == (knock,)
        assert parse_command(f"knock {card}", view).actions == (knock,)
        lines = help_lines("toy", view)
        assert "k / knock         discard a card, the rest of the hand all melds: out" in lines
        assert not any(line.startswith("draw ") for line in lines[2:])  # a common word
    finally:
        unregister(toy.name)
