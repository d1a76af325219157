"""The pieces every command module shares: the consoles, the data folder, the day type and the
word-set options and the options several commands take.  The command modules beside it import
this module, never each other nor the package, so the package can import them all and register
their commands.

Start-up: ``wordlebot feedback``, ``--help`` and ``data status`` must not load numpy or Numba, so
nothing here imports the word sets or the advisor until a command runs (``LazyChoice``,
``load_lexicon``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import inspect
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.markup import escape

from ..core import data, paths
from ..core.errors import DataError
from ..core.extras import require

if TYPE_CHECKING:
    from ..core.days import GameDay
    from ..core.words import Lexicon

out = Console(highlight=False)
EXIT_ERROR = 1  # the exit code of a library error (a user or data problem)

err = Console(stderr=True, highlight=False)

# The word sets' names and the default strategy, as text: the modules that define them load numpy
# and Numba (tests/test_cli.py checks they agree).
DEFAULT_WORDS = "nyt"
DEFAULT_STRATEGY = "search"
GOALS = ("streak", "average")  # advisor.GOALS
DEFAULT_GOAL = "streak"


def _note(message: str) -> None:
    err.print(f"[yellow]{escape(message)}[/]", soft_wrap=True)


def _folder() -> Path:
    """The data folder: --data-dir, else $WORDLEBOT_DATA, else the user data folder."""
    ctx = click.get_current_context()
    return paths.data_dir(ctx.find_root().obj.get("data_dir"))


def check_cache() -> None:
    """Once per run, before a command first writes to the cache: an unwritable cache folder makes
    this run keep its matrices and books in a temporary folder (and say how to keep them) instead
    of a note at every file it cannot write.  Commands that only read or manage the cache (`cache`,
    `feedback`) never call it, so they see the real folder and touch no disk at start-up."""
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root().obj if ctx is not None else None
    if isinstance(root, dict):
        if root.get("cache_checked"):
            return
        root["cache_checked"] = True
    problem = paths.cache_problem()
    if problem is None:
        return
    fix = f"set {paths.CACHE_ENV} to a writable folder to keep them between runs"
    try:
        from ..core import cache_store

        folder = paths.cache_dir()
        tmp = paths.use_temporary_cache()
        # (the files the folder holds are read, not computed again: only new ones are lost)
        kept = cache_store.link_read_only(folder, tmp) if folder.is_dir() else 0
        reads = f"reads the {kept} files kept there, " if kept else ""
        message = (
            f"the cache folder cannot be written ({problem}); this run {reads}keeps the pattern matrices and "
            f"opening books it computes in {tmp} and computes them again next time: {fix}"
        )
    except OSError:
        message = f"the cache folder cannot be written ({problem}); working without a disk cache (slower): {fix}"
    if isinstance(root, dict):
        root.setdefault("notes", []).append(message)
    _note(message)


@contextlib.contextmanager
def sigterm_stops():
    """Inside: SIGTERM (``kill PID``) stops the command as Ctrl+C does (KeyboardInterrupt: what
    it kept is said, the exit code is 130).  A long run started in the background by a script
    (``cmd &`` in a non-interactive shell, nohup) ignores SIGINT, as the shell sets it so: Ctrl+C
    cannot reach it, and ``kill`` alone would end it without a word.  The main thread only (the
    one Python delivers signals to); elsewhere a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def load_lexicon(*args, **kwargs) -> Lexicon:
    """``wordsets.load_lexicon``, imported when a command first loads a word set."""
    from ..app.wordsets import load_lexicon as load

    return load(*args, **kwargs)


class LazyChoice(click.Choice):
    """A ``click.Choice`` whose values come from a module imported only when they are needed
    (parsing the option, or its command's --help), not when the command is defined."""

    def __init__(self, values: Callable[[], Sequence[str]]) -> None:
        self._values = values
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(self._values())

    @choices.setter
    def choices(self, _ignored) -> None:  # click.Choice.__init__ assigns it
        pass


