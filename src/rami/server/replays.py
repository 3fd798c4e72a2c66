"""Replay links, record checks and background reviews for the web replay (issue 24).

Each table has one secret public link ``/r/{id}`` (``secrets``, 128 bits, not derived from
the table code) that shows its finished deals move by move; what a link needs is stored in
``rami_replay_links`` (migration 0003) and the deals come from the stored table's open
record (``rami.server.records``), so a deal still in play is never in it: its seed and
cards are not revealed. Unknown ids count as misses against the table look-up limits. The
table's creator may make its replays private: the link then opens only for its seats.

The same replay steps come from a ``.rami`` file posted to ``/api/records/check`` (the
client holds no rules), and "Verify this shuffle" goes through ``rami.records.verify``.
A seat's own decisions are reviewed (``rami.review``) in a process of its own, one at a time,
with a progress line the page polls; finished reviews are kept per deal and seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import json
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Table, select, update
from sqlalchemy.exc import IntegrityError

from rami.engine import GameState
from rami.errors import InputError
from rami.games import get_game
from rami.records import DealRecord, MatchRecord, Move, read, verify_record
from rami.records.render import deal_lines as _deal_lines
from rami.server.bearer import Token
from rami.server.live import LiveTable
from rami.server.protocol import ErrorResponse, TableError
from rami.server.ratelimit import Limiter
from rami.server.replay import open_record
from rami.server.routes.common import STATIC, client, find, manager
from rami.server.storage import Store, metadata
from rami.views import GameView

__all__ = [
    "LINK_BYTES",
    "ProcessReviewer",
    "ReviewJobs",
    "created",
    "real_reviewer",
    "replay_of",
    "review_available",
    "router",
]

LINK_BYTES = 16  # 128 bits of ``secrets``: as unguessable as a seat token
MAX_FRAMES = 2000  # per deal
MAX_RECORD_CHARS = 60_000  # a posted record (the body guard allows 64 KiB)
MAX_JOBS = 16  # reviews waiting or running at once, all tables together
KEPT_JOBS = 2000  # finished reviews kept in memory (the oldest go first)

links_t = Table(
    "rami_replay_links",
    metadata,
    Column("link", String(32), primary_key=True),
    Column("table_id", Integer, ForeignKey("rami_tables.id"), unique=True, nullable=False),
    Column("creator_seat", Integer, nullable=True),
    Column("private", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False),
)

STATIC_PAGE = "replay.html"


@dataclass(frozen=True)
class LinkRow:
    link: str
    table_id: int
    code: str
    creator_seat: int | None
    private: bool


# --------------------------------------------------------------------------- storage


def _row(store: Store, *, link: str | None = None, table_id: int | None = None) -> LinkRow | None:
    from rami.server.storage import tables_t

    query = select(
        links_t.c.link,
        links_t.c.table_id,
        tables_t.c.code,
        links_t.c.creator_seat,
        links_t.c.private,
    ).join(tables_t, tables_t.c.id == links_t.c.table_id)
    query = query.where(
        links_t.c.link == link if link is not None else links_t.c.table_id == table_id
    )
    with store.engine.connect() as conn:
        found = conn.execute(query).first()
    if found is None:
        return None
    return LinkRow(found[0], found[1], found[2], found[3], bool(found[4]))


def ensure_link(store: Store, table_id: int, creator_seat: int | None = None) -> LinkRow:
    """The table's link, made on first use (tables from before migration 0003 too)."""
    found = _row(store, table_id=table_id)
    if found is not None:
        return found
    row = {
        "link": secrets.token_urlsafe(LINK_BYTES),
        "table_id": table_id,
        "creator_seat": creator_seat,
        "private": False,
        "created_at": time.time(),
    }
    with contextlib.suppress(IntegrityError), store.writing() as conn:
        conn.execute(links_t.insert().values(**row))  # another request may have been first
    made = _row(store, table_id=table_id)
    assert made is not None
    return made


async def check_replays_open(store: Store, live: LiveTable, token: str | None) -> None:
    """Refuse the table-code paths to its finished deals (``/api/tables/{code}/record``
    and ``/replay``) when the creator keeps the replays private and ``token`` opens no
    seat of the table: privacy would mean little if the code alone still gave them."""
    row = await asyncio.to_thread(_row, store, table_id=live.record.id)
    if row is not None and row.private and not live.opens_seat(token):
        raise TableError("private", "the table's creator keeps its replays private")


def set_private(store: Store, table_id: int, private: bool) -> None:
    with store.writing() as conn:
        conn.execute(update(links_t).where(links_t.c.table_id == table_id).values(private=private))


