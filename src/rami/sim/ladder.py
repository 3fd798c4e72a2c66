"""The bot ladder (``rami ladder``): every pair of levels on the same duplicate deals,
rated with OpenSkill and measured in points per deal against a reference level.

Design, for any registered game and preset:

- **Tables**: each pair of levels (A, B) plays at a table whose seats alternate A, B, A,
  B… (in a team preset the partners sit opposite, so a pair is team against team). A
  *group* is one deal played in every distinct seating of the pair (2 with an even seat
  count, one per seat otherwise): duplicate deals with seat rotation, as in
  ``rami.sim.tournament``. Group ``g`` deals the same cards at every table, so the
  pairs are compared on the same deals too.
- **Ratings**: OpenSkill's Plackett–Luce model (``openskill``, extra ``ladder``), with
  no drift between games (``tau = 0``: a bot's strength does not change). Each complete
  group of a pair is one match, ranked by the two levels' mean points per seat and deal
  over the group (equal means are a tie); groups are rated in schedule order (group,
  then pair), so the ratings depend on the results alone. A rating is OpenSkill's
  ``mu`` with the interval ``mu ± 1.96 sigma``.
- **Points against the reference** (``medium``): the mean, over the complete groups of
  the pair (X, reference), of X's points per seat and deal less the reference's, with a
  95% interval over groups (Student's t, ``rami.sim.stats``).
- **Resumable**: each game's result is appended to a JSONL file as it ends; a ladder run
  again with the same file plays only the games missing (keyed by pair and place in the
  schedule, so adding a level plays only its new pairs, and a larger ``--games``
  extends the same schedule).

Every game depends only on the ladder's seed, its group and its seating, so the same
seed gives the same games and figures with any number of workers and either backend.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from rami.engine import chance_rng
from rami.errors import InputError
from rami.games import get_game
from rami.sim.stats import Estimate, TimeHistogram, mean_ci
from rami.sim.tournament import GameResult, Job, TableConfig, play_job

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

__all__ = [
    "LADDER_FORMAT",
    "REFERENCE",
    "LadderConfig",
    "LadderJob",
    "LadderReport",
    "LevelStrength",
    "ResultLog",
    "default_levels",
    "ladder_schedule",
    "make_ladder",
    "play_task",
    "rate",
    "rating_model",
]

REFERENCE = "medium"  # the level every other is measured against in points per deal
LADDER_FORMAT = 1
Pair = tuple[str, str]


def default_levels() -> tuple[str, ...]:
    """The levels a ladder plays when none are named: the ones people pick from."""
    return ("easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class LadderConfig:
    """A ladder's settings: what is played, by whom, from which seed."""

    game: str
    preset: str
    players: int
    levels: tuple[str, ...]
    seed: int = 0
    max_turns: int | None = None
    reference: str = REFERENCE

    @property
    def pairs(self) -> list[Pair]:
        return list(combinations(self.levels, 2))

    def table(self, pair: Pair) -> TableConfig:
        """The table of a pair: seats alternating A, B, A, B…"""
        bots = tuple(pair[s % 2] for s in range(self.players))
        return TableConfig(self.game, self.preset, bots, "deal", True, self.max_turns, self.seed)

    def key(self) -> dict[str, object]:
        """What the games depend on (a result file is reused only under the same key)."""
        return {
            "format": LADDER_FORMAT,
            "game": self.game,
            "preset": self.preset,
            "players": self.players,
            "seed": self.seed,
            "max_turns": self.max_turns,
        }


def _learned_fits(game: str, level: str, preset: str, players: int) -> None:
    """A learned level is checked against the table it would sit at, not only the game."""
    if not level.lower().startswith("learned:"):
        return
    from rami.bots.learned import check_policy

    meta = check_policy(game, level.split(":", 1)[1]).meta
    trained = (meta.get("preset"), meta.get("players"))
    if trained[0] not in (None, preset) or trained[1] not in (None, players):
        raise InputError(
            f"{level} was trained for {trained[0]} with {trained[1]} players, "
            f"not {preset} with {players}"
        )


def make_ladder(
    game: str,
    *,
    preset: str | None = None,
    levels: Sequence[str] | None = None,
    players: int | None = None,
    seed: int = 0,
    max_turns: int | None = -1,
) -> LadderConfig:
    """Check a ladder's settings (``InputError`` with one line if bad) and build it."""
    from rami.bots import check_spec

    spec = get_game(game)
    preset = preset.strip().lower() if isinstance(preset, str) else spec.preset_for(4)
    if preset not in spec.presets:
        choices = ", ".join(spec.presets)
        raise InputError(f"unknown {spec.name} preset {preset!r}: choose one of {choices}")
    allowed = spec.players_for(spec.rules_from(preset))
    if players is None:
        players = 4 if 4 in allowed else int(allowed[0])
    if players not in allowed:
        raise InputError(
            f"{spec.name} {preset} is for {', '.join(map(str, allowed))} players, not {players}"
        )
    names = [x.strip() for x in (levels or default_levels()) if x.strip()]
    names = [x if x.lower().startswith("learned:") else x.lower() for x in names]
    if len(names) < 2:
        raise InputError("a ladder needs at least two levels, e.g. --levels easy,medium,hard")
    if len(set(names)) != len(names):
        raise InputError(f"--levels names a level twice: {','.join(names)}")
    for name in names:
        check_spec(spec.name, name)
        _learned_fits(spec.name, name, preset, players)
    if max_turns == -1:
        max_turns = spec.turn_cap
    if max_turns is not None and max_turns < 1:
        raise InputError("--max-turns must be at least 1")
    return LadderConfig(spec.name, preset, players, tuple(names), seed, max_turns)


