"""The ``.rami`` text: ``write`` prints a ``MatchRecord``, ``read`` parses one and replays
every revealed deal through the engine, checking each move, card and result.

The grammar is in docs/records.md. Every problem is one ``RecordError`` whose message
names the line and the reason (the engine's refusal quotes the rule id).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from rami.cards import CardError, parse_card
from rami.engine import Action, GameState
from rami.errors import IllegalAction, InputError
from rami.games import Game, get_game
from rami.records.model import (
    FORMAT_VERSION,
    ChanceStep,
    DealRecord,
    JsonValue,
    MatchRecord,
    Move,
    RecordError,
    ResultRecord,
    SeatInfo,
    StandingRecord,
    Step,
    json_object,
    load_state,
    steps_of,
)
from rami.records.shuffle import commits

__all__ = ["MAGIC", "read", "write"]

MAGIC = "rami-record"
_SUITS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})
_MOVE = re.compile(r"S(\d+) (.+?)(?: \[([^\]]*)\])?")
_MOVE_KEY = "\n"  # the key of a move line: no "Key: value" line can have it
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{32}")


# --------------------------------------------------------------------------- writing


def _card(text: str, ascii: bool) -> str:
    """A canonical card's text (``10♣``), or its canonical ASCII (``10C``): N-1."""
    return text.translate(_SUITS) if ascii else text


def _cards(cards: Sequence[str], ascii: bool) -> str:
    return _card(" ".join(cards), ascii)


def _action(text: str, ascii: bool) -> str:
    """A canonical action's text: its cards are the only non-ASCII in it."""
    return text.translate(_SUITS) if ascii else text


def _json(value: JsonValue, ascii: bool) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return json.dumps(json.loads(text.translate(_SUITS)), ensure_ascii=True) if ascii else text


def _seats(active: Sequence[bool]) -> str:
    return " ".join(str(s) for s, on in enumerate(active) if on)


def _deal_lines(deal: DealRecord, ascii: bool) -> Iterator[str]:
    yield f"Deal {deal.number}"
    yield f"Dealer: {deal.dealer}"
    yield f"Active: {_seats(deal.active)}"
    if deal.commitment is not None:
        yield f"Commitment: {deal.commitment}"
    if deal.seed is not None:
        yield f"Seed: {deal.seed}"
        if deal.salt is not None:
            yield f"Salt: {deal.salt}"
    for seat, hand in enumerate(deal.hands or ()):
        yield f"Hand {seat}: {_cards(hand, ascii)}".rstrip()
    if deal.pile:
        yield f"Pile: {_cards(deal.pile, ascii)}"
    for step in deal.steps:
        if isinstance(step, Move):
            card = f" [{_card(step.card, ascii)}]" if step.card is not None else ""
            yield f"S{step.seat} {_action(step.action, ascii)}{card}"
        else:
            yield f"Chance {step.kind}: {_cards(step.cards, ascii)}"
    if deal.result is not None:
        winner = "none" if deal.result.winner is None else f"S{deal.result.winner}"
        yield f"Winner: {winner}"
        yield f"Points: {' '.join(str(p) for p in deal.result.points)}"
        for key, value in deal.result.settlement:
            yield f"Settlement {key}: {_json(value, ascii)}"


