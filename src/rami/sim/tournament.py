"""Tournaments between bots: the schedule, one game's play, and the summary.

The schedule is fixed by the run's seed before anything is played. Games come in
*groups*: a group is one deal (or, for whole Tunisian games, one game seed) played once
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from rami.engine import chance_rng
from rami.errors import InputError
from rami.sim.stats import Estimate, TimeHistogram, mean_ci, proportion_ci
from rami.views import GameView

__all__ = [
    "DEFAULT_MAX_TURNS",
    "GAMES",
    "DealOutcome",
    "GameResult",
    "Job",
    "Summary",
    "TableConfig",
    "make_config",
    "play_job",
    "schedule",
    "summarize",
]

GAMES = ("marriage", "tunisian")
#: Turn caps that keep deals between weak bots finite (M-11, T-11 ``max_turns``).
DEFAULT_MAX_TURNS = {"marriage": 1000, "tunisian": 400}


@dataclass(frozen=True)
class TableConfig:
    """What is played: the game, its preset, the bots by seat, and how games are counted."""

    game: str
    preset: str
    bots: tuple[str, ...]
    unit: str = "deal"  # "deal", or "game" (whole Tunisian games, T-13)
    duplicate: bool = True
    max_turns: int | None = None
    seed: int = 0

    @property
    def players(self) -> int:
        return len(self.bots)

    def rules(self) -> Any:
        spec: dict[str, object] = {"preset": self.preset}
        if self.max_turns is not None:
            spec["max_turns"] = self.max_turns
        if self.game == "marriage":
            from rami.marriage.rules import rules_from as marriage_rules

            return marriage_rules(spec)
        from rami.tunisian.rules import rules_from as tunisian_rules

        return tunisian_rules(spec)

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

    ``max_turns=-1`` means the game's default cap (``DEFAULT_MAX_TURNS``), ``None`` no cap.
    """
    from rami.bots import check_spec

    game = str(game).lower()
    if game not in GAMES:
        raise InputError(f"unknown game {game!r}: choose marriage or tunisian")
    names = tuple(b.strip() for b in bots if b.strip())
    if not names:
        raise InputError("--bots needs one bot per seat, e.g. greedy,search,greedy,greedy")
    for name in names:
        check_spec(game, name)
    if unit not in ("deal", "game"):
        raise InputError(f"unknown unit {unit!r}: choose deal or game")
    if game == "marriage":
        if mode is not None:
            raise InputError("--mode is for tunisian (1v1, ffa, 2v2); marriage uses --rules")
        if unit == "game":
            raise InputError("marriage simulations count single deals: use --unit deal")
        preset = rules or "nepali"
        if preset not in ("nepali", "indian"):
            raise InputError(f"unknown marriage rules {preset!r}: choose nepali or indian")
        from rami.marriage.rules import rules_from as marriage_rules

        r = marriage_rules(preset)
        if players is not None and players != len(names):
            raise InputError(f"--players is {players} but --bots names {len(names)} bots")
        if not r.min_players <= len(names) <= r.max_players:
            raise InputError(
                f"{preset} marriage is for {r.min_players}–{r.max_players} players: "
                f"--bots names {len(names)}"
            )
    else:
        if rules is not None and rules not in ("1v1", "ffa", "2v2"):
            raise InputError("--rules is for marriage (nepali, indian); tunisian uses --mode")
        preset = mode or rules or ("1v1" if len(names) == 2 else "ffa")
        if preset not in ("1v1", "ffa", "2v2"):
            raise InputError(f"unknown tunisian mode {preset!r}: choose 1v1, ffa or 2v2")
        seats = 2 if preset == "1v1" else 4
        if len(names) != seats:
            raise InputError(f"mode {preset} has {seats} seats: --bots names {len(names)} bots")
        if players is not None and players != seats:
            raise InputError(f"mode {preset} has {seats} players, not {players}")
    if max_turns == -1:
        max_turns = DEFAULT_MAX_TURNS[game]
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


def _deal_record(game: str, state: Any) -> DealOutcome:
    result = state.result
    assert result is not None
    details = result.details
    n = len(result.scores)
    if game == "marriage":
        players = details.get("players", [])
        progress = [bool(p.get("seen")) for p in players] or [False] * n
    else:
        progress = [bool(o) for o in details.get("opened", [False] * n)]
    return {
        "scores": list(result.scores),
        "winner": result.winner,
        "turns": int(details.get("turns", 0)),
        "reason": details.get("reason"),
        "progress": progress,
    }


def play_job(config: TableConfig, job: Job) -> GameResult:
    """Play one scheduled game with fresh bots; the result depends on the job alone."""
    from rami.bots import make_bot

    n = config.players
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

    def play_deal(state: Any, view_of: Callable[[int], GameView]) -> None:
        while not state.is_over:
            seat = state.to_move
            view = view_of(seat)
            start = time.perf_counter()
            action = bots[seat].act(view)
            spent = time.perf_counter() - start
            times[seat].add(spent)
            thinking[seat] += spent
            decisions[seat] += 1
            state.apply(action)

    state: Any
    if config.game == "marriage":
        from rami.marriage.game import new_deal as marriage_deal

        state = marriage_deal(rules, n, job.seed, job.dealer)
        play_deal(state, state.view)
        deals.append(_deal_record("marriage", state))
    elif config.unit == "deal":
        from rami.tunisian.game import new_deal as tunisian_deal

        state = tunisian_deal(rules, job.seed, job.dealer)
        play_deal(state, state.view)
        deals.append(_deal_record("tunisian", state))
    else:
        from rami.tunisian.match import TunisianMatch

        match = TunisianMatch(rules, job.seed)
        while True:
            play_deal(match.current, match.view)
            deals.append(_deal_record("tunisian", match.current))
            if match.is_over:
                break
            match.next_deal()
        game_winners = list(match.winners or [])
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
    points: Estimate | None = None  # per deal: ledger (marriage) or deal points (tunisian)
    deal_wins: int = 0
    progress: int = 0  # deals in which it showed (marriage) or opened (tunisian)
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
