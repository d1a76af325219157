"""Shared fixtures: the official lists (when WORDLEBOT_DATA has them), small lexicons built here,
an isolated cache and data folder per test, and fake remote hosts on 127.0.0.1."""

from __future__ import annotations

import http.server
import logging
import os
import random
import threading
from pathlib import Path

import numba
import pytest

from wordlebot.core import matrix as matrix_mod
from wordlebot.core.clock import TODAY_ENV
from wordlebot.core.words import Lexicon

# The suite's today, pinned (core/clock.py): the screens, priors and puzzle numbers it checks are
# the same on any day it runs, and a run that crosses midnight sees one day (before, a run that
# crossed midnight failed: the TUI's header test took its day at import, the app its own later,
# and the settings snapshot printed the date).  The day a test needs to be real is set there.
PINNED_TODAY = "2026-11-27"
os.environ[TODAY_ENV] = PINNED_TODAY
# The width commands print at, as CI has it (no terminal: 80 columns).  The CLI's rich consoles
# read COLUMNS once, when wordlebot.cli is imported, and a pytest-xdist worker started from a
# 200-column terminal had COLUMNS=200 there: analyze's table came out 199 wide.
os.environ["COLUMNS"] = "80"

OFFICIAL_FILES = [
    "classic/answers.txt",
    "classic/guesses.txt",
    "nyt/guesses.txt",
    "nyt/answers-2309.txt",
    "nyt/wordlebot-3158.txt",
    "history/answers.csv",
]


def official_dir() -> Path | None:
    d = os.environ.get("WORDLEBOT_DATA")
    if d and all((Path(d) / f).is_file() for f in OFFICIAL_FILES):
        return Path(d)
    return None


_OFFICIAL = official_dir()
# As plain Python (NUMBA_DISABLE_JIT=1, `make test-nojit`) the official lists take hours (the
# classic matrix alone ~20 min): those runs cover the kernels on small lists only.
_NO_JIT = "NUMBA_DISABLE_JIT=1: the official lists are too slow as plain Python (the classic matrix alone: ~20 min)"
needs_official = pytest.mark.skipif(
    _OFFICIAL is None or numba.config.DISABLE_JIT,
    reason=_NO_JIT
    if numba.config.DISABLE_JIT
    else "official word lists not found: set WORDLEBOT_DATA to a folder laid out like ../shared/data "
    "(or run 'wordlebot data fetch' and point WORDLEBOT_DATA at the user data folder)",
)


@pytest.fixture(scope="session")
def official() -> Path:
    if numba.config.DISABLE_JIT:
        pytest.skip(_NO_JIT)
    if _OFFICIAL is None:
        pytest.skip("official word lists not found (WORDLEBOT_DATA)")
    return _OFFICIAL


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory) -> Path:
    """One matrix cache for the session: the big official matrices are built once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path, session_cache):
    """No test touches the network or the user's folders: offline mode, a private data folder
    unless WORDLEBOT_DATA is the official one, and a session cache folder."""
    monkeypatch.setenv("WORDLEBOT_OFFLINE", "1")
    monkeypatch.setenv("WORDLEBOT_CACHE", str(session_cache))
    monkeypatch.setenv("WORDLEBOT_CONFIG", str(tmp_path / "config"))
    monkeypatch.setenv("WORDLEBOT_RAW_BASE", "http://127.0.0.1:9")  # discard port: refused at once
    monkeypatch.setenv("WORDLEBOT_NYT_URL", "http://127.0.0.1:9")
    if _OFFICIAL is None:
        monkeypatch.setenv("WORDLEBOT_DATA", str(tmp_path / "data"))
    # The CLI installs its own log handler; give each test the default logging back.
    lg = logging.getLogger("wordlebot")
    lg.handlers[:] = []
    lg.propagate = True
    lg.setLevel(logging.NOTSET)
    yield


def random_words(n: int, length: int = 5, alphabet: str = "abcdeor", seed: int = 0) -> list[str]:
    """Distinct random words over a small alphabet, so duplicate letters are common."""
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < n:
        out.add("".join(rng.choice(alphabet) for _ in range(length)))
    return sorted(out)


def write_lists(folder: Path, guesses: list[str], answers: list[str]) -> list[str]:
    """Write g.txt and a.txt in ``folder``; the CLI options that name them."""
    g, a = folder / "g.txt", folder / "a.txt"
    g.write_text("\n".join(guesses) + "\n")
    a.write_text("\n".join(answers) + "\n")
    return ["--guesses", str(g), "--answers", str(a)]


@pytest.fixture
def small_lexicon() -> Lexicon:
    guesses = random_words(300, seed=1)
    answers = guesses[::3]
    return Lexicon.from_lists(guesses, answers, name="small")


@pytest.fixture
def classic(official) -> Lexicon:
    from wordlebot.app.wordsets import load_lexicon

    return load_lexicon("classic", data_dir=official)


@pytest.fixture
def classic_matrix(classic, session_cache):
    return matrix_mod.pattern_matrix(classic, folder=session_cache)


# ---------------------------------------------------------------------------------------------
# Fake remote host


class FakeHost:
    """An HTTP server on 127.0.0.1 whose answers the test sets per path.

    ``routes[path] = (status, body, options)``; options: ``{"length": n}`` sends a false
    Content-Length (truncation), ``{"delay": s}`` waits before answering (timeout),
    ``{"trickle": s}`` sends the body a byte every ``s`` seconds (a deadline).
    """

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, bytes, dict]] = {}
        self.requests: list[str] = []
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                host.requests.append(self.path)
                status, body, opts = host.routes.get(self.path, (404, b"not found", {}))
                if opts.get("delay"):
                    import time

                    time.sleep(opts["delay"])
                self.send_response(status)
                self.send_header("Content-Length", str(opts.get("length", len(body))))
                self.end_headers()
                try:
                    if opts.get("trickle"):  # a byte at a time, ``trickle`` seconds apart
                        import time

                        for k in range(len(body)):
                            self.wfile.write(body[k : k + 1])
                            self.wfile.flush()
                            time.sleep(opts["trickle"])
                    else:
                        self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_host():
    host = FakeHost()
    yield host
    host.close()
