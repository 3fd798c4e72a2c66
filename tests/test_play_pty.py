"""``rami play`` in a real pseudo-terminal (80 × 24): a scripted person plays whole deals.

Each test starts ``rami play`` with a fixed seed, easy bots and no pause between bot
turns, reads every screen the way a person would (the verbs line, ``This turn: draw
…``, the hand), answers with the commands a person types, and checks that the screens
show the right things, that an illegal command is refused with a reason and changes
nothing, that the end-of-deal panels and the ledger appear, and that a match saved with
``q`` resumes with ``rami play --resume``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

if sys.platform == "win32":  # pragma: no cover - pexpect.spawn needs a POSIX pty
    pytest.skip("pseudo-terminals are POSIX only", allow_module_level=True)

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]")
CLEAR = "\x1b[2J"
TURN = r"Your move: [^\n]*\n> "
DEAL_END = r"Enter: next deal[^\n]*\n> "
MAX_STEPS = 400  # commands in one deal: far more than the turn cap allows


class Player:
    """A person at the terminal: reads screens, types commands."""

    def __init__(self, args: list[str], home: Path) -> None:
        env = dict(os.environ)
        env.update(
            XDG_DATA_HOME=str(home), RAMI_PLAY_DELAY="0", TERM="xterm", COLUMNS="80", LINES="24"
        )
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(
            sys.executable,
            ["-c", "from rami.cli import main; main()", "play", *args],
            env=env,
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=60,
        )
        self.screen = ""

    def read(self) -> int:
        """Wait for the next prompt; 0 a turn, 1 the end of a deal, 2 the program ended."""
        index: int = self.child.expect([TURN, DEAL_END, pexpect.EOF])
        text = (self.child.before or "") + (self.child.after if index < 2 else "")
        text = text.replace("\r\n", "\n")
        if CLEAR in text:
            text = text.rsplit(CLEAR, 1)[1]
        self.screen = ANSI.sub("", text)
        return index

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def line(self, prefix: str) -> str:
        found = [x for x in self.screen.split("\n") if x.startswith(prefix)]
        assert found, f"no line starting {prefix!r} in:\n{self.screen}"
        return found[-1]

    @property
    def verbs(self) -> str:
        return self.line("Your move: ")

    def drawn(self) -> str | None:
        m = re.search(r"This turn: draw (\S+?)(,|$)", self.screen, re.M)
        return m.group(1) if m else None

    def first_in_hand(self) -> str:
        """The first card of the hand line (bridge style, ASCII: 'S: A 3   H: 7')."""
        hand = self.line("Your hand").split(": ", 1)[1]
        m = re.match(r"([SHDC]): (\S+)", hand)
        if m:
            return m.group(2).rstrip("*") + m.group(1)
        m = re.match(r"([♠♥♦♣]) (\S+)", hand)
        assert m, hand
        return m.group(2) + m.group(1)

    def close(self) -> None:
        self.child.close(force=True)


def refused_without_change(p: Player, command: str, reason: str) -> None:
    """Type an illegal ``command``: one line of reason, and the table is as it was."""
    before = {k: p.line(k) for k in ("Stock", "Your hand", "Discards")}
    p.send(command)
    assert p.read() == 0
    assert re.search(reason, p.screen), p.screen
    assert {k: p.line(k) for k in before} == before


def play_deal(p: Player, game: str) -> dict[str, int]:
    """The scripted person plays until the deal ends; counts of what it did.

    Each turn: draw; finish if the verbs line offers it; otherwise show (Marriage) or
    open (Tunisian rami) when offered, checking the screen that follows; then discard
    the card just drawn (or the first card of the hand).
    """
    did = {"draw": 0, "show": 0, "open": 0, "finish": 0, "discard": 0}
    for _ in range(MAX_STEPS):
        verbs = p.verbs
        if "pass" in verbs and "expose" in verbs:
            p.send("expose")  # M-3: expose a dealt tunnela (or pick the first)
            if p.read() == 0 and "tunnelas you may expose:" in p.screen:
                p.send("1")
                state = p.read()
            else:
                continue
        elif "d draw" in verbs:
            p.send("d")
            did["draw"] += 1
            state = p.read()
        elif "finish CARD" in verbs:
            p.send("finish")
            did["finish"] += 1
            state = p.read()
            if state == 0 and "discards:" in p.screen:
                p.send("1")
                state = p.read()
        elif game == "marriage" and " show " in verbs:
            p.send("show all")  # M-6: three pure melds, one step each, then the tiplu
            did["show"] += 1
            state = p.read()
            if state == 0:
                assert "Your shown: [" in p.screen, p.screen
                tiplu = re.search(r"You see the tiplu: (\S+)\.", p.screen)
                assert tiplu, p.screen
                assert f"Tiplu: {tiplu.group(1)}" in p.screen
                assert p.line("This turn: ").count("show ") == 3
        elif game == "tunisian" and " open " in verbs:
            p.send("open")  # T-6: the solver's best opening, meld by meld
            did["open"] += 1
            state = p.read()
            if state == 0:
                value = re.search(r"Your opening: (\d+)\.", p.screen)
                assert value and int(value.group(1)) >= 71, p.screen
                assert "Table: @0 [" in p.screen
                assert "meld " in p.line("This turn: ")
        else:
            card = p.drawn()
            if card is None or "refused" in p.screen:
                card = p.first_in_hand()
            p.send(f"x {card}")
            did["discard"] += 1
            state = p.read()
        if state == 1:
            return did
        assert state == 0, p.screen
    raise AssertionError(f"the deal did not end:\n{p.screen}")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path


def test_marriage_deal_in_a_terminal_m5_m13(home: Path) -> None:
    p = Player(
        ["marriage", "--players", "3", "--seed", "4", "--level", "easy", "--max-turns", "45"],
        home,
    )
    try:
        assert p.read() == 0
        first = p.screen
        assert " Marriage (nepali) · deal 1 of 3 · level easy" in first
        assert "Tiplu: not picked yet" in first
        assert re.search(r"Bot 1 +21 in hand unseen", first)
        assert re.search(r"Bot 2 +21 in hand unseen", first)
        assert "Your hand (21):" in first or "Your hand (22):" in first
        if "d draw" in p.verbs:
            # M-5: nothing before the draw, and only the latest discard may be taken.
            refused_without_change(p, f"x {p.first_in_hand()}", r"refused: you must draw first")
            refused_without_change(p, "t 2c" if "2♣" not in p.line("Discards") else "t 3c",
                                   r"✗ only the latest discard")  # fmt: skip
            refused_without_change(p, "dance", r"✗ unknown command 'dance'")
        p.send("?")
        assert p.read() == 0
        assert re.search(r"pure melds needed to show|you can show|tunnela", p.screen)
        did = play_deal(p, "marriage")
        end = p.screen
        assert "End of the deal:" in end
        assert "Tiplu:" in end
        assert "Maal" in end and "Net" in end
        assert "Ledger" in end and "Total" in end
        assert "1 of 3 deals played" in end
        assert did["draw"] > 0 and did["discard"] > 0
        p.send("q")
        assert p.read() == 2
        assert "Resume with: rami play --resume" in p.screen
    finally:
        p.close()
    saved = home / "rami" / "play-marriage.json"
    assert saved.exists()
    again = Player(["--resume"], home)
    try:
        # saved at the end of deal 1: the panels again, then the next deal (M-16)
        assert again.read() == 1
        assert "End of the deal:" in again.screen and "1 of 3 deals played" in again.screen
        again.send("")
        assert again.read() == 0
        assert "deal 2 of 3" in again.screen
        assert "Your hand (21)" in again.screen or "Your hand (22)" in again.screen
        again.send("q")
        assert again.read() == 2
    finally:
        again.close()


def test_tunisian_deal_in_a_terminal_ascii_t3_t10(home: Path) -> None:
    p = Player(
        ["tunisian", "--mode", "1v1", "--seed", "2", "--level", "easy", "--ascii",
         "--max-turns", "60"],
        home,
    )  # fmt: skip
    try:
        assert p.read() == 0
        first = p.screen
        assert first.isascii()
        assert " Tunisian rami (1v1) - deal 1 - level easy" in first
        assert "opening needs 71" in first
        assert "Table: no melds yet" in first
        assert re.search(r"Bot 1 +1[45] in hand not opened", first)
        if "d draw" in p.verbs:
            refused_without_change(p, "open", r"! draw first")
            refused_without_change(p, "lay 5h 6h 7h", r"refused: draw first")
        else:  # the dealer's first turn is a discard only (T-2)
            refused_without_change(p, "d", r"refused: the dealer's first turn is a discard only")
        refused_without_change(p, "x 11c", r"! bad card '11c' \(token 1\)")
        did = play_deal(p, "tunisian")
        end = p.screen
        assert end.isascii()
        assert "End of the deal:" in end
        assert "Cards left" in end and "Points" in end
        assert "Totals (points are bad)" in end
        assert did["draw"] > 0
        p.send("q")
        assert p.read() == 2
    finally:
        p.close()
