"""The tournament runner: schedule, statistics, backends and the ``rami simulate`` command."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from rami.cli import main
from rami.errors import InputError
from rami.sim.backends import run_jobs
from rami.sim.stats import TimeHistogram, mean_ci, proportion_ci
from rami.sim.tournament import make_config, schedule, summarize


def strip_times(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Game results without the wall-clock parts (decision times)."""
    return [{k: v for k, v in r.items() if k not in ("times", "thinking")} for r in results]


# ------------------------------------------------------------------------ statistics


def test_mean_ci_matches_student_t() -> None:
    est = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    assert est.mean == 3.0
    # sd = 1.5811, se = 0.7071, t(4) = 2.776
    assert est.half_width == pytest.approx(2.776 * math.sqrt(2.5 / 5), rel=1e-3)
    assert est.excludes_zero
    assert not mean_ci([-1.0, 1.0, -1.0, 1.0]).excludes_zero
    assert math.isinf(mean_ci([4.0]).half_width)
    assert mean_ci([]).n == 0


def test_proportion_ci_and_time_percentiles() -> None:
    est = proportion_ci(80, 100)
    assert est.mean == 0.8 and 0.07 < est.half_width < 0.09
    hist = TimeHistogram()
    for ms in range(1, 101):
        hist.add(ms / 1000)
    assert hist.count == 100
    assert hist.percentile(0.5) == pytest.approx(0.050, rel=0.06)
    assert hist.percentile(0.95) == pytest.approx(0.095, rel=0.06)
    other = TimeHistogram()
    other.merge(hist.to_json() and {int(k): v for k, v in hist.to_json().items()})
    assert other.count == 100


# ------------------------------------------------------------------------ schedule


def test_duplicate_schedule_rotates_every_bot_through_every_seat() -> None:
    config = make_config("marriage", ["greedy", "search", "greedy", "random"], seed=5)
    jobs = schedule(config, 10)
    assert len(jobs) == 12  # rounded up to whole groups of four seatings
    for g in range(3):
        group = [j for j in jobs if j.group == g]
        assert len({j.seed for j in group}) == 1 and len({j.dealer for j in group}) == 1
        for seat in range(4):
            assert sorted(j.seating[seat] for j in group) == [0, 1, 2, 3]
    assert len({j.seed for j in jobs}) == 3
    assert schedule(config, 10) == jobs
    assert schedule(make_config("marriage", ["greedy"] * 4, seed=6), 4)[0].seed != jobs[0].seed


def test_without_duplicates_the_seating_still_rotates() -> None:
    config = make_config("tunisian", ["greedy", "random"], mode="1v1", duplicate=False)
    jobs = schedule(config, 4)
    assert len(jobs) == 4 and len({j.seed for j in jobs}) == 4
    assert [j.seating for j in jobs] == [(0, 1), (1, 0), (0, 1), (1, 0)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("marriage", ["greedy", "nobody"]), "unknown bot"),
        (("tunisian", ["greedy"] * 3), "4 seats"),
        (("marriage", ["greedy"] * 6), "2–5 players"),
        (("chess", ["greedy"] * 2), "unknown game"),
    ],
)
def test_bad_tables_are_refused(args: tuple[str, list[str]], message: str) -> None:
    with pytest.raises(InputError, match=message):
        make_config(*args)
    with pytest.raises(InputError, match="unknown tunisian mode"):
        make_config("tunisian", ["greedy"] * 4, mode="3v3")
    with pytest.raises(InputError, match="--mode is for tunisian"):
        make_config("marriage", ["greedy"] * 4, mode="ffa")


# ------------------------------------------------------------------------ results


def small_config(game: str) -> Any:
    if game == "marriage":
        return make_config(
            "marriage", ["greedy", "search:2it", "random"], rules="nepali", max_turns=40, seed=2
        )
    return make_config("tunisian", ["search:2it", "greedy"], mode="1v1", max_turns=60, seed=2)


