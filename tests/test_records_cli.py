"""Records at the terminal (issue 24): ``rami record``, ``rami verify`` (exit 0 / 1, one
line), ``rami export`` of a saved match, ``rami simulate --records`` and the record that
``rami play`` writes at a deal's end."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from rami.cli import main
from rami.games import get_game
from rami.play.saves import SavedGame
from rami.play.session import Session, Settings
from rami.records import SeatInfo, match_record, read, verify, write


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _match(seed: int = 11) -> object:
    import random

    spec = get_game("marriage")
    match = spec.new_match({"preset": "nepali", "max_turns": 40}, 3, seed)
    rng = random.Random(seed)
    while not match.current.is_over:
        match.apply(rng.choice(match.current.legal_actions()))
    return match


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    spec = get_game("marriage")
    seats = [SeatInfo("Ana", "human"), SeatInfo("Bot 1", "bot", "easy"), SeatInfo("Bot 2", "bot")]
    record = match_record(spec, _match(), seats, seed=11, date="2026-12-02T00:00:00Z")  # type: ignore[arg-type]
    path = tmp_path / "deal.rami"
    path.write_text(write(record), encoding="utf-8")
    return path


def test_record_prints_a_replay_from_a_seat(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    code, out, _ = run(capsys, "record", str(record_file))
    assert code == 0 and "Marriage (nepali) - 3 players" in out and "S0 Ana is dealt:" in out
    dealt = [line for line in out.splitlines() if " is dealt: " in line]
    assert all("21 cards" not in line for line in dealt)  # every hand shown
    code, out, _ = run(capsys, "record", str(record_file), "--seat", "0", "--ascii")
    assert code == 0 and out.isascii()
    dealt = [line for line in out.splitlines() if " is dealt: " in line]
    assert "21 cards" not in dealt[0] and all("21 cards" in line for line in dealt[1:])
    assert "Result:" in out
    code, _, err = run(capsys, "record", str(record_file), "--seat", "5")
    assert code == 2 and err.startswith("error: --seat")


def test_verify_exit_status_and_one_line(
    capsys: pytest.CaptureFixture[str], record_file: Path, tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "verify", str(record_file))
    assert code == 0 and out.startswith("OK: verified 1 deal") and out.count("\n") == 1
    text = record_file.read_text(encoding="utf-8")
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if line.startswith("Hand 2: "))
    cards = lines[i].split()
    cards[2] = "K♦" if cards[2] != "K♦" else "Q♦"  # one card changed
    lines[i] = " ".join(cards)
    bad = tmp_path / "bad.rami"
    bad.write_text("\n".join(lines), encoding="utf-8")
    code, out, err = run(capsys, "verify", str(bad))
    assert code == 1 and out.startswith(f"NOT VERIFIED: line {i + 1}: seat 2 was not dealt")
    assert out.count("\n") == 1 and not err
    code, _, err = run(capsys, "verify", str(tmp_path / "missing.rami"))
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1
    junk = tmp_path / "junk.rami"
    junk.write_bytes(b"\xff\xfe\x00binary")
    code, _, err = run(capsys, "record", str(junk))
    assert code == 2 and "not UTF-8" in err


def test_simulate_writes_one_verified_record_per_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    argv = ["simulate", "tunisian", "--mode", "1v1", "--games", "2", "--quiet", "--unit"]
    code, _, err = run(capsys, *argv, "game", "--max-turns", "20", "--records", str(folder))
    assert code == 0, err
    files = sorted(folder.glob("*.rami"))
    assert [f.name for f in files] == ["tunisian-1v1-00001.rami", "tunisian-1v1-00002.rami"]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert verify(text).ok
        record = read(text)
        assert [s.kind for s in record.seats] == ["bot", "bot"]
        assert record.standing is not None and record.standing.over
    argv = ["simulate", "marriage", "--games", "1", "--quiet", "--records", str(folder)]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert verify((folder / "marriage-nepali-00001.rami").read_text(encoding="utf-8")).ok


def test_play_writes_the_record_and_export_gives_the_saved_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    spec = get_game("tunisian")
    match = spec.new_match({"preset": "1v1", "max_turns": 10}, None, 5)
    out = io.StringIO()
    settings = Settings("tunisian", "easy", 5, 0, ascii=True, delay=0)
    session = Session(match, settings, console=Console(file=out, width=80), read=lambda _p: "q")
    for _ in range(100):  # the human draws and throws back the drawn card
        deal = match.current
        if deal.is_over:
            break
        if deal.to_move == 0:
            match.apply(deal.legal_actions()[0], 0)
        else:
            session.bot_turn(deal.to_move)  # type: ignore[arg-type]
    assert match.current.is_over
    session.run()  # the deal-end screen writes the record, "q" saves and leaves
    path = tmp_path / "rami" / "records" / "tunisian-5.rami"
    assert "Record of the match:" in out.getvalue() and path.exists()
    record = read(path.read_text(encoding="utf-8"))
    assert [s.kind for s in record.seats] == ["human", "bot"] and record.seats[1].level == "easy"
    assert verify(path.read_text(encoding="utf-8")).ok
    assert SavedGame.read(tmp_path / "rami" / "play-tunisian.json").seed == 5
    code, text, err = run(capsys, "export", "tunisian")
    assert code == 0, err
    assert read(text).deals == record.deals and read(text).seats == record.seats
    target = tmp_path / "out.rami"
    code, _, err = run(capsys, "export", "-o", str(target), "--ascii")
    assert code == 0 and target.read_text(encoding="ascii").startswith("rami-record 1")
    code, _, err = run(capsys, "export", "chess")
    assert code == 2 and "unknown game" in err
