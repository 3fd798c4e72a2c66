"""A solo table played in-process: one person against bots, with no server (issue 26).

The browser's solo mode runs this module in a Web Worker on Pyodide; the page talks to
it with the WebSocket's own messages (``docs/protocol.md``: ``hello``, ``action``,
``next_deal``, ``hint``, ``arrange``… in; ``welcome``, ``state``, ``ack``, ``error``,
``hint``, ``arrangement``… out), so the table page does not fork. It plays exactly as a
server table does: the deal checks the turn and the action (all-or-nothing, a refusal
changes nothing), each seat's view is the match's ``view(seat)``, bots act from their own
view only (``rami.server.bots``, seeded as the server seeds them, so a seeded deal gives
the same events here and there), hints, aids and the auto-group come from the server's
own game-neutral modules, which import without FastAPI. A table is saved as
``to_json()``: its rules, seed, seats and event log, replayed on ``from_json`` as the
server replays its log.

Names no game: everything goes through the registry (``rami.games``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rami.errors import InputError, NotYourTurn
from rami.games import Game, Match, all_games, get_game
from rami.server.aids import table_aids
from rami.server.arrange import arrange_hand
from rami.server.bots import DEFAULT_LEVEL, SeatBot, bot_levels, make_seat_bot, seat_bot_seed
from rami.server.hints import hint_for
from rami.server.messages import CLIENT_TYPES, REACTIONS
from rami.views import GameView, RulesJson

__all__ = ["SOLO_LEVELS", "SoloError", "SoloTable", "score_ledger_text", "warm_up"]

#: The bot levels a solo table offers (the heavier ``expert`` and learned bots are the
#: server's: they need more time or NumPy).
SOLO_LEVELS = ("random", "easy", "medium", "hard")
ACTION = "action"
NEXT_DEAL = "next_deal"
MAX_ACTION_TEXT = 200
HINT_LEVEL = "greedy"

Message = dict[str, object]


class SoloError(Exception):
    """A message the table refuses, with the server's error code; nothing has changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_message(self, ref: object = None) -> Message:
        return {"type": "error", "id": ref, "code": self.code, "message": self.message}