@pytest.mark.parametrize("game", ["marriage", "tunisian"])
def test_same_results_with_one_or_two_workers(game: str) -> None:
    config = small_config(game)
    jobs = schedule(config, 4 if game == "tunisian" else 3)
    one = run_jobs(config, jobs, workers=1)
    two = run_jobs(config, jobs, workers=2)
    assert strip_times(one) == strip_times(two)
    s1, s2 = summarize(config, one), summarize(config, two)
    assert s1.results_json() == s2.results_json()
    assert [r["index"] for r in two] == list(range(len(jobs)))


def test_same_results_on_ray(tmp_path: Path) -> None:
    """``--backend ray`` on a local two-CPU Ray gives the local backend's results."""
    pytest.importorskip("ray")
    common = [
        "simulate", "tunisian", "--mode", "1v1", "--bots", "greedy,easy", "--games", "4",
        "--max-turns", "60", "--seed", "8", "--quiet",
    ]  # fmt: skip
    main([*common, "--json", str(tmp_path / "local.json")])
    main([*common, "--backend", "ray", "--workers", "2", "--json", str(tmp_path / "ray.json")])
    local = json.loads((tmp_path / "local.json").read_text())
    remote = json.loads((tmp_path / "ray.json").read_text())
    assert remote["backend"] == "ray"
    assert strip_times(local["results"]) == strip_times(remote["results"])
    assert [b["points_per_deal"] for b in local["bots"]] == [
        b["points_per_deal"] for b in remote["bots"]
    ]


def test_summary_figures_add_up() -> None:
    config = make_config("marriage", ["greedy", "random"] * 2, max_turns=200, seed=4)
    results = run_jobs(config, schedule(config, 8), workers=1)
    summary = summarize(config, results)
    assert summary.games == 8 and summary.groups == 2 and summary.deals == 8
    by = {b.name: b for b in summary.bots}
    assert by["greedy"].seat_games == by["random"].seat_games == 16
    total = sum(b.points.mean * b.seat_games for b in summary.bots if b.points)
    assert total == pytest.approx(0.0, abs=1e-6)  # ledgers sum to zero (M-13)
    diff = summary.differences[("greedy", "random")]
    assert diff.n == 2
    assert by["greedy"].decisions > 0 and by["greedy"].times.count == by["greedy"].decisions


def test_whole_tunisian_games_count_game_wins() -> None:
    config = make_config("tunisian", ["greedy", "random"], mode="1v1", unit="game", seed=1)
    results = run_jobs(config, schedule(config, 2), workers=1)
    summary = summarize(config, results)
    for res in results:
        assert len(res["game_winners"]) == 1 and len(res["deals"]) >= 2
    wins = {b.name: b.game_wins for b in summary.bots}
    assert wins["greedy"] + wins["random"] == 2
    assert summary.to_json()["bots"][0]["game_win_rate"]["n"] == 2


# ------------------------------------------------------------------------ the command


def test_simulate_command_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.json"
    main(
        [
            "simulate", "tunisian", "--games", "4", "--bots", "greedy,random", "--mode", "1v1",
            "--seed", "3", "--quiet", "--json", str(out),
        ]
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert "greedy − random" in printed and "points / deal" in printed
    doc = json.loads(out.read_text())
    assert doc["games"] == 4 and doc["config"]["bots"] == ["greedy", "random"]
    assert {b["bot"] for b in doc["bots"]} == {"greedy", "random"}
    assert len(doc["results"]) == 4


def test_simulate_progress_bar_shows_rate(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "tunisian", "--games", "2", "--bots", "greedy,greedy", "--seed", "1"])
    err = capsys.readouterr().err
    assert "2/2" in err and ("games/s" in err or "s/game" in err)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "marriage", "--bots", "greedy,wizard"],
        ["simulate", "tunisian", "--bots", "greedy,greedy,greedy", "--mode", "1v1"],
        ["simulate", "tunisian", "--bots", "greedy,greedy", "--mode", "duel"],
        ["simulate", "marriage", "--bots", "greedy,greedy", "--backend", "cloud"],
        ["simulate", "marriage", "--games", "0", "--bots", "greedy,greedy"],
    ],
)
def test_simulate_errors_are_one_line_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err and "Traceback" not in err