def write(record: MatchRecord, ascii: bool = False) -> str:
    """The record as ``.rami`` text (UTF-8; ``ascii``: cards as ``10C``, names escaped)."""
    lines = [f"{MAGIC} {record.version}", f"Game: {record.game}", f"Preset: {record.preset}"]
    lines += [f"Rule {k}: {_json(v, ascii)}" for k, v in record.rules.items() if k != "preset"]
    lines.append(f"Players: {record.players}")
    for i, seat in enumerate(record.seats):
        level = f" {seat.level}" if seat.level else ""
        lines.append(f"Seat {i}: {json.dumps(seat.name, ensure_ascii=ascii)} {seat.kind}{level}")
    lines.append(f"Date: {record.date}")
    for deal in record.deals:
        lines.append("")
        lines.extend(_deal_lines(deal, ascii))
    if record.standing is not None:
        st = record.standing
        lines += ["", "Standing", f"Totals: {' '.join(str(t) for t in st.totals)}"]
        lines.append(f"Over: {'yes' if st.over else 'no'}")
        if st.winners:
            lines.append(f"Winners: {' '.join(f'S{w}' for w in st.winners)}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class _Line:
    number: int
    key: str  # "Game", "Seat 0", "Deal 2", "S1" (a move), …
    value: str

    def fail(self, reason: str) -> RecordError:
        return RecordError(f"line {self.number}: {reason}")


def _lines(text: str) -> list[_Line]:
    out: list[_Line] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if _MOVE.fullmatch(line) is not None:
            out.append(_Line(number, _MOVE_KEY, line))
        elif line.startswith(("Deal ", MAGIC)) or line == "Standing":
            out.append(_Line(number, line, ""))
        elif ":" in line:
            key, _, value = line.partition(":")
            out.append(_Line(number, key.strip(), value.strip()))
        else:
            out.append(_Line(number, line, ""))
            raise out[-1].fail(f"cannot read {line[:40]!r}: expected 'Key: value' or a move")
    return out


def _int(line: _Line, what: str, low: int | None = None, high: int | None = None) -> int:
    if not re.fullmatch(r"-?\d+", line.value):
        raise line.fail(f"{what} must be a whole number, not {line.value[:20]!r}")
    value = int(line.value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise line.fail(f"{what} must be from {low} to {high}, not {value}")
    return value


@lru_cache(maxsize=4096)
def _canonical(token: str) -> str:
    return str(parse_card(token))


def _parse_cards(line: _Line, text: str) -> tuple[str, ...]:
    out: list[str] = []
    for pos, token in enumerate(text.replace(",", " ").split(), 1):
        try:
            out.append(_canonical(token))
        except CardError:
            try:
                parse_card(token, pos)
            except CardError as exc:  # the message that names the token's position
                raise line.fail(str(exc)) from None
            raise
    return tuple(out)


@lru_cache(maxsize=8192)
def _parsed_action(text: str) -> Action:
    return Action.parse(text)


def _parse_json(line: _Line, text: str) -> JsonValue:
    try:
        value: JsonValue = json.loads(text)
    except json.JSONDecodeError as exc:
        raise line.fail(f"not a JSON value ({exc.msg})") from None
    return value


def _seat_ref(line: _Line, text: str, players: int) -> int:
    if not re.fullmatch(r"S\d+", text) or int(text[1:]) >= players:
        raise line.fail(f"{text!r} is not a seat: write S0 … S{players - 1}")
    return int(text[1:])


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = _lines(text)
        self.pos = 0

    def peek(self) -> _Line | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def take(self) -> _Line:
        line = self.lines[self.pos]
        self.pos += 1
        return line

    def section(self) -> list[_Line]:
        """The lines up to the next ``Deal``/``Standing`` heading."""
        out: list[_Line] = []
        while (line := self.peek()) is not None:
            if out and (line.key.startswith("Deal ") or line.key == "Standing"):
                break
            out.append(self.take())
        return out


def read(text: str) -> MatchRecord:
    """Parse a ``.rami`` text and replay its revealed deals through the engine.

    Raises ``RecordError`` (one line: ``line N: why``) for anything malformed, any move
    the rules refuse, and any card or result that differs from what the seed and the
    moves give.
    """
    if not isinstance(text, str):
        raise RecordError("a record is text")
    if text.startswith("\ufeff"):
        text = text[1:]
    first = text.split("\n", 1)[0].strip()
    match = re.fullmatch(rf"{MAGIC} (\d+)", first)
    if match is None:
        raise RecordError(f"line 1: not a rami record (it starts with '{MAGIC} {FORMAT_VERSION}')")
    if int(match.group(1)) != FORMAT_VERSION:
        raise RecordError(
            f"line 1: record format {match.group(1)}; this rami reads format {FORMAT_VERSION}"
        )
    reader = _Reader(text)
    reader.take()
    game, header = _header(reader.section(), len(text.splitlines()))
    deals: list[DealRecord] = []
    standing: StandingRecord | None = None
    while (line := reader.peek()) is not None:
        section = reader.section()
        if line.key == "Standing":
            if standing is not None:
                raise line.fail("a second Standing section")
            standing = _standing(section, header.players)
            continue
        if standing is not None:
            raise line.fail("deals come before the Standing section")
        deals.append(_deal(game, header, section, len(deals) + 1))
    return replace(header, deals=tuple(deals), standing=standing)


def _header(lines: list[_Line], total: int) -> tuple[Game, MatchRecord]:
    fields: dict[str, _Line] = {}
    rules: dict[str, JsonValue] = {}
    seat_lines: dict[int, _Line] = {}
    for line in lines:
        if line.key.startswith("Deal ") or line.key == "Standing" or line.key == _MOVE_KEY:
            break
        if line.key.startswith("Rule "):
            rules[line.key[5:].strip()] = _parse_json(line, line.value)
        elif line.key.startswith("Seat "):
            index = line.key[5:].strip()
            if not index.isdigit():
                raise line.fail(f"bad seat number {index!r}")
            seat_lines[int(index)] = line
        elif line.key in ("Game", "Preset", "Players", "Date"):
            if line.key in fields:
                raise line.fail(f"a second '{line.key}:' line")
            fields[line.key] = line
        else:
            raise line.fail(f"unknown header line {line.key!r}")
    where = lines[-1].number if lines else 1
    if "Game" not in fields:
        raise RecordError(f"line {where}: the header has no 'Game:' line")
    try:
        game = get_game(fields["Game"].value)
    except InputError as exc:
        raise fields["Game"].fail(str(exc)) from None
    if "Players" not in fields:
        raise RecordError(f"line {where}: the header has no 'Players:' line")
    preset_line = fields.get("Preset")
    doc: dict[str, JsonValue] = dict(rules)
    if preset_line is not None and preset_line.value:
        doc["preset"] = preset_line.value
    try:
        made = game.rules_from(doc)
        full = json_object(made.to_json())
    except (InputError, ValueError, TypeError) as exc:
        raise (preset_line or fields["Game"]).fail(f"bad rules: {exc}") from None
    players = _int(fields["Players"], "Players", 1, 16)
    allowed = game.players_for(made)
    if players not in allowed:
        raise fields["Players"].fail(
            f"{game.title} with these rules is for {allowed[0]}–{allowed[-1]} players"
        )
    seats: list[SeatInfo] = []
    for i in range(players):
        if i not in seat_lines:
            raise RecordError(f"line {where}: the header names no 'Seat {i}:'")
        seats.append(_seat(seat_lines[i]))
    for i, line in seat_lines.items():
        if i >= players:
            raise line.fail(f"seat {i} at a table of {players}")
    date = fields["Date"].value if "Date" in fields else ""
    return game, MatchRecord(
        game=game.name,
        preset=str(full.get("preset", "")),
        rules=full,
        players=players,
        seats=tuple(seats),
        date=date,
        deals=(),
    )


def _seat(line: _Line) -> SeatInfo:
    try:
        name, end = json.JSONDecoder().raw_decode(line.value)
    except json.JSONDecodeError:
        raise line.fail('a seat is a quoted name and a kind: Seat 0: "Ana" human') from None
    if not isinstance(name, str):
        raise line.fail("a seat's name is a quoted string")
    words = line.value[end:].split()
    if not words or words[0] not in ("human", "bot") or len(words) > 2:
        raise line.fail("a seat's kind is 'human' or 'bot' (a bot may name its level)")
    return SeatInfo(name, words[0], words[1] if len(words) == 2 else None)


def _standing(lines: list[_Line], players: int) -> StandingRecord:
    totals: tuple[int, ...] = ()
    over = False
    winners: tuple[int, ...] = ()
    for line in lines[1:]:
        if line.key == "Totals":
            parts = line.value.split()
            if len(parts) != players or not all(re.fullmatch(r"-?\d+", p) for p in parts):
                raise line.fail(f"Totals lists {players} whole numbers")
            totals = tuple(int(p) for p in parts)
        elif line.key == "Over":
            if line.value not in ("yes", "no"):
                raise line.fail("Over is 'yes' or 'no'")
            over = line.value == "yes"
        elif line.key == "Winners":
            winners = tuple(_seat_ref(line, w, players) for w in line.value.split())
        else:
            raise line.fail(f"unknown line {line.key!r} in the Standing section")
    return StandingRecord(totals, over, winners)


@dataclass
class _DealText:
    """A deal section as written, before it is checked against the engine."""

    heading: _Line
    fields: dict[str, _Line]
    hands: dict[int, tuple[_Line, tuple[str, ...]]]
    steps: list[tuple[_Line, Step]]
    settlement: list[tuple[_Line, str, JsonValue]]
    actions: list[Action]  # each move's action, parsed once


def _parse_deal(lines: list[_Line], header: MatchRecord, number: int) -> _DealText:
    heading = lines[0]
    if heading.key != f"Deal {number}":
        raise heading.fail(f"expected 'Deal {number}' here, not {heading.key!r}")
    out = _DealText(heading, {}, {}, [], [], [])
    players = header.players
    for line in lines[1:]:
        key = line.key
        if key == _MOVE_KEY:
            m = _MOVE.fullmatch(line.value)
            assert m is not None
            seat = _seat_ref(line, f"S{m.group(1)}", players)
            try:
                parsed = _parsed_action(m.group(2))
            except IllegalAction as exc:
                raise line.fail(str(exc)) from None
            action = str(parsed)
            out.actions.append(parsed)
            card = None
            if m.group(3) is not None:
                got = _parse_cards(line, m.group(3))
                if len(got) != 1:
                    raise line.fail("the bracket after a move holds the one card it got")
                card = got[0]
            out.steps.append((line, Move(seat, action, card)))
        elif key.startswith("Chance "):
            kind = key[7:].strip()
            if not kind.isalpha():
                raise line.fail(f"bad chance kind {kind!r}")
            out.steps.append((line, ChanceStep(kind, _parse_cards(line, line.value))))
        elif key.startswith("Hand "):
            index = key[5:].strip()
            if not index.isdigit() or int(index) >= players:
                raise line.fail(f"bad seat {index!r}: a hand is 'Hand 0:' … 'Hand {players - 1}:'")
            out.hands[int(index)] = (line, _parse_cards(line, line.value))
        elif key.startswith("Settlement "):
            out.settlement.append((line, key[11:].strip(), _parse_json(line, line.value)))
        elif key in ("Dealer", "Active", "Commitment", "Seed", "Salt", "Pile", "Winner", "Points"):
            if key in out.fields:
                raise line.fail(f"a second '{key}:' line in deal {number}")
            if out.steps and key in ("Dealer", "Active", "Commitment", "Seed", "Salt"):
                raise line.fail(f"'{key}:' belongs before the deal's moves")
            out.fields[key] = line
        else:
            raise line.fail(f"unknown line {key!r} in deal {number}")
    return out


def _deal(game: Game, header: MatchRecord, lines: list[_Line], number: int) -> DealRecord:
    text = _parse_deal(lines, header, number)
    fields, players = text.fields, header.players
    if "Dealer" not in fields:
        raise text.heading.fail(f"deal {number} has no 'Dealer:' line")
    dealer = _int(fields["Dealer"], "Dealer", 0, players - 1)
    active = tuple(True for _ in range(players))
    if "Active" in fields:
        line = fields["Active"]
        listed = [
            _int(replace(line, value=w), "a seat", 0, players - 1) for w in line.value.split()
        ]
        active = tuple(s in listed for s in range(players))
    commit = None
    if "Commitment" in fields:
        commit = fields["Commitment"].value
        if not _HEX64.fullmatch(commit):
            raise fields["Commitment"].fail("a commitment is 64 lowercase hex digits (SHA-256)")
    salt = None
    if "Salt" in fields:
        salt = fields["Salt"].value
        if not _HEX32.fullmatch(salt):
            raise fields["Salt"].fail("a salt is 32 lowercase hex digits (16 bytes)")
    base = DealRecord(
        game=game.name,
        rules=header.rules,
        players=players,
        number=number,
        dealer=dealer,
        active=active,
        commitment=commit,
    )
    if "Seed" not in fields:
        for key in ("Salt", "Pile", "Winner", "Points"):
            if key in fields:
                raise fields[key].fail(f"deal {number} has no 'Seed:': its {key} cannot be shown")
        shown = [ln for ln, s in text.steps if isinstance(s, ChanceStep)] + [
            ln for ln, _ in text.hands.values()
        ]
        if shown or text.settlement:
            where = shown[0] if shown else text.settlement[0][0]
            raise where.fail(f"deal {number} has no 'Seed:': its cards cannot be shown")
        return replace(
            base,
            steps=tuple(s for _, s in text.steps),
            step_lines=tuple(ln.number for ln, _ in text.steps),
        )
    seed = _int(fields["Seed"], "Seed", 0)
    return _replayed(game, replace(base, seed=seed, salt=salt), text)


def _differ(want: Sequence[str], got: Sequence[str]) -> str:
    """The first cards that differ between two card lists (as multisets)."""
    extra = Counter(got) - Counter(want)
    missing = Counter(want) - Counter(got)
    parts = []
    if missing:
        parts.append(f"the seed gives {' '.join(sorted(missing.elements())[:3])}")
    if extra:
        parts.append(f"the record has {' '.join(sorted(extra.elements())[:3])}")
    return "; ".join(parts) or f"{len(got)} cards where the seed gives {len(want)}"


def _order(want: Sequence[str], got: Sequence[str]) -> str:
    """Where two card sequences first differ."""
    if Counter(want) != Counter(got):
        return _differ(want, got)
    i = next(i for i, (a, b) in enumerate(zip(want, got, strict=True)) if a != b)
    return f"card {i + 1} is {want[i]} by the seed, not {got[i]}"


def _replayed(game: Game, deal: DealRecord, text: _DealText) -> DealRecord:
    fields = text.fields
    seed_line = fields["Seed"]
    commit, salt, seed = deal.commitment, deal.salt, deal.seed
    opened = None if commit is None or salt is None or seed is None else commits(commit, seed, salt)
    if opened is False:  # the shuffle was not the one committed to
        raise seed_line.fail(
            f"deal {deal.number}: sha256(seed || salt) does not match the commitment "
            "published before the deal: the seed or the salt was changed"
        )
    try:
        state = load_state(game, deal.start_doc())
    except (RecordError, InputError) as exc:
        raise seed_line.fail(f"deal {deal.number} cannot be dealt: {exc}") from None
    start_views = [state.view(s) for s in range(deal.players)]
    hands = tuple(tuple(v.get("hand") or ()) for v in start_views)
    for seat, (line, cards) in text.hands.items():
        if Counter(cards) != Counter(hands[seat]):
            raise line.fail(f"seat {seat} was not dealt these cards: {_differ(hands[seat], cards)}")
    pile = tuple(state.view(None).get("discard_pile") or ())
    if "Pile" in fields:
        got = _parse_cards(fields["Pile"], fields["Pile"].value)
        if got != pile:
            raise fields["Pile"].fail(f"the pile at the start is not this: {_differ(pile, got)}")
    pending: list[Step] = list(steps_of(state.events))
    steps: list[Step] = []
    last = seed_line
    actions = iter(text.actions)
    for line, step in text.steps:
        last = line
        if isinstance(step, ChanceStep):
            if not pending or not isinstance(pending[0], ChanceStep):
                raise line.fail(f"no chance of kind '{step.kind}' happens here")
            want = pending.pop(0)
            assert isinstance(want, ChanceStep)
            if want.kind != step.kind:
                raise line.fail(f"chance here is '{want.kind}', not '{step.kind}'")
            if want.cards != step.cards:
                raise line.fail(
                    f"this {want.kind} is not the seed's: {_order(want.cards, step.cards)}"
                )
            steps.append(want)
            continue
        assert isinstance(step, Move)
        if pending:
            first = pending[0]
            what = f"chance '{first.kind}'" if isinstance(first, ChanceStep) else "a move"
            raise line.fail(f"the record leaves out {what} before this move")
        if state.is_over:
            raise line.fail("the deal is already over")
        before = len(state.events)
        try:
            applied = state.apply(next(actions), step.seat)
        except IllegalAction as exc:
            raise line.fail(f"S{step.seat} '{step.action}' is refused: {exc}") from None
        new = steps_of(state.events[before:])
        made = new.pop(0) if new and isinstance(new[0], Move) else Move(step.seat, str(applied))
        assert isinstance(made, Move)
        if step.card is not None and made.card != step.card:
            drawn = made.card or "no card"
            raise line.fail(
                f"this '{made.action}' gets {drawn} from the seed's deal, not {step.card}"
            )
        steps.append(made)
        pending = new
    if pending:
        first = pending[0]
        kind = first.kind if isinstance(first, ChanceStep) else "move"
        raise last.fail(f"the record stops before the engine's chance '{kind}'")
    result = _result_of(state, text, last)
    return replace(
        deal,
        hands=hands,
        pile=pile,
        steps=tuple(steps),
        result=result,
        step_lines=tuple(ln.number for ln, _ in text.steps),
    )


def _ascii_value(value: JsonValue) -> JsonValue:
    back: JsonValue = json.loads(json.dumps(value, ensure_ascii=False).translate(_SUITS))
    return back


def _result_of(state: GameState, text: _DealText, last: _Line) -> ResultRecord | None:
    fields = text.fields
    given = "Winner" in fields or "Points" in fields
    result = state.result
    if result is None:
        if given or text.settlement:
            where = fields.get("Winner") or fields.get("Points") or text.settlement[0][0]
            raise where.fail("the record gives a result, but the deal is not over after its moves")
        return None
    if not given:
        raise last.fail("the deal ends here, but the record gives no 'Winner:' and 'Points:'")
    players = len(result.scores)
    if "Winner" in fields:
        line = fields["Winner"]
        winner = None if line.value == "none" else _seat_ref(line, line.value, players)
        if winner != result.winner:
            want = "none" if result.winner is None else f"S{result.winner}"
            raise line.fail(f"the winner is {want} by the rules, not {line.value}")
    if "Points" in fields:
        line = fields["Points"]
        parts = line.value.split()
        if not all(re.fullmatch(r"[-+]?\d+", p) for p in parts):
            raise line.fail("Points lists whole numbers, one per seat")
        points = tuple(int(p) for p in parts)
        if points != tuple(result.scores):
            want = " ".join(str(p) for p in result.scores)
            raise line.fail(f"the points are {want} by the rules, not {line.value}")
    details = json_object(result.details)
    for line, key, value in text.settlement:
        if key not in details:
            raise line.fail(f"the settlement has no {key!r}")
        if value != details[key] and value != _ascii_value(details[key]):
            want = json.dumps(details[key], ensure_ascii=False)
            raise line.fail(f"the settlement's {key!r} is {want[:80]} by the rules")
    return ResultRecord(
        result.winner, tuple(result.scores), tuple((str(k), v) for k, v in details.items())
    )