def created(store: Store, table_id: int, creator_seat: int | None) -> str:
    """Called when a table is made: its link, remembering who may make it private."""
    return ensure_link(store, table_id, creator_seat).link


# --------------------------------------------------------------------------- replay steps


def _cards(value: object) -> list[str]:
    return [str(c) for c in value] if isinstance(value, list | tuple) else []


def _items(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _wild_card(public: GameView) -> str | None:
    """The card that sets the wild cards, as the game's ``WebHooks.wild_card`` reads it."""
    spec = get_game(public.get("game"))
    hook = spec.web().wild_card if spec.web is not None else None
    return hook(public) if hook is not None else None


def _frame(
    state: GameState, players: int, move: Move | None, public: GameView
) -> dict[str, object]:
    """One position: every hand (the deal is over), the public table, the move that led here."""
    hands = [_cards(state.view(s).get("hand")) for s in range(players)]
    seats = _items(public.get("seats"))
    melds = [
        [_cards(m) for m in _items(s.get("melds"))] if isinstance(s, Mapping) else [] for s in seats
    ]
    table = [
        {"cards": _cards(m.get("cards")), "owner": m.get("owner")}
        for m in _items(public.get("table"))
        if isinstance(m, Mapping)
    ]
    pile = _cards(public.get("discard_pile"))
    history = [h for h in public.get("history") or () if isinstance(h, Mapping) and "move" in h]
    shown = str(history[-1]["move"]) if move is not None and history else None
    wild = _wild_card(public)
    return {
        "seat": move.seat if move is not None else None,
        "move": move.action if move is not None else None,
        "card": move.card if move is not None else None,
        "public": shown,  # the move as the other seats saw it ("draw" without its card)
        "hands": hands,
        "melds": melds,
        "table": table,
        "pile": pile[-8:],
        "pile_size": len(pile),
        "stock": public.get("stock_size"),
        "wild": wild,
        "to_move": public.get("to_move"),
    }


def _settlement(record: MatchRecord, deal: DealRecord) -> list[str]:
    """The settlement in words (``rami record``'s lines from the result on)."""
    lines = list(_deal_lines(record, deal, None))
    for i, line in enumerate(lines):
        if line.startswith("  Result:"):
            return [x.strip() for x in lines[i:]]
    return []


def _frames(deal: DealRecord) -> list[dict[str, object]]:
    state = deal.start()
    players = deal.players
    frames = [_frame(state, players, None, state.view(None))]
    for move, after in deal.replay_from(state):
        if len(frames) >= MAX_FRAMES:
            break
        frames.append(_frame(after, players, move, after.view(None)))
    return frames


def _deal_json(record: MatchRecord, deal: DealRecord, with_frames: bool) -> dict[str, object]:
    """A finished deal; its positions only for the deal asked for (a Marriage deal's are
    about 450 KB of JSON: the page asks for another deal's when it shows it)."""
    result = deal.result
    return {
        "number": deal.number,
        "moves": len(deal.moves),
        "dealer": deal.dealer,
        "active": list(deal.active),
        "commitment": deal.commitment,
        "seed": deal.seed,
        "salt": deal.salt,
        "frames": _frames(deal) if with_frames else None,
        "result": None
        if result is None
        else {"winner": result.winner, "points": list(result.points)},
        "settlement": _settlement(record, deal),
    }


def replay_of(record: MatchRecord, deal: int | None = None) -> dict[str, object]:
    """The replay as JSON: only deals whose seed is revealed (over), with the positions
    of deal ``deal`` (1-based; None: the last finished one); a deal in play is counted,
    never shown."""
    game = get_game(record.game)
    over = [d for d in record.deals if d.revealed]
    chosen = over[-1].number if deal is None and over else deal
    if deal is not None and all(d.number != deal for d in over):
        raise TableError("bad_request", f"deal {deal} is not a finished deal of this record")
    deals = [_deal_json(record, d, d.number == chosen) for d in over]
    return {
        "game": record.game,
        "title": game.title,
        "preset": record.preset,
        "players": record.players,
        "date": record.date,
        "signed": bool(game.signed_points),
        "points_label": game.points_label,
        "seats": [{"name": s.name, "kind": s.kind, "level": s.level} for s in record.seats],
        "deals": deals,
        "in_play": sum(1 for d in record.deals if not d.revealed),
        "standing": None
        if record.standing is None
        else {
            "totals": list(record.standing.totals),
            "over": record.standing.over,
            "winners": list(record.standing.winners),
        },
    }


def check_text(text: str, deal: int | None = None) -> dict[str, object]:
    """Read a posted record (one ``bad_record`` error naming the line) into replay steps."""
    try:
        record = read(text)
    except InputError as exc:
        raise TableError("bad_record", str(exc)) from None
    if not any(d.revealed for d in record.deals):
        raise TableError("bad_record", "no deal of this record is over yet: nothing to replay")
    return replay_of(record, deal)


def verify_text(text: str) -> dict[str, object]:
    try:
        record = read(text)
    except InputError as exc:
        return {"ok": False, "message": str(exc)}
    verdict = verify_record(record)
    return {"ok": verdict.ok, "message": verdict.message}


# --------------------------------------------------------------------------- reviews


Status = Literal["queued", "running", "done", "failed"]


@dataclass
class Job:
    """One review: a deal's seat, its progress and, once done, the review's JSON."""

    id: str
    key: tuple[int, int, int]  # table id, deal number, seat
    status: Status = "queued"
    done: int = 0
    total: int = 0
    review: dict[str, object] | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)

    def json(self) -> dict[str, object]:
        return {
            "job": self.id,
            "deal": self.key[1],
            "seat": self.key[2],
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "review": self.review,
            "error": self.error,
        }


