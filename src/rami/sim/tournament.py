"""Tournaments between bots: the schedule, one game's play, and the summary.

The schedule is fixed by the run's seed before anything is played. Games come in
*groups*: a group is one deal (or, for whole matches, one match seed) played once
per seating, the bots rotated one seat each time (duplicate deals), so every bot plays
every seat and every hand equally often and luck of the cards cancels within a group.
Without duplicates each group is a single game and the seating still rotates.

Every game depends only on its ``Job`` (its seed, dealer and seating) and the table
configuration, and results are summarised in schedule order, so a run gives identical
results for the same seed whatever the number of workers or the backend (bots with a
time budget excepted: how much they search depends on the machine's speed).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from rami.engine import GameState, chance_rng
from rami.errors import InputError
from rami.games import Game, Match, all_games, get_game
from rami.sim.stats import Estimate, TimeHistogram, mean_ci, proportion_ci
from rami.views import Rules
from rami.wording import count

__all__ = [
    "DealOutcome",
    "GameResult",
    "Job",
    "Summary",
    "TableConfig",
    "default_max_turns",
    "make_config",
    "play_job",
    "schedule",
    "summarize",
]


def default_max_turns(game: str) -> int | None:
    """The turn cap that keeps deals between weak bots finite (M-11, T-11 ``max_turns``)."""
    return get_game(game).turn_cap


@dataclass(frozen=True)
class TableConfig:
    """What is played: the game, its preset, the bots by seat, and how games are counted."""

    game: str
    preset: str
    bots: tuple[str, ...]
    unit: str = "deal"  # "deal", or "game" (whole matches, e.g. Tunisian games, T-13)
    duplicate: bool = True
    max_turns: int | None = None
    seed: int = 0
    records: str | None = None  # a folder: one ``.rami`` record per game (``--records``)

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def spec(self) -> Game:
        return get_game(self.game)

    def rules(self) -> Rules:
        spec: dict[str, object] = {"preset": self.preset}
        if self.max_turns is not None:
            spec["max_turns"] = self.max_turns
        return self.spec.rules_from(spec)

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "preset": self.preset,
            "players": self.players,
            "bots": list(self.bots),
            "unit": self.unit,
            "duplicate": self.duplicate,
            "max_turns": self.max_turns,
            "seed": self.seed,
        }


def _listed(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + f" or {items[-1]}" if len(items) > 1 else items[0]


def _preset(spec: Game, given: dict[str, str | None], seats: int) -> str:
    """The preset named by ``--rules``/``--mode`` (the game's own option, or the other one
    when it names one of this game's presets), or the game's default for ``seats``."""
    own = given.get(spec.preset_label)
    for option, value in given.items():
        if option == spec.preset_label or value is None:
            continue
        if value in spec.presets and own is None:
            own = value
            continue
        users = [g for g in all_games() if g.preset_label == option]
        owners = ", ".join(f"{g.name} ({', '.join(g.presets)})" for g in users)
        raise InputError(
            f"--{option} is for {owners or 'other games'}; {spec.name} uses --{spec.preset_label}"
        )
    preset = own or spec.preset_for(seats)
    if preset not in spec.presets:
        raise InputError(
            f"unknown {spec.name} {spec.preset_label} {preset!r}: choose {_listed(spec.presets)}"
        )
    return preset


def make_config(
    game: str,
    bots: Sequence[str],
    *,
    rules: str | None = None,
    mode: str | None = None,
    players: int | None = None,
    unit: str = "deal",
    duplicate: bool = True,
    max_turns: int | None = -1,
    seed: int = 0,
) -> TableConfig:
    """Check a tournament's settings and build its configuration (``InputError`` if bad).

    ``max_turns=-1`` means the game's default cap (``Game.turn_cap``), ``None`` no cap.
    """
    from rami.bots import check_spec

    spec = get_game(str(game))
    game = spec.name
    names = tuple(b.strip() for b in bots if b.strip())
    if not names:
        raise InputError("--bots needs one bot per seat, e.g. greedy,search,greedy,greedy")
    for name in names:
        check_spec(game, name)
    if unit not in ("deal", "game"):
        raise InputError(f"unknown unit {unit!r}: choose deal or game")
    if unit == "game" and not spec.whole_matches:
        raise InputError(f"{game} simulations count single deals: use --unit deal")
    preset = _preset(spec, {"rules": rules, "mode": mode}, len(names))
    allowed = spec.players_for(spec.rules_from(preset))
    if players is not None and players != len(names):
        raise InputError(f"--players is {players} but --bots names {count(len(names), 'bot')}")
    if len(names) not in allowed:
        if len(allowed) == 1:
            raise InputError(
                f"{spec.preset_label} {preset} has {allowed[0]} seats: "
                f"--bots names {count(len(names), 'bot')}"
            )
        raise InputError(
            f"{preset} {game} is for {allowed[0]}–{allowed[-1]} players: "
            f"--bots names {count(len(names), 'bot')}"
        )
    if max_turns == -1:
        max_turns = spec.turn_cap
    if max_turns is not None and max_turns < 1:
        raise InputError("--max-turns must be at least 1")
    return TableConfig(game, preset, names, unit, duplicate, max_turns, seed)


@dataclass(frozen=True)
class Job:
    """One game of the schedule: its place, its seed and dealer, and who sits where.

    ``seating[seat]`` is the index in ``TableConfig.bots`` of the bot in that seat.
    """

    index: int
    group: int
    rotation: int
    seed: int
    dealer: int
    seating: tuple[int, ...]


def rotations(config: TableConfig) -> int:
    """Games per group: one per seating when duplicates are on."""
    return config.players if config.duplicate else 1


def schedule(config: TableConfig, games: int) -> list[Job]:
    """The games to play, ``games`` rounded up to whole groups, in a fixed order."""
    if games < 1:
        raise InputError("--games must be at least 1")
    n = config.players
    per = rotations(config)
    groups = -(-games // per)
    jobs: list[Job] = []
    for g in range(groups):
        seed = chance_rng(config.seed, g, "sim-deal").getrandbits(48)
        for r in range(per):
            rot = r if config.duplicate else g % n
            seating = tuple((s - rot) % n for s in range(n))
            jobs.append(Job(len(jobs), g, rot, seed, g % n, seating))
    return jobs


def bot_seed(config: TableConfig, job: Job, entry: int) -> int:
    """A bot's seed: the same for a bot entry throughout a group of duplicate games."""
    return chance_rng(config.seed, job.group, f"sim-bot-{entry}").getrandbits(48)


# --------------------------------------------------------------------------- playing


class DealOutcome(TypedDict):
    """One deal of a simulated game, as ``play_job`` reports it."""

    scores: list[int]
    winner: int | None
    turns: int
    reason: str | None
    progress: list[bool]  # per seat: showed (Marriage) or opened (Tunisian rami)


class GameResult(TypedDict):
    """What ``play_job`` returns (and sends back from a worker): one game's record."""

    index: int
    group: int
    rotation: int
    seed: int
    dealer: int
    bots: list[str]  # per seat
    deals: list[DealOutcome]
    game_winners: list[int] | None
    decisions: list[int]
    thinking: list[float]
    times: list[dict[str, int]]  # per seat: ``TimeHistogram.to_json()``


def _deal_record(spec: Game, state: GameState) -> DealOutcome:
    result = state.result
    assert result is not None
    details = result.details
    n = len(result.scores)
    progress = spec.progress_of(state) if spec.progress_of is not None else [False] * n
    turns, reason = details.get("turns"), details.get("reason")  # any game's details
    return {
        "scores": list(result.scores),
        "winner": result.winner,
        "turns": turns if isinstance(turns, int) else 0,
        "reason": reason if isinstance(reason, str) else None,
        "progress": progress,
    }


def _write_record(
    folder: str,
    config: TableConfig,
    job: Job,
    *,
    state: GameState | None = None,
    match: Match | None = None,
) -> None:
    """``--records DIR``: the game's ``.rami`` record (docs/records.md), one file per game."""
    from datetime import UTC, datetime
    from pathlib import Path

    from rami.records import SeatInfo, match_record, shuffle_salt, single_deal_record, write

    spec = config.spec
    seats = [
        SeatInfo(f"{config.bots[job.seating[s]]} ({s})", "bot", config.bots[job.seating[s]])
        for s in range(config.players)
    ]
    date = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if match is not None:
        record = match_record(spec, match, seats, seed=job.seed, date=date)
    else:
        assert state is not None
        salt = shuffle_salt(job.seed, 0)
        record = single_deal_record(spec, state, seats, date=date, salt=salt)
    path = Path(folder) / f"{config.game}-{config.preset}-{job.index + 1:05d}.rami"
    path.write_text(write(record), encoding="utf-8")


def play_job(config: TableConfig, job: Job) -> GameResult:
    """Play one scheduled game with fresh bots; the result depends on the job alone."""
    from rami.bots import make_bot

    n = config.players
    spec = config.spec
    rules = config.rules()
    bots = [
        make_bot(config.game, config.bots[job.seating[s]], bot_seed(config, job, job.seating[s]))
        for s in range(n)
    ]
    times = [TimeHistogram() for _ in range(n)]
    decisions = [0] * n
    thinking = [0.0] * n
    deals: list[DealOutcome] = []
    game_winners: list[int] | None = None

    # the bots read typed views: no JSON between the deal and them (the game's builder
    # itself: ``Game.viewer``)
    see = spec.viewer()

    def play_deal(state: GameState) -> None:
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = see(state, seat)
            start = time.perf_counter()
            action = bots[seat].act(view)
            spent = time.perf_counter() - start
            times[seat].add(spent)
            thinking[seat] += spent
            decisions[seat] += 1
            state.apply(action)

    if config.unit == "deal":
        if spec.new_deal is None:
            raise InputError(f"{spec.title} cannot deal single deals for a simulation")
        state = spec.new_deal(rules, n, job.seed, job.dealer)
        play_deal(state)
        deals.append(_deal_record(spec, state))
        if config.records is not None:
            _write_record(config.records, config, job, state=state)
    else:
        match = spec.new_match(rules, n, job.seed)
        while True:
            play_deal(match.current)
            deals.append(_deal_record(spec, match.current))
            if match.is_over:
                break
            match.next_deal()
        game_winners = list(match.standing().get("winners") or [])
        if config.records is not None:
            _write_record(config.records, config, job, match=match)
    return {
        "index": job.index,
        "group": job.group,
        "rotation": job.rotation,
        "seed": job.seed,
        "dealer": job.dealer,
        "bots": [config.bots[job.seating[s]] for s in range(n)],
        "deals": deals,
        "game_winners": game_winners,
        "decisions": decisions,
        "thinking": [round(t, 6) for t in thinking],
        "times": [h.to_json() for h in times],
    }


# --------------------------------------------------------------------------- summary


@dataclass
class BotSummary:
    """One bot's figures over a run (all seats it sat in, pooled)."""

    name: str
    seat_games: int = 0
    deals: int = 0
    points: Estimate | None = None  # per deal: the game's deal scores (Game.points_label)
    deal_wins: int = 0
    progress: int = 0  # deals with progress (Game.progress_of: showed, opened…)
    game_wins: float = 0.0
    game_win_rate: Estimate | None = None
    decisions: int = 0
    times: TimeHistogram = field(default_factory=TimeHistogram)

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "bot": self.name,
            "seat_games": self.seat_games,
            "deals": self.deals,
            "points_per_deal": self.points.to_json() if self.points else None,
            "deal_wins": self.deal_wins,
            "deal_win_rate": round(self.deal_wins / self.deals, 4) if self.deals else 0.0,
            "progress": self.progress,
            "progress_rate": round(self.progress / self.deals, 4) if self.deals else 0.0,
            "decisions": self.decisions,
            "decision_ms_p50": round(self.times.percentile(0.5) * 1e3, 3),
            "decision_ms_p95": round(self.times.percentile(0.95) * 1e3, 3),
        }
        if self.game_win_rate is not None:
            doc["game_wins"] = self.game_wins
            doc["game_win_rate"] = self.game_win_rate.to_json()
        return doc