@dataclass
class SoloTable:
    """One match, seat 0 for the person, the other seats for bots of one level."""

    spec: Game
    rules: RulesJson
    players: int
    seed: int
    level: str
    name: str = "Player"
    log: list[tuple[str, int | None, str]] = field(default_factory=list)
    match: Match = field(init=False)
    bots: dict[int, SeatBot] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.match = self.spec.new_match(self.rules, self.players, self.seed)

    # ------------------------------------------------------------------ making one

    @classmethod
    def new(
        cls,
        game: str,
        preset: str | None = None,
        level: str = DEFAULT_LEVEL,
        seed: int | None = None,
        players: int | None = None,
        name: str = "Player",
    ) -> SoloTable:
        """A fresh table; ``InputError`` (one line) for a game, preset or level it lacks."""
        spec = get_game(game)
        preset = preset or spec.presets[0]
        if preset not in spec.presets:
            raise InputError(f"{spec.title} has no preset {preset!r}: {', '.join(spec.presets)}")
        rules = spec.rules_from(preset)
        if level not in SOLO_LEVELS or level not in bot_levels():
            raise InputError(f"unknown bot level {level!r}: use one of {', '.join(SOLO_LEVELS)}")
        allowed = spec.players_for(rules)
        if players is None:
            players = 4 if 4 in allowed else allowed[-1]
        if players not in allowed:
            raise InputError(
                f"{spec.title} with these rules is for {allowed[0]}–{allowed[-1]} players, "
                f"not {players}"
            )
        if seed is None:
            seed = random.SystemRandom().getrandbits(48)
        doc = rules.to_json()
        stored: RulesJson = {**doc, "preset": preset} if isinstance(doc, dict) else doc
        return cls(spec, stored, players, seed, level, _clean_name(name))

    @property
    def code(self) -> str:
        """The table's name in the page (its hand order is kept under it)."""
        return f"solo-{self.spec.name}-{self.rules.get('preset', '')}-{self.level}"

    # ------------------------------------------------------------------ saving

    def to_json(self) -> dict[str, object]:
        """Rules, seed, seats and the event log: what ``from_json`` replays."""
        return {
            "format": 1,
            "game": self.spec.name,
            "rules": dict(self.rules),
            "players": self.players,
            "seed": self.seed,
            "level": self.level,
            "name": self.name,
            "log": [[kind, seat, data] for kind, seat, data in self.log],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> SoloTable:
        """The table ``to_json`` saved, its log replayed (``InputError`` if it does not)."""
        try:
            rules = doc["rules"]
            players, seed, level = doc["players"], doc["seed"], doc["level"]
            entries = doc["log"]
            if not (
                isinstance(rules, dict)
                and isinstance(players, int)
                and isinstance(seed, int)
                and isinstance(level, str)
                and isinstance(entries, list)
            ):
                raise TypeError
            table = cls(get_game(str(doc["game"])), rules, players, seed, level)
            table.name = _clean_name(str(doc.get("name") or "Player"))
            for entry in entries:
                kind, seat, data = entry
                table._replay(str(kind), seat if isinstance(seat, int) else None, str(data))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"this saved solo table cannot be restored: {exc}") from None
        return table

    def _replay(self, kind: str, seat: int | None, data: str) -> str:
        if kind == ACTION:
            data = str(self.match.apply(data, seat))
        elif kind == NEXT_DEAL:
            self.match.next_deal()
        else:
            raise InputError(f"unknown event kind {kind!r}")
        self.log.append((kind, seat, data))
        return data

    # ------------------------------------------------------------------ state

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def status(self) -> str:
        return "over" if self.match.is_over else "playing"

    def summary(self) -> dict[str, object]:
        """The table's summary, in the server's shape (``TableSummary``)."""
        return {
            "code": self.code,
            "game": self.spec.name,
            "title": self.spec.title,
            "preset": str(self.rules.get("preset", "")),
            "rules": self.rules,
            "players": self.players,
            "status": self.status,
            "seats": [
                {
                    "seat": s,
                    "kind": "human" if s == 0 else "bot",
                    "level": None if s == 0 else self.level,
                    "name": self.name if s == 0 else f"Bot {s + 1}",
                    "claimed": True,
                    "online": True,
                    "auto": False,
                }
                for s in range(self.players)
            ],
            "turn_seconds": None,
            "rematch": None,
            "version": self.version,
            "created_at": None,
        }

    def view(self, seat: int | None = 0) -> GameView:
        return self.match.view(seat)

    def state_message(self, seat: int = 0) -> Message:
        """The person's ``state`` message, as the server sends it."""
        view = self.view(seat)
        return {
            "type": "state",
            "version": self.version,
            "seat": seat,
            "table": self.summary(),
            "view": view,
            "timer": None,
            "aids": table_aids(self.spec.name, view),
        }

    # ------------------------------------------------------------------ the person's messages

    def handle(self, raw: str | Mapping[str, object]) -> list[Message]:
        """Answer one client message; a refusal is one ``error`` and changes nothing."""
        ref: object = None
        try:
            message = _parse(raw)
            ref = message.get("id")
            if not isinstance(ref, (str, int)) or isinstance(ref, bool):
                ref = None
            kind = message.get("type")
            if kind not in CLIENT_TYPES:
                raise SoloError(
                    "unknown_type",
                    f"unknown message type {kind!r}: use one of {', '.join(CLIENT_TYPES)}",
                )
            if kind == "hello":
                return [{"type": "welcome", "code": self.code, "seat": 0}, self.state_message()]
            if kind == "ping":
                return [{"type": "pong", "id": ref}]
            if kind == "action":
                self._act(message.get("action"))
                return [self._ack(ref), self.state_message()]
            if kind == "next_deal":
                self._next_deal()
                return [self._ack(ref), self.state_message()]
            if kind == "hint":
                seed = self.seed ^ 1 ^ self.version
                return [
                    {
                        "type": "hint",
                        "id": ref,
                        **hint_for(self.spec.name, self.view(), HINT_LEVEL, seed),
                    }
                ]
            if kind == "arrange":
                groups = arrange_hand(self.spec.name, self.view())
                return [{"type": "arrangement", "id": ref, "groups": groups}]
            if kind == "react":
                key = message.get("key")
                if key not in REACTIONS:
                    raise SoloError("bad_message", f"'key' must be one of {', '.join(REACTIONS)}")
                return [{"type": "reaction", "seat": 0, "key": key}]
            if kind == "rematch":
                if not self.match.is_over:
                    raise SoloError("bad_request", "a rematch can start once the match is over")
                return [{"type": "rematch", "id": ref, "code": self.code}]
            if kind == "auto":
                raise SoloError("bad_request", "only another player's seat can be handed over")
            return [self._ack(ref)]  # start, resume: a solo table always plays
        except SoloError as exc:
            return [exc.to_message(ref)]

    def _ack(self, ref: object) -> Message:
        return {"type": "ack", "id": ref, "version": self.version}

    def _check_playing(self) -> None:
        if self.match.is_over:
            raise SoloError("match_over", "the match is over")

    def _act(self, text: object, seat: int = 0) -> None:
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_TEXT:
            raise SoloError("bad_message", "'action' must be an action's text, e.g. 'draw'")
        self._check_playing()
        if self.match.current.is_over:
            raise SoloError("illegal", "the deal is over: start the next deal")
        try:
            self._replay(ACTION, seat, text)
        except NotYourTurn as exc:
            raise SoloError("not_your_turn", str(exc)) from None
        except ValueError as exc:  # IllegalAction, InputError, CardError: nothing changed
            raise SoloError("illegal", str(exc)) from None

    def _next_deal(self) -> None:
        self._check_playing()
        if not self.match.current.is_over:
            raise SoloError("deal_not_over", "the current deal is not over yet")
        self._replay(NEXT_DEAL, 0, "")

    # ------------------------------------------------------------------ bots

    def bot_to_move(self) -> int | None:
        """The bot seat to move now (None: the person's turn, or the deal is over)."""
        current = self.match.current
        if self.match.is_over or current.is_over:
            return None
        seat = current.to_move
        return seat if seat is not None and seat != 0 else None

    def bot_step(self) -> list[Message]:
        """One bot move, from that bot's own view; the person's new state (or nothing)."""
        seat = self.bot_to_move()
        if seat is None:
            return []
        bot = self.bots.get(seat)
        if bot is None:  # seeded as the server seeds its bots
            bot = make_seat_bot(self.spec.name, self.level, seat_bot_seed(self.seed, seat))
            self.bots[seat] = bot
        view = self.view(seat)
        legal: Sequence[str] = view.get("legal_actions") or ()
        try:
            text = str(bot.act(view))
            self._replay(ACTION, seat, text)
        except ValueError:  # a bot's bad move must not stall the table: a legal one
            self._replay(ACTION, seat, str(legal[0]))
        return [self.state_message()]

    # ------------------------------------------------------------------ the worker's side

    @classmethod
    def from_options(cls, text: str) -> SoloTable:
        """A new table from the page's JSON ``{game, preset, level, seed, players}``."""
        try:
            options = json.loads(text)
        except ValueError as exc:
            raise InputError(f"the solo table's options are not JSON: {exc}") from None
        if not isinstance(options, dict):
            raise InputError("the solo table's options must be a JSON object")
        seed, players = options.get("seed"), options.get("players")
        return cls.new(
            str(options.get("game") or ""),
            str(options.get("preset") or "") or None,
            str(options.get("level") or DEFAULT_LEVEL),
            seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
            players if isinstance(players, int) and not isinstance(players, bool) else None,
        )

    @classmethod
    def from_text(cls, text: str) -> SoloTable:
        """``from_json`` of the JSON text ``save_text`` wrote."""
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise InputError(f"this saved solo table is not JSON: {exc}") from None
        if not isinstance(doc, dict):
            raise InputError("this saved solo table is not a JSON object")
        return cls.from_json(doc)

    def save_text(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def handle_text(self, raw: str) -> list[str]:
        """``handle`` with JSON text out, as a WebSocket carries it."""
        return [json.dumps(m, ensure_ascii=False) for m in self.handle(raw)]

    def bot_step_text(self) -> list[str]:
        return [json.dumps(m, ensure_ascii=False) for m in self.bot_step()]

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def deal_number(self) -> int:
        return sum(1 for kind, _, _ in self.log if kind == NEXT_DEAL) + 1

    def events(self) -> list[str]:
        """The current deal's public history as text (what the tests compare)."""
        return [
            json.dumps(e, sort_keys=True, ensure_ascii=False)
            for e in self.view(None).get("history") or ()
        ]


def warm_up(moves: int = 6) -> None:
    """Play the first moves of a table of every game once, with a hint, an auto-group and
    a bot of every solo level, then forget them.

    The worker calls it before it takes its memory snapshot (``solo-worker.js``,
    docs/solo.md): the modules a table imports on its first deal (each game's engine,
    views, aids, hints, bots) are then already imported when a later visit starts from the
    snapshot, which is what makes that start fast. Tables are seeded and nothing is kept
    but imported modules and the pure caches they fill, so a table played afterwards plays
    as it would have (``tests/test_solo.py`` checks it)."""
    for spec in all_games():
        table = SoloTable.new(spec.name, None, DEFAULT_LEVEL, 0)
        table.save_text()
        table.handle_text(json.dumps({"type": "hello", "token": None}))
        table.handle({"type": "hint", "id": 0})
        table.handle({"type": "arrange", "id": 0})
        for ref in range(moves):
            if table.bot_to_move() is not None:
                table.bot_step_text()
                continue
            legal = table.view().get("legal_actions") or ()
            if not legal:
                break
            table.handle_text(json.dumps({"type": "action", "action": legal[0], "id": ref}))
        for level in SOLO_LEVELS:
            make_seat_bot(spec.name, level, 0)


def score_ledger_text(game: str, text: str) -> str:
    """The scorekeeper's ``POST /api/score/{game}/ledger``, offline, as JSON text:
    ``{"ok": true, "data": …}`` or ``{"ok": false, "message": one line}`` (the same
    calculators as the server's, ``rami.ledger.compute``)."""
    from rami.ledger import compute

    try:
        doc = json.loads(text)
        return json.dumps({"ok": True, "data": compute(doc, get_game(game).name)})
    except ValueError as exc:  # InputError, CardError, bad JSON: one line, nothing kept
        return json.dumps({"ok": False, "message": str(exc).splitlines()[0]})
    except RecursionError:
        return json.dumps({"ok": False, "message": "the document is nested too deeply"})


def _parse(raw: str | Mapping[str, object]) -> Mapping[str, object]:
    if isinstance(raw, str):
        try:
            message = json.loads(raw)
        except ValueError as exc:
            raise SoloError("bad_json", f"the message is not JSON: {exc}") from None
    else:
        message = raw
    if not isinstance(message, Mapping):
        raise SoloError("bad_json", "a message must be a JSON object")
    return message


def _clean_name(name: str | None, fallback: str = "Player") -> str:
    text = " ".join((name or "").split())[:40]
    return text or fallback