def _word_set_names() -> tuple[str, ...]:
    from ..app.wordsets import NAMES

    return NAMES


def _strategy_names() -> tuple[str, ...]:
    from ..policy.advisor import ALL_STRATEGIES

    return ALL_STRATEGIES


WORD_SETS = LazyChoice(_word_set_names)
STRATEGIES = LazyChoice(_strategy_names)


class DayParam(click.ParamType):
    """A day as YYYY-MM-DD (a ``datetime.date``), not before the first Wordle."""

    name = "YYYY-MM-DD"

    def convert(self, value, param, ctx):
        if isinstance(value, dt.date):
            return value
        try:
            day = dt.datetime.strptime(str(value).strip(), "%Y-%m-%d").date()
        except ValueError:
            self.fail(f"{value!r} is not a day; give it as YYYY-MM-DD, e.g. 2026-05-20", param, ctx)
        if day < data.FIRST_DAY:
            self.fail(f"{day} is before the first Wordle ({data.FIRST_DAY})", param, ctx)
        return day


DAY = DayParam()
DATE_HELP = (
    "The day (default today): the nyt set's answer prior is the one of that morning, built from the history before it."
)


@dataclass(frozen=True)
class LexiconChoice:
    """What the word-set options asked for; ``load`` builds the Lexicon."""

    words: str
    guesses: Path | None
    answers: Path | None
    length: int
    day: dt.date | None  # --date, None when not given

    def load(self, day: dt.date | None = None) -> Lexicon:
        """The Lexicon, its prior the one of ``day`` (default: --date, else today)."""
        from ..term.render import DownloadBars

        check_cache()
        ctx = click.get_current_context()
        with DownloadBars(err) as bars:
            return load_lexicon(
                self.words,
                data_dir=ctx.find_root().obj.get("data_dir") if ctx.find_root().obj else None,
                length=self.length,
                guesses=self.guesses,
                answers=self.answers,
                notify=_note,
                progress_factory=bars,
                build_model=True,
                day=day or self.day,
                prefetch_matrix=True,
            )


# How the command line sets the day, in the words of days.default_day_note and days.replay_note.
HOW_DEFAULT = "give --date YYYY-MM-DD"
HOW_REPLAY = "use --date {day}"


def history() -> list:
    """The answer history of the data folder (empty when there is none or it cannot be read: the
    commands that need it say so themselves)."""
    try:
        return data.read_history(_folder())
    except DataError:
        return []


def resolve_game_day(day: dt.date | None, grid_puzzle: int | None = None) -> GameDay:
    """The day of a game from --date and a share grid's number (``days.resolve_day``): refused
    with the reason when it is not published yet or the two disagree."""
    from ..core.days import resolve_day

    return resolve_day(date=day, grid_puzzle=grid_puzzle, history=history())


def day_line(lexicon: Lexicon, game_day: GameDay) -> str | None:
    """Which day's prior a command uses, and how to choose another when none was given; None
    for a word set whose prior does not depend on the day."""
    from ..core.days import default_day_note

    if lexicon.day is None:
        return None
    return default_day_note(game_day, HOW_DEFAULT) or game_day.describe()


