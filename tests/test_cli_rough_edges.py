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


# ---------------------------------------------------------------- issue 23: a newcomer's


@pytest.mark.parametrize(
    "command",
    [[], ["simulate"], ["ledger"], ["score", "marriage"], ["analyze"], ["train"], ["serve"]],
)
def test_dash_h_is_help_everywhere(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, err = run(capsys, *command, "-h")
    assert code == 0 and "Usage" in out and not err


def test_max_turns_default_says_what_it_means(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # one line per option: nothing wrapped
    code, out, _ = run(capsys, "simulate", "--help")
    line = next(ln for ln in out.splitlines() if "--max-turns" in ln)
    assert code == 0 and "default: the game's cap, 1000 / 400" in line
    assert "default: -1" not in out


def test_counts_are_singular_for_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ledger = str(tmp_path / "ledger.json")
    code, out, err = run(
        capsys, "ledger", "new", "tunisian", "--players", "Sami,Ines", "--no-ask", "--file", ledger
    )
    assert code == 0 and "· 0 deals" in out, err
    deal = tmp_path / "deal.json"
    deal.write_text('{"winner": "Sami", "players": [{}, {"opened": false}]}')
    code, out, err = run(capsys, "ledger", "add", str(deal), "--file", ledger)
    assert code == 0 and "· 1 deal\n" in out, err
    code, _, err = run(capsys, "simulate", "tunisian", "--mode", "1v1", "--bots", "greedy")
    assert code == 2 and "--bots names 1 bot" in err and "1 bots" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "tunisian", "--mode", "3v3"],
        ["train", "tunisian", "--mode", "3v3"],
        ["simulate", "tunisian", "--mode", "3v3"],
    ],
)
def test_a_bad_mode_is_called_a_mode(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err == "error: unknown tunisian mode '3v3': choose 1v1, ffa or 2v2\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "marriage", "--tiplu", "JC", "--hand", "ZZ"],
        ["analyze", "tunisian", "--hand", "ZZ"],
        ["analyze", "tunisian", "--hand", "5H 5H 5H"],
    ],
)
def test_analyze_errors_name_the_hand_alike(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("error: --hand: ") and err.count("\n") == 1


def test_a_learned_bot_from_a_wrong_file_is_one_plain_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import numpy as np

    deal = tmp_path / "deal.json"
    deal.write_text('{"winner": null}')
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, meta=np.array([{"game": "tunisian"}], dtype=object))
    for path, reason in [(deal, ".npz archives"), (pickled, "pickled objects")]:
        code, _, err = run(capsys, "simulate", "tunisian", "--bots", f"learned:{path},greedy")
        assert code == 2 and err.count("\n") == 1 and reason in err, err
        assert "allow_pickle" not in err and "unsafe" not in err


def test_ray_uses_every_cpu_unless_workers_is_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ray itself is not started: the run goes to the local backend, the asked-for
    number of workers is recorded."""
    import os

    from rami.sim import backends

    asked: list[tuple[str, int]] = []
    real = backends.run_jobs

    def recording(config: object, jobs: object, workers: int, backend: str, **kw: object) -> object:
        asked.append((backend, workers))
        return real(config, jobs, workers=1, backend="local", **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(backends, "run_jobs", recording)
    common = ["simulate", "tunisian", "--mode", "1v1", "--games", "2", "--quiet"]
    assert run(capsys, *common, "--backend", "ray")[0] == 0
    assert run(capsys, *common, "--backend", "ray", "--workers", "2")[0] == 0
    assert run(capsys, *common)[0] == 0
    assert asked == [("ray", os.cpu_count() or 1), ("ray", 2), ("local", 1)]


def test_tunisian_simulate_says_fewer_points_are_better(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """T-10: a deal's points are penalties; Marriage's nets need no such note."""
    args = ["--games", "2", "--quiet", "--bots", "greedy,random"]
    code, out, _ = run(capsys, "simulate", "tunisian", "--mode", "1v1", *args)
    assert code == 0 and "fewer points are better" in out
    assert "per deal (95% CI, 1 group, not significant; fewer points are better)" in out
    code, out, _ = run(capsys, "simulate", "marriage", *args)
    assert code == 0 and "better" not in out


@pytest.fixture
def deep_json(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return path


@pytest.mark.parametrize(
    "argv",
    [["score", "marriage"], ["score", "tunisian"], ["ledger", "add"], ["ledger", "import"]],
)
def test_deeply_nested_json_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, deep_json: Path, argv: list[str]
) -> None:
    ledger = tmp_path / "ledger.json"
    if argv[0] == "ledger":
        run(capsys, "ledger", "new", "tunisian", "--players", "A,B", "--no-ask",
            "--file", str(ledger))  # fmt: skip
        argv = [*argv, "--file", str(ledger)]
    code, _, err = run(capsys, *argv, str(deep_json))
    assert code == 2 and err == f"error: {deep_json} nests its JSON too deeply\n"


def test_a_deeply_nested_share_link_and_ledger_file_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, deep_json: Path
) -> None:
    import base64

    link = "http://x/score#ledger=" + base64.urlsafe_b64encode(b"[" * 5000).decode()
    ledger = str(tmp_path / "ledger.json")
    code, _, err = run(capsys, "ledger", "import", link, "--file", ledger)
    assert code == 2 and err == "error: the link's ledger nests its JSON too deeply\n"
    code, _, err = run(capsys, "ledger", "show", "--file", str(deep_json))
    assert code == 2 and err == f"error: {deep_json} nests its JSON too deeply\n"


def test_a_refused_serve_creates_no_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("fastapi")
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = str(busy.getsockname()[1])
        for args, fragment in [
            (["--port", "70000"], "--port"),
            (["--host", "192.0.2.77"], "not an address of this machine"),
            (["--port", taken], "already in use"),
        ]:
            db = tmp_path / "rami.db"
            code, out, err = run(capsys, "serve", *args, "--db", str(db))
            assert code == 2 and fragment in err and "playing at" not in out
            assert not db.exists(), args