@dataclass
class Summary:
    """A run's figures: per bot, pairwise differences, deal lengths."""

    config: TableConfig
    games: int
    groups: int
    bots: list[BotSummary]
    differences: dict[tuple[str, str], Estimate]
    deal_turns: Estimate
    deals: int
    capped: int
    game_wins_differences: dict[tuple[str, str], Estimate] = field(default_factory=dict)

    def results_json(self) -> dict[str, object]:
        """The reproducible part (no timings): identical for the same seed and bots."""
        out = self.to_json()
        bots = [b.to_json() for b in self.bots]
        for b in bots:
            for key in ("decision_ms_p50", "decision_ms_p95"):
                b.pop(key, None)
        out["bots"] = bots
        return out

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "config": self.config.to_json(),
            "games": self.games,
            "groups": self.groups,
            "deals": self.deals,
            "capped_deals": self.capped,
            "deal_turns": self.deal_turns.to_json(),
            "bots": [b.to_json() for b in self.bots],
            "differences": [
                {"bot": a, "versus": b, "points_per_deal": e.to_json()}
                for (a, b), e in self.differences.items()
            ],
        }
        if self.game_wins_differences:
            doc["game_win_rate_differences"] = [
                {"bot": a, "versus": b, "game_win_rate": e.to_json()}
                for (a, b), e in self.game_wins_differences.items()
            ]
        return doc