# --------------------------------------------------------------------------- schedule


@dataclass(frozen=True)
class LadderJob:
    """One game of the ladder: the pair's table and its place in that table's schedule."""

    pair: Pair
    job: Job


def rotations(players: int) -> list[int]:
    """The rotations of an alternating seating that give distinct seatings of the levels."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for r in range(players):
        pattern = tuple((s - r) % players % 2 for s in range(players))
        if pattern not in seen:
            seen.add(pattern)
            out.append(r)
    return out


def ladder_schedule(config: LadderConfig, games: int) -> list[LadderJob]:
    """Every pair's games, ``games`` per pair rounded up to whole groups, in a fixed order:
    group by group, each group's pairs in turn (a stopped ladder has every pair measured
    on about as many deals)."""
    if games < 1:
        raise InputError("--games must be at least 1")
    n = config.players
    rots = rotations(n)
    groups = -(-games // len(rots))
    jobs = []
    for g in range(groups):
        seed = chance_rng(config.seed, g, "sim-deal").getrandbits(48)
        for pair in config.pairs:
            for k, r in enumerate(rots):
                seating = tuple((s - r) % n for s in range(n))
                jobs.append(LadderJob(pair, Job(g * len(rots) + k, g, r, seed, g % n, seating)))
    return jobs


def play_task(task: tuple[TableConfig, Job]) -> GameResult:
    """One ladder game (a module-level function: worker processes and Ray call it)."""
    return play_job(*task)


# --------------------------------------------------------------------------- results file


class _Line(TypedDict):
    pair: list[str]
    result: GameResult


class ResultLog:
    """The games played so far, one JSON line each after a header line with the key.

    A line cut short by a stop (the last one) is dropped and the file mended, so the
    ladder goes on from the games whose lines are whole.
    """

    def __init__(self, path: Path, config: LadderConfig) -> None:
        self.path = path
        self.config = config
        self.done: dict[tuple[Pair, int], GameResult] = {}

    def load(self) -> int:
        """Read the games already played (``InputError`` if the file is another ladder's)."""
        if self.path.is_dir():
            raise InputError(f"--results {self.path} is a folder, not a file")
        if not self.path.exists() or self.path.stat().st_size == 0:
            self._write_header()
            return 0
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read {self.path}: {exc}") from None
        lines = text.split("\n")
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            header = None
        if not isinstance(header, dict) or "ladder" not in header:
            raise InputError(f"{self.path} is not a ladder's results file")
        if header["ladder"] != self.config.key():
            raise InputError(
                f"{self.path} holds another ladder ({_describe(header['ladder'])}): "
                "name another --results file or remove it"
            )
        whole = [lines[0]]
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                item: _Line = json.loads(line)
                pair = (str(item["pair"][0]), str(item["pair"][1]))
                self.done[(pair, int(item["result"]["index"]))] = item["result"]
            except (json.JSONDecodeError, KeyError, IndexError, TypeError, ValueError):
                break  # a line cut short: the games after it are played again
            whole.append(line)
        mended = "\n".join(whole) + "\n"
        if mended != text:
            self.path.write_text(mended, encoding="utf-8")
        return len(self.done)

    def _write_header(self) -> None:
        folder = self.path.parent
        if not folder.is_dir():
            raise InputError(f"--results {self.path}: the folder {folder} does not exist")
        try:
            self.path.write_text(json.dumps({"ladder": self.config.key()}) + "\n", "utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def append(self, pair: Pair, result: GameResult) -> None:
        """Record one finished game (flushed at once: a stop loses no finished game)."""
        self.done[(pair, int(result["index"]))] = result
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"pair": list(pair), "result": result}) + "\n")

    def get(self, job: LadderJob) -> GameResult | None:
        return self.done.get((job.pair, job.job.index))


def _describe(key: object) -> str:
    if not isinstance(key, dict):
        return "unknown settings"
    return ", ".join(f"{k} {key.get(k)}" for k in ("game", "preset", "players", "seed"))


# --------------------------------------------------------------------------- ratings


@dataclass
class LevelStrength:
    """One level's figures over the ladder."""

    level: str
    mu: float = 25.0
    sigma: float = 25.0 / 3
    matches: int = 0  # rated groups
    deals: int = 0  # seat-deals played
    versus_reference: Estimate | None = None
    times: TimeHistogram = field(default_factory=TimeHistogram)

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma)

    def to_json(self) -> dict[str, object]:
        vs = self.versus_reference
        return {
            "rating": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "ci95": [round(x, 2) for x in self.ci95],
            "points_vs_medium": _estimate_json(vs) if vs is not None else None,
            "matches": self.matches,
            "deals": self.deals,
        }


