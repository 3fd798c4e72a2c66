"""The lobby's data for the shipped learned bot (``learned:NAME``): ``GET /api/games``
lists it on the presets and seat counts it was trained for only, and the server stays the
judge: a learned level at another table is refused with a one-line error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from rami.server import ServerConfig, create_app
from rami.server.protocol import GameInfo
from rami.server.rules_info import games_info

LEARNED = "learned:tunisian_1v1"


def learned_by_table(games: list[dict[str, object]]) -> dict[tuple[str, str], list[object]]:
    """``(game, preset)`` -> the preset's ``learned_levels`` (checked against the wire model)."""
    out: dict[tuple[str, str], list[object]] = {}
    for raw in games:
        info = GameInfo.model_validate(raw)
        for preset in info.presets:
            out[(info.name, preset.name)] = [(x.level, x.players) for x in preset.learned_levels]
    return out


def test_games_info_lists_the_learned_level_for_tunisian_1v1_only() -> None:
    found = learned_by_table(games_info())
    assert found.pop(("tunisian", "1v1")) == [(LEARNED, 2)]
    assert found and all(levels == [] for levels in found.values()), found
    for raw in games_info():  # never among the levels every table offers
        assert LEARNED not in raw["bot_levels"]  # type: ignore[operator]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0)
    with TestClient(create_app(config)) as made:
        yield made


def test_api_games_carries_the_learned_levels(client: TestClient) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    assert learned_by_table(response.json())[("tunisian", "1v1")] == [(LEARNED, 2)]


@pytest.mark.parametrize(
    ("game", "preset", "bots"),
    [("tunisian", "2v2", 3), ("tunisian", "ffa", 3), ("marriage", "nepali", 1)],
)
def test_the_server_refuses_the_learned_level_at_another_table_in_one_line(
    client: TestClient, game: str, preset: str, bots: int
) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": LEARNED}] * bots
    response = client.post("/api/tables", json={"game": game, "preset": preset, "seats": seats})
    assert response.status_code == 400, response.text
    message = response.json()["error"]["message"]
    assert "unknown bot level" in message and "\n" not in message
    assert LEARNED not in message.split(": use one of ")[-1]  # not offered here


def test_the_server_seats_the_learned_level_at_its_table(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": LEARNED}]
    response = client.post(
        "/api/tables", json={"game": "tunisian", "preset": "1v1", "seats": seats}
    )
    assert response.status_code == 201, response.text
    assert response.json()["table"]["seats"][1]["level"] == LEARNED