Reviewer = Callable[[Mapping[str, object], int, Callable[[int, int], None]], Mapping[str, object]]


def review_available() -> bool:
    return importlib.util.find_spec("rami.review") is not None


class ProcessReviewer:
    """``rami.review`` in a process of its own (``rami.server.review_worker``), so that a
    review's CPU never holds the server's interpreter lock: with a review in a thread, an
    event loop's 10 ms timer fired 10 ms late at the median (p99 76 ms); with the review in
    its own process, 0.2 ms (p99 28 ms, on 2 shared cores). Progress comes back as JSON
    lines; ``stop`` ends the review under way (the server is closing)."""

    def __init__(self, samples: int | None = None) -> None:
        self.samples = samples
        self._current: subprocess.Popen[str] | None = None

    def __call__(
        self, doc: Mapping[str, object], seat: int, progress: Callable[[int, int], None]
    ) -> Mapping[str, object]:
        request = json.dumps({"doc": dict(doc), "seat": seat, "samples": self.samples})
        proc = subprocess.Popen(
            [sys.executable, "-m", "rami.server.review_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self._current = proc
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(request + "\n")
            proc.stdin.close()
            for line in proc.stdout:
                message = json.loads(line)
                if "progress" in message:
                    done, total = message["progress"]
                    progress(int(done), int(total))
                elif "done" in message:
                    result: Mapping[str, object] = message["done"]
                    return result
                else:
                    raise InputError(str(message.get("error") or "the review failed"))
            raise InputError("the review stopped before its end")
        finally:
            self._current = None
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=5)

    def stop(self) -> None:
        proc = self._current
        if proc is not None and proc.poll() is None:
            proc.kill()


def real_reviewer(samples: int | None = None) -> Reviewer:
    """The review of ``rami.review`` in a child process (``samples``: fewer for a quick
    test; None: the game's own)."""
    return ProcessReviewer(samples)


class ReviewJobs:
    """Reviews in one worker thread (the event loop never waits on one), kept per deal
    and seat: asking again for the same deal and seat gives the same job."""

    def __init__(self, reviewer: Reviewer | None = None) -> None:
        self.real = reviewer is None
        self.reviewer: Reviewer = reviewer if reviewer is not None else real_reviewer()
        self.jobs: dict[str, Job] = {}
        self.by_key: dict[tuple[int, int, int], Job] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rami-review")
        return self._pool

    def start(self, key: tuple[int, int, int], doc: Mapping[str, object]) -> Job:
        with self._lock:
            found = self.by_key.get(key)
            if found is not None and found.status != "failed":
                return found
            busy = sum(1 for j in self.jobs.values() if j.status in ("queued", "running"))
            if busy >= MAX_JOBS:
                raise TableError("busy", "the server is reviewing other deals: try again soon")
            if len(self.jobs) >= KEPT_JOBS:
                for old in [j for j in self.jobs.values() if j.status in ("done", "failed")][
                    : len(self.jobs) - KEPT_JOBS + 1
                ]:
                    del self.jobs[old.id]
                    if self.by_key.get(old.key) is old:
                        del self.by_key[old.key]
            job = Job(secrets.token_urlsafe(12), key)
            self.jobs[job.id] = job
            self.by_key[key] = job
        self._executor().submit(self._work, job, doc)
        return job

    def _work(self, job: Job, doc: Mapping[str, object]) -> None:
        job.status = "running"

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            job.review = dict(self.reviewer(doc, job.key[2], progress))
            job.status = "done"
        except InputError as exc:
            job.error, job.status = str(exc), "failed"
        except Exception as exc:  # a bug in a review must not take the server down
            job.error, job.status = f"the review failed: {type(exc).__name__}", "failed"

    def close(self) -> None:
        stop = getattr(self.reviewer, "stop", None)
        if callable(stop):
            stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


# --------------------------------------------------------------------------- HTTP

router = APIRouter()
_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorResponse},
    403: {"model": ErrorResponse},
    404: {"model": ErrorResponse},
    429: {"model": ErrorResponse},
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReplayLink(_Model):
    link: str = Field(description="the replay's secret id (share /r/{link})")
    url: str
    private: bool = Field(description="only the table's seats may open it")
    creator: bool = Field(description="the token's seat made the table (it may change privacy)")


