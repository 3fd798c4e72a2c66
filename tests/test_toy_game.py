"""The toy rummy (tests/toy_game) plugs into rami through the registry alone (issue 10).

Nothing in src/rami names it: registered with ``register()`` (or ``RAMI_GAMES`` for a
subprocess), it runs through ``rami simulate``, a terminal session of ``rami play`` and
the web server's HTTP and WebSocket API, with random bots.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from toy_support import ROOT, TOY, subprocess_env, toy_registered

from rami.cli import main
from rami.errors import IllegalAction
from rami.games import get_game
from rami.play.session import Session, Settings
from rami.sim.backends import run_jobs
from rami.sim.tournament import make_config, schedule, summarize


@pytest.fixture
def toy() -> Iterator[Any]:
    with toy_registered() as game:
        yield game


def test_the_toy_is_registered_only_while_a_test_wants_it(toy: Any) -> None:
    assert get_game("toy") is TOY


def test_a_deal_hides_the_other_hand_and_refuses_illegal_moves(toy: Any) -> None:
    state = toy.new_deal(toy.rules_from("classic"), 2, 4, 0)
    view = state.view(0)
    assert view["hand"] is not None and len(view["seats"]) == 2
    assert all("hand" not in s for s in view["seats"])
    before = json.dumps(state.to_json())
    for bad in ("knock 8♣", "discard 2♠", "fly"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert json.dumps(state.to_json()) == before


def test_simulate_plays_the_toy_in_process(toy: Any, capsys: pytest.CaptureFixture[str]) -> None:
    config = make_config("toy", ["random", "random"], seed=3)
    assert config.preset == "classic" and config.max_turns == 60  # Game.turn_cap
    results = run_jobs(config, schedule(config, 6), workers=1)
    summary = summarize(config, results)
    assert summary.games == 6 and summary.deals == 6
    main(["simulate", "toy", "--bots", "random,random", "--games", "4", "--quiet"])
    out = capsys.readouterr().out
    assert "toy classic: 4 games" in out


def test_simulate_loads_the_toy_from_rami_games(tmp_path: Path) -> None:
    """``RAMI_GAMES=tests.toy_game:GAME``: a plug-in named in the environment."""
    out = tmp_path / "toy.json"
    args = ["simulate", "toy", "--bots", "random,random", "--games", "4", "--seed", "2"]
    args += ["--quiet", "--json", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", "from rami.cli import main; main()", *args],
        env=subprocess_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert doc["config"]["game"] == "toy" and doc["games"] == 4


def _scripted(lines: list[str]) -> Any:
    feed = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def test_a_terminal_session_plays_the_toy(
    toy: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    match = toy.new_match("classic", None, 7)
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    settings = Settings("toy", "random", 7, 0, ascii=True, delay=0)
    session = Session(match, settings, console=console, read=_scripted([]))
    moves = 0
    while moves < 6 and not match.current.is_over:
        view = match.current.view(0)
        if match.current.to_move != 0:
            session.bot_turn(match.current.to_move)
            continue
        legal = view["legal_actions"]
        line = "d" if "draw" in legal else legal[-1]  # 'knock …' / 'discard …' as listed
        before = len(match.current.actions)
        session.read = _scripted([line])
        assert session.human_turn()
        assert len(match.current.actions) == before + 1, session.screen.notes
        moves += 1
    assert moves == 6 or match.current.is_over
    session.read = _scripted(["fly", "?", "help"])
    for _ in range(3):
        session.human_turn()
    screen = out.getvalue()
    assert "Your hand" in screen and "Discards" in screen


def test_rami_play_runs_the_toy_in_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rami play toy`` (the generic play command) in a pseudo-terminal, the toy loaded
    from ``RAMI_GAMES``: the screens show the table, moves go through, ``q`` saves."""
    pytest.importorskip("pexpect")
    from test_play_pty import Player

    for key, value in subprocess_env().items():
        monkeypatch.setenv(key, value)
    p = Player(["toy", "--seed", "3", "--ascii"], tmp_path)
    try:
        moves = 0
        while moves < 8:
            index = p.read()
            if index == 2:
                break
            if index == 1:
                p.send("")
                continue
            verbs = p.verbs
            assert "Discards" in p.screen and "Your hand" in p.screen
            if "d draw" in verbs:
                p.send("d")
            else:
                assert "knock CARD" in verbs or "x CARD discard" in verbs
                p.send("x " + p.first_in_hand())
            moves += 1
        assert moves == 8
        assert p.read() == 0
        p.send("q")
        p.child.expect("Saved to")
    finally:
        p.close()
    assert list(tmp_path.rglob("play-toy.json"))


def test_the_server_plays_a_toy_table(toy: Any, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from rami.server import ServerConfig, create_app

    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0))
    with TestClient(app) as client:
        assert "toy" in [g["name"] for g in client.get("/api/games").json()]
        body = {"game": "toy", "preset": "classic", "seats": [{"kind": "human"}] * 2}
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        code, first = made.json()["code"], made.json()["token"]
        joined = client.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()
        tokens = [first, joined["token"]]
        path = f"/ws/tables/{code}"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            sockets = [a, b]
            states = []
            for ws, token in zip(sockets, tokens, strict=True):
                ws.send_json({"type": "hello", "token": token})
                assert ws.receive_json()["type"] == "welcome"
                states.append(ws.receive_json())
            assert states[0]["view"]["game"] == "toy"
            assert states[1]["view"]["hand"] != states[0]["view"]["hand"]
            for version in range(1, 7):
                mover = states[0]["view"]["to_move"]
                if mover is None:
                    break
                action = states[mover]["view"]["legal_actions"][0]
                sockets[mover].send_json({"type": "action", "action": action, "id": version})
                ack = _until(sockets[mover], lambda m: m["type"] == "ack")
                assert ack["version"] == version
                states = [
                    _until(ws, lambda m, v=version: m["type"] == "state" and m["version"] == v)
                    for ws in sockets
                ]
                assert states[0]["view"]["history"][-1]["move"] == action


def _until(ws: Any, test: Any, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if test(message):
            return message
    raise AssertionError("expected message did not come")