def lexicon_options(f=None, *, lazy: bool = False, date_help: str = DATE_HELP):
    """--words / --guesses / --answers / -k / --date, turned into a ``lexicon`` argument; with
    ``lazy``, into a ``lexicons`` argument (a ``LexiconChoice``) for a command that learns the
    day, or has work to do, before loading.  A command with a ``day`` parameter also gets the
    --date given (None when not given); one with a ``game_day`` parameter gets the day of the
    game (``resolve_game_day``: today unless --date says otherwise), checked before anything
    is loaded."""
    if f is None:
        return lambda g: lexicon_options(g, lazy=lazy, date_help=date_help)
    wants_day = "day" in inspect.signature(f).parameters
    wants_game_day = "game_day" in inspect.signature(f).parameters

    @click.option(
        "--words",
        "words",
        type=WORD_SETS,
        default=DEFAULT_WORDS,
        show_default=True,
        help="Named word set: classic (12,972/2,315), nyt (14,855, weighted prior), "
        "nyt-2309, nyt-3158, or wordfreq (offline, any length).",
    )
    @click.option(
        "--guesses",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="File of allowed guesses, one per line (instead of --words).",
    )
    @click.option(
        "--answers",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="File of possible answers, one per line (must be among the guesses).",
    )
    @click.option(
        "-k",
        "--length",
        type=click.IntRange(4, 11),
        default=5,
        show_default=True,
        help="Word length; other than 5 uses the wordfreq lists.",
    )
    @click.option("--date", "lexicon_day", type=DAY, default=None, help=date_help)
    @wraps(f)
    def wrapper(*args, words, guesses, answers, length, lexicon_day, **kwargs):
        choice = LexiconChoice(words, guesses, answers, length, lexicon_day)
        if wants_day:
            kwargs["day"] = lexicon_day
        if wants_game_day:
            kwargs["game_day"] = resolve_game_day(lexicon_day)
        if lazy:
            return f(*args, lexicons=choice, **kwargs)
        return f(*args, lexicon=choice.load(), **kwargs)

    return wrapper


# ---------------------------------------------------------------------------------------------
# Options shared by several commands


def strategy_options(f):
    f = click.option(
        "--strategy",
        type=STRATEGIES,
        default=DEFAULT_STRATEGY,
        show_default=True,
        help="search: near-optimal tree search (expected guesses); exact: proven optimal "
        "(slow on big word sets); or a greedy ranker.",
    )(f)
    f = click.option(
        "--guess-space",
        type=click.Choice(["all", "candidates"]),
        default="all",
        show_default=True,
        help="Consider every allowed word, or only words that can still be the answer.",
    )(f)
    return f


def goal_option(f=None, *, remembered: bool = False):
    """--goal: what the search plays for (the single-board play policy; advisor.GOALS).
    ``remembered``: the terminal UI's, whose default is the goal saved in its settings."""

    def decorate(f):
        return click.option(
            "--goal",
            type=click.Choice(GOALS),
            default=None if remembered else DEFAULT_GOAL,
            show_default=not remembered,
            help="What the search plays for: streak, the smallest chance of losing first, then the fewest "
            "guesses; average, the fewest guesses on average (a lost game counts as ten more)"
            + (" (default: the one chosen in the settings, else streak)." if remembered else "."),
        )(f)

    return decorate(f) if f is not None else decorate


def objective_option(f):
    return click.option(
        "--objective",
        type=click.Choice(["score", "guesses"]),
        default="score",
        show_default=True,
        help="Multi-board games: what the policy minimises; score: the sum over boards of the "
        "guess that solved each (Quordle's score); guesses: the guesses to solve them "
        "all.",
    )(f)


def needs(extra: str, *, unless: str | None = None):
    """Check that ``extra`` is installed before the command loads its word set (not when the
    option named ``unless`` is given: a use of the command that does without it)."""

    def decorate(f):
        @wraps(f)
        def checked(*args, **kwargs):
            if unless is None or not kwargs.get(unless):
                require(extra)
            return f(*args, **kwargs)

        return checked

    return decorate


def _needs_plots(ctx, param, value):
    if value is not None:
        require("plots")
    return value


def search_options(f):
    f = click.option(
        "--k",
        "k",
        type=click.IntRange(1, 1000),
        default=12,
        show_default=True,
        help="Near-optimal search: guesses searched per node.",
    )(f)
    f = click.option(
        "--memory",
        type=click.IntRange(64, 1 << 20),
        default=2048,
        show_default=True,
        help="Memory for the search's tables, in MB.",
    )(f)
    return f