class Privacy(_Model):
    private: bool


class RecordText(_Model):
    text: str = Field(max_length=MAX_RECORD_CHARS, description="a .rami record")


class RecordCheck(RecordText):
    deal: int | None = Field(None, ge=1, le=10_000, description="whose positions (default: last)")


class VerifyAnswer(_Model):
    ok: bool
    message: str


class ReviewRequest(_Model):
    deal: int = Field(ge=1, le=10_000, description="the deal, from 1")


def _jobs(request: Request) -> ReviewJobs:
    jobs = getattr(request.app.state, "review_jobs", None)
    if jobs is None:
        jobs = request.app.state.review_jobs = ReviewJobs()
    assert isinstance(jobs, ReviewJobs)
    return jobs


async def _table(request: Request, code: str, token: str | None) -> LiveTable:
    return await find(request, manager(request), code, token)


async def _link(request: Request, link: str, token: str | None) -> tuple[LinkRow, LiveTable]:
    """The link's table, counted like a table look-up (``rami.server.routes.common.find``): an
    unknown id is a miss, and a client out of misses is refused unless its token opens
    a seat of that table. A private link opens only with such a token."""
    limiter: Limiter = request.app.state.limiter
    who = client(request)
    blocked = limiter.out_of_misses(who)
    if blocked is not None and not token:
        raise blocked
    limiter.count_lookup(who)
    mgr = manager(request)
    row = None
    if 8 <= len(link) <= 32:
        row = await asyncio.to_thread(_row, mgr.store, link=link)
    if row is None:
        limiter.miss(who)
        if blocked is not None:
            raise blocked
        raise TableError("no_replay", "no replay has this link: check it")
    live = await mgr.get(row.code)
    if blocked is not None and not live.opens_seat(token):
        raise blocked
    if row.private and live.seat_for_token(token) is None:
        raise TableError("private", "the table's creator keeps its replays private")
    return row, live


def _url(request: Request, link: str) -> str:
    return str(request.url_for("replay_page", link=link))


@router.get("/r/{link}", include_in_schema=False, name="replay_page")
async def replay_page(link: str) -> FileResponse:
    return FileResponse(STATIC / STATIC_PAGE)


@router.get("/r/{link}/{deal}", include_in_schema=False)
async def replay_deal_page(link: str, deal: str) -> FileResponse:
    return FileResponse(STATIC / STATIC_PAGE)


@router.get("/replay", include_in_schema=False)
async def replay_file_page() -> FileResponse:
    """The replay page with no link: it opens a .rami file."""
    return FileResponse(STATIC / STATIC_PAGE)


@router.get(
    "/api/tables/{code}/replay-link",
    response_model=ReplayLink,
    responses=_ERRORS,
    tags=["replays"],
)
async def get_replay_link(code: str, request: Request, token: Token) -> dict[str, object]:
    """The table's replay link (made on first use); ``creator`` for its creator's token."""
    live = await _table(request, code, token)
    seat = live.seat_for_token(token)
    row = await asyncio.to_thread(ensure_link, manager(request).store, live.record.id)
    return {
        "link": row.link,
        "url": _url(request, row.link),
        "private": row.private,
        "creator": seat is not None and seat == row.creator_seat,
    }


@router.put(
    "/api/tables/{code}/replay-privacy",
    response_model=ReplayLink,
    responses=_ERRORS,
    tags=["replays"],
)
async def put_replay_privacy(
    code: str, body: Privacy, request: Request, token: Token
) -> dict[str, object]:
    """Make the table's replays private (only its seats open the link) or public again:
    its creator's seat only."""
    live = await _table(request, code, token)
    seat = live.seat_for_token(token)
    store = manager(request).store
    row = await asyncio.to_thread(ensure_link, store, live.record.id)
    if seat is None or seat != row.creator_seat:
        raise TableError("not_creator", "only the table's creator can change who sees its replays")
    await asyncio.to_thread(set_private, store, live.record.id, body.private)
    return {
        "link": row.link,
        "url": _url(request, row.link),
        "private": body.private,
        "creator": True,
    }


