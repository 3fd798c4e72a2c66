"""The plug-in surface (issue 22): registration written once, as lazy references.

A game's registration names its hooks as ``module:name`` references (``rami.games.lazy``,
``lazy_value``) imported on first use; these tests resolve every reference of every
registered game, so a typo fails here rather than in a front end, and check the few
defaults a plug-in relies on.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import subprocess
import sys

import pytest
from toy_support import ROOT, TOY, games_with_toy, toy_registered

from rami.cli.hooks import CliCommands
from rami.errors import InputError
from rami.games import Game, Lazy, LazyValue, action_space_of, fixed_seats, lazy, lazy_value
from rami.play.hooks import TerminalHooks
from rami.review.hooks import ReviewHooks
from rami.rl.hooks import OpenSpielHooks
from rami.server.hooks import WebHooks

GAMES = games_with_toy()
# what each ``lazy_value`` hook must give
RECORDS: dict[str, type | tuple[type, ...]] = {
    "cli": CliCommands,
    "terminal": TerminalHooks,
    "web": WebHooks,
    "review": ReviewHooks,
    "openspiel": OpenSpielHooks,
    "option_help": dict,
    "option_choices": dict,
}


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_reference_of_a_game_resolves(game: Game) -> None:
    """Each ``lazy`` hook names a function, each ``lazy_value`` one a record of its kind."""
    refs = 0
    for field in dataclasses.fields(game):
        hook = getattr(game, field.name)
        if isinstance(hook, LazyValue):
            assert isinstance(hook(), RECORDS[field.name]), (game.name, field.name)
        elif isinstance(hook, Lazy):
            assert callable(hook.target()), (game.name, hook.ref)
        else:
            continue
        refs += 1
    assert refs or game is TOY  # the toy imports its own modules


def test_registering_a_built_in_game_imports_none_of_its_modules() -> None:
    """The registry loads the built-ins' ``registration`` modules only: the rules, the
    engines and the front ends' extras load when a consumer first asks."""
    code = (
        "import json, sys; from rami.games import all_games; all_games(); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('rami.') and "
        "m.split('.')[-1] != 'registration' and m.count('.') > 1)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    loaded = json.loads(done.stdout)
    games = {g.name for g in GAMES}
    assert not [m for m in loaded if m.split(".")[1] in games], loaded


def test_a_reference_pickles_as_its_name_and_is_imported_once() -> None:
    fn = lazy("rami.cards:parse_card")
    assert fn("A♠") == fn.target()("A♠")  # type: ignore[attr-defined]
    again = pickle.loads(pickle.dumps(fn))
    assert isinstance(again, Lazy) and again.ref == "rami.cards:parse_card"
    assert str(again("K♥")) == "K♥"
    value = lazy_value("rami.cards:CARDS")
    assert value() is value() and len(value()) >= 52
    assert fn.__module__ == "rami.cards" and fn.__name__ == "parse_card"
    with pytest.raises(ValueError, match="module:name"):
        lazy("rami.cards")
    with pytest.raises(AttributeError):
        lazy("rami.cards:no_such_thing")("A♠")


def test_the_defaults_a_plug_in_leaves_out() -> None:
    """The toy fills seven fields: its seats come from ``rules.players``, its presets are
    called "rules", and a deal finds its game (integer ids) by its ``to_json`` "game"."""
    set_fields = [f.name for f in dataclasses.fields(TOY) if getattr(TOY, f.name) != f.default]
    assert len(set_fields) <= 7, set_fields
    rules = TOY.rules_from("short")
    assert TOY.players_for(rules) == fixed_seats(rules) == (2,)
    assert TOY.preset_label == "rules" and TOY.preset_for(2) == "classic"
    with pytest.raises(TypeError, match="players_for"):
        fixed_seats(object())
    with pytest.raises(InputError):
        action_space_of(object())  # type: ignore[arg-type]
    with toy_registered():
        deal = TOY.new_match("classic", None, 1).current
        assert TOY.action_space is not None
        assert action_space_of(deal).digest() == TOY.action_space("classic").digest()


def test_a_game_needs_deals_or_a_match_of_its_own() -> None:
    with pytest.raises(ValueError, match="new_deal"):
        Game(name="bare", title="Bare", presets=("x",), rules_from=TOY.rules_from)
    with pytest.raises(ValueError, match="together"):
        Game(
            name="half",
            title="Half",
            presets=("x",),
            rules_from=TOY.rules_from,
            new_deal=TOY.new_deal,
            load_match=TOY.match_from_json,
        )


def test_the_default_match_resumes_and_refuses_bad_documents() -> None:
    """``rami.points_match``: a saved match replays to the same standing; a damaged one,
    or another game's, is one ``InputError`` line."""
    with toy_registered():
        match = TOY.new_match("short", None, 4)
        while not match.is_over:
            if match.current.is_over:
                match.next_deal()
            else:
                match.apply(match.current.legal_actions()[-1])
        doc = match.to_json()
        again = TOY.match_from_json(json.loads(json.dumps(doc)))
        assert again.standing() == match.standing() and again.standing()["game_over"]
        for bad in ({**doc, "game": "other"}, {**doc, "seed": "x"}, {"game": "toy"}):
            with pytest.raises(InputError, match="not a saved Toy rummy match"):
                TOY.match_from_json(bad)
        with pytest.raises(InputError, match="not a saved Toy rummy match"):
            TOY.match_from_json({**doc, "deals": [["fly"]]})
