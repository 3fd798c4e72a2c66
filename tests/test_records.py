"""Open records (issue 24, parts 1 and 3): the ``.rami`` format round-trips, a reader
refuses what the rules or the seed refuse with one line naming the line, and
``rami verify`` checks the shuffle commitments."""

from __future__ import annotations

import random
import re
import time

import pytest

from rami.bots import make_bot
from rami.games import RecordedMatch, get_game
from rami.records import (
    RecordError,
    SeatInfo,
    commitment,
    commits,
    match_record,
    read,
    shuffle_salt,
    verify,
    write,
)

PRESETS = [("marriage", "nepali"), ("marriage", "indian")] + [
    ("tunisian", m) for m in ("1v1", "ffa", "2v2")
]
DATE = "2026-12-02T00:00:00Z"
BUDGET_S = 10.0  # per preset: the five round trips stay under a minute


def _play(game: str, preset: str, seed: int, deals: int, bots: str | None) -> object:
    spec = get_game(game)
    rules = {"preset": preset, "max_turns": 60}
    match = spec.new_match(rules, None, seed)
    rng = random.Random(seed)
    n = match.current.num_players
    players = [make_bot(game, bots, seed + s) for s in range(n)] if bots else None
    for number in range(deals):
        state = match.current
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if players is not None:
                match.apply(players[seat].act(match.view(seat)), seat)
            else:
                match.apply(rng.choice(state.legal_actions()), seat)
        if match.is_over or number == deals - 1:
            break
        match.next_deal()
    return match


def _record(game: str, match: object, seed: int) -> object:
    spec = get_game(game)
    n = match.current.num_players  # type: ignore[attr-defined]
    seats = [
        SeatInfo(
            "Zoë" if s == 0 else f"Bot {s}",
            "human" if s == 0 else "bot",
            None if s == 0 else "greedy",
        )
        for s in range(n)
    ]
    return match_record(spec, match, seats, seed=seed, date=DATE)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_round_trip_random_and_bot_deals_same_states_same_bytes(game: str, preset: str) -> None:
    """Export -> import gives the same record, the same bytes (UTF-8 and ASCII) and, deal
    by deal, the same states as the match played (every preset of both games; random
    play, and greedy bots in every eighth match). About 10 s a preset: some 2,500 deals."""
    started = time.perf_counter()
    deals = seed = 0
    while time.perf_counter() - started < BUDGET_S and deals < 5000:
        seed += 1
        match = _play(game, preset, seed, 3, "greedy" if seed % 8 == 0 else None)
        record = _record(game, match, seed)
        for ascii in (False, True) if seed % 3 == 0 else (False,):
            text = write(record, ascii=ascii)  # type: ignore[arg-type]
            assert text.isascii() or not ascii
            again = read(text)
            assert again == record
            assert write(again, ascii=ascii) == text
        assert isinstance(match, RecordedMatch)
        docs = match.deal_docs()
        for deal, doc in zip(again.deals, docs, strict=True):
            assert deal.final_state().to_json() == doc  # type: ignore[attr-defined]
        final = again.deals[-1].final_state()
        assert final.events == match.current.events  # type: ignore[attr-defined]
        assert final.view(0) == match.current.view(0)  # type: ignore[attr-defined]
        deals += len(record.deals)  # type: ignore[attr-defined]
    assert deals >= 40
    print(f"{game} {preset}: {deals} deals round-tripped")


def test_states_rebuild_every_position() -> None:
    """``DealRecord.states()``: the start, then one independent state per move."""
    match = _play("marriage", "nepali", 5, 1, None)
    deal = read(write(_record("marriage", match, 5))).deals[0]  # type: ignore[arg-type]
    states = deal.states()
    assert len(states) == len(deal.moves) + 1
    assert states[0].to_move is not None and states[-1].is_over
    assert states[-1].view(None) == match.current.view(None)  # type: ignore[attr-defined]
    assert len(states[1].events) < len(states[-1].events)  # copies, not one state


