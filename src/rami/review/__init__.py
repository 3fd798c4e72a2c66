"""The move-by-move review of one seat's decisions in a deal (docs/review.md).

``review(deal, seat, progress=callback) -> Review`` replays a deal, and for each
decision of ``seat`` with a choice values every legal move from that seat's view only
(``rami.review.core``): the best move, the expected points lost by the move taken with
its standard error, a label and, where the game's solvers can say it, why. It names no
game: a game gives what only it knows through its registry entry (``Game.review``,
``rami.review.hooks.ReviewHooks``) and its bot kit.

The API is synchronous, pure CPU and thread-safe for distinct deals, so a server runs it
in a worker thread (``asyncio.to_thread``) with a progress callback and never blocks a
table. Reviews are cached per deal and seat in the user's cache directory.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from rami.bots.kit import kit_of
from rami.engine import GameState
from rami.errors import IllegalAction, InputError
from rami.games import Game, all_games, get_game
from rami.review.core import (
    LABELS,
    Decision,
    Label,
    Progress,
    Review,
    ReviewJson,
    evaluate,
    label_of,
)
from rami.review.hooks import ReviewHooks, Verdict
from rami.views import TypedView

__all__ = [
    "LABELS",
    "Decision",
    "Label",
    "Progress",
    "RecordedDeal",
    "Review",
    "ReviewDeal",
    "ReviewHooks",
    "Reviewable",
    "Verdict",
    "cache_dir",
    "deal_of",
    "label_of",
    "load_deals",
    "review",
]

VERSION = 1  # bump when the analysis changes: older cached reviews are not reused


@runtime_checkable
class SavesItself(Protocol):
    """A deal state that writes its ``to_json`` document (both built-in games' states)."""

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ReviewDeal:
    """One deal to review: its game, its document (the deal ``to_json`` layout) and the
    seat the file says is the player's (a ``rami play`` save), if any."""

    game: str
    doc: dict[str, Any]
    number: int  # 1-based position in its file
    seat: int | None = None


def _hooks(game: Game) -> ReviewHooks:
    if game.review is None:
        raise InputError(f"{game.title} has no move-by-move review")
    return game.review()


def _deals_in(doc: Mapping[str, Any], seat: int | None) -> list[ReviewDeal]:
    """The deals of a saved deal or match of any registered game."""
    for game in all_games():
        if game.review is None:
            continue
        deals = game.review().deals_of(doc)
        if deals is not None:
            return [ReviewDeal(game.name, d, i + 1, seat) for i, d in enumerate(deals)]
    raise InputError("not a saved deal or match of any game rami knows")


def deals_from_json(doc: object) -> list[ReviewDeal]:
    """The deals of a JSON document: a deal's or a match's ``to_json``, or a ``rami play``
    save (whose human seat becomes the default seat)."""
    if not isinstance(doc, Mapping):
        raise InputError("a saved deal must be a JSON object")
    if doc.get("format") == "rami-play/1":
        match = doc.get("match")
        human = doc.get("human")
        if not isinstance(match, Mapping):
            raise InputError("the saved game has no match in it")
        seat = human if isinstance(human, int) and not isinstance(human, bool) else None
        return _deals_in(match, seat)
    return _deals_in(doc, None)


def load_deals(path: Path) -> list[ReviewDeal]:
    """The deals of a file: JSON (deal, match or ``rami play`` save) or a ``.rami`` record
    when the record reader is installed (``rami.records``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None
    if path.suffix == ".rami":
        return _deals_of_record(path, text)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not JSON (line {exc.lineno}: {exc.msg})") from None
    return deals_from_json(doc)


def _deals_of_record(path: Path, text: str) -> list[ReviewDeal]:
    """A ``.rami`` record's revealed deals, read by ``rami.records`` (docs/records.md);
    its one human seat, if it has exactly one, is the default seat."""
    if importlib.util.find_spec("rami.records") is None:
        raise InputError(f"{path}: this rami cannot read .rami records (no rami.records)")
    records = importlib.import_module("rami.records")
    record = records.read(text)  # RecordError (an InputError) names the line and the rule
    humans = [i for i, s in enumerate(record.seats) if s.kind == "human"]
    seat = humans[0] if len(humans) == 1 else None
    out = [_recorded(deal, seat) for deal in record.deals if deal.revealed]
    if not out:
        raise InputError(f"{path}: no deal of this record is revealed yet (still in play)")
    return out


@runtime_checkable
class RecordedDeal(Protocol):
    """A deal of a ``.rami`` record (``rami.records.DealRecord``) as the review reads it."""

    @property
    def game(self) -> str: ...

    @property
    def rules(self) -> Mapping[str, Any]: ...

    @property
    def players(self) -> int: ...

    @property
    def number(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def active(self) -> Sequence[bool]: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def moves(self) -> Sequence[Any]: ...  # each with its ``action`` text


def _recorded(deal: RecordedDeal, seat: int | None) -> ReviewDeal:
    """A recorded deal whose seed is revealed, in the deal ``to_json`` layout."""
    if deal.seed is None:
        raise InputError(f"deal {deal.number} is still in play: its cards are not revealed")
    doc = {
        "game": deal.game,
        "rules": dict(deal.rules),
        "seats": deal.players,
        "seed": deal.seed,
        "dealer": deal.dealer,
        "active": list(deal.active),
        "actions": [str(m.action) for m in deal.moves],
    }
    return ReviewDeal(str(deal.game), doc, int(deal.number), seat)


Reviewable = GameState | Mapping[str, Any] | RecordedDeal | ReviewDeal


def deal_of(deal: Reviewable) -> ReviewDeal:
    """A deal state (that saves itself), a deal document, a record's deal
    (``rami.records.DealRecord``) or a ``ReviewDeal``, as a ``ReviewDeal``."""
    if isinstance(deal, ReviewDeal):
        return deal
    if isinstance(deal, RecordedDeal) and not isinstance(deal, SavesItself):
        return _recorded(deal, None)
    if isinstance(deal, Mapping):
        found = deals_from_json(deal)
        if len(found) != 1:
            raise InputError(f"a match of {len(found)} deals: review one of its deals")
        return found[0]
    if isinstance(deal, SavesItself):
        return deal_of(deal.to_json())
    raise InputError("review a deal state, a saved deal's document or a record")


def cache_dir() -> Path:
    """Where reviews are cached: ``$RAMI_CACHE_DIR``, else ``$XDG_CACHE_HOME/rami/reviews``
    (default ``~/.cache``; ``%LOCALAPPDATA%`` on Windows)."""
    if os.environ.get("RAMI_CACHE_DIR"):
        return Path(os.environ["RAMI_CACHE_DIR"])
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "rami" / "reviews"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rami" / "reviews"


def _cache_key(item: ReviewDeal, seat: int, samples: int, seed: int) -> str:
    text = json.dumps(
        {"v": VERSION, "deal": item.doc, "seat": seat, "samples": samples, "seed": seed},
        sort_keys=True,
        ensure_ascii=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _cached(path: Path) -> Review | None:
    try:
        doc: ReviewJson = json.loads(path.read_text(encoding="utf-8"))
        return Review.from_json(doc)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent or damaged: review again


def _store(path: Path, result: Review) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(result.to_json(), ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a cache that cannot be written only costs time


def _decisions(item: ReviewDeal, game: Game, seat: int) -> list[tuple[int, TypedView, Any]]:
    """``(index, view, move)`` of each decision of ``seat`` with more than one legal move
    (the seat's typed view, as the engine builds it)."""
    doc = dict(item.doc)
    actions = doc.get("actions")
    if not isinstance(actions, list):
        raise InputError("the deal's 'actions' must be a list")
    load = game.load_deal
    if load is None:
        raise InputError(f"{game.title} deals cannot be rebuilt for a review")
    state = load({**doc, "actions": []})
    if not 0 <= seat < state.num_players:
        raise InputError(f"seat {seat} is not at this table (seats 0 to {state.num_players - 1})")
    out: list[tuple[int, TypedView, Any]] = []
    for index, text in enumerate(actions):
        mover = state.to_move
        view = game.typed_view(state, seat) if mover == seat else None
        try:
            move = state.apply(text)
        except IllegalAction as exc:
            raise InputError(f"action {index + 1} ({text!r}) cannot be replayed: {exc}") from None
        if view is not None and len(view.legal) > 1:
            out.append((index, view, move))
    return out


def review(
    deal: Reviewable,
    seat: int,
    progress: Progress | None = None,
    *,
    samples: int | None = None,
    seed: int = 0,
    cache: bool = True,
) -> Review:
    """Review ``seat``'s decisions in ``deal`` (see the module docstring).

    ``progress(done, total)`` is called before the first decision and after each one;
    ``samples`` (determinizations per decision) defaults to the game's
    (``ReviewHooks.samples``); with ``cache`` a review of the same deal, seat and
    parameters is read back from ``cache_dir()`` instead of computed again.
    """
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InputError("the seat must be a whole number")
    item = deal_of(deal)
    game = get_game(item.game)
    hooks = _hooks(game)
    if samples is None:
        samples = hooks.samples
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= 10_000:
        raise InputError("samples must be a whole number from 2 to 10000")
    kit = kit_of(game.name)
    path = cache_dir() / f"{_cache_key(item, seat, samples, seed)}.json"
    if cache:
        found = _cached(path)
        if found is not None:
            if progress is not None:
                progress(len(found.decisions), len(found.decisions))
            return found
    todo = _decisions(item, game, seat)
    rules = item.doc.get("rules")
    thresholds = hooks.thresholds(rules if isinstance(rules, Mapping) else {})
    if progress is not None:
        progress(0, len(todo))
    reviewed: list[Decision] = []
    for done, (index, view, move) in enumerate(todo, start=1):
        reviewed.append(evaluate(kit, hooks, view, move, index, samples, seed, thresholds))
        if progress is not None:
            progress(done, len(todo))
    result = Review(
        game=game.name,
        seat=seat,
        decisions=tuple(reviewed),
        unit=game.points_label,
        samples=samples,
        thresholds=thresholds,
    )
    if cache:
        _store(path, result)
    return result
