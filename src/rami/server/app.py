"""The web application: HTTP API, the WebSocket of each table, and the pages.

``create_app(config)`` builds a FastAPI app around one ``Store`` (SQL database) and one
``TableManager``. The pages are plain HTML, CSS and ES modules from ``static/``; there
is no build step. The message protocol is described in ``docs/protocol.md``; the HTTP
part's schema is served at ``/openapi.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hmac
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Annotated

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from rami.errors import InputError
from rami.games import all_games
from rami.memo import freeze_collector
from rami.server.bearer import Token
from rami.server.config import ServerConfig, default_db_url
from rami.server.guards import Guard, Refusals, link_host_allowed
from rami.server.install import router as install_router
from rami.server.limits import BadJSON, BodyGuard, SafeJSONResponse, dumps, loads
from rami.server.metrics import CONTENT_TYPE_LATEST, Metrics
from rami.server.protocol import (
    ActionRequest,
    CreatedTable,
    CreateTable,
    ErrorResponse,
    GameInfo,
    HintResponse,
    Invite,
    Joined,
    JoinRequest,
    ReplayResponse,
    RulesSummary,
    StateResponse,
    TableError,
    TableSummary,
)
from rami.server.ratelimit import Limiter
from rami.server.replays import check_replays_open
from rami.server.replays import created as replay_link_created
from rami.server.replays import router as replays_router
from rami.server.rules_info import client_folders, games_info, rules_summary
from rami.server.score_api import router as score_router
from rami.server.secret import load_secret, secret_path
from rami.server.solo_site import add_solo_routes
from rami.server.storage import Store
from rami.server.tables import Connection, LiveTable, TableManager

__all__ = ["create_app"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HELLO_TIMEOUT = 30.0
GC_THRESHOLDS = (50_000, 50, 1000)

_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorResponse},
    403: {"model": ErrorResponse},
    404: {"model": ErrorResponse},
    409: {"model": ErrorResponse},
}


def _manager(request: Request) -> TableManager:
    found: TableManager = request.app.state.manager
    return found


Manager = Annotated[TableManager, Depends(_manager)]


def _client(conn: Request | WebSocket) -> str:
    """The client's address (its proxy's ``X-Forwarded-For`` when uvicorn trusts it)."""
    return conn.client.host if conn.client is not None else "?"


async def find(
    conn: Request | WebSocket,
    mgr: TableManager,
    code: str,
    token: str | None = None,
    invite: str | None = None,
) -> LiveTable:
    """The table ``code``, counted against the client's look-up limits.

    A client out of misses is refused, unless ``token`` opens a seat of this very table
    or ``invite`` is its invite: players behind an address a prober shares are not
    locked out of their own tables, nor friends of the table they were invited to.
    """
    limiter: Limiter = conn.app.state.limiter
    who = _client(conn)
    blocked = limiter.out_of_misses(who)
    if blocked is not None and not token and not invite:
        raise blocked
    limiter.count_lookup(who)
    try:
        live = await mgr.get(code)
    except TableError as exc:
        if exc.code == "no_table":
            limiter.miss(who)
            if blocked is not None:
                raise blocked from None
        raise
    if blocked is not None and not (_opens_seat(live, token) or _invited(live, invite)):
        raise blocked
    return live


def _invited(live: LiveTable, invite: str | None) -> bool:
    expected = live.record.invite
    if not invite or expected is None:
        return False
    return hmac.compare_digest(invite.encode(), expected.encode())


def _opens_seat(live: LiveTable, token: str | None) -> bool:
    try:
        return live.seat_for_token(token) is not None
    except TableError:
        return False


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The rami web app; ``config`` None means the default SQLite file and bot pace."""
    cfg = config if config is not None else ServerConfig(db_url=default_db_url())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        key = cfg.seat_secret
        if key is None:  # the seat codes' key, outside the database (rami.server.secret)
            key = await asyncio.to_thread(load_secret, secret_path(cfg.db_url, cfg.secret_file))
        store = Store(cfg.db_url, busy_ms=cfg.db_busy_ms)
        app.state.manager = TableManager(store, replace(cfg, seat_secret=key))
        app.state.limiter = Limiter(cfg.rate_limits)
        manager: TableManager = app.state.manager
        manager.metrics = Metrics(
            lambda: len(manager.tables), lambda: sum(len(t.conns) for t in manager.tables.values())
        )
        manager.attach()
        listener = None
        if store.shared:  # other processes may serve the same tables: hear their moves
            from rami.server.pubsub import Listener

            listener = Listener(
                cfg.db_url, asyncio.get_running_loop(), manager.notified, store.origin
            )
            listener.start()
        gc.collect()
        # Views and messages are freed by reference counting; the cycle collector's
        # passes stop the event loop. Fewer, later passes: at 100 tables 250 passes in
        # 20 s (330-690 ms in all) fell to 3 (47-290 ms), RSS unchanged (bench/server_load).
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        # start-up objects (modules, app, the memo tables, pinned) leave the generations
        freeze_collector()
        gc.callbacks.append(manager.metrics.on_gc)
        try:
            yield
        finally:
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(manager.metrics.on_gc)
            gc.set_threshold(*thresholds)
            if listener is not None:
                listener.stop()
            reviews = getattr(app.state, "review_jobs", None)
            if reviews is not None:
                reviews.close()
            await app.state.manager.close()
            store.close()

    app = FastAPI(
        title="rami",
        version="0.1.0",
        summary=f"{' and '.join(g.title for g in all_games())} tables with friends and bots",
        description="The HTTP part of the rami server. Play itself goes over the table's "
        "WebSocket `/ws/tables/{code}`; see docs/protocol.md.",
        lifespan=lifespan,
        default_response_class=SafeJSONResponse,
    )
    app.add_middleware(BodyGuard)
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # pages, scripts, strings (issue 21)
    app.add_middleware(Guard, limits=cfg.rate_limits)  # outermost: its headers on every answer
    for name, folder in client_folders().items():  # before /static, which would take them
        app.mount(f"/static/games/{name}", StaticFiles(directory=folder), name=f"game-{name}")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(score_router)  # the scorekeeper: /score, /api/score/… (issue 15)
    app.include_router(replays_router)  # replay links /r/{id}, record checks, reviews (issue 24)
    app.include_router(install_router)  # the manifest and the app shell's worker (issue 21)
    add_solo_routes(app)  # solo play in the browser, no server moves: /solo (issue 26)

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        found = getattr(request.app.state, "manager", None)
        if found is not None and found.metrics is not None:
            found.metrics.refused.labels(exc.code).inc()
        body = dict(exc.to_message())
        error = {k: body[k] for k in ("code", "message", "rule", "reason") if k in body}
        return SafeJSONResponse({"error": error}, status_code=exc.status)

    @app.exception_handler(InputError)
    async def input_error(_request: Request, exc: InputError) -> JSONResponse:
        return SafeJSONResponse({"error": {"code": "bad_request", "message": str(exc)}}, 400)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        message = "the server failed on this request; nothing was changed"
        return SafeJSONResponse({"error": {"code": "internal", "message": message}}, 500)

    def table_url(request: Request, code: str) -> str:
        if cfg.public_url:
            return f"{cfg.public_url}/t/{code}"
        if link_host_allowed(request.url.hostname, cfg.allowed_hosts):
            return str(request.url_for("table_page", code=code))
        return f"/t/{code}"  # an unknown Host header never makes the links

    # ------------------------------------------------------------------ pages

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{code}", include_in_schema=False, name="table_page")
    async def table_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/rules/{game}/{preset}", include_in_schema=False)
    async def rules_page(game: str, preset: str) -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_first() -> RedirectResponse:
        """The rules of the registry's first game (the lobby's default)."""
        first = all_games()[0]
        return RedirectResponse(f"/rules/{first.name}/{first.presets[0]}")

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_default(game: str) -> RedirectResponse:
        from rami.games import get_game

        spec = get_game(game)
        return RedirectResponse(f"/rules/{spec.name}/{spec.presets[0]}")

    # ------------------------------------------------------------------ operations

    @app.get("/healthz", tags=["operations"])
    async def healthz() -> dict[str, str]:
        """The process is up and its event loop answers."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["operations"], responses={503: {"model": ErrorResponse}})
    async def readyz(mgr: Manager) -> dict[str, str]:
        """Ready to serve: the database answers."""
        try:
            await asyncio.to_thread(mgr.store.ping)
        except Exception as exc:
            raise TableError("unavailable", f"the database does not answer: {exc}") from None
        return {"status": "ready"}

    @app.get("/metrics", include_in_schema=False)
    async def metrics(mgr: Manager) -> Response:
        assert mgr.metrics is not None
        return Response(mgr.metrics.render(), media_type=CONTENT_TYPE_LATEST)

    # ------------------------------------------------------------------ lobby API

    @app.get("/api/games", response_model=list[GameInfo], tags=["lobby"])
    async def list_games() -> list[dict[str, object]]:
        """The games, their presets (or modes) with player counts, and the bot levels."""
        return games_info()

    @app.get(
        "/api/rules/{game}/{preset}",
        response_model=RulesSummary,
        responses=_ERRORS,
        tags=["lobby"],
    )
    async def get_rules(game: str, preset: str) -> dict[str, object]:
        """The options of a preset with one line of help each (the rules page)."""
        return rules_summary(game, preset)

    @app.post(
        "/api/tables",
        response_model=CreatedTable,
        status_code=201,
        responses=_ERRORS,
        tags=["tables"],
    )
    async def create_table(body: CreateTable, request: Request, mgr: Manager) -> dict[str, object]:
        """Create a table; the creator takes a human seat and gets its token."""
        request.app.state.limiter.join(_client(request))
        live, seat, token = await mgr.create(body.model_dump())
        invite = secrets.token_urlsafe(12)
        await asyncio.to_thread(mgr.store.set_invite, live.record.id, invite)
        live.record.invite = invite
        await asyncio.to_thread(replay_link_created, mgr.store, live.record.id, seat)
        url = table_url(request, live.code)
        return {
            "code": live.code,
            "url": url,
            "seat": seat,
            "token": token,
            "table": live.summary(),
            "invite": invite,
            "invite_url": f"{url}#invite={invite}",
        }

    @app.get("/api/tables", response_model=list[TableSummary], tags=["tables"])
    async def list_tables(
        request: Request,
        mgr: Manager,
        codes: Annotated[str, Query(max_length=600, description="codes, comma-separated")] = "",
    ) -> list[dict[str, object]]:
        """Summaries of the tables named (the page keeps the user's codes in its storage)."""
        wanted = list(dict.fromkeys(c.strip().upper() for c in codes.split(",") if c.strip()))
        wanted = wanted[:30]
        limiter: Limiter = request.app.state.limiter
        who = _client(request)
        blocked = limiter.out_of_misses(who) if wanted else None
        if blocked is not None:
            raise blocked
        found = await asyncio.to_thread(mgr.store.existing_codes, wanted)
        tested: list[str] = []
        for code in wanted:  # each code tested is one look-up, and a miss if it is not there
            try:
                limiter.lookup(who)
            except TableError:
                if not tested:
                    raise
                break  # the budget is spent: the codes after this one are not tested
            tested.append(code)
            if code not in found:
                limiter.miss(who)
        out = []
        for code in (c for c in tested if c in found):
            with contextlib.suppress(TableError):
                out.append((await mgr.get(code)).summary())
        return out

    @app.get("/api/tables/{code}", response_model=TableSummary, responses=_ERRORS, tags=["tables"])
    async def get_table(
        code: str, request: Request, token: Token, mgr: Manager
    ) -> dict[str, object]:
        """A table's public summary: game, rules, seats, status."""
        return (await find(request, mgr, code, token)).summary()

    @app.post("/api/tables/{code}/join", response_model=Joined, responses=_ERRORS, tags=["tables"])
    async def join_table(
        code: str, body: JoinRequest, request: Request, mgr: Manager
    ) -> dict[str, object]:
        """Take a free human seat; the answer holds the seat's secret token.

        With ``require_invite`` (``rami serve --invite-only``) the table's invite is needed:
        knowing the public code lets one watch, not sit down.
        """
        request.app.state.limiter.join(_client(request))
        live = await find(request, mgr, code, invite=body.invite)
        expected = live.record.invite
        if cfg.require_invite and expected is not None:
            given = body.invite or ""
            if not hmac.compare_digest(given.encode(), expected.encode()):
                raise TableError(
                    "bad_invite", "joining this table needs its invite link: ask a player"
                )
        seat, token = await mgr.join(live, body.seat, body.name)
        return {"code": live.code, "seat": seat, "token": token, "url": table_url(request, code)}

    @app.get("/api/tables/{code}/invite", response_model=Invite, responses=_ERRORS, tags=["tables"])
    async def get_invite(
        code: str, request: Request, token: Token, mgr: Manager
    ) -> dict[str, object]:
        """The table's invite, for a seated player to share (spectators: ``spectator``)."""
        live = await find(request, mgr, code, token)
        if live.seat_for_token(token) is None:
            raise TableError("spectator", "only seated players can share the invite")
        url = table_url(request, live.code)
        invite = live.record.invite
        return {"invite": invite, "invite_url": f"{url}#invite={invite}" if invite else url}

    @app.post(
        "/api/tables/{code}/start",
        response_model=TableSummary,
        responses=_ERRORS,
        tags=["tables"],
    )
    async def start_table(
        code: str, request: Request, token: Token, mgr: Manager
    ) -> dict[str, object]:
        """Fill the free seats with bots and start play."""
        live = await find(request, mgr, code, token)
        await mgr.start(live, live.seat_for_token(token))
        return live.summary()

    # ------------------------------------------------------------------ play API

    @app.get(
        "/api/tables/{code}/view",
        response_model=StateResponse,
        responses=_ERRORS,
        tags=["play"],
    )
    async def get_view(
        code: str, request: Request, token: Token, mgr: Manager
    ) -> dict[str, object]:
        """The view of the token's seat; without a token, the spectators' view."""
        live = await find(request, mgr, code, token)
        return await mgr.state(live, live.seat_for_token(token))

    @app.post(
        "/api/tables/{code}/actions",
        response_model=StateResponse,
        responses=_ERRORS,
        tags=["play"],
    )
    async def post_action(
        code: str, body: ActionRequest, request: Request, token: Token, mgr: Manager
    ) -> dict[str, object]:
        """Play one action for the token's seat (the same check as over the WebSocket)."""
        live = await find(request, mgr, code, token)
        seat = live.seat_for_token(token)
        await mgr.act(live, seat, body.action, None, None)
        return await mgr.state(live, seat)

    @app.post(
        "/api/tables/{code}/next-deal",
        response_model=StateResponse,
        responses=_ERRORS,
        tags=["play"],
    )
    async def post_next_deal(
        code: str, request: Request, token: Token, mgr: Manager
    ) -> dict[str, object]:
        """Deal the next deal of the match once the current one is over."""
        live = await find(request, mgr, code, token)
        seat = live.seat_for_token(token)
        await mgr.next_deal(live, seat, None, None)
        return await mgr.state(live, seat)

    @app.get(
        "/api/tables/{code}/hint",
        response_model=HintResponse,
        responses=_ERRORS,
        tags=["play"],
    )
    async def get_hint(
        code: str, request: Request, token: Token, mgr: Manager
    ) -> dict[str, object]:
        """A suggested move and notes on the seat's own cards."""
        live = await find(request, mgr, code, token)
        return await mgr.hint(live, live.seat_for_token(token))

    @app.get(
        "/api/tables/{code}/replay",
        response_model=ReplayResponse,
        responses=_ERRORS,
        tags=["play"],
    )
    async def get_replay(
        code: str,
        request: Request,
        token: Token,
        mgr: Manager,
        deal: Annotated[int, Query(ge=0, le=10_000, description="the deal, from 0")] = 0,
    ) -> dict[str, object]:
        """A finished deal move by move, every hand shown (nothing is hidden once it is over)."""
        live = await find(request, mgr, code, token)
        await check_replays_open(mgr.store, live, token)
        return {"deal": deal, "frames": await mgr.replay(live, deal)}

    @app.get(
        "/api/tables/{code}/record",
        response_class=Response,
        responses={**_ERRORS, 200: {"content": {"text/plain": {}}}},
        tags=["play"],
    )
    async def get_record(
        code: str,
        request: Request,
        token: Token,
        mgr: Manager,
        ascii: Annotated[bool, Query(description="cards as 10C, QH; ASCII only")] = False,
    ) -> Response:
        """The table's open .rami record (docs/records.md): finished deals in full with
        their seeds and salts; the deal in play only as its public moves and commitment.
        Private replays: only with a seat's token."""
        live = await find(request, mgr, code, token)  # counted like every table look-up
        await check_replays_open(mgr.store, live, token)
        text = await mgr.record(live, ascii)
        filename = f"rami-{live.code}.rami"
        return Response(
            text.encode("utf-8"),
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/tables/{code}")
    async def table_socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        mgr: TableManager = websocket.app.state.manager
        try:
            live, seat = await _hello(websocket, mgr, code)
        except (WebSocketDisconnect, TimeoutError):
            return
        if live is None:
            return
        reader = asyncio.current_task()
        busy = False

        def drop() -> None:  # the client stopped reading: stop waiting for its messages
            if mgr.metrics is not None:
                mgr.metrics.dropped.inc()
            if not busy and reader is not None:
                reader.cancel()

        refusals = Refusals(websocket.send_text)  # one rate_limited reply per burst
        conn = Connection(seat, refusals.send, on_overflow=drop)
        bucket = websocket.app.state.limiter.message_bucket()
        writer = asyncio.create_task(conn.run_writer())
        await mgr.connect(live, conn)
        try:
            while not conn.overflowed:
                try:
                    message = await websocket.receive()
                except asyncio.CancelledError:
                    if conn.overflowed:
                        break
                    raise
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.send(TableError("bad_json", "send JSON text, not binary").to_message())
                    continue
                if bucket is not None and not bucket.take():
                    refusals.refuse(conn, text, bucket)
                    continue
                busy = True
                await mgr.handle(live, conn, text)
                busy = False
        except WebSocketDisconnect:
            pass
        finally:
            await mgr.disconnect(live, conn)
            if conn.overflowed:
                writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(writer, timeout=2)
        if conn.overflowed:
            with contextlib.suppress(Exception):
                await websocket.close(1008, "too slow: messages were not read")

    return app


async def _hello(
    websocket: WebSocket, mgr: TableManager, code: str
) -> tuple[LiveTable | None, int | None]:
    """Wait for the client's hello; answer errors until it comes. Closes on a bad one."""

    async def refuse(exc: TableError, close_code: int, ref: object) -> tuple[None, None]:
        await websocket.send_text(dumps(exc.to_message(ref)))
        await websocket.close(close_code)
        return None, None

    while True:
        message = await asyncio.wait_for(websocket.receive(), timeout=HELLO_TIMEOUT)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect()
        raw = message.get("text")
        error: TableError | None = None
        try:
            doc = loads(raw) if raw is not None else None
        except BadJSON:
            doc = None
        if not isinstance(doc, dict):
            error = TableError("bad_json", "the message is not a JSON object")
        elif doc.get("type") != "hello":
            error = TableError("hello_first", 'send {"type": "hello", "token": …} first')
        elif doc.get("token") is not None and not isinstance(doc.get("token"), str):
            error = TableError("bad_message", "'token' must be text or null")
        if error is not None:
            ref = doc.get("id") if isinstance(doc, dict) else None
            await websocket.send_text(dumps(error.to_message(ref)))
            continue
        assert isinstance(doc, dict)
        ref = doc.get("id")
        ref = ref if isinstance(ref, (str, int)) and not isinstance(ref, bool) else None
        token = doc.get("token")
        try:
            live = await find(websocket, mgr, code, token)
        except TableError as exc:
            return await refuse(exc, 4429 if exc.code == "rate_limited" else 4404, ref)
        try:
            seat = live.seat_for_token(token)
        except TableError as exc:
            return await refuse(exc, 4403, ref)
        return live, seat
