"""Reading and typing on a Wordle page through Playwright, by stable hooks only.

Hooks (the NYT page's, kept by the local replica): rows are ``[role="group"]`` elements that hold
tiles; a tile is ``[data-testid="tile"]`` whose ``data-state`` is empty, tbd (typed, not scored),
absent, present or correct, and whose text is its letter; keys are ``button[data-key]`` (``↵``
enters, ``←`` deletes).  Class names are never used: they change with every build of the page.
When a hook is missing the error names it, so a changed page is diagnosed at once.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from ..core.errors import WordlebotError
from ..core.feedback import GRAY, GREEN, YELLOW, colours_to_pattern

log = logging.getLogger("wordlebot.bot")

ROW = '[role="group"]'
TILE = '[data-testid="tile"]'
KEY = 'button[data-key="{}"]'
ENTER_KEYS = ("↵", "enter", "Enter")
BACK_KEYS = ("←", "backspace", "Backspace", "⌫")
TOASTS = '[data-testid="toast"], [class*="toast" i], [role="alert"]'
SCORED = {"absent": GRAY, "present": YELLOW, "correct": GREEN}
# Dialogs that cover the board on load, in the order they appear: the welcome screen, cookie
# and consent banners, the help dialog.  Each is clicked only if it is visible.
DISMISS = (
    'button[data-testid="Play"]',
    'button[data-testid="GDPR-accept"]',
    "button#fides-banner-button-primary",
    'button:has-text("Accept all")',
    'button:has-text("Continue")',
    'button[aria-label="Close"]',
    '[data-testid="icon-close"]',
)
# Toast texts by which a page refuses a word (not in its list, or against its hard mode).
REFUSALS = re.compile(
    r"not in word list|not a valid word|not enough letters|must (?:use|contain|be)"
    r"|\d\w\w letter must",
    re.I,
)

SNAPSHOT_JS = """([rowSel, tileSel, toastSel]) => {
  const rows = Array.from(document.querySelectorAll(rowSel)).filter((r) => r.querySelector(tileSel));
  const board = rows.map((r) => Array.from(r.querySelectorAll(tileSel)).map(
    (t) => [t.getAttribute("data-state") || "", (t.textContent || "").trim().toLowerCase()]));
  const toasts = Array.from(document.querySelectorAll(toastSel))
    .filter((t) => t.offsetParent !== null || t.getClientRects().length > 0)
    .map((t) => (t.textContent || "").trim()).filter(Boolean);
  return {board, toasts, groups: document.querySelectorAll(rowSel).length,
          tiles: document.querySelectorAll(tileSel).length};
}"""


class PageError(WordlebotError):
    """The page lacks a hook the bot needs, or does not react as a Wordle page does."""


@dataclass(frozen=True)
class Refused:
    word: str
    reason: str


class WordlePage:
    """One Wordle page in a Playwright ``page``; times in seconds."""

    def __init__(self, page, *, timeout: float = 15.0, refuse_after: float = 3.0, poll: float = 0.05) -> None:
        self.page = page
        self.timeout = timeout
        self.refuse_after = refuse_after
        self.poll = poll
        self.enter_key = ENTER_KEYS[0]
        self.back_key = BACK_KEYS[0]

    # --- reading -------------------------------------------------------------------------------

    def snapshot(self) -> dict:
        return self.page.evaluate(SNAPSHOT_JS, [ROW, TILE, TOASTS])

    def row(self, index: int) -> list[tuple[str, str]]:
        board = self.snapshot()["board"]
        return [tuple(t) for t in board[index]] if index < len(board) else []

    # --- setting up ----------------------------------------------------------------------------

    def open(self, url: str) -> None:
        log.info("opening %s", url)
        try:
            self.page.goto(url, wait_until="domcontentloaded", timeout=self.timeout * 1000)
        except Exception as exc:
            raise PageError(f"could not open {url}: {first_line(exc)}") from None

    def dismiss_dialogs(self, rounds: int = 3) -> list[str]:
        """Click away the dialogs covering the board; returns the selectors clicked."""
        clicked = []
        for _ in range(rounds):
            found = False
            for sel in DISMISS:
                loc = self.page.locator(sel)
                try:
                    if loc.count() and loc.first.is_visible():
                        loc.first.click(timeout=2000)
                        clicked.append(sel)
                        found = True
                        log.info("dismissed a dialog (%s)", sel)
                        self.page.wait_for_timeout(300)  # the next dialog animates in
                except Exception:  # gone or covered meanwhile: the next round sees
                    continue
            if not found:
                break
        return clicked

    def wait_for_board(self, length: int) -> int:
        """Wait for the board, check it against the word length and find the keys.  Returns the
        number of rows (guesses allowed)."""
        deadline = time.monotonic() + self.timeout
        snap = self.snapshot()
        while not snap["board"] and time.monotonic() < deadline:
            self.page.wait_for_timeout(200)
            snap = self.snapshot()
        if not snap["board"]:
            if snap["tiles"]:
                what = f"found {snap['tiles']} tiles ({TILE}) but no row around them ({ROW})"
            elif snap["groups"]:
                what = f"found {snap['groups']} rows ({ROW}) but no tiles in them ({TILE})"
            else:
                what = f"found no rows ({ROW}) and no tiles ({TILE})"
            raise PageError(
                f"could not find the game board after {self.timeout:g} s: {what}. "
                "The page may have changed; the bot reads only these hooks."
            )
        widths = {len(r) for r in snap["board"]}
        if widths != {length}:
            raise PageError(
                f"the board's rows have {', '.join(map(str, sorted(widths)))} tiles, "
                f"but the bot's words have {length} letters"
            )
        self.enter_key = self._find_key(ENTER_KEYS, "enter")
        self.back_key = self._find_key(BACK_KEYS, "backspace")
        missing = [ch for ch in "abcdefghijklmnopqrstuvwxyz" if not self.page.locator(KEY.format(ch)).count()]
        if missing:
            raise PageError(
                f"could not find the on-screen keys for {', '.join(missing).upper()} "
                f"({KEY.format(missing[0])}): the page's keyboard has changed"
            )
        return len(snap["board"])

    def _find_key(self, names: tuple[str, ...], what: str) -> str:
        for name in names:
            if self.page.locator(KEY.format(name)).count():
                return name
        raise PageError(
            f"could not find the {what} key: no {KEY.format(names[0])} (nor {', '.join(names[1:])}) on the page"
        )

    # --- playing -------------------------------------------------------------------------------

    def press(self, key: str) -> None:
        try:
            self.page.locator(KEY.format(key)).first.click(timeout=5000)
        except Exception:
            # A dialog that came late may cover the keyboard: clear it and try once more.
            if self.dismiss_dialogs(1):
                try:
                    self.page.locator(KEY.format(key)).first.click(timeout=5000)
                    return
                except Exception as exc2:
                    exc = exc2
            raise PageError(f"could not press the key {key!r} ({KEY.format(key)}): {first_line(exc)}") from None

    def type_word(self, index: int, word: str) -> None:
        self._wait_toasts_gone()
        for ch in word:
            self.press(ch)
        if not self._wait(lambda: "".join(letter for _, letter in self.row(index)) == word, self.timeout):
            shown = "".join(letter for _, letter in self.row(index))
            raise PageError(
                f"typed {word.upper()} but row {index + 1} shows {shown.upper()!r}: the page did not take the keys"
            )

    def submit(self, index: int, word: str) -> int | Refused:
        """Press enter; the pattern the page shows for the row, or Refused."""
        self.press(self.enter_key)
        t0 = time.monotonic()
        while True:
            snap = self.snapshot()
            row = snap["board"][index] if index < len(snap["board"]) else []
            states = [st for st, _ in row]
            pattern = scored_pattern(states)
            if pattern is not None:
                return pattern
            waited = time.monotonic() - t0
            untouched = all(st not in SCORED for st in states)
            said = next((t for t in snap["toasts"] if REFUSALS.search(t)), None)
            if untouched and said:
                return Refused(word, f"the page says {said!r}")
            if untouched and waited > self.refuse_after:
                return Refused(word, f"the page did not score it within {self.refuse_after:g} s")
            if waited > self.timeout:
                raise PageError(
                    f"row {index + 1} ({word.upper()}) was not fully scored after {self.timeout:g} s: "
                    f"tile states {states}"
                )
            time.sleep(self.poll)

    def clear_row(self, index: int, n: int) -> None:
        for _ in range(n):
            self.press(self.back_key)
        if not self._wait(lambda: all(not letter for _, letter in self.row(index)), self.timeout):
            raise PageError(f"could not clear row {index + 1} with the {self.back_key!r} key")

    def answer_shown(self, length: int, wait: float = 3.0) -> str | None:
        """After a lost game the page shows the answer in a toast; None if it does not."""
        pattern = re.compile(rf"^[A-Za-z]{{{length}}}$")
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            for text in self.snapshot()["toasts"]:
                if pattern.match(text):
                    return text.lower()
            time.sleep(0.1)
        return None

    def _wait_toasts_gone(self, wait: float = 3.0) -> None:
        """An earlier refusal's toast must not be read as a refusal of the next word."""
        self._wait(lambda: not any(REFUSALS.search(t) for t in self.snapshot()["toasts"]), wait)

    def _wait(self, cond, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while True:
            if cond():
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(self.poll)


def scored_pattern(states: list[str]) -> int | None:
    """The pattern of a row from its tile states, or None until every tile is scored (or when
    the row is empty)."""
    if states and all(st in SCORED for st in states):
        return colours_to_pattern([SCORED[st] for st in states])
    return None


def first_line(exc: BaseException) -> str:
    """An exception's first line (Playwright's errors go on with a call log), or its type."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
