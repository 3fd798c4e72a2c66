"""Rough edges of the command line found in issue 14, each with the case that showed it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rami.cli import main
from rami.errors import InputError
from rami.play.commands import parse_command


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("rami ")


@pytest.mark.parametrize("command", [[], ["simulate"], ["play"], ["play", "tunisian"]])
def test_help_shows_no_bool_type(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, _ = run(capsys, *command, "--help")
    assert code == 0 and "Usage" in out and "<bool>" not in out


def test_simulate_without_bots_fills_the_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "out.json"
    code, _out, err = run(
        capsys,
        "simulate",
        "tunisian",
        "--mode",
        "1v1",
        "--games",
        "2",
        "--quiet",
        "--json",
        str(target),
    )
    assert code == 0, err
    assert len(json.loads(target.read_text())["config"]["bots"]) == 2


def test_simulate_json_to_a_bad_place_fails_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for bad, fragment in [(tmp_path / "no" / "x.json", "does not exist"), (tmp_path, "folder")]:
        code, out, err = run(capsys, "simulate", "marriage", "--games", "400", "--json", str(bad))
        assert code == 2 and fragment in err and err.count("\n") == 1
        assert "games" not in out  # no results table: nothing was run


@pytest.mark.parametrize("typo", ["foo", "exit2", "fold", "xyz", "eat"])
def test_play_typos_are_not_read_as_a_verb_and_a_card(typo: str) -> None:
    with pytest.raises(InputError, match=f"unknown command '{typo}'"):
        parse_command(typo, {})


def test_play_glued_verb_and_card_still_works() -> None:
    command = parse_command("x7c", {})
    assert command.actions and str(command.actions[0]) == "discard 7♣"


def test_resume_a_chosen_game_and_say_when_it_has_no_save(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, _out, err = run(capsys, "play", "--resume", "marriage")
    assert code == 2 and "no saved marriage match" in err
    code, _out, err = run(capsys, "play", "--resume")
    assert code == 2 and "no saved game" in err


def test_json_file_messages(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _out, err = run(capsys, "score", "marriage", str(tmp_path))
    assert code == 2 and "is a folder" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": "unterminated')
    code, _out, err = run(capsys, "score", "marriage", str(bad))
    assert code == 2 and "starting at line 1" in err and "at at" not in err