def summarize(config: TableConfig, results: Sequence[GameResult]) -> Summary:
    """Figures per bot from game results given in schedule order.

    Means per deal get their 95% interval over groups (each group's mean is one
    independent observation); pairwise differences are taken within groups.
    """
    names: list[str] = []
    for b in config.bots:
        if b not in names:
            names.append(b)
    per = {name: BotSummary(name) for name in names}
    # group -> bot -> [points sum, deals, game wins, seat games]
    groups: dict[int, dict[str, list[float]]] = {}
    turns: list[float] = []
    capped = 0
    whole = config.unit == "game"
    for res in results:
        g = groups.setdefault(int(res["group"]), {})
        seats = res["bots"]
        winners = res.get("game_winners") or []
        for deal in res["deals"]:
            turns.append(deal["turns"])
            if deal["reason"] == "max_turns":
                capped += 1
        for s, name in enumerate(seats):
            summary = per[name]
            summary.seat_games += 1
            acc = g.setdefault(name, [0.0, 0.0, 0.0, 0.0])
            for deal in res["deals"]:
                summary.deals += 1
                summary.deal_wins += deal["winner"] == s
                summary.progress += bool(deal["progress"][s])
                acc[0] += deal["scores"][s]
                acc[1] += 1
            acc[3] += 1
            if whole:
                won = 1.0 if s in winners else 0.0
                summary.game_wins += won
                acc[2] += won
            summary.decisions += int(res["decisions"][s])
            summary.times.merge({int(k): v for k, v in res["times"][s].items()})
    order = sorted(groups)
    for name in names:
        means = [groups[g][name][0] / groups[g][name][1] for g in order if name in groups[g]]
        per[name].points = mean_ci(means)
        if whole:
            per[name].game_win_rate = proportion_ci(per[name].game_wins, per[name].seat_games)
    diffs: dict[tuple[str, str], Estimate] = {}
    win_diffs: dict[tuple[str, str], Estimate] = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            both = [g for g in order if a in groups[g] and b in groups[g]]
            diffs[(a, b)] = mean_ci(
                [
                    groups[g][a][0] / groups[g][a][1] - groups[g][b][0] / groups[g][b][1]
                    for g in both
                ]
            )
            if whole:
                win_diffs[(a, b)] = mean_ci(
                    [
                        groups[g][a][2] / groups[g][a][3] - groups[g][b][2] / groups[g][b][3]
                        for g in both
                    ]
                )
    return Summary(
        config=config,
        games=len(results),
        groups=len(groups),
        bots=[per[n] for n in names],
        differences=diffs,
        deal_turns=mean_ci(turns),
        deals=len(turns),
        capped=capped,
        game_wins_differences=win_diffs,
    )
