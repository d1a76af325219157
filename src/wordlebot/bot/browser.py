"""Starting Chromium for the bot and the browser tests.

Playwright cannot download its own browsers here (and a user may not want it to), so the bot
drives an installed Chromium: ``--browser PATH``, then ``$WORDLEBOT_CHROMIUM``, then the usual
system paths.  Every launch gets a fresh temporary profile, so no cookie or saved game from an
earlier run changes what the page shows.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..core.errors import WordlebotError
from .driver import first_line

BROWSER_ENV = "WORDLEBOT_CHROMIUM"
SYSTEM_BROWSERS = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/snap/bin/chromium",
)
# Quiet flags: no first-run screens, no background downloads (component updates, sync, QUIC
# probes) that would make a run slower or reach hosts other than the page's.
CHROMIUM_FLAGS = (
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
)


class BrowserError(WordlebotError):
    """Chromium could not be found or started (says what to install or pass)."""


def find_chromium(explicit: str | os.PathLike | None = None) -> Path:
    """The Chromium executable to drive."""
    if explicit:
        path = Path(explicit).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise BrowserError(f"{path} is not an executable browser (--browser)")
        return path
    env = os.environ.get(BROWSER_ENV)
    if env:
        return find_chromium(env)
    for cand in SYSTEM_BROWSERS:
        if os.access(cand, os.X_OK):
            return Path(cand)
    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if found:
        return Path(found)
    raise BrowserError(
        "no Chromium found: install it (Debian/Ubuntu: sudo apt-get install chromium) "
        f"or pass --browser PATH (or set ${BROWSER_ENV})"
    )


def launch_args() -> list[str]:
    args = list(CHROMIUM_FLAGS)
    # Chromium refuses to run its sandbox as root (containers, CI); a normal user keeps it.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    return args


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@contextlib.contextmanager
def chromium_context(
    playwright,
    *,
    headless: bool = True,
    executable: str | os.PathLike | None = None,
    viewport: tuple[int, int] = (1000, 900),
) -> Iterator:
    """A browser context on a fresh temporary profile, closed (and the profile removed) on exit."""
    exe = find_chromium(executable)
    with tempfile.TemporaryDirectory(prefix="wordlebot-chromium-") as profile:
        try:
            ctx = playwright.chromium.launch_persistent_context(
                profile,
                executable_path=str(exe),
                headless=headless,
                args=launch_args(),
                viewport={"width": viewport[0], "height": viewport[1]},
            )
        except Exception as exc:  # playwright's own Error: keep its first line, it says why
            hint = "" if headless or has_display() else " (no display: use --headless)"
            raise BrowserError(f"could not start {exe}: {first_line(exc)}{hint}") from None
        try:
            yield ctx
        finally:
            with contextlib.suppress(Exception):
                ctx.close()
