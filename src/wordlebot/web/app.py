"""The FastAPI app: the JSON API (described at /api/openapi.json) and the single page.

Every user mistake is a 4xx whose JSON body is ``{"detail": "<what is wrong>"}``: 400 for a
word, feedback or game the library refuses, 413 for an oversized body, 422 for a body that does
not fit the schema.  The page's assets are files of this package; the Content-Security-Policy
lets the page load nothing from elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from .. import __version__
from ..errors import WordlebotError
from ..feedback import ACCEPTED_FORMATS
from . import schemas as s
from .service import OFFICIAL_SETS, BusyError, Engine, UnknownWordSet, colours, parse_rows

STATIC = Path(__file__).resolve().parent / "static"
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


class ErrorOut(BaseModel):
    detail: str


ERRORS = {400: {"model": ErrorOut, "description": "a word, feedback or game the library refuses"},
          413: {"model": ErrorOut, "description": "request body too large"},
          422: {"model": ErrorOut, "description": "the body does not fit the schema"},
          503: {"model": ErrorOut, "description": "busy: try again"}}


class Limits:
    """ASGI middleware: refuse bodies over ``max_bytes`` (by Content-Length, or by reading a
    chunked body, which is small enough to buffer) before anything parses them; add the security
    headers to every answer."""

    def __init__(self, app, max_bytes: int = s.MAX_BODY) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            return await self._too_large(send)
        if declared is None and b"chunked" in headers.get(b"transfer-encoding", b""):
            body, more = b"", True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > self.max_bytes:
                    return await self._too_large(send)
            replayed = False

            async def receive_buffered():
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            receive = receive_buffered

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _too_large(self, send):
        body = json.dumps({"detail": f"the request body is larger than {self.max_bytes:,} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                    + _HEADERS})
        await send({"type": "http.response.body", "body": body})


_HEADERS = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]


def _is_branch(part) -> bool:
    """A union branch in an error location (the history is a list of rows or a text)."""
    return isinstance(part, str) and (part.startswith("list[") or part in ("str", "constrained-str")
                                      or part.startswith("constrained-str"))


def _validation_message(exc: RequestValidationError) -> str:
    """One readable line per problem: ``history[1].guess: String should have at most 15 characters``."""
    errors = list(exc.errors())
    # A list given for the history: report what is wrong inside it, not that it is not a text.
    if any(any(_is_branch(p) and p.startswith("list[") for p in e["loc"]) and e["type"] != "list_type"
           for e in errors):
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


def create_app(engine: Engine) -> FastAPI:
    app = FastAPI(
        title="wordlebot", version=__version__,
        description="Wordle suggestions from a near-optimal tree search, post-game analysis and share "
                    f"grids. Feedback may be given as {ACCEPTED_FORMATS}.",
        # The interactive docs pages load their scripts from a CDN: off; the description stays.
        docs_url=None, redoc_url=None, openapi_url="/api/openapi.json",
    )
    app.state.engine = engine
    app.add_middleware(Limits)

    @app.exception_handler(WordlebotError)
    async def _user_error(request: Request, exc: WordlebotError):
        return JSONResponse({"detail": str(exc)}, status_code=404 if isinstance(exc, UnknownWordSet) else 400)

    @app.exception_handler(RequestValidationError)
    async def _bad_body(request: Request, exc: RequestValidationError):
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    @app.exception_handler(BusyError)
    async def _busy(request: Request, exc: BusyError):
        return JSONResponse({"detail": "the server is busy; try again in a moment"}, status_code=503,
                            headers={"retry-after": "2"})

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/health", summary="Is the server up")
    def health() -> dict:
        return {"ok": True, "version": __version__}

    @app.get("/api/config", summary="Word sets, strategies and limits")
    def config() -> dict:
        return {
            "default_words": engine.default, "word_sets": engine.names, "strategies": list(engine.strategies),
            "max_rows": s.MAX_ROWS, "max_guesses": 6, "formats": ACCEPTED_FORMATS,
            "today": engine.today().isoformat(), "today_puzzle": engine.today_puzzle(), "official_sets": [n for n in engine.names if n in OFFICIAL_SETS],
        }

    @app.post("/api/suggest", summary="The best next guesses for a game so far", responses=ERRORS)
    def suggest(body: s.SuggestIn) -> dict:
        day = engine.today()  # one reading of the clock for the whole request
        lex = engine.lexicon(body.words, day)
        rows = parse_rows(body.history, lex.length)
        doc = engine.suggest(body.words, rows, hard=body.hard, max_guesses=body.max_guesses,
                             strategy=body.strategy, top=body.top, candidates=body.candidates, day=day)
        return dict(doc, notes=engine.notes(body.words, day))

    @app.post("/api/analyze", summary="Skill and luck of each row of a played game", responses=ERRORS)
    def analyze(body: s.AnalyzeIn) -> dict:
        day = engine.puzzle_day(body.puzzle) if body.puzzle is not None else None
        lex = engine.lexicon(body.words, day)
        rows = parse_rows(body.history, lex.length)
        return engine.analyze(body.words, rows, answer=body.answer, hard=body.hard, max_guesses=body.max_guesses,
                              puzzle=body.puzzle, style=body.style)

    @app.post("/api/share", summary="The share text of a game (emoji grid)", responses=ERRORS)
    def share(body: s.ShareIn) -> dict:
        lex = engine.lexicon(body.words)
        rows = parse_rows(body.history, lex.length)
        return {"text": engine.share(body.words, rows, hard=body.hard, max_guesses=body.max_guesses,
                                     puzzle=body.puzzle, style=body.style)}

    @app.post("/api/feedback", summary="The colours a guess gets for an answer", responses=ERRORS)
    def feedback(body: s.FeedbackIn) -> dict:
        return colours(body.guess, body.answer)

    return app