def _text(game: str = "tunisian", preset: str = "1v1", seed: int = 3) -> str:
    return write(_record(game, _play(game, preset, seed, 2, None), seed))  # type: ignore[arg-type]


def _edit(text: str, pattern: str, change: object) -> tuple[str, int]:
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if re.match(pattern, line))
    lines[i] = change(lines[i]) if callable(change) else str(change)
    return "\n".join(lines), i + 1


def test_verify_accepts_an_honest_record() -> None:
    verdict = verify(_text())
    assert verdict.ok and "verified 2 deals" in verdict.message


@pytest.mark.parametrize(
    ("pattern", "change", "why"),
    [
        (r"Hand 1: ", lambda s: s.replace("Hand 1: ", "Hand 1: JK ", 1), "not dealt"),
        (r"Seed: ", "Seed: 12345", "commitment"),
        (r"Salt: ", "Salt: " + "0" * 32, "commitment"),
        (r"S\d draw \[", lambda s: re.sub(r"\[.*\]", "[JK]", s), "gets"),
        (r"Chance deal: ", lambda s: "Chance deal: " + " ".join(s[13:].split()[::-1]), "seed"),
        (r"Points: ", "Points: 1 2", "the points are"),
        (r"Winner: ", "Winner: S7", "not a seat"),
    ],
)
def test_one_changed_card_or_seed_fails_with_the_line(
    pattern: str, change: object, why: str
) -> None:
    """A record with one card changed, or a wrong seed, fails verification in one line."""
    bad, line = _edit(_text(), pattern, change)
    verdict = verify(bad)
    assert not verdict.ok
    # (a changed salt is reported at the seed it fails to open, the line before)
    assert verdict.message.startswith((f"line {line}: ", f"line {line - 1}: "))
    assert why in verdict.message
    assert "\n" not in verdict.message and "Traceback" not in verdict.message


