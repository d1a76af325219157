"""The bot: plays a Wordle page with the Advisor's search until solved or out of rows.

The game state lives in a library ``Game``; the page is only read (tile states) and typed on.
A word the page refuses is cleared and never suggested again in the run.  The result is saved
as JSON (atomically) so ``wordlebot last`` and a daily timer can report it.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..core import clock
from ..core.data import atomic_write
from ..core.errors import DataError, InconsistentFeedbackError, WordlebotError
from ..core.feedback import Feedback, format_digits
from ..core.game import Game
from ..core.paths import data_dir
from ..core.words import Lexicon
from ..policy.advisor import Advisor
from .driver import Refused, WordlePage, scored_pattern

log = logging.getLogger("wordlebot.bot")

NYT_URL = "https://www.nytimes.com/games/wordle/index.html"
MAX_REFUSALS = 12  # per game: a page refusing this many suggestions is not one the bot can play


class BotError(WordlebotError):
    """The game could not be played to the end (says why)."""


@dataclass
class BotResult:
    date: str
    url: str
    answer: str | None
    guesses: list[str]
    patterns: list[str]  # digits per row, 0 gray, 1 yellow, 2 green
    solved: bool
    turns: int
    seconds: float
    refused: list[str] = field(default_factory=list)
    words: str = ""
    hard: bool = False

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1) + "\n"

    @classmethod
    def from_dict(cls, doc: dict) -> BotResult:
        known = {k: doc[k] for k in cls.__dataclass_fields__ if k in doc}
        return cls(**known)

    def summary(self) -> str:
        outcome = f"solved in {self.turns}" if self.solved else f"not solved in {self.turns}"
        answer = f": {self.answer.upper()}" if self.answer else ""
        return f"Wordle {self.date} {outcome}{answer} ({self.seconds:.1f} s)"

    def grid(self) -> str:
        return "\n".join(
            f"{Feedback.from_str(p, len(p)).emoji()}  {g.upper()}" for g, p in zip(self.guesses, self.patterns)
        )


def play(
    page: WordlePage,
    advisor: Advisor,
    *,
    url: str,
    hard: bool = False,
    first: str | None = None,
    max_refusals: int = MAX_REFUSALS,
) -> BotResult:
    """Open ``url`` in ``page`` and play it to the end."""
    lex = advisor.lexicon
    t0 = time.monotonic()
    page.open(url)
    page.dismiss_dialogs()
    rows = page.wait_for_board(lex.length)
    game = advisor.new_game(hard=hard, max_guesses=rows)
    _resume(page, game)
    refused: list[str] = []
    while not game.over:
        index = len(game.rows)
        word = first if (first and index == 0 and first not in refused) else _next_word(advisor, game)
        log.info("row %d: typing %s", index + 1, word.upper())
        page.type_word(index, word)
        outcome = page.submit(index, word)
        if isinstance(outcome, Refused):
            log.info("row %d: %s refused (%s); clearing it", index + 1, word.upper(), outcome.reason)
            refused.append(word)
            advisor.reject(word)
            if len(refused) > max_refusals:
                raise BotError(
                    f"the page refused {len(refused)} words ({', '.join(w.upper() for w in refused)}): "
                    "its word list or rules differ from the bot's"
                )
            page.clear_row(index, len(word))
            continue
        digits = format_digits(outcome, lex.length)
        log.info("row %d: %s scored %s", index + 1, word.upper(), digits)
        try:
            game.guess(word, outcome)
        except InconsistentFeedbackError as exc:
            raise BotError(
                f"the page's colours fit no word of the {lex.name} list ({exc}); the answer is "
                "outside the bot's word set (try --words nyt)"
            ) from None
    answer = game.rows[-1].guess if game.solved else page.answer_shown(lex.length)
    result = BotResult(
        date=clock.today().isoformat(),
        url=url,
        answer=answer,
        guesses=[r.guess for r in game.rows],
        patterns=[r.feedback_digits() for r in game.rows],
        solved=game.solved,
        turns=len(game.rows),
        seconds=round(time.monotonic() - t0, 2),
        refused=refused,
        words=lex.name,
        hard=hard,
    )
    log.info("%s", result.summary())
    return result


def _next_word(advisor: Advisor, game: Game) -> str:
    if advisor.needs_book(game):
        log.info("computing the opening book for this word list (once; it is cached)")
    rows = advisor.suggest(game, 1)
    if not rows:
        raise BotError("no word is left to try: every suggestion was refused by the page")
    return rows[0].word


def _resume(page: WordlePage, game: Game) -> None:
    """Rows already scored on the page (a game started earlier in this profile) come first."""
    for k, row in enumerate(page.snapshot()["board"], start=1):
        pattern = scored_pattern([st for st, _ in row])
        if pattern is None:
            break
        word = "".join(letter for _, letter in row)
        game.guess(word, pattern)
        log.info("row %d: already played on the page: %s", k, word.upper())


def run(
    url: str,
    lexicon: Lexicon,
    *,
    headless: bool = True,
    hard: bool = False,
    first: str | None = None,
    browser: str | None = None,
    timeout: float = 15.0,
    screenshot: Path | None = None,
) -> BotResult:
    """Start Chromium, play the page at ``url``, close everything."""
    from playwright.sync_api import sync_playwright

    from .browser import chromium_context

    advisor = Advisor(lexicon)
    if first:
        first = lexicon.guesses[lexicon.id(first)]  # checked before any browser starts
    with sync_playwright() as pw, chromium_context(pw, headless=headless, executable=browser) as ctx:
        tab = ctx.pages[0] if ctx.pages else ctx.new_page()
        page = WordlePage(tab, timeout=timeout)
        try:
            return play(page, advisor, url=url, hard=hard, first=first)
        finally:
            if screenshot is not None:
                try:
                    tab.screenshot(path=str(screenshot), full_page=True)
                except Exception as exc:  # the page may be gone; the game result matters more
                    log.warning("could not take a screenshot: %s", exc)


# ---------------------------------------------------------------------------------------------
# The history


HISTORY_DELAY = 0.5  # seconds between requests to the NYT endpoint
HISTORY_TIMEOUT = 10.0


def refresh_history(
    folder: Path, *, today: dt.date | None = None, delay: float = HISTORY_DELAY, timeout: float = HISTORY_TIMEOUT
) -> tuple[bool, str]:
    """Bring the answer history in ``folder`` up to the day before ``today`` from the NYT daily
    endpoint (``$WORDLEBOT_NYT_URL``, as 'data update'), so today's prior knows every earlier
    answer.  Never raises for a network or data problem: (done, one line saying what happened);
    the game is then played with the history as it is."""
    from ..core import data

    today = today or clock.today()
    if data.offline():
        return False, f"offline (${data.OFFLINE_ENV}): the answer history was not updated"
    try:
        rep = data.update_history(Path(folder), until=today - dt.timedelta(days=1), delay=delay, timeout=timeout)
    except DataError as exc:
        return False, f"the answer history could not be updated: {exc}"
    added = f"{len(rep.added)} day{'s' if len(rep.added) != 1 else ''} added"
    if rep.ok:
        return True, f"answer history up to date ({added}; it ends {rep.last})"
    return False, f"the answer history could not be updated ({rep.stopped}); {added}, it ends {rep.last}"


# ---------------------------------------------------------------------------------------------
# Results


def default_result_path(folder: str | Path | None = None) -> Path:
    return data_dir(folder) / "bot" / "last.json"


def save_result(result: BotResult, path: Path) -> None:
    atomic_write(path, result.to_json().encode())


def load_result(path: Path) -> BotResult:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"no saved result in {path}: run 'wordlebot bot' first (or give --result-path)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path} is not a bot result ({exc})") from None
    if not isinstance(doc, dict) or "guesses" not in doc or "solved" not in doc:
        raise DataError(f"{path} is not a bot result (no guesses or solved field)")
    try:
        return BotResult.from_dict(doc)
    except TypeError as exc:
        raise DataError(f"{path} is not a bot result ({exc})") from None


def notify(title: str, body: str) -> bool:
    """A desktop notification through notify-send; False (and a note) when it is not available."""
    exe = shutil.which("notify-send")
    if exe is None:
        log.warning("notify-send is not installed: no desktop notification (Debian: apt-get install libnotify-bin)")
        return False
    try:
        subprocess.run([exe, "--app-name=wordlebot", title, body], check=True, timeout=10, capture_output=True)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("notify-send failed: %s", exc)
        return False
    return True
