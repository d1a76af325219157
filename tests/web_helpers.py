"""Helpers for the web and bot tests (loaded by them as a plugin, for the fixtures): a Chromium
(Debian's, installed once per session when none is found), the app served by uvicorn on
127.0.0.1 in a thread, and a small word set with its list files."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import random_words

from wordlebot.core.feedback import Feedback
from wordlebot.core.words import Lexicon

CHROMIUM = Path("/usr/bin/chromium")
WORDS = random_words(300, alphabet="abcdeorst", seed=11)
ANSWERS = WORDS[::3]


def small_lexicon(name: str = "small") -> Lexicon:
    return Lexicon.from_lists(WORDS, ANSWERS, name=name)


def digits(guess: str, answer: str) -> str:
    """The feedback ``guess`` gets against ``answer``, as digits."""
    return Feedback.of(guess, answer).digits()


@pytest.fixture(scope="module", name="env")
def offline_env(session_cache):
    """Module-wide: offline, and the session's cache folder (set before any Advisor exists)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORDLEBOT_OFFLINE", "1")
        mp.setenv("WORDLEBOT_CACHE", str(session_cache))
        yield


@pytest.fixture(scope="module", name="lex")
def small_lex(env) -> Lexicon:
    return small_lexicon()


@pytest.fixture
def lists(tmp_path) -> list[str]:
    """The small word set as list files: the command-line options that load it."""
    g, a = tmp_path / "g.txt", tmp_path / "a.txt"
    g.write_text("\n".join(WORDS) + "\n")
    a.write_text("\n".join(ANSWERS) + "\n")
    return ["--guesses", str(g), "--answers", str(a)]


def _apt(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    return subprocess.run(["apt-get", *args], capture_output=True, text=True, timeout=timeout, env=env)


# Chromium's flags for the page tests: no sandbox (root in a container), and none of its background
# connections, which this machine's closed network refuses
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module", name="browser")
def browser_fixture(chromium, env):
    """A headless Chromium for a module's page tests (Playwright driving the installed one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(chromium), args=BROWSER_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def chromium() -> Path:
    """The Chromium the bot would find (bot.browser.find_chromium), else /usr/bin/chromium installed
    with apt-get; skipped with the reason when there is none."""
    from wordlebot.bot.browser import BrowserError, find_chromium

    try:
        return find_chromium()
    except BrowserError:
        pass
    if not shutil.which("apt-get") or os.geteuid() != 0:
        pytest.skip(
            "Chromium is not installed and cannot be installed here (needs root and apt-get): "
            "sudo apt-get install chromium"
        )
    try:
        r = _apt("install", "-y", "chromium")
        if r.returncode != 0:  # a stale package index is the usual cause
            _apt("update")
            r = _apt("install", "-y", "chromium")
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"Chromium could not be installed: {exc}")
    if r.returncode != 0 or not os.access(CHROMIUM, os.X_OK):
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no output"]
        pytest.skip(f"Chromium could not be installed with apt-get: {tail[0]}")
    return CHROMIUM


class LiveServer:
    """The app on 127.0.0.1 (a free port) in a background thread."""

    def __init__(self, app) -> None:
        from wordlebot.cli.web import listen
        from wordlebot.web.server import make_server

        self.sock = listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.server = make_server(app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


# --- the page in Chromium: shared by the page tests ------------------------------------------


def expect(x):
    from playwright.sync_api import expect as _expect

    return _expect(x)


def ready(page):
    """The page has applied its latest answer (body data-state="ready")."""
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=20_000)


def no_overflow(page):
    # the viewport's width as set, too: a mobile browser widens innerWidth to fit an overflow
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner <= page.viewport_size["width"], f"the document is {width} px wide in a {inner} px window"