def test_an_illegal_move_is_refused_naming_the_line_and_the_rule() -> None:
    """T-5: a discard of a card the seat does not hold is refused with the engine's reason."""
    text = _text()
    bad, line = _edit(text, r"S\d discard ", lambda s: s.split(" discard ")[0] + " discard 7♣ 7♣")
    with pytest.raises(RecordError, match=rf"^line {line}: S\d 'discard"):
        read(bad)
    bad, line = _edit(text, r"S\d ", lambda s: "S1" + s[2:] if s.startswith("S0") else "S0" + s[2:])
    with pytest.raises(RecordError, match=rf"^line {line}: .*refused"):
        read(bad)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: not a rami record"),
        ("rami-record 9\n", "format 9"),
        ("rami-record 1\nGame: chess\n", "line 2: unknown game"),
        ("rami-record 1\nGame: tunisian\nPlayers: 2\n", "Seat 0"),
        ("rami-record 1\nGame: tunisian\nPreset: 1v1\nPlayers: 3\n", "line 4:"),
        ("rami-record 1\nGame: tunisian\nRule jokers: many\n", "line 3: not a JSON value"),
        ("rami-record 1\nwhat is this\n", "line 2: cannot read"),
    ],
)
def test_malformed_records_get_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        read(text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_bad_cards_and_unknown_lines_name_the_line() -> None:
    text = _text()
    bad, line = _edit(text, r"Hand 0: ", lambda s: s + " 11♣")
    with pytest.raises(RecordError, match=rf"^line {line}: bad card '11♣'"):
        read(bad)
    bad, line = _edit(text, r"Dealer: ", "Flavour: vanilla")
    with pytest.raises(RecordError, match=rf"^line {line}: unknown line 'Flavour'"):
        read(bad)
    bad, line = _edit(text, r"Winner: ", "")
    bad = bad.replace("\nPoints:", "\n#Points:", 1)
    with pytest.raises(RecordError, match="no 'Winner:'"):
        read(bad)


def test_commitment_is_sha256_of_the_seed_bytes_and_the_salt() -> None:
    """docs/records.md: sha256(seed as 8 bytes big-endian || the salt's 16 bytes)."""
    import hashlib

    salt = shuffle_salt(42, 0)
    assert re.fullmatch(r"[0-9a-f]{32}", salt) and salt != shuffle_salt(42, 1)
    want = hashlib.sha256((123).to_bytes(8, "big") + bytes.fromhex(salt)).hexdigest()
    assert commitment(123, salt) == want and commits(want, 123, salt)
    assert not commits(want, 124, salt) and commitment(1 << 64, salt) is None


def test_comments_and_blank_lines_are_ignored_and_ascii_reads_back() -> None:
    text = _text("marriage", "nepali", 4)
    annotated = text.replace("\nDeal 1\n", "\n# a note\n\nDeal 1\n", 1)
    assert read(annotated) == read(text)
    ascii = write(read(text), ascii=True)
    assert ascii.isascii() and "Zo\\u00eb" in ascii and read(ascii) == read(text)


def _eliminating_match(seed: int) -> object:
    """A Tunisian ffa game of greedy bots eliminated at 100 points, played to deal 2's end."""
    spec = get_game("tunisian")
    match = spec.new_match({"preset": "ffa", "elimination": 100, "max_turns": 200}, None, seed)
    players = [make_bot("tunisian", "greedy", seed + s) for s in range(4)]
    for _ in range(2):
        while not match.current.is_over:
            seat = match.current.to_move
            assert seat is not None
            match.apply(players[seat].act(match.view(seat)), seat)
        if match.is_over:
            break
        match.next_deal()
    return match


def test_eliminated_seats_are_left_out_of_later_deals() -> None:
    """T-13: a seat eliminated in deal 1 is not dealt in deal 2 (``Active:``); the record
    round-trips and replays the smaller deal."""
    for seed in range(1, 40):
        match = _eliminating_match(seed)
        record = _record("tunisian", match, seed)
        deals = record.deals  # type: ignore[attr-defined]
        if len(deals) == 2 and 0 < sum(deals[1].active) < 4:
            break
    else:
        raise AssertionError("no game eliminated a seat in deal 1 and went on")
    out = [s for s, on in enumerate(deals[1].active) if not on]
    text = write(record)  # type: ignore[arg-type]
    active = " ".join(str(s) for s, on in enumerate(deals[1].active) if on)
    assert f"\nActive: {active}\n" in text
    again = read(text)
    assert again == record and write(again) == text
    start = again.deals[1].start()
    assert all(not start.view(s).get("hand") for s in out)
    final = again.deals[1].final_state()
    assert final.to_json() == match.current.to_json()  # type: ignore[attr-defined]


def test_mangled_records_always_get_one_record_error() -> None:
    """Lines deleted, doubled, swapped, cut or changed: never a traceback, always one line."""
    texts = [_text("tunisian", "1v1", 3), _text("marriage", "nepali", 4)]
    rng = random.Random(0)
    values = ["null", "-1", "0", "99999999999999999999", '"x"', "[]", "S9", "10♣", "", "0 1"]
    for _ in range(150):
        lines = rng.choice(texts).split("\n")
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(lines))
            op = rng.randrange(5)
            if op == 0:
                del lines[k]
            elif op == 1:
                lines.insert(k, lines[rng.randrange(len(lines))])
            elif op == 2:
                lines[k], lines[k - 1] = lines[k - 1], lines[k]
            elif op == 3 and lines[k]:
                j = rng.randrange(len(lines[k]))
                lines[k] = lines[k][:j] + rng.choice('xX9 :[]"{}♠-@S#') + lines[k][j + 1 :]
            else:
                lines[k] = lines[k].split(":")[0] + ": " + rng.choice(values)
        try:
            read("\n".join(lines))
        except RecordError as exc:
            assert "\n" not in str(exc) and str(exc).startswith("line ")