@router.get("/api/replays/{link}", responses=_ERRORS, tags=["replays"])
async def get_replay(
    link: str,
    request: Request,
    token: Token,
    deal: Annotated[
        int | None, Query(ge=1, le=10_000, description="whose positions (default: the last)")
    ] = None,
) -> dict[str, object]:
    """The finished deals of the link's table, deal ``deal`` move by move (every hand:
    it is over); a deal in play is only counted (``in_play``), never shown."""
    _, live = await _link(request, link, token)
    text = await open_record(live)
    record = await asyncio.to_thread(read, text)
    out = await asyncio.to_thread(replay_of, record, deal)
    seat = live.seat_for_token(token)
    out["link"] = link
    out["my_seat"] = seat
    return out


@router.get(
    "/api/replays/{link}/record",
    response_class=Response,
    responses={**_ERRORS, 200: {"content": {"text/plain": {}}}},
    tags=["replays"],
)
async def get_replay_record(link: str, request: Request, token: Token) -> Response:
    """The link's ``.rami`` record (the deal in play as its public moves only)."""
    _, live = await _link(request, link, token)
    text = await open_record(live)
    return Response(
        text.encode("utf-8"),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="rami-replay.rami"'},
    )


@router.get(
    "/api/replays/{link}/verify", response_model=VerifyAnswer, responses=_ERRORS, tags=["replays"]
)
async def get_replay_verify(link: str, request: Request, token: Token) -> dict[str, object]:
    """Verify this shuffle: each revealed seed opens its commitment and deals the cards."""
    _, live = await _link(request, link, token)
    text = await open_record(live)
    return await asyncio.to_thread(verify_text, text)


@router.post("/api/records/check", responses=_ERRORS, tags=["replays"])
async def post_record_check(body: RecordCheck) -> dict[str, object]:
    """A ``.rami`` file's replay steps (the same as a link's); a bad file gets one
    ``bad_record`` error naming the line and the rule."""
    return await asyncio.to_thread(check_text, body.text, body.deal)


@router.post(
    "/api/records/verify", response_model=VerifyAnswer, responses=_ERRORS, tags=["replays"]
)
async def post_record_verify(body: RecordText) -> dict[str, object]:
    """Verify a ``.rami`` file's shuffles in one line (``rami verify``)."""
    return await asyncio.to_thread(verify_text, body.text)


@router.post("/api/replays/{link}/review", responses=_ERRORS, tags=["replays"])
async def post_review(
    link: str, body: ReviewRequest, request: Request, token: Token
) -> dict[str, object]:
    """Review the token's own seat in a finished deal, in the background: the job to poll.
    The same deal and seat again gives the same job (its progress or its result)."""
    _, live = await _link(request, link, token)
    seat = live.seat_for_token(token)
    if seat is None:
        raise TableError("spectator", "only a seated player can review their own decisions")
    text = await open_record(live)
    record = await asyncio.to_thread(read, text)
    deal = next((d for d in record.deals if d.number == body.deal), None)
    if deal is None or not deal.revealed:
        raise TableError("deal_not_over", f"deal {body.deal} is not over: review it once it is")
    if not deal.active[seat]:
        raise TableError("bad_request", f"your seat did not play deal {body.deal}")
    jobs = _jobs(request)
    if jobs.real and not review_available():
        raise TableError("unavailable", "this server has no move-by-move review")
    doc = {
        "game": deal.game,
        "rules": dict(deal.rules),
        "seats": deal.players,
        "seed": deal.seed,
        "dealer": deal.dealer,
        "active": list(deal.active),
        "actions": [m.action for m in deal.moves],
    }
    return jobs.start((live.record.id, deal.number, seat), doc).json()


@router.get("/api/replays/{link}/review/{job}", responses=_ERRORS, tags=["replays"])
async def get_review(link: str, job: str, request: Request, token: Token) -> dict[str, object]:
    """A review's progress (``done`` of ``total`` decisions) and, once done, its result."""
    row, live = await _link(request, link, token)
    seat = live.seat_for_token(token)
    found = _jobs(request).jobs.get(job)
    if found is None or found.key[0] != row.table_id or found.key[2] != seat:
        raise TableError("no_job", "no such review: start it again")
    return found.json()