def _estimate_json(est: Estimate) -> dict[str, object]:
    finite = math.isfinite(est.half_width)
    return {
        "mean": round(est.mean, 2),
        "ci95": [round(est.low, 2), round(est.high, 2)] if finite else None,
        "groups": est.n,
    }


@dataclass
class LadderReport:
    """The ladder's outcome: each level's rating and points against the reference."""

    config: LadderConfig
    levels: list[LevelStrength]
    pairs: dict[Pair, Estimate]  # A − B points per seat-deal, over complete groups
    games: int
    groups: int  # complete groups per pair, the fewest over the pairs

    def strength(self) -> dict[str, dict[str, object]]:
        return {s.level: s.to_json() for s in self.levels}

    def to_json(self) -> dict[str, object]:
        spec = get_game(self.config.game)
        return {
            "game": self.config.game,
            "preset": self.config.preset,
            "players": self.config.players,
            "levels": list(self.config.levels),
            "reference": self.config.reference,
            "seed": self.config.seed,
            "max_turns": self.config.max_turns,
            "games": self.games,
            "groups_per_pair": self.groups,
            "points": spec.points_label,
            "higher_wins": spec.reward_sign > 0,
            "rating_model": "openskill PlackettLuce, tau 0; one match per duplicate group",
            "strength": self.strength(),
            "pairs": [
                {"levels": list(pair), "difference": _estimate_json(est)}
                for pair, est in self.pairs.items()
            ],
        }


def rating_model() -> PlackettLuce:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise InputError("ratings need OpenSkill: pip install 'rami[ladder]'") from None
    return PlackettLuce(tau=0.0)  # no drift: a bot's strength does not change


def rate(config: LadderConfig, played: Iterable[tuple[LadderJob, GameResult]]) -> LadderReport:
    """Ratings and points against the reference from the games played (any order: they
    are sorted into the schedule's order first; incomplete groups are left out)."""
    spec = get_game(config.game)
    sign = 1.0 if spec.reward_sign > 0 else -1.0
    per_group = len(rotations(config.players))
    order = {pair: i for i, pair in enumerate(config.pairs)}
    # (group, pair) -> level -> [points, seat-deals]; and the games seen of it
    groups: dict[tuple[int, Pair], dict[str, list[float]]] = {}
    seen: dict[tuple[int, Pair], int] = {}
    levels = {name: LevelStrength(name) for name in config.levels}
    games = 0
    for job, res in played:
        if job.pair not in order:
            continue
        games += 1
        key = (job.job.group, job.pair)
        seen[key] = seen.get(key, 0) + 1
        acc = groups.setdefault(key, {})
        for s, name in enumerate(res["bots"]):
            tally = acc.setdefault(name, [0.0, 0.0])
            for deal in res["deals"]:
                tally[0] += deal["scores"][s]
                tally[1] += 1
            levels[name].deals += len(res["deals"])
            levels[name].times.merge({int(k): v for k, v in res["times"][s].items()})
    complete = sorted(
        (k for k in groups if seen[k] == per_group), key=lambda k: (k[0], order[k[1]])
    )
    model = rating_model()
    ratings = {name: model.rating(name=name) for name in config.levels}
    diffs: dict[Pair, list[float]] = {pair: [] for pair in config.pairs}
    for key in complete:
        pair = key[1]
        a, b = (groups[key][x][0] / groups[key][x][1] for x in pair)
        diffs[pair].append(a - b)
        va, vb = sign * a, sign * b
        ranks = [1.0, 1.0] if va == vb else ([1.0, 2.0] if va > vb else [2.0, 1.0])
        [[ra], [rb]] = model.rate([[ratings[pair[0]]], [ratings[pair[1]]]], ranks=ranks)
        ratings[pair[0]], ratings[pair[1]] = ra, rb
        for name in pair:
            levels[name].matches += 1
    pairs = {pair: mean_ci(values) for pair, values in diffs.items()}
    for name, strength in levels.items():
        strength.mu = float(ratings[name].mu)
        strength.sigma = float(ratings[name].sigma)
        ref = config.reference
        if name == ref:
            n = max((len(v) for p, v in diffs.items() if ref in p), default=0)
            strength.versus_reference = Estimate(0.0, 0.0, n)
        elif (name, ref) in pairs:
            strength.versus_reference = pairs[(name, ref)]
        elif (ref, name) in pairs:
            e = pairs[(ref, name)]
            strength.versus_reference = Estimate(-e.mean, e.half_width, e.n)
        if strength.versus_reference is not None and strength.versus_reference.n == 0:
            strength.versus_reference = None  # not measured (yet)
    counts = [len(v) for v in diffs.values()]
    return LadderReport(config, list(levels.values()), pairs, games, min(counts, default=0))
