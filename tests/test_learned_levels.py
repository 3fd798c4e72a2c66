"""The shipped model as a level of the terminal and the server (``learned:NAME``): only
models shipped with rami are offered there (a person or a web request never names a
file), for the game and table they were trained for."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from rami.bots.learned import learned_levels
from rami.errors import InputError


def test_learned_levels_list_the_shipped_models_for_their_table_only() -> None:
    assert "learned:tunisian_1v1" in learned_levels("tunisian")
    assert "learned:tunisian_1v1" in learned_levels("tunisian", 2, "1v1")
    assert learned_levels("tunisian", 4) == ()
    assert learned_levels("tunisian", preset="2v2") == ()
    assert learned_levels("marriage") == ()


def test_the_terminal_refuses_a_learned_file_or_a_model_for_another_table(
    tmp_path: Path,
) -> None:
    from rami.cli.play import start

    for level in (f"learned:{tmp_path / 'x.npz'}", "learned:tunisian_1v1"):
        with pytest.raises(InputError, match="unknown level"):
            start("tunisian", "2v2", None, level, 1, True, 0, 10)
    with pytest.raises(InputError, match="unknown level"):
        start("tunisian", "1v1", None, f"learned:{tmp_path / 'x.npz'}", 1, True, 0, 10)


def test_a_server_table_seats_the_shipped_model_and_it_plays(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from rami.server import ServerConfig, create_app

    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0)
    with TestClient(create_app(config)) as client:

        def table(level: str, preset: str = "1v1", bots: int = 1) -> Any:
            seats = [{"kind": "human"}] + [{"kind": "bot", "level": level}] * bots
            return client.post(
                "/api/tables", json={"game": "tunisian", "preset": preset, "seats": seats}
            )

        for bad in (table("learned:/etc/hostname"), table("learned:tunisian_1v1", "ffa", 3)):
            assert bad.status_code == 400 and "unknown bot level" in bad.text
        made = table("learned:tunisian_1v1")
        assert made.status_code == 201, made.text
        code, token = made.json()["code"], made.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(6):  # the human's turns; the model answers each by itself
            deadline = time.time() + 20
            while True:
                view = client.get(f"/api/tables/{code}/view", headers=headers).json()["view"]
                if view["to_move"] == 0 or view["result"] is not None:
                    break
                assert time.time() < deadline, "the learned bot did not move"
                time.sleep(0.02)
            if view["result"] is not None:
                break
            legal = view["legal_actions"]
            move = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard"))
            response = client.post(
                f"/api/tables/{code}/actions", json={"action": move}, headers=headers
            )
            assert response.status_code == 200, response.text
        history = client.get(f"/api/tables/{code}/view", headers=headers).json()["view"]["history"]
        assert any(e.get("seat") == 1 and "move" in e for e in history)


def test_the_shipped_model_at_another_table_is_an_input_error() -> None:
    from rami.bots import make_bot
    from rami.games import get_game

    state = get_game("tunisian").new_match("ffa", None, 1).current
    seat = state.to_move
    assert seat is not None
    with pytest.raises(InputError, match="trained for 1v1"):
        make_bot("tunisian", "learned:tunisian_1v1", 0).act(state.view(seat))
