"""``rami ladder`` (issue 25): every pair of levels on the same duplicate deals, rated with
OpenSkill, measured against medium, resumable, the same games on any backend; and the
shipped figures where a player picks a bot (``GET /api/games``, ``rami play --level``).

Tiny ladders of random, greedy, easy and medium bots on Tunisian rami 1 v 1 (T-11's turn
cap keeps random deals short) and Marriage ``nepali``: a few seconds in all.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rami.cli import main
from rami.errors import InputError
from rami.sim.backends import run_tasks
from rami.sim.ladder import (
    ResultLog,
    ladder_schedule,
    make_ladder,
    play_task,
    rate,
    rotations,
)

pytest.importorskip("openskill")

TUNISIAN = ["ladder", "tunisian", "--preset", "1v1", "--max-turns", "60", "--quiet"]


def scores(results: list[dict[str, object]]) -> list[object]:
    """What a game's result depends on: everything but the timings."""
    return [{k: v for k, v in r.items() if k not in ("thinking", "times")} for r in results]


def test_the_schedule_plays_every_pair_on_the_same_duplicate_deals() -> None:
    config = make_ladder("marriage", preset="nepali", levels=["random", "easy", "medium"])
    jobs = ladder_schedule(config, 5)  # 2 seatings a group (4 seats, A B A B): 3 groups
    assert rotations(4) == [0, 1] and rotations(2) == [0, 1] and rotations(3) == [0, 1, 2]
    per_pair = Counter(job.pair for job in jobs)
    assert per_pair == {p: 6 for p in config.pairs} and len(per_pair) == 3
    for g in range(3):  # group g deals the same cards at every table
        assert len({job.job.seed for job in jobs if job.job.group == g}) == 1
    seats: Counter[tuple[str, int]] = Counter()
    for job in jobs:
        table = config.table(job.pair)
        at = [table.bots[job.job.seating[seat]] for seat in range(4)]
        assert at[0] == at[2] != at[1] == at[3]  # opposite seats: partners in 2v2 (T-1)
        for seat in range(4):
            seats[(at[seat], seat)] += 1
    # every level sits in every seat equally often against each opponent level
    assert set(seats.values()) == {6}


def test_ratings_and_intervals_order_the_levels() -> None:
    config = make_ladder("tunisian", preset="1v1", levels=["random", "medium"], max_turns=60)
    jobs = ladder_schedule(config, 12)
    results = run_tasks(play_task, [(config.table(j.pair), j.job) for j in jobs])
    report = rate(config, zip(jobs, results, strict=True))
    by = {s.level: s for s in report.levels}
    assert report.games == 12 and report.groups == 6
    assert by["medium"].mu > 25 > by["random"].mu  # medium wins nearly every deal
    for s in report.levels:
        low, high = s.ci95
        assert low < s.mu < high and s.matches == 6
    # points per deal against medium (T-10: fewer is better), with a 95% interval
    vs = by["random"].versus_reference
    assert vs is not None and vs.n == 6 and vs.mean > 0 and vs.low > 0
    assert by["medium"].versus_reference is not None and by["medium"].versus_reference.mean == 0
    doc = report.to_json()["strength"]
    assert isinstance(doc, dict) and doc["random"]["points_vs_medium"]["groups"] == 6


def test_same_games_with_one_or_two_workers() -> None:
    config = make_ladder("tunisian", preset="1v1", levels=["easy", "greedy"], max_turns=60, seed=5)
    jobs = ladder_schedule(config, 4)
    tasks = [(config.table(j.pair), j.job) for j in jobs]
    one = run_tasks(play_task, tasks, workers=1)
    two = run_tasks(play_task, tasks, workers=2)
    assert scores(one) == scores(two)  # type: ignore[arg-type]
    r1, r2 = rate(config, zip(jobs, one, strict=True)), rate(config, zip(jobs, two, strict=True))
    assert r1.to_json() == r2.to_json()


def test_same_games_on_ray(tmp_path: Path) -> None:
    """``--backend ray`` (a local two-CPU Ray) gives the local backend's games and figures."""
    pytest.importorskip("ray")
    common = [*TUNISIAN, "--levels", "greedy,easy", "--games", "2", "--seed", "8"]
    main([*common, "--results", str(tmp_path / "a.jsonl"), "--json", str(tmp_path / "a.json")])
    main(
        [
            *common, "--backend", "ray", "--workers", "2",
            "--results", str(tmp_path / "b.jsonl"), "--json", str(tmp_path / "b.json"),
        ]
    )  # fmt: skip
    assert json.loads((tmp_path / "a.json").read_text()) == json.loads(
        (tmp_path / "b.json").read_text()
    )


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_a_stopped_ladder_goes_on_without_replaying_finished_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "games.jsonl"
    args = [*TUNISIAN, "--levels", "random,greedy,medium", "--seed", "3", "--results", str(log)]
    main([*args, "--games", "2"])
    first = lines(log)
    assert len(first) == 1 + 3 * 2  # the header, then one line per game (3 pairs)
    # a stop in the middle of writing a line: that game is played again, no other
    log.write_text("\n".join(first[:-1]) + "\n" + first[-1][:20])
    main([*args, "--games", "4", "--json", str(tmp_path / "resumed.json")])
    resumed = lines(log)
    assert resumed[: len(first) - 1] == first[:-1]  # finished games kept, not replayed
    assert len(resumed) == 1 + 3 * 4
    # the same figures as a ladder played in one go
    main([*args, "--games", "4", "--results", str(tmp_path / "fresh.jsonl"), "--json",
          str(tmp_path / "fresh.json")])  # fmt: skip
    assert json.loads((tmp_path / "resumed.json").read_text()) == json.loads(
        (tmp_path / "fresh.json").read_text()
    )
    # nothing left to play: the run only reads the file
    main([*args, "--games", "4"])
    assert lines(log) == resumed
    out = capsys.readouterr().out
    assert "greedy − medium" in out and "rating (95% CI)" in out


