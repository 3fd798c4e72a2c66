"""``rami play``: the command parser, the screens, the session loop and saves.

The parser is tested on small hand-made views (it reads only ``game``, ``rules``,
``seen``, ``hand``, ``discard_pile`` and ``legal_actions``) and on real engine views;
the screens on real views of both games; the session with scripted input and no
terminal. The pseudo-terminal tests are in ``test_play_pty.py``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from rich.console import Console

from rami.engine import Action
from rami.errors import InputError
from rami.games import get_game
from rami.marriage.game import MarriageState
from rami.play.commands import Command, parse_command
from rami.play.panels import Ledger, deal_end_screen
from rami.play.render import (
    Frame,
    hand_text,
    recent_lines,
    seat_names,
    to_ascii,
    turn_screen,
)
from rami.play.saves import SavedGame, latest_save, save_path
from rami.play.session import Session, Settings
from rami.tunisian.game import TunisianState
from rami.views import GameView

# --------------------------------------------------------------------- helpers


def mview(legal: list[str], **extra: Any) -> dict[str, Any]:
    """A hand-made Marriage view with just what the parser reads."""
    view: dict[str, Any] = {
        "game": "marriage",
        "rules": {"preset": "nepali", "table_melding": False},
        "seat": 0,
        "seen": False,
        "hand": ["7♣", "K♦"],
        "discard_pile": ["5♦", "7♥"],
        "legal_actions": legal,
    }
    view.update(extra)
    return view


def tview(legal: list[str], **extra: Any) -> dict[str, Any]:
    """A hand-made Tunisian rami view with just what the parser reads."""
    view: dict[str, Any] = {
        "game": "tunisian",
        "rules": {"preset": "1v1"},
        "seat": 0,
        "hand": ["5♥", "6♥", "7♥", "8♥", "JK"],
        "discard_pile": ["9♠"],
        "legal_actions": legal,
    }
    view.update(extra)
    return view


def act(text: str) -> Action:
    return Action.parse(text)


def played(cmd: Command) -> list[str]:
    assert cmd.kind == "act", cmd
    return [str(a) for a in cmd.actions]


def plain(items: list[Any], width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    for item in items:
        console.print(item)
    return console.export_text()


def frame(names: list[str], **extra: Any) -> Frame:
    return Frame(names=names, human=0, title=" test ", **extra)


# --------------------------------------------------------------------- parser


@pytest.mark.parametrize("text", ["d", "D", "draw", " draw ", "stock"])
def test_draw_words(text: str) -> None:
    assert played(parse_command(text, mview(["draw", "take"]))) == ["draw"]


@pytest.mark.parametrize("text", ["t", "take", "T", "t 7h", "take 7♥"])
def test_take_words_m5(text: str) -> None:
    assert played(parse_command(text, mview(["draw", "take"]))) == ["take"]


def test_take_names_only_the_latest_discard_m5() -> None:
    with pytest.raises(InputError, match=r"only the latest discard \(7♥\)"):
        parse_command("t 5d", mview(["draw", "take"]))


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("x 7c", "7♣"),
        ("x 7♣", "7♣"),
        ("X 7C", "7♣"),
        ("x7c", "7♣"),
        ("discard 10h", "10♥"),
        ("x th", "10♥"),
        ("throw Q♠️", "Q♠"),
        ("x jk", "JK"),
    ],
)
def test_discard_forms_n1(text: str, card: str) -> None:
    assert played(parse_command(text, mview([]))) == [f"discard {card}"]


def test_discard_needs_one_card() -> None:
    with pytest.raises(InputError, match="which card"):
        parse_command("x", mview([]))
    with pytest.raises(InputError, match="names one card"):
        parse_command("x 7c 8c", mview([]))


def test_bad_card_names_the_token_n1() -> None:
    with pytest.raises(InputError, match=r"bad card '11c' \(token 1\)"):
        parse_command("x 11c", mview([]))


def test_a_bare_card_says_how_to_discard() -> None:
    with pytest.raises(InputError, match="to discard 7♣, type 'x 7♣'"):
        parse_command("7c", mview([]))


def test_unknown_word() -> None:
    with pytest.raises(InputError, match="unknown command 'dance'"):
        parse_command("dance", mview([]))
    with pytest.raises(InputError, match="type a move"):
        parse_command("   ", mview([]))


@pytest.mark.parametrize(
    ("text", "kind"),
    [("help", "help"), ("h", "help"), ("?", "hint"), ("hint", "hint"), ("q", "quit")],
)
def test_meta_commands(text: str, kind: str) -> None:
    assert parse_command(text, mview([])).kind == kind


def test_show_lists_the_legal_shows_m6() -> None:
    legal = ["show 3♠ 4♠ 5♠", "show 6♥ 7♥ 8♥", "discard 7♣"]
    cmd = parse_command("show", mview(legal))
    assert cmd.kind == "choose"
    assert [str(a) for a in cmd.options] == legal[:2]
    assert played(parse_command("2", mview(legal), cmd.options)) == ["show 6♥ 7♥ 8♥"]
    assert played(parse_command("show 1", mview(legal))) == ["show 3♠ 4♠ 5♠"]


def test_show_with_one_option_plays_it_m6() -> None:
    assert played(parse_command("show", mview(["show 3♠ 4♠ 5♠", "discard 7♣"]))) == [
        "show 3♠ 4♠ 5♠"
    ]


def test_show_with_no_option_is_refused_m6() -> None:
    with pytest.raises(InputError, match="you cannot show now"):
        parse_command("show", mview(["discard 7♣"]))


def test_show_forms_m6() -> None:
    view = mview([])
    assert played(parse_command("show 3s 4s 5s", view)) == ["show 3♠ 4♠ 5♠"]
    assert played(parse_command("show 7c 7c", view)) == ["dublee 7♣ 7♣"]
    assert played(parse_command("dublee 7c", view)) == ["dublee 7♣ 7♣"]
    assert played(parse_command("show 3s 4s 5s 6h 6h 6h", view)) == [
        "show 3♠ 4♠ 5♠",
        "show 6♥ 6♥ 6♥",
    ]
    assert played(parse_command("show 3s 4s 5s ; 6h 6h 6h", view)) == [
        "show 3♠ 4♠ 5♠",
        "show 6♥ 6♥ 6♥",
    ]
    assert parse_command("show all", view).kind == "open"
    assert parse_command("open", view).kind == "open"


def test_numbers_need_a_list() -> None:
    with pytest.raises(InputError, match="no numbered choices"):
        parse_command("1", mview([]))
    with pytest.raises(InputError, match="from 1 to 2"):
        parse_command("3", mview([]), [act("draw"), act("take")])


def test_finish_m8() -> None:
    legal = ["finish K♦", "finish 7♣", "discard 7♣", "discard K♦"]
    assert played(parse_command("finish kd", mview(legal, seen=True))) == ["finish K♦"]
    cmd = parse_command("f", mview(legal, seen=True))
    assert cmd.kind == "choose" and len(cmd.options) == 2
    assert played(parse_command("finish", mview(["finish K♦"]))) == ["finish K♦"]
    with pytest.raises(InputError, match="cannot finish now"):
        parse_command("finish", mview(["discard 7♣"]))


def test_expose_and_pass_m3() -> None:
    assert played(parse_command("pass", mview(["expose 6♥", "pass"]))) == ["pass"]
    assert played(parse_command("expose", mview(["expose 6♥", "pass"]))) == ["expose 6♥"]
    assert played(parse_command("e 6h", mview(["expose 6♥", "pass"]))) == ["expose 6♥"]


def test_nepali_has_no_table_melds_m6() -> None:
    with pytest.raises(InputError, match="nobody adds"):
        parse_command("add 8h @0", mview([], seen=True))
    # before seeing, 'lay' means show
    assert played(parse_command("lay 3s 4s 5s", mview([]))) == ["show 3♠ 4♠ 5♠"]


def test_indian_lay_and_add_m10() -> None:
    view = mview([], rules={"preset": "indian", "table_melding": True}, seen=True)
    assert played(parse_command("lay 5h 6h 7h 8h", view)) == ["meld 5♥ 6♥ 7♥ 8♥"]
    assert played(parse_command("lay 8h @2", view)) == ["add 8♥ @2"]


def test_tunisian_lay_t6_t7() -> None:
    view = tview([])
    assert played(parse_command("lay 5h 6h 7h", view)) == ["meld 5♥ 6♥ 7♥"]
    assert played(parse_command("meld 5h JK 7h", view)) == ["meld 5♥ JK 7♥"]
    assert played(parse_command("lay 8h @2", view)) == ["add 8♥ @2"]
    assert played(parse_command("lay 5h 6h 7h ; 9s 9h 9d", view)) == [
        "meld 5♥ 6♥ 7♥",
        "meld 9♠ 9♥ 9♦",
    ]
    assert parse_command("open", view).kind == "open"
    with pytest.raises(InputError, match="no show"):
        parse_command("show", view)


def test_tunisian_add_finds_the_meld_t7() -> None:
    view = tview(["add 8♥ @1", "add 5♥ @0", "add 5♥ @3", "discard 8♥"])
    assert played(parse_command("add 8h", view)) == ["add 8♥ @1"]
    cmd = parse_command("add 5h", view)
    assert cmd.kind == "choose" and [a.target for a in cmd.options] == [0, 3]
    with pytest.raises(InputError, match="fits no meld"):
        parse_command("add 6h", view)


def test_tunisian_swap_t7() -> None:
    view = tview(["swap 7♥ @1", "swap 9♠ @2", "discard 7♥"])
    assert played(parse_command("swap JK 7h @1", view)) == ["swap 7♥ @1"]
    assert played(parse_command("swap 7h", view)) == ["swap 7♥ @1"]
    assert played(parse_command("swap @2", view)) == ["swap 9♠ @2"]
    assert parse_command("swap", view).kind == "choose"
    with pytest.raises(InputError, match="no joker swap"):
        parse_command("swap", tview(["discard 7♥"]))
    with pytest.raises(InputError, match="no joker swaps"):
        parse_command("swap 7h @1", mview([]))


def test_tunisian_finish_is_the_last_discard_t9() -> None:
    assert played(parse_command("finish", tview([], hand=["7♥"]))) == ["discard 7♥"]
    with pytest.raises(InputError, match="go out"):
        parse_command("finish", tview([]))


def test_parser_on_real_engine_views() -> None:
    """Whatever the parser makes of 'd' and 'x CARD' is what the engine lists as legal."""
    match = get_game("tunisian").new_match("1v1", None, 7)
    deal = match.current
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    card = view["hand"][0]
    (action,) = parse_command(f"x {to_ascii(card)}", view).actions
    assert str(action) in view["legal_actions"]


# --------------------------------------------------------------------- screens


def test_to_ascii() -> None:
    assert to_ascii("10♣ Q♥ · A♠ … ▶") == "10C QH - AS ... >"


def test_hand_grouped_by_suit() -> None:
    hand = ["K♦", "3♠", "A♠", "7♥", "JK", "10♣", "3♠"]
    assert hand_text(hand, ascii=False).plain == "♠ A 3 3   ♥ 7   ♦ K   ♣ 10   JK"
    assert hand_text(hand, ascii=True).plain == "S: A 3 3   H: 7   D: K   C: 10   JK"
    assert hand_text(["7♥", "J♣"], ascii=True, wilds=["J♣"]).plain == "H: 7   C: J*"


def test_seat_names() -> None:
    assert seat_names(4, 0, 2) == ["You", "Bot 1", "Partner 2", "Bot 3"]


def test_recent_lines_since_the_previous_turn() -> None:
    view = {
        "seat": 0,
        "to_move": 0,
        "history": [
            {
                "seat": 1,
                "event": "seat 1 deals; 5♣ is turned up",
                "code": "deals_turned",
                "args": {"seat": 1, "card": "5♣"},
            },
            {"seat": 0, "move": "draw 4♠"},
            {"seat": 0, "move": "discard 9♣"},
            {"seat": 1, "move": "take"},
            {"seat": 1, "move": "discard 2♦"},
            {
                "seat": 1,
                "event": "seat 1 sees the tiplu",
                "code": "sees",
                "args": {"seat": 1},
            },
            {"seat": 0, "move": "draw 7♥"},
        ],
    }
    assert recent_lines(view, ["You", "Bot 1"]) == [
        "Bot 1: take, discard 2♦",
        "Bot 1 sees the tiplu",
    ]


def _marriage_seen_by_seat_1() -> MarriageState:
    h0 = "A♠ 2♠ 7♠ 9♠ J♠ 2♥ 4♥ 10♥ Q♥ 3♦ 5♦ 7♦ Q♦ 2♣ 4♣ 6♣ 8♣ 10♣ Q♣ 5♥ 6♠"
    h1 = "3♠ 4♠ 5♠ 6♥ 7♥ 8♥ 9♦ 10♦ J♦ K♠ K♥ A♦ 3♣ 5♣ 7♣ 9♣ J♣ 2♦ 4♦ 6♦ 8♦"
    state = MarriageState.from_setup(
        "nepali", [h0, h1], discard="9♥", stock="3♥ 8♠", tiplu="K♣", dealer=0, seed=1
    )
    for a in ("pass", "pass", "draw", "show 3♠ 4♠ 5♠", "show 6♥ 7♥ 8♥", "show 9♦ 10♦ J♦"):
        state.apply(a)
    state.apply("discard K♠")
    return state


def test_marriage_screen_keeps_the_tiplu_hidden_m7() -> None:
    state = _marriage_seen_by_seat_1()
    names = ["You", "Bot 1"]
    unseen = plain(turn_screen(state.view(0), frame(names)))
    assert "K♣" not in unseen
    assert "Tiplu: picked, hidden until you see" in unseen
    assert "Bot 1     12 in hand seen   [3♠ 4♠ 5♠] [6♥ 7♥ 8♥] [9♦ 10♦ J♦]" in unseen
    assert "Your hand (21): ♠ A 2 6 7 9 J" in unseen
    assert "Bot 1: draw, show 3♠ 4♠ 5♠, show 6♥ 7♥ 8♥, show 9♦ 10♦ J♦" in unseen
    assert "Your move: d draw · t take K♠" in unseen
    seen = Frame(names=["Bot 0", "You"], human=1, title=" test ")
    mine = plain(turn_screen(state.view(1), seen))
    assert "Tiplu: K♣" in mine
    assert "wild:" in mine


def test_screens_fit_80_by_24() -> None:
    for game, preset in (("marriage", "nepali"), ("marriage", "indian"), ("tunisian", "ffa")):
        spec = get_game(game)
        players = 5 if preset == "nepali" else None
        match = spec.new_match(preset, players, 3)
        deal = match.current
        n = deal.num_players
        names = seat_names(n, 0)
        for _ in range(40):  # draw and discard a while, so piles and histories fill up
            if deal.is_over:
                break
            legal = deal.legal_actions()
            kinds = [a.kind for a in legal]
            step = "draw" if "draw" in kinds else "pass" if "pass" in kinds else "discard"
            deal.apply(legal[len(legal) - 1 - kinds[::-1].index(step)])
        for ascii in (False, True):
            text = plain(turn_screen(deal.view(0), frame(names, ascii=ascii)))
            if ascii:
                text = to_ascii(text)
                assert text.isascii()
            lines = text.rstrip("\n").split("\n")
            assert len(lines) <= 23, (game, preset, text)  # one line left for the prompt
            assert max(len(line) for line in lines) <= 80, text


def test_marriage_end_panel_m12_m13() -> None:
    view = {
        "game": "marriage",
        "result": {
            "scores": [31, -9, -22],
            "winner": 0,
            "details": {
                "tiplu": "J♣",
                "finisher": 0,
                "finish": {"kind": "melds", "groups": [["3♠", "4♠", "5♠"]], "discard": "K♦"},
                "reason": "finish",
                "players": [
                    {"seat": 0, "seen": True, "path": "melds", "maal": 10,
                     "maal_items": ["marriage 10♣ J♣ Q♣: 10"], "net": 31},
                    {"seat": 1, "seen": True, "path": "melds", "maal": 2,
                     "maal_items": ["jhiplu 10♣: 2"], "net": -9},
                    {"seat": 2, "seen": False, "path": None, "maal": 0,
                     "maal_items": [], "net": -22},
                ],
            },
        },
    }  # fmt: skip
    names = ["You", "Bot 1", "Bot 2"]
    ledger = Ledger("Ledger", names, [("1", [31, -9, -22])], [31, -9, -22])
    text = plain(deal_end_screen(view, names, ledger, ascii=False))
    assert "End of the deal: You finished with melds" in text
    assert "Tiplu: J♣" in text
    assert "marriage 10♣ J♣ Q♣: 10" in text
    assert "+31" in text and "-22" in text
    ascii = to_ascii(plain(deal_end_screen(view, names, ledger, ascii=True)))
    assert "Tiplu: JC" in ascii and ascii.isascii()


def test_tunisian_end_panel_t10() -> None:
    state = TunisianState.from_position(
        "1v1", ["5♥ 6♥ 7♥ 9♣", "K♠ JK 2♦"], opened=[True, True], to_move=0, phase="play"
    )
    state.apply("meld 5♥ 6♥ 7♥")
    state.apply("discard 9♣")
    names = ["You", "Bot 1"]
    ledger = Ledger("Totals", names, [("1", [0, 62])], [0, 62], signed=False)
    text = plain(deal_end_screen(state.view(0), names, ledger, ascii=False))
    assert "End of the deal: You went out" in text
    assert "Bot 1    yes      K♠ 2♦ JK         62" in text


# --------------------------------------------------------------------- session


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path


def scripted(lines: list[str]) -> Any:
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def run_session(game: str, preset: str, lines: list[str], seed: int = 5) -> tuple[Session, str]:
    spec = get_game(game)
    match = spec.new_match({"preset": preset, "max_turns": 30}, None, seed)
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    settings = Settings(game, "easy", seed, 0, ascii=True, delay=0)
    session = Session(match, settings, console=console, read=scripted(lines))
    session.run()
    return session, out.getvalue()


def test_session_refuses_and_changes_nothing(data_home: Path) -> None:
    session, _ = run_session("tunisian", "1v1", [])
    deal = session.match.current
    assert deal.to_move == 0
    if deal.view(0)["phase"] == "draw":
        session.read = scripted(["d"])
        session.run()
    before = deal.view(0)
    assert before["phase"] == "play"
    absent = next(c for c in ("2♣", "3♣", "4♣", "5♣") if c not in before["hand"])
    session.read = scripted([f"x {absent}", "lay 2c 3c"])
    session.run()
    (style, text), *_ = session.screen.notes
    assert style == "error"
    assert text.startswith("'meld 2C 3C' refused: ")  # the last command's reason
    assert deal.view(0) == before
    session.read = scripted([f"x {absent}"])
    session.run()
    assert session.screen.notes == [
        ("error", f"'discard {to_ascii(absent)}' refused: you do not hold {absent}")
    ]
    assert deal.view(0) == before


def test_session_plays_a_deal_and_saves(data_home: Path) -> None:
    # Draw and discard the drawn card every turn: the deal ends (a bot goes out, or
    # the 30-turn cap), the end panel shows, then the player leaves and the match is saved.
    lines: list[str] = []
    session, _ = run_session("tunisian", "1v1", lines)
    for _ in range(200):
        deal = session.match.current
        if deal.is_over:
            break
        view = deal.view(0)
        if view["phase"] == "draw":
            session.read = scripted(["d"])
        else:
            session.read = scripted([f"x {view['hand'][-1]}"])
        session.run()
    assert session.match.current.is_over
    out = io.StringIO()
    session.console = Console(file=out, width=80, color_system=None)
    session.read = scripted(["q"])
    assert session.run() == 0
    text = out.getvalue()
    assert "End of the deal" in text and "Totals (points are bad)" in text
    saved = SavedGame.read(latest_save())
    assert saved.game == "tunisian" and saved.level == "easy"
    resumed = get_game("tunisian").match_from_json(saved.match)
    assert resumed.current.is_over
    assert resumed.to_json() == session.match.to_json()


def test_saves_live_in_the_data_dir(data_home: Path) -> None:
    assert save_path("marriage") == data_home / "rami" / "play-marriage.json"
    with pytest.raises(InputError, match="no saved game"):
        latest_save()
    bad = data_home / "rami" / "play-marriage.json"
    bad.parent.mkdir(parents=True)
    bad.write_text(json.dumps({"format": "other"}))
    with pytest.raises(InputError, match="not a game saved"):
        SavedGame.read(latest_save())


def test_moves_line_words_come_from_the_game_hooks_m3_m6() -> None:
    """The moves line names Marriage's own verbs where it always did (issue 22: from
    the game's ``TerminalHooks.verb_words``, not from the terminal's code)."""
    from rami.play.render import _verbs

    def line(legal: list[str], **extra: Any) -> str:
        view = mview(legal, to_move=0, **extra)
        return _verbs(cast(GameView, view), frame(["You", "Bot 1"])).plain

    assert (
        line(["expose 6♥", "pass"])
        == "Your move: expose CARD (a tunnela) · pass · ? hint · help · q quit"
    )
    assert line(["finish 7♣", "show 3♠ 4♠ 5♠", "dublee 7♣ 7♣", "discard 7♣"]) == (
        "Your move: finish CARD ★ · show · x CARD discard · ? hint · help · q quit"
    )
    tunisian = cast(GameView, tview(["meld 5♥ 6♥ 7♥", "knock", "discard 7♣"], to_move=0))
    assert _verbs(tunisian, frame(["You", "Bot 1"])).plain == (
        "Your move: open · x CARD discard · knock · ? hint · help · q quit"
    )
