"""The FastAPI app: the JSON API (described at /api/openapi.json) and the single page.

Every user mistake is a 4xx whose JSON body is ``{"detail": "<what is wrong>"}``: 400 for a
word, feedback or game the library refuses, 413 for an oversized body, 422 for a body that does
not fit the schema.  The page's assets are files of this package; the Content-Security-Policy
lets the page load nothing from elsewhere.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from .. import __version__
from ..core.data import FIRST_DAY
from ..core.errors import WordlebotError
from ..core.feedback import ACCEPTED_FORMATS
from ..policy.advisor import DEFAULT_GOAL, GOALS
from . import schemas as s
from .clients import client_key
from .service import (
    OFFICIAL_SETS,
    BusyError,
    Engine,
    NotReadyError,
    SetFailedError,
    colours,
    parse_rows,
)

STATIC = Path(__file__).resolve().parent / "static"
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


class ErrorOut(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "a word, feedback or game the library refuses"},
    413: {"model": ErrorOut, "description": "request body too large"},
    422: {"model": ErrorOut, "description": "the body does not fit the schema"},
    503: {
        "model": ErrorOut,
        "description": "busy, or the word set is being prepared (or could not be): "
        "try again after the Retry-After seconds",
    },
}


BODY_SECONDS = 10.0  # a request body must arrive within this (slow senders do not hold a connection)


class Limits:
    """ASGI middleware in front of everything: refuses what no handler should see, and adds the
    security headers to every answer.

    - A request that declares both Content-Length and Transfer-Encoding (request smuggling, or a
      way round the length check) is refused (400).
    - The body is read here, counting the bytes actually received, and refused (413) past
      ``max_bytes`` whatever the headers said; the handlers get it from memory.  It must arrive
      within ``body_seconds`` (408).
    - ``hosts``: the Host names accepted (None: any).  A server on loopback accepts only loopback
      names, so a hostile page cannot drive it through DNS rebinding.
    """

    def __init__(
        self, app, max_bytes: int = s.MAX_BODY, hosts: frozenset[str] | None = None, body_seconds: float = BODY_SECONDS
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.hosts = hosts
        self.body_seconds = body_seconds

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers: dict[bytes, list[bytes]] = {}
        for k, v in scope.get("headers") or []:
            headers.setdefault(k.lower(), []).append(v)
        if self.hosts is not None:
            host = _host_name(headers.get(b"host", [b""])[-1])
            if host not in self.hosts:
                bound = scope.get("server") or ("127.0.0.1", None)
                where = f"[{bound[0]}]" if ":" in str(bound[0]) else bound[0]
                return await _refuse(
                    send,
                    400,
                    f"this server answers requests for {', '.join(sorted(self.hosts))} "
                    f"only; open it as http://{where}:{bound[1]}/",
                )
        if b"transfer-encoding" in headers and b"content-length" in headers:
            return await _refuse(send, 400, "a request may not give both Content-Length and Transfer-Encoding")
        lengths = headers.get(b"content-length", [])
        if len(lengths) > 1 or (lengths and not lengths[0].strip().isdigit()):
            return await _refuse(send, 400, "the Content-Length header is not one number")
        if lengths and int(lengths[0]) > self.max_bytes:
            return await self._too_large(send)
        body = bytearray()
        deadline = asyncio.get_running_loop().time() + self.body_seconds
        more = True
        while more:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.001))
            except TimeoutError:
                return await _refuse(send, 408, f"the request body did not arrive within {self.body_seconds:.0f} s")
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                return await self._too_large(send)
            more = message.get("more_body", False)
        replayed = False

        async def receive_buffered():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()  # after the body: only a disconnect can come

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)

        await self.app(scope, receive_buffered, send_with_headers)

    async def _too_large(self, send):
        await _refuse(send, 413, f"the request body is larger than {self.max_bytes:,} bytes")


def _host_name(value: bytes) -> str:
    """The name in a Host header, without the port: ``127.0.0.1:8000`` -> ``127.0.0.1``,
    ``[::1]:8000`` -> ``::1``; "" for anything that is not a name (or bracketed IPv6 address)
    and an optional port, so ``127.0.0.1:8787@evil.com`` or ``[::1]evil.com`` match no name."""
    text = value.decode("latin-1").strip().lower()
    found = _HOST.fullmatch(text)
    if found is None:
        return ""
    return found.group(1) or found.group(2)


# a Host header as RFC 7230 has it: a registered name or IPv4 address, or an IPv6 address in
# brackets, then at most a port (a strict parse: a lax one read "127.0.0.1:8787@evil.com" as 127.0.0.1)
_HOST = re.compile(r"(?:\[([0-9a-f:.]+)\]|([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?))(?::[0-9]{1,5})?")


def loopback_hosts(host: str) -> frozenset[str] | None:
    """The Host names a server bound to ``host`` accepts: loopback names when every address
    ``host`` stands for is a loopback one (127.0.0.0/8, ::1, their IPv4-mapped forms, localhost,
    127.1), so a hostile page cannot reach it through DNS rebinding; else any (None)."""
    import ipaddress
    import socket

    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return None
    ips = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    mapped = [ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped else ip for ip in ips]
    if not mapped or not all(ip.is_loopback for ip in mapped):
        return None
    return LOOPBACK_NAMES | {host.lower()} | {str(ip) for ip in ips}


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


async def _refuse(send, status: int, detail: str, extra: list | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            + (extra or [])
            + _HEADERS,
        }
    )
    await send({"type": "http.response.body", "body": body})


_HEADERS = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]


def _is_branch(part) -> bool:
    """A union branch in an error location (the history is a list of rows or a text)."""
    return isinstance(part, str) and (
        part.startswith("list[") or part in ("str", "constrained-str") or part.startswith("constrained-str")
    )


def _validation_message(exc: RequestValidationError) -> str:
    """One readable line per problem: ``history[1].guess: String should have at most 15 characters``."""
    errors = list(exc.errors())
    # A list given for the history: report what is wrong inside it, not that it is not a text.
    if any(any(_is_branch(p) and p.startswith("list[") for p in e["loc"]) and e["type"] != "list_type" for e in errors):
        errors = [e for e in errors if not any(_is_branch(p) and not p.startswith("list[") for p in e["loc"])]
    by_field: dict[str, list[str]] = {}
    for e in errors:
        where = ""
        for p in e.get("loc", ()):
            if p == "body" or _is_branch(p):
                continue
            where += f"[{p}]" if isinstance(p, int) else (f".{p}" if where else str(p))
        msg = e.get("msg", "invalid")
        if e.get("type") == "json_invalid":
            where, msg = "body", "not valid JSON"
        elif e.get("type") in ("model_attributes_type", "dict_type") and not where:
            where, msg = "body", "expected a JSON object"
        elif where == "history" and e.get("type") in ("list_type", "string_type"):
            msg = 'expected a list of {"guess", "feedback"} rows or a text like "salet:20110,crony:00210"'
        by_field.setdefault(where or "body", []).append(msg)
    return "; ".join(f"{w}: {' or '.join(dict.fromkeys(m))}" for w, m in by_field.items())


def _client(request: Request) -> str:
    """Whose line a request waits in (see FairQueue): the peer's client key (web/clients.py:
    the address; for IPv6 its /64), the key the connection caps count by too."""
    return client_key(request.client.host if request.client else None)


class ClientGone(Exception):
    """The client closed the connection before its answer was ready."""


async def _unless_gone(request: Request, work: Coroutine[Any, Any, dict]) -> dict:
    """``work`` (a search on the queue), dropped when the client goes away first: a search still
    waiting in its line is then never run (the client of a flood of requests it left does not
    hold the workers), and one running has its answer dropped."""
    job = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        if job.done():
            return job.result()
        job.cancel()  # (cancels its Future in the queue: a worker skips it)
        raise ClientGone
    finally:
        gone.cancel()


async def _disconnected(request: Request) -> None:
    """Returns when the client has closed the connection (after the body, only a disconnect
    comes: see ``Limits``)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def create_app(engine: Engine, *, hosts: frozenset[str] | None = None, body_seconds: float = BODY_SECONDS) -> FastAPI:
    """The app over ``engine``; ``hosts``: the Host names accepted (None: any) and
    ``body_seconds`` the time a body may take to arrive (see Limits)."""
    app = FastAPI(
        title="wordlebot",
        version=__version__,
        description="Wordle suggestions from a near-optimal tree search, post-game analysis and share "
        f"grids. Feedback may be given as {ACCEPTED_FORMATS}.",
        # The interactive docs pages load their scripts from a CDN: off; the description stays.
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.engine = engine
    app.add_middleware(Limits, hosts=hosts, body_seconds=body_seconds)

    # Every handler is async and quick: searches wait on the engine's queue, not on a thread of
    # the server's pool, so the page, the health check and the cheap endpoints never wait for one.

    @app.exception_handler(ClientGone)
    async def _gone(request: Request, exc: ClientGone):
        return Response(status_code=499)  # (nobody reads it: the connection is closed)

    @app.exception_handler(WordlebotError)
    async def _user_error(request: Request, exc: WordlebotError):
        # the message, and where it is when it is about one row or board (1-based), for a page
        # to point at; the status is the error's own where it has one (UnknownWordSet: 404)
        doc: dict[str, object] = {"detail": str(exc)}
        doc.update({k: v for k, v in (("row", exc.row), ("board", exc.board)) if v is not None})
        return JSONResponse(doc, status_code=getattr(exc, "http_status", 400))

    @app.exception_handler(RequestValidationError)
    async def _bad_body(request: Request, exc: RequestValidationError):
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    @app.exception_handler(BusyError)
    async def _busy(request: Request, exc: BusyError):
        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"retry-after": str(exc.retry_after)})

    @app.exception_handler(SetFailedError)
    async def _set_failed(request: Request, exc: SetFailedError):
        return JSONResponse(
            {"detail": f"{exc}; try another word set"}, status_code=503, headers={"retry-after": str(exc.retry_after)}
        )

    @app.exception_handler(NotReadyError)
    async def _not_ready(request: Request, exc: NotReadyError):
        return JSONResponse(
            {"detail": str(exc), "preparing": exc.status.doc()},
            status_code=503,
            headers={"retry-after": str(exc.retry_after)},
        )

    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/multi", include_in_schema=False)
    async def multi_page():
        return FileResponse(STATIC / "multi.html", media_type="text/html")

    @app.get("/api/health", summary="Is the server up, and which word sets are ready")
    async def health() -> dict:
        sets = {name: engine.status(name).doc() for name in engine.names}
        return {
            "ok": True,
            "version": __version__,
            "ready": sets[engine.default]["state"] == "ready",
            "sets": sets,
            "queue": {
                "workers": engine.queue.workers,
                "running": engine.queue.running,
                "waiting": engine.queue.waiting,
            },
        }

    @app.get("/api/config", summary="Word sets, strategies and limits")
    async def config() -> dict:
        return {
            "default_words": engine.default,
            "word_sets": engine.names,
            "strategies": list(engine.strategies),
            "goals": list(GOALS),
            "default_goal": DEFAULT_GOAL,
            "max_rows": s.MAX_ROWS,
            "max_guesses": 6,
            "formats": ACCEPTED_FORMATS,
            "today": engine.today().isoformat(),
            "today_puzzle": engine.today_puzzle(),
            "first_day": FIRST_DAY.isoformat(),
            "official_sets": [n for n in engine.names if n in OFFICIAL_SETS],
            "max_boards": s.MAX_BOARDS,
        }

    @app.post("/api/suggest", summary="The best next guesses for a game so far", responses=ERRORS)
    async def suggest(body: s.SuggestIn, request: Request) -> dict:
        return await _unless_gone(
            request,
            engine.suggest_async(
                _client(request),
                body.words,
                body.history,
                hard=body.hard,
                max_guesses=body.max_guesses,
                strategy=body.strategy,
                top=body.top,
                candidates=body.candidates,
                date=body.date,
                puzzle=body.puzzle,
                guess_space=body.guess_space,
                goal=body.goal,
            ),
        )

    @app.post("/api/analyze", summary="Skill and luck of each row of a played game", responses=ERRORS)
    async def analyze(body: s.AnalyzeIn, request: Request) -> dict:
        return await _unless_gone(
            request,
            engine.analyze_async(
                _client(request),
                body.words,
                body.history,
                answer=body.answer,
                hard=body.hard,
                max_guesses=body.max_guesses,
                puzzle=body.puzzle,
                style=body.style,
                date=body.date,
                goal=body.goal,
            ),
        )

    @app.post(
        "/api/grid",
        summary="A pasted share grid analysed: its day, its answer from the history, and "
        "the game's analysis when the words are known",
        responses=ERRORS,
    )
    async def grid(body: s.GridIn, request: Request) -> dict:
        return await _unless_gone(
            request,
            engine.grid_async(
                _client(request),
                body.words,
                body.grid,
                played=body.played,
                board=body.history,
                hard=body.hard,
                date=body.date,
                style=body.style,
            ),
        )

    @app.post("/api/share", summary="The share text of a game (emoji grid)", responses=ERRORS)
    async def share(body: s.ShareIn) -> dict:
        entry = await engine.ready(body.words, loaded=True)
        rows = parse_rows(body.history, entry.words.length)
        return {
            "text": engine.share(
                body.words, rows, hard=body.hard, max_guesses=body.max_guesses, puzzle=body.puzzle, style=body.style
            )
        }

    @app.post(
        "/api/multi/suggest", summary="The best next guesses for a Dordle, Quordle or Octordle so far", responses=ERRORS
    )
    async def multi_suggest(body: s.MultiSuggestIn, request: Request) -> dict:
        return await _unless_gone(
            request,
            engine.multi_suggest_async(
                _client(request),
                body.words,
                body.boards,
                body.history,
                hard=body.hard,
                max_guesses=body.max_guesses,
                top=body.top,
                candidates=body.candidates,
                objective=body.objective,
                date=body.date,
            ),
        )

    @app.post("/api/feedback", summary="The colours a guess gets for an answer", responses=ERRORS)
    async def feedback(body: s.FeedbackIn) -> dict:
        return colours(body.guess, body.answer)

    return app