def test_a_results_file_of_another_ladder_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    config = make_ladder("tunisian", preset="1v1", levels=["random", "greedy"], seed=1)
    ResultLog(log, config).load()
    other = make_ladder("tunisian", preset="1v1", levels=["random", "greedy"], seed=2)
    with pytest.raises(InputError, match="holds another ladder"):
        ResultLog(log, other).load()


def test_the_json_records_the_command_that_made_it(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    main([*TUNISIAN, "--levels", "random,medium", "--games", "2", "--results",
          str(tmp_path / "g.jsonl"), "--json", str(out)])  # fmt: skip
    doc = json.loads(out.read_text())
    assert doc["command"] == (
        "rami ladder tunisian --preset 1v1 --levels random,medium --games 2 --max-turns 60 --seed 0"
    )
    assert set(doc["strength"]) == {"random", "medium"}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["ladder", "marriage", "--levels", "easy,wizard"], "unknown bot"),
        (["ladder", "marriage", "--preset", "klondike"], "unknown marriage preset"),
        (["ladder", "tunisian", "--levels", "medium"], "at least two levels"),
        (["ladder", "tunisian", "--levels", "easy,easy"], "twice"),
        (["ladder", "tunisian", "--preset", "2v2", "--players", "3"], "not 3"),
        (["ladder", "tunisian", "--backend", "cloud"], "unknown backend"),
        (["ladder", "tunisian", "--games", "0"], "at least 1"),
        (["ladder", "chess"], "unknown game"),
    ],
)
def test_ladder_errors_are_one_line_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--results", str(tmp_path / "x.jsonl")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "x.jsonl").exists()  # bad input changes nothing


def test_a_learned_level_must_fit_the_table() -> None:
    pytest.importorskip("numpy")
    with pytest.raises(InputError, match="trained for 1v1"):
        make_ladder("tunisian", preset="ffa", levels=["medium", "learned:tunisian_1v1"])
    make_ladder("tunisian", preset="1v1", levels=["medium", "learned:tunisian_1v1"])


# ------------------------------------------------------------------ the shipped figures


def test_every_preset_ships_a_ladder_with_its_command() -> None:
    from rami.bots.strength import bot_strength, shipped_ladder
    from rami.games import all_games

    for game in all_games():
        if game.bots is None or not game.rules_from.__module__.startswith("rami."):
            continue  # a test's own game ships no ladder
        for preset in game.presets:
            doc = shipped_ladder(game.name, preset)
            assert doc is not None, (game.name, preset)
            assert str(doc["command"]).startswith(f"rami ladder {game.name} --preset {preset} ")
            table = bot_strength(game.name, preset)
            assert {"easy", "medium", "hard"} <= set(table), (game.name, preset)
            for level, s in table.items():
                low, high = s["ci95"]
                assert low < s["rating"] < high, (game.name, preset, level)


def test_malformed_shipped_entries_are_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rami.bots import strength

    (tmp_path / "g-p.json").write_text(
        json.dumps(
            {
                "strength": {
                    "easy": {"rating": 20.0, "ci95": [15, 25], "points_vs_medium": None},
                    "hard": {"rating": "strong", "ci95": [1, 2]},
                    "odd": {"rating": 30.0, "ci95": [25]},
                }
            }
        )
    )
    monkeypatch.setattr(strength, "LADDER_DIR", tmp_path)
    strength.shipped_ladder.cache_clear()
    try:
        assert strength.bot_strength("g", "p") == {
            "easy": {"rating": 20.0, "ci95": [15.0, 25.0], "points_vs_medium": None}
        }
        assert strength.bot_strength("g", "missing") == {}
    finally:
        strength.shipped_ladder.cache_clear()


def test_api_games_gives_each_preset_its_bot_strength(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from rami.server import ServerConfig, create_app
    from rami.server.protocol import GameInfo

    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0)
    with TestClient(create_app(config)) as client:
        response = client.get("/api/games")
    assert response.status_code == 200
    seen = 0
    for raw in response.json():
        info = GameInfo.model_validate(raw)
        for preset in info.presets:
            for level, s in preset.bot_strength.items():
                assert level in info.bot_levels or level.startswith("learned:")
                assert isinstance(s.rating, float) and len(s.ci95) == 2
                assert s.ci95[0] < s.rating < s.ci95[1]
                if level == "medium":
                    assert s.points_vs_medium is not None and s.points_vs_medium.mean == 0
                seen += 1
    assert seen >= 15  # easy, medium and hard in each of the five presets


def test_play_level_help_gives_the_measured_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    from rami.bots.strength import bot_strength

    main(["play", "marriage", "--help"])
    out = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert "Measured OpenSkill ratings" in out
    hard = bot_strength("marriage", "nepali")["hard"]
    low, high = hard["ci95"]
    assert f"hard {hard['rating']:.0f} [{low:.0f}–{high:.0f}]" in out
