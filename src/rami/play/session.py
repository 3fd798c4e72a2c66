"""One person against bots at the terminal: the loop of ``rami play``.

The session holds the match and the bots; on the human's turn it draws the screen from
the human seat's view, reads a command, and hands the action to the engine, showing
the engine's reason when it refuses (the engine changes nothing then). Bots get only
their own seat's view. The match is saved at every decision of the human, so leaving
(``q``, Ctrl-D, Ctrl-C) never loses a move; ``rami play --resume`` picks it up.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console, RenderableType
from rich.text import Text

from rami.bots import STRENGTHS, Bot, make_bot
from rami.engine import Action, chance_rng
from rami.errors import IllegalAction, InputError, NotYourTurn
from rami.games import Match, get_game
from rami.play.commands import Command, describe_refusal, legal_actions, parse_command
from rami.play.hints import hint_lines
from rami.play.hooks import TerminalHooks
from rami.play.panels import (
    Ledger,
    deal_end_screen,
    help_lines,
    match_end_lines,
    table_lines,
)
from rami.play.render import (
    Frame,
    recent_lines,
    seat_names,
    to_ascii,
    turn_screen,
)
from rami.play.saves import SavedGame, save_path
from rami.views import GameView, Standing

__all__ = ["LEVELS", "Session", "Settings", "default_delay", "make_console"]

LEVELS = STRENGTHS  # the bot levels a person chooses from (rami.bots)
LEDGER_ROWS = 8  # deals listed in the ledger panel (an 80 × 24 screen)


@dataclass
class Settings:
    """How the table is set: the game, the bots' level, the seed, the human's seat."""

    game: str
    level: str
    seed: int
    human: int = 0
    ascii: bool = False
    delay: float = 0.5  # seconds to show each bot turn; 0 for none


def make_console(ascii: bool) -> Console:
    """A console for the screens; ``ascii``: no colour (the text is made ASCII on output)."""
    return Console(
        highlight=False,
        emoji=False,
        color_system=None if ascii else "auto",
        safe_box=True,
    )


@dataclass
class _Screen:
    notes: list[tuple[str, str]] = field(default_factory=list)
    pending: list[Action] = field(default_factory=list)
    pending_title: str = ""


class Session:
    """A match in progress at the terminal."""

    def __init__(
        self,
        match: Match,
        settings: Settings,
        console: Console | None = None,
        read: Callable[[str], str] = input,
    ) -> None:
        self.match = match
        self.settings = settings
        self.spec = get_game(settings.game)
        self.hooks = self.spec.terminal() if self.spec.terminal is not None else TerminalHooks()
        self.console = console or make_console(settings.ascii)
        self.read = read
        self.human = settings.human
        players = match.current.num_players
        teams = bool(match.current.view(None).get("teams"))
        partner = (self.human + 2) % players if teams else None
        self.names = seat_names(players, self.human, partner)
        self.bots: dict[int, Bot] = {
            s: make_bot(settings.game, settings.level, _bot_seed(settings.seed, s))
            for s in range(players)
            if s != self.human
        }
        self.screen = _Screen()

    # ------------------------------------------------------------------ output

    def emit(self, items: Sequence[RenderableType], clear: bool = True) -> None:
        """Draw ``items``; on a terminal the screen is cleared first."""
        if clear and self.console.is_terminal:
            self.console.clear()
        if self.settings.ascii:
            with self.console.capture() as cap:
                for item in items:
                    self.console.print(item)
            self.console.file.write(to_ascii(cap.get()))
            self.console.file.flush()
        else:
            for item in items:
                self.console.print(item)

    def say(self, text: str, style: str = "") -> None:
        self.emit([Text(text, style=style)], clear=False)

    # ------------------------------------------------------------------ match glue

    def apply(self, action: Action, seat: int) -> Action:
        """Play ``action`` for ``seat`` in the current deal (the engine checks it all,
        the turn included); the canonical action applied."""
        return self.match.apply(action, seat)

    def save(self) -> Path:
        return SavedGame(
            self.settings.game,
            self.settings.level,
            self.settings.seed,
            self.human,
            self.settings.ascii,
            self.match.to_json(),
        ).write()

    def write_record(self) -> Path | None:
        """The match's open ``.rami`` record (docs/records.md), rewritten at each deal's end;
        None for a game that cannot be recorded (no ``Game.load_deal``) or a full disk."""
        from rami.play.records import write_session_record

        s = self.settings
        if self.spec.load_deal is None:
            return None
        try:
            return write_session_record(s.game, self.match, self.human, s.level, s.seed)
        except (InputError, OSError):
            return None  # a record is a bonus: never stop the match for it

    def ledger(self) -> Ledger:
        """The running score from the match's public standing, as the renderer draws it."""
        st = self.match.standing()
        rows = [(str(d["deal"] + 1), list(d["points"])) for d in st.get("deals") or []]
        notes = []
        if len(rows) > LEDGER_ROWS:
            notes.append(f"(the first {len(rows) - LEDGER_ROWS} deals are not listed)")
        hook = self.hooks.ledger
        if hook is None:
            totals = list(st.get("totals") or [])
            return Ledger("Totals", self.names, rows[-LEDGER_ROWS:], totals, notes=notes)
        ledger = hook(st, self.names, self.human)
        ledger.rows = rows[-LEDGER_ROWS:]
        ledger.notes[:0] = notes
        return ledger

    def standing_text(self, st: Standing) -> str:
        """A few words on the match for the status line."""
        return self.hooks.standing_text(st, self.human)

    def title(self, view: GameView, st: Standing) -> str:
        preset = (view.get("rules") or {}).get("preset", "")
        deal = f"deal {int(st.get('deal_number') or 0) + 1}"
        if st.get("deals_total"):
            deal += f" of {st['deals_total']}"
        return f" {self.spec.title} ({preset}) · {deal} · level {self.settings.level} "

    def winners(self) -> list[int]:
        return list(self.match.standing().get("winners") or [])

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the match ends or the human leaves; the exit status."""
        while True:
            deal = self.match.current
            if deal.is_over:
                if not self.deal_over():
                    return 0
                continue
            seat = deal.to_move
            if seat == self.human:
                if not self.human_turn():
                    return 0
            elif seat is not None:
                self.bot_turn(seat)

    def frame(self, view: GameView) -> Frame:
        st = self.match.standing()
        return Frame(
            names=self.names,
            human=self.human,
            title=self.title(view, st),
            standing=self.standing_text(st),
            notes=list(self.screen.notes),
            options=[a.text(self.settings.ascii) for a in self.screen.pending],
            options_title=self.screen.pending_title,
            ascii=self.settings.ascii,
            width=min(self.console.width, 120),
            height=max(self.console.height, 16),
        )

    def ask(self, prompt: str = "> ") -> str | None:
        """A line from the player; ``None`` when they leave (end of input, Ctrl-C)."""
        try:
            return self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            return None

    def leave(self) -> bool:
        path = self.save()
        self.say(f"Saved to {path}. Resume with: rami play --resume", "bold")
        return False

    def human_turn(self) -> bool:
        """One command of the human; False when they leave."""
        deal = self.match.current
        view = deal.view(self.human)
        legal = legal_actions(view)
        if [a.kind for a in legal] == ["pass"]:  # nothing else to do (M-3)
            self.apply(legal[0], self.human)
            self.screen.notes.append(("plain", self.hooks.pass_note))
            return True
        self.save()
        self.emit(turn_screen(view, self.frame(view)))
        line = self.ask()
        if line is None:
            return self.leave()
        self.screen.notes = []
        try:
            command = parse_command(line, view, self.screen.pending)
        except (InputError, IllegalAction) as exc:
            self.screen.notes.append(("error", describe_refusal(exc)))
            return True
        return self.dispatch(command, view)

    def dispatch(self, command: Command, view: GameView) -> bool:
        kind = command.kind
        if kind == "quit":
            return self.leave()
        if kind == "help":
            lines = help_lines(self.settings.game, view)
            lines.append(f"This match: seed {self.settings.seed}, bots {self.settings.level}.")
            self.page(lines, "Commands")
        elif kind == "log":
            self.page(_log_lines(view, self.names), "This deal so far")
        elif kind == "table":
            self.page(table_lines(view, self.names), "Every meld in sight")
        elif kind == "hint":
            self.screen.notes.extend(("info", h) for h in hint_lines(view))
        elif kind == "choose":
            self.screen.pending = list(command.options)
            self.screen.pending_title = command.title
        elif kind == "act":
            self.play(command.actions)
        elif kind == "open":
            if self.hooks.quick_lay is None:
                self.screen.notes.append(("error", "no solver lays cards for you in this game"))
            else:
                self.hooks.quick_lay(self, view)
        return True

    def page(self, lines: Sequence[str], title: str) -> None:
        """A full screen of text (help, history), then back to the table."""
        items: list[RenderableType] = [Text(f" {title} ", style="bold reverse")]
        items.extend(Text(line) for line in lines)
        self.emit(items)
        self.ask("Press Enter to go back to the table ")

    def play(self, actions: Sequence[Action]) -> bool:
        """Apply actions in order, stopping at the first the engine refuses."""
        for action in actions:
            deal = self.match.current
            if deal.is_over:
                self.screen.notes.append(("error", "your turn is over"))
                return False
            before = len(deal.events)
            try:
                self.apply(action, self.human)
            except NotYourTurn:
                self.screen.notes.append(("error", "your turn is over"))
                return False
            except IllegalAction as exc:
                shown = action.text(self.settings.ascii)
                self.screen.notes.append(("error", f"'{shown}' refused: {describe_refusal(exc)}"))
                return False
            self.screen.pending = []
            self.screen.pending_title = ""
            self.screen.notes.extend(("info", t) for t in self.describe(before))
            self.save()
        return True

    def describe(self, before: int) -> list[str]:
        """News from the human's last step beyond the step itself (the game words it:
        ``TerminalHooks.step_news``)."""
        view = self.match.current.view(self.human)
        out: list[str] = []
        for e in (view.get("history") or [])[before:]:
            if "move" not in e:
                out += self.hooks.step_news(view, e)
        return out

    def bot_turn(self, seat: int) -> None:
        """The bot of ``seat`` plays one step from its own view."""
        deal = self.match.current
        view = deal.view(seat)
        problem = ""
        try:
            action: Action | None = self.bots[seat].act(view)
        except Exception as exc:  # a broken bot must not end the person's game
            action, problem = None, f"{type(exc).__name__}: {exc}"
        if action is not None:
            try:
                self.apply(action, seat)
            except IllegalAction as exc:
                action, problem = None, f"{action} refused: {exc}"
        if action is None:
            fallback = deal.legal_actions()[-1]
            self.screen.notes.append(
                ("plain", f"{self.names[seat]} could not move ({problem}); it played {fallback}")
            )
            self.apply(fallback, seat)
        deal = self.match.current
        if self.settings.delay > 0 and (deal.is_over or deal.to_move != seat):
            mine = deal.view(self.human)
            self.emit(turn_screen(mine, self.frame(mine)))
            time.sleep(self.settings.delay)

    def deal_over(self) -> bool:
        """The end-of-deal panels and the ledger; False when the match ends or they leave."""
        deal = self.match.current
        view = deal.view(self.human)
        items = deal_end_screen(view, self.names, self.ledger(), self.settings.ascii)
        self.screen = _Screen()
        record = self.write_record()
        if record is not None:
            items.append(Text(f"Record of the match: {record}", style="dim"))
        if self.match.is_over:
            items.extend(match_end_lines(self.winners(), self.names, self.settings.game))
            self.emit(items)
            path = save_path(self.settings.game)
            if path.exists():
                path.unlink()
            return False
        self.save()
        items.append(Text("Enter: next deal · q: save and leave", style="bold"))
        self.emit(items)
        line = self.ask()
        if line is None or line.strip().lower() in ("q", "quit", "exit", "save"):
            return self.leave()
        self.match.next_deal()
        return True


def _bot_seed(seed: int, seat: int) -> int:
    return chance_rng(seed, seat, "bot").getrandbits(32)


def _log_lines(view: GameView, names: Sequence[str]) -> list[str]:
    """The deal's history as the seat may read it, the latest last (20 lines)."""
    full = view.copy()
    full["history"] = list(view["history"])
    full["seat"] = -1  # no own move to start from: the whole deal
    return recent_lines(full, names, limit=20)


def default_delay() -> float:
    """The pause after each bot turn: ``$RAMI_PLAY_DELAY`` seconds, else half a second."""
    text = os.environ.get("RAMI_PLAY_DELAY")
    if text is None:
        return 0.5
    try:
        return max(0.0, float(text))
    except ValueError:
        raise InputError(f"RAMI_PLAY_DELAY must be a number of seconds, not {text!r}") from None
