"""``rami ledger`` in a real pseudo-terminal (80 × 24): a table keeps its evening's ledger.

A scripted scorekeeper answers the questions the way a person types them: a Marriage
evening (the M-13 worked example with the maal as cards, a deal with no finisher, a
maal no hand can hold refused with nothing changed, an undo, an edit of the first deal
with the totals recomputed), quitting and coming back to the same totals; then a
Tunisian 1 v 1 evening with points and cards left (jokers 50, unopened 100, T-10).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

if sys.platform == "win32":  # pragma: no cover - pexpect.spawn needs a POSIX pty
    pytest.skip("pseudo-terminals are POSIX only", allow_module_level=True)

PROMPT = r"\n> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Keeper:
    """The person at the terminal."""

    def __init__(self, args: list[str], home: Path) -> None:
        env = dict(os.environ, XDG_DATA_HOME=str(home), TERM="xterm", COLUMNS="80", LINES="24")
        self.child = pexpect.spawn(
            sys.executable,
            ["-c", "from rami.cli import main; main()", "ledger", *args],
            env=env,
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=20,
        )
        self.screen = ""

    def menu(self) -> str:
        """Wait for the command prompt; return what was printed before it."""
        self.child.expect(PROMPT)
        self.screen = ANSI.sub("", (self.child.before or "").replace("\r\n", "\n"))
        return self.screen

    def say(self, text: str) -> None:
        self.child.sendline(text)

    def refused(self, reason: str) -> None:
        """The answer just given was refused with ``reason`` (the question comes again)."""
        self.child.expect(r"not taken: (.*); answer again")
        said = ANSI.sub("", self.child.match.group(1))
        assert reason in said, said

    def answer(self, question: str, text: str) -> None:
        self.child.expect(re.escape(question))
        self.child.expect(r": ")
        self.child.sendline(text)


def totals_line(screen: str) -> list[str]:
    line = [ln for ln in screen.splitlines() if ln.strip().startswith("=")][-1]
    return line.split()[1:]


def marriage_deal(k: Keeper, tiplu: str, rows: list[tuple[str, str]], finisher: str) -> None:
    k.say("a")
    k.answer("Tiplu", tiplu)
    for name, (status, maal) in zip(["Asha", "Bikash", "Chandra"], rows, strict=True):
        k.answer(f"{name}: unseen, seen or dublees?", status)
        k.answer(f"{name}: maal", maal)
    k.answer("Who finished?", finisher)


def test_marriage_evening_in_the_terminal(tmp_path: Path) -> None:
    k = Keeper(["new", "marriage", "--players", "Asha,Bikash,Chandra"], tmp_path)
    screen = k.menu()
    assert "Marriage · nepali · 3 players · 0 deals" in screen
    assert "dealer Asha" in screen

    # M-13 worked example, the maal typed as cards (ASCII or symbols)
    marriage_deal(k, "J♣", [("s", "10C JC QC"), ("s", "10♣"), ("u", "")], "Asha")
    screen = k.menu()
    assert totals_line(screen) == ["+31", "-9", "-22", "sum", "0"]
    assert "dealer Bikash" in screen  # M-2: the deal passes on

    # M-14: nobody finishes, Bikash's maal as a number
    marriage_deal(k, "5H", [("u", ""), ("s", "5"), ("s", "")], "")
    assert totals_line(k.menu()) == ["+26", "+1", "-27", "sum", "0"]

    # each answer is checked as typed (issue 23): a bad card, letter, maal or name is
    # refused at once with its reason and the same question comes again; the deal's other
    # answers are kept
    k.say("a")
    k.answer("Tiplu", "ZZ")
    k.refused("bad card 'ZZ'")
    k.answer("Tiplu", "JK")
    k.refused("Marriage has no printed jokers")  # M-12
    k.answer("Tiplu", "2S")
    k.answer("Asha: unseen, seen or dublees?", "x")
    k.refused("answer u (unseen), s (seen) or d (dublees)")
    k.answer("Asha: unseen, seen or dublees?", "s")
    k.answer("Asha: maal", "1")
    k.refused("no hand scores a maal of 1 (the nearest possible: 0 or 2)")
    k.answer("Asha: maal", "10C 1X")
    k.refused("bad card '1X'")
    k.answer("Asha: maal", "2")
    k.answer("Bikash: unseen, seen or dublees?", "u")
    k.answer("Bikash: maal", "")
    k.answer("Chandra: unseen, seen or dublees?", "u")
    k.answer("Chandra: maal", "")
    k.answer("Who finished?", "Zed")
    k.refused("'Zed' is not one of the players (Asha, Bikash, Chandra)")
    k.answer("Who finished?", "Chandra")
    k.refused("Chandra did not see (show), so cannot have finished")
    k.answer("Who finished?", "")
    screen = k.menu()
    assert "error" not in screen and "3 deals" in screen
    k.say("u")  # undo deal 3
    assert totals_line(k.menu()) == ["+26", "+1", "-27", "sum", "0"]

    k.say("u")  # undo deal 2
    assert totals_line(k.menu()) == ["+31", "-9", "-22", "sum", "0"]
    marriage_deal(k, "5H", [("u", ""), ("s", "5"), ("s", "")], "")
    k.menu()

    # edit deal 1: Chandra had seen after all (the old answers are the defaults)
    k.say("e 1")
    k.answer("Tiplu", "")
    k.answer("Asha: unseen, seen or dublees?", "")
    k.answer("Asha: maal", "")
    k.answer("Bikash: unseen, seen or dublees?", "")
    k.answer("Bikash: maal", "")
    k.answer("Chandra: unseen, seen or dublees?", "s")
    k.answer("Chandra: maal", "")
    k.answer("Who finished?", "")
    screen = k.menu()
    assert totals_line(screen) == ["+19", "+1", "-20", "sum", "0"]
    k.say("s 1")
    screen = k.menu()
    assert "Chandra pays Asha 13" in screen and "Bikash pays Asha 11" in screen
    k.say("q")
    k.child.expect(pexpect.EOF)

    # the ledger was saved: the same totals when the table comes back
    k = Keeper([], tmp_path)
    assert totals_line(k.menu()) == ["+19", "+1", "-20", "sum", "0"]
    k.say("q")
    k.child.expect(pexpect.EOF)


def run(args: list[str], home: Path, stdin: str = "") -> Any:
    env = dict(os.environ, XDG_DATA_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-c", "from rami.cli import main; main()", "ledger", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )


def test_tunisian_evening_in_the_terminal(tmp_path: Path) -> None:
    k = Keeper(["new", "tunisian", "--mode", "1v1", "--players", "Sami,Ines"], tmp_path)
    assert "Tunisian rami · 1v1" in k.menu()
    k.say("a")
    k.answer("Who went out?", "Sami")
    k.answer("Ines: points, or the cards left", "JK K♠ AD")  # 50 + 10 + 10 (T-5)
    assert totals_line(k.menu())[:2] == ["0", "70"]
    k.say("a")
    k.answer("Who went out?", "Ines")
    k.answer("Sami: points, or the cards left", "-")  # not opened: 100 (T-10)
    screen = k.menu()
    assert totals_line(screen)[:2] == ["100", "70"]
    k.say("a")
    k.answer("Who went out?", "Nour")
    k.refused("'Nour' is not one of the players (Sami, Ines)")
    k.answer("Who went out?", "Ines")
    k.answer("Sami: points, or the cards left", "-4")
    k.refused("must not be negative")
    k.answer("Sami: points, or the cards left", "7C 1Z")
    k.refused("bad card '1Z'")
    k.answer("Sami: points, or the cards left", "100000")
    k.refused("not 100000")  # more than any hand of cards left (T-5)
    k.answer("Sami: points, or the cards left", "7C")
    screen = k.menu()
    assert totals_line(screen)[:2] == ["107", "70"] and "3 deals" in screen
    k.say("u")
    assert totals_line(k.menu())[:2] == ["100", "70"]
    k.say("q")
    k.child.expect(pexpect.EOF)

    shown = run(["show", "--json"], tmp_path)
    assert shown.returncode == 0
    result = json.loads(shown.stdout)
    assert result["totals"] == [100, 70] and result["next_dealer"] == "Sami"
    exported = run(["export"], tmp_path).stdout
    assert run(["import", "-"], tmp_path / "other", exported).returncode == 0
    bad = run(["add", "-"], tmp_path, '{"winner": "Zed", "players": [{}, {}]}')
    assert bad.returncode == 2
    assert bad.stderr.strip() == "error: deal 3: the winner 'Zed' is not one of the players"
