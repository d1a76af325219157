"""What the web API computes, without any HTTP: word sets prepared in the background, searches
run fairly on a few threads, and a cache of answers.

The API is stateless (every request carries the whole game), so any request can be answered by
any worker and a reload loses nothing.  Suggestions are a pure function of the state
(``Advisor.suggest``), so which worker or Advisor answers does not matter, and players who
follow them meet the same states over and over: a bounded cache answers those without a search.

**Preparation.**  A word set is usable once its lists and prior are loaded, its pattern matrix is
built or read, and the opening book of the normal rules is computed (seconds to a minute, once;
read from the cache after).  One background thread prepares sets in turn: the default first
(``start``), a set someone asks for next, the others after.  A request for a set not ready yet is
answered at once with ``NotReadyError`` (503, Retry-After, and the step in progress), never by
waiting on a lock.  The hard-mode book follows the normal one.

**Searches** run on ``FairQueue`` workers, never on the event loop or the server's thread pool:
each client's requests wait in a line of their own and the lines take turns, so one client's
burst delays others by at most a search per worker; a full line or queue is refused at once
(``BusyError``: 503 with Retry-After).  Each worker takes an Advisor of the set from a pool (one
per worker: an Advisor searches one state at a time) whose opening books are the ones prepared.
A suggestion is bounded by the play budget (about 0.1 s of work); an analysis rates every row
(a few seconds at most, for an odd game): neither holds a worker for long, and the other
workers and the lines' turns keep everyone else moving meanwhile.

**Memory** is bounded: DAYS_KEPT days per set, IDLE_ADVISORS Advisors kept between requests (and
one busy per worker), SEARCHES_KEPT rule combinations each, a small table per search
(SEARCH_MEMORY_MB), CACHE_SIZE answers.

The ``nyt`` set's prior belongs to a day (``answers.daily``): the engine asks its clock for the
day of each request, prepares the set again when the day changes (a long-running server never
plays today with yesterday's prior), and keys every table by the day as well as the set.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..app.wordsets import NAMED, is_progress
from ..core.clock import today as clock_today
from ..core.data import HistoryEntry, puzzle_number
from ..core.days import GameDay, end_of_game_day, end_of_game_note, replay_note, resolve_day
from ..core.errors import DataError, InvalidDayError, InvalidFeedbackError, InvalidWordError, WordlebotError
from ..core.feedback import EmojiStyle, Feedback, all_green, check_word, format_digits
from ..core.game import Game, Row, parse_history
from ..core.matrix import pattern_matrix, transposed
from ..core.share import share_grid
from ..core.text import json_number
from ..core.words import Lexicon
from ..multi import MultiGame, cost_meaning, multi_share_text, parse_multi_history
from ..multi import suggest as multi_suggest
from ..policy.advisor import BOOK_GUESSES, DEFAULT_GOAL, GOALS, Advisor
from ..policy.analysis import GameReport, SharedGame, analyze_game
from ..policy.explain import about, by_likelihood, explain, likely_count, review_rows
from ..policy.grid_analysis import GridReport, analyze_grid, read_grid, words_of_rows
from ..policy.strategies import STRATEGIES

if TYPE_CHECKING:
    from ..search.openings import Book
from .fairqueue import FairQueue, QueueFull

# The exact search can take minutes on a big node: not something a web request may start.
WEB_STRATEGIES = ("search",) + STRATEGIES
CACHE_SIZE = 4096
# The answers kept take at most this many bytes, each kept as its JSON text: a bound in bytes, as
# entries alone were none (an nyt answer with 1,000 candidates is 44 KB of JSON, ~200 KB as Python
# objects: 4,096 of them took the server from 2.2 to 3.1 GB).
CACHE_BYTES = 32 << 20
WHY_GROUPS = 6  # colour groups of the top suggestion listed in its explanation
OFFICIAL_SETS = tuple(NAMED)
DAYS_KEPT = 3  # days whose word sets and Advisors stay loaded (today, and a few analysed ones)
WORKERS = 2  # search threads (the machine's cores); each search uses the Advisor's own threads too
PER_CLIENT = 16  # requests of one client waiting at most
QUEUE_TOTAL = 64  # requests waiting at most
SEARCH_MEMORY_MB = 32  # transposition table of each serving TreeSearch (budgeted searches need little)
SEARCHES_KEPT = 2  # rule combinations whose TreeSearch an Advisor keeps
IDLE_ADVISORS = 4  # Advisors kept between requests, over every set, day and strategy
READY_WAIT = 1.0  # seconds a request waits for its set to become ready before it is told to come back
RETRY_FAILED = 30.0  # seconds before a set that failed to load is tried again
HISTORY_SECONDS = 60.0  # the answer history is read again after this long

# A source is a Lexicon, or a loader called with a list to append notes to and the day; a loaded
# set whose ``day`` is None has a prior that does not change with the day and is loaded once.
LexiconSource = Lexicon | Callable[[Any, dt.date], Lexicon]  # a loader gets a notes list (it calls .append) and the day
Clock = Callable[[], dt.date]
HistorySource = Callable[[], list[HistoryEntry]]
Client = Hashable


class BusyError(Exception):
    """No room in the queue: come back after ``retry_after`` seconds."""

    def __init__(self, message: str = "the server is busy; try again in a moment", retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NotReadyError(Exception):
    """The word set asked for is being prepared; ``status`` says how far it is."""

    def __init__(self, status: SetStatus) -> None:
        super().__init__(status.message())
        self.status = status
        self.retry_after = 2 if status.state == "preparing" else 5


class SetFailedError(Exception):
    """The word set could not be prepared (a problem of the server's data, not of the request);
    it is tried again after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UnknownWordSet(WordlebotError, LookupError):
    """A word set the server does not serve (answered 404, not 400: the request names a thing
    that is not there)."""

    http_status = 404


# How the page sets the day, in the words of days.replay_note.
HOW_REPLAY = "set the day to {day}"
GUESS_SPACES = ("all", "candidates")


def _candidate(lex: Lexicon, word: str, p: float) -> dict:
    doc = {"word": word, "p": json_number(p)}
    if lex.groups is not None:
        doc["group"] = lex.groups.short[lex.groups.of_answer[lex.answer_of_guess[lex.id(word)]]]
    return doc


@dataclass
class SetStatus:
    """How far the preparation of one word set (for one day) is."""

    words: str
    day: dt.date | None
    state: str = "waiting"  # waiting -> preparing -> ready (normal rules) | failed
    step: str | None = None
    started: float | None = None  # time.monotonic()
    finished: float | None = None
    error: str | None = None
    hard_ready: bool = False  # the hard-mode book too
    hard_error: str | None = None  # why the hard-mode book could not be computed

    def seconds(self) -> float | None:
        if self.started is None:
            return None
        return round((self.finished or time.monotonic()) - self.started, 1)

    def message(self) -> str:
        if self.state == "failed":
            return f"the word set {self.words} could not be prepared: {self.error}"
        if self.state == "waiting":
            return f"the word set {self.words} is waiting to be prepared; try again in a moment"
        return (
            f"the word set {self.words} is being prepared ({self.step}, {self.seconds():.0f} s so far); "
            "try again in a moment"
        )

    def doc(self) -> dict:
        return {
            "words": self.words,
            "day": self.day.isoformat() if self.day else None,
            "state": self.state,
            "step": self.step,
            "seconds": self.seconds(),
            "error": self.error,
            "hard_ready": self.hard_ready,
        }


@dataclass
class _Prepared:
    """A word set for one day: its lexicon, books and Advisors, once ready."""

    status: SetStatus
    lexicon: Lexicon | None = None
    notes: list[str] = field(default_factory=list)
    # goal -> (hard, max_guesses) -> Book, shared by the Advisors of that goal (a book ranks the
    # first moves for its goal: another goal's would lie)
    books: dict[str, dict[tuple[bool, int], Book | None]] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return self.status.state == "ready"

    @property
    def words(self) -> Lexicon:
        """The lexicon of a set whose words are loaded (every request waits for that)."""
        assert self.lexicon is not None, "the word set is not loaded yet"
        return self.lexicon


@dataclass(frozen=True)
class _Suggest:
    name: str
    entry: _Prepared
    rows: list[Row]
    hard: bool
    max_guesses: int
    strategy: str
    top: int
    candidates: int
    guess_space: str = "all"
    game_day: GameDay | None = None
    goal: str = DEFAULT_GOAL

    @property
    def key(self) -> tuple:
        """The cache key: everything the answer depends on (the set's day included)."""
        return (
            self.name,
            self.entry.status.day,
            self.strategy,
            self.goal,
            self.hard,
            self.max_guesses,
            tuple((r.guess, r.pattern) for r in self.rows),
            self.top,
            self.candidates,
            self.guess_space,
            self.game_day,
        )


@dataclass(frozen=True)
class _Analyze:
    name: str
    entry: _Prepared
    rows: list[Row]
    answer: str | None
    hard: bool
    max_guesses: int
    puzzle: int | None
    style: EmojiStyle
    game_day: GameDay | None = None
    goal: str = DEFAULT_GOAL

    @property
    def key(self) -> tuple:
        return (
            self.name,
            self.entry.status.day,
            "analyze",
            tuple((r.guess, r.pattern) for r in self.rows),
            self.answer,
            self.hard,
            self.max_guesses,
            self.puzzle,
            self.style,
            self.game_day,
            self.goal,
        )


@dataclass(frozen=True)
class _Grid:
    name: str
    entry: _Prepared
    grid: SharedGame
    played: tuple[str, ...] | None
    hard: bool | None
    style: EmojiStyle
    game_day: GameDay

    @property
    def key(self) -> tuple:
        g = self.grid
        return (
            self.name,
            self.entry.status.day,
            "grid",
            g.puzzle,
            g.solved,
            g.max_guesses,
            g.hard,
            tuple(g.patterns),
            self.played,
            self.hard,
            self.style,
            self.game_day,
        )


@dataclass(frozen=True)
class _MultiSuggest:
    name: str
    entry: _Prepared
    boards: int
    rows: tuple[tuple[str, tuple[str | None, ...]], ...]
    hard: bool
    max_guesses: int | None
    top: int
    candidates: int
    objective: str
    game_day: GameDay | None = None

    @property
    def key(self) -> tuple:
        return (
            self.name,
            self.entry.status.day,
            "multi",
            self.boards,
            self.rows,
            self.hard,
            self.max_guesses,
            self.top,
            self.candidates,
            self.objective,
            self.game_day,
        )


class _NoteSink:
    """What a loader appends its notes to (it calls ``append``): each goes to ``fn``."""

    def __init__(self, fn: Callable[[str], None]) -> None:
        self.append = fn


class Engine:
    """Word sets by name (given, or loaded for each day) prepared in the background, and the
    searches that answer the API.  ``clock`` gives today's date (injected so a test can move it);
    ``ready_wait``: seconds a request waits for its set before being told it is not ready."""

    def __init__(
        self,
        lexicons: Mapping[str, LexiconSource],
        default: str | None = None,
        *,
        cache_size: int = CACHE_SIZE,
        cache_bytes: int = CACHE_BYTES,
        clock: Clock = clock_today,
        days_kept: int = DAYS_KEPT,
        workers: int = WORKERS,
        per_client: int = PER_CLIENT,
        queue_total: int = QUEUE_TOTAL,
        ready_wait: float = READY_WAIT,
        search_memory_mb: float | None = SEARCH_MEMORY_MB,
        history: HistorySource | None = None,
    ) -> None:
        if not lexicons:
            raise ValueError("at least one word set is needed")
        self._sources = dict(lexicons)
        self.default = default or next(iter(self._sources))
        if self.default not in self._sources:
            raise ValueError(f"default word set {self.default!r} is not among {list(self._sources)}")
        self.strategies = WEB_STRATEGIES
        self.clock = clock
        # the answer history (the answer of a past day: a pasted grid's, the replay rule)
        self._history_source = history
        self._history_kept: tuple[float, list[HistoryEntry]] | None = None
        self.ready_wait = ready_wait
        self._days_kept = days_kept
        self._memory_mb = search_memory_mb
        self._workers = workers
        self.queue = FairQueue(workers, per_client=per_client, total=queue_total)
        # keyed by (set, day); the day is None for a set whose prior does not change with it
        self._sets: dict[tuple[str, dt.date | None], _Prepared] = {}
        self._static: set[str] = set()  # sets loaded once for every day
        self._daily: set[str] = set()  # sets loaded for each day
        self._days: dict[str, OrderedDict] = {name: OrderedDict() for name in self._sources}
        self._lock = threading.Lock()  # the tables above, the cache and the pools: held briefly
        self._todo: deque[tuple[str, dt.date | None]] = deque()  # sets to prepare, in turn
        self._wake = threading.Condition(self._lock)
        self._closing = False  # set by close(): the preparer stops at its next step
        self._preparer: threading.Thread | None = None
        # idle Advisors, least recently used first: id(advisor) -> (the set's entry, strategy, advisor)
        self._idle: OrderedDict[int, tuple[_Prepared, tuple[str, str], Advisor]] = OrderedDict()
        self._cache: OrderedDict[tuple, bytes] = OrderedDict()  # key -> the answer's JSON text
        self._cache_size = cache_size
        self._cache_bytes = cache_bytes
        self.cache_used = 0  # bytes of the answers kept
        self.cache_hits = 0
        self.log: Callable[[str], None] = lambda msg: None  # progress lines (the command logs them)

    # --- word sets ------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self._sources)

    def today(self) -> dt.date:
        return self.clock()

    def _key(self, name: str, day: dt.date) -> tuple[str, dt.date | None]:
        return (name, None if name in self._static or isinstance(self._sources[name], Lexicon) else day)

    def _entry(self, name: str | None, day: dt.date | None, *, urgent: bool = True) -> _Prepared:
        """The preparation of ``name`` for ``day`` (default today), queued if it is not under way;
        ``urgent``: someone is waiting for it, so it goes before the sets nobody asked for.

        Until a set's first load says whether its prior depends on the day, there is one entry
        for it at a time: a request for another day gets that one (not ready yet) and asks again
        (``ready`` resolves the entry on every try), so a set is never loaded twice for nothing."""
        name = name or self.default
        if name not in self._sources:
            raise UnknownWordSet(f"unknown word set {name!r}; this server offers {', '.join(self._sources)}")
        day = day or self.clock()
        with self._lock:
            key = self._key(name, day)
            entry = self._sets.get(key)
            if entry is None and key[1] is not None and name not in self._daily:
                entry = next((e for (n, _), e in self._sets.items() if n == name), None)  # the first load
            if (
                entry is not None
                and entry.status.state == "failed"
                and time.monotonic() - (entry.status.finished or 0) > RETRY_FAILED
            ):
                self._sets.pop(self._key_of(entry), None)
                entry = None  # try again: the data may have been fixed meanwhile
            if entry is None:
                entry = self._sets[key] = _Prepared(SetStatus(name, key[1]))
                (self._todo.appendleft if urgent else self._todo.append)(key)
                self._forget_old_days(name, key[1])
            elif urgent and entry.status.state == "waiting" and key in self._todo:
                self._todo.remove(key)
                self._todo.appendleft(key)
            if key[1] is not None and key[1] in self._days[name]:
                self._days[name].move_to_end(key[1])  # recently used: kept longest
            if self._preparer is None:
                self._preparer = threading.Thread(target=self._prepare_loop, name="prepare", daemon=True)
                self._preparer.start()
            self._wake.notify()
            return entry

    def _forget_old_days(self, name: str, day: dt.date | None) -> None:
        """Keep the ``days_kept`` most recently used days of a set, today's always (called under
        the lock): analyses of past puzzles must not unload the set everyone plays today."""
        if day is None:
            return
        days = self._days[name]
        days[day] = True
        days.move_to_end(day)
        today = self.clock()
        while len(days) > self._days_kept:
            old = next((d for d in days if d != today), None)
            if old is None:
                break
            del days[old]
            gone = self._sets.pop((name, old), None)
            if gone is not None:
                self._drop_idle(gone)
            if (name, old) in self._todo:
                self._todo.remove((name, old))
            for key in [k for k in self._cache if k[0] == name and k[1] == old]:
                self.cache_used -= len(self._cache.pop(key))

    def start(self, first: str | None = None, *, others: bool = True) -> None:
        """Prepare ``first`` (default: the default set) now, then (``others``) every other set, in
        the background; a set someone asks for goes before those not asked for."""
        first = first or self.default
        self._entry(first, None)
        for name in self._sources if others else ():
            if name != first:
                self._entry(name, None, urgent=False)

    def status(self, name: str | None = None, day: dt.date | None = None) -> SetStatus:
        """How far the set's preparation for ``day`` (default today) is (without starting it)."""
        name = name or self.default
        day = day or self.clock()
        with self._lock:
            entry = self._sets.get(self._key(name, day))
        return entry.status if entry is not None else SetStatus(name, day, state="waiting")

    def wait_ready(
        self, name: str | None = None, day: dt.date | None = None, *, hard: bool = False, timeout: float | None = None
    ) -> _Prepared:
        """Block until the set is ready (for a thread of its own: the CLI, tests)."""
        day = day or self.clock()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                return self._ready(self._entry(name, day), day, hard)
            except NotReadyError:
                if deadline is not None and time.monotonic() >= deadline:
                    raise
                time.sleep(0.02)

    async def ready(
        self, name: str | None, day: dt.date | None = None, *, hard: bool = False, loaded: bool = False
    ) -> _Prepared:
        """The set once ready (``loaded``: once its lists are loaded, book or not), waiting up to
        ``ready_wait`` seconds without holding a thread; else NotReadyError."""
        day = day or self.clock()
        deadline = time.monotonic() + self.ready_wait
        while True:
            try:
                return self._ready(self._entry(name, day), day, hard, loaded)
            except NotReadyError:
                if time.monotonic() >= deadline:
                    raise
                await asyncio.sleep(0.02)

    def _ready(self, entry: _Prepared, day: dt.date, hard: bool, loaded: bool = False) -> _Prepared:
        st = entry.status
        if st.state == "failed":
            raise SetFailedError(st.message(), self._retry_in(st))
        if st.day is not None and st.day != day:  # the set's first load, for another day
            raise NotReadyError(st)
        if loaded and entry.lexicon is not None:
            return entry
        if st.state != "ready":
            raise NotReadyError(st)
        if hard and not st.hard_ready:
            if st.hard_error:
                raise SetFailedError(
                    f"hard mode of the word set {st.words} is not available: {st.hard_error}", self._retry_in(st)
                )
            raise NotReadyError(st)
        return entry

    @staticmethod
    def _retry_in(st: SetStatus) -> int:
        return max(1, math.ceil(RETRY_FAILED - (time.monotonic() - (st.finished or 0))))

    def lexicon(self, name: str | None, day: dt.date | None = None) -> Lexicon:
        """The word set ``name`` with the prior of ``day`` (default today), once ready."""
        return self.wait_ready(name, day).words

    def notes(self, name: str | None, day: dt.date | None = None) -> list[str]:
        return list(self.wait_ready(name, day).notes)

    def close(self, timeout: float = 120.0) -> None:
        """For shutting down: stop the background preparation at its next step (a book being
        computed is finished, not cut short: files are only ever written whole) and wait for
        it, at most ``timeout`` seconds (a step can take longer: then it ends on its own after
        this returns).  Final: a closed engine prepares no set any more, so a set not ready by
        then is never ready (its requests are told to try again)."""
        with self._lock:
            self._closing = True
            self._wake.notify_all()
            preparer = self._preparer
        if preparer is not None:
            preparer.join(timeout)

    def _prepare_loop(self) -> None:
        while True:
            with self._lock:
                while not self._todo and not self._closing:
                    self._wake.wait()
                if self._closing:
                    return
                key = self._todo.popleft()
                entry = self._sets.get(key)
            if entry is not None:
                try:
                    self._prepare(key, entry)
                except BaseException as exc:  # the one preparer must outlive any set's failure
                    self._fail(entry, exc)

    def _say(self, line: str) -> None:
        """Log a line; a log that cannot be written (a closed stderr) must not stop preparation."""
        try:
            self.log(line)
        except Exception:
            pass

    def _fail(self, entry: _Prepared, exc: BaseException) -> None:
        st = entry.status
        st.error = str(exc) or type(exc).__name__
        st.finished = time.monotonic()
        st.state = "failed"  # last: a reader seeing "failed" finds the error and the time set
        self._say(f"{st.words}: {st.message()}")

    def _prepare(self, key: tuple[str, dt.date | None], entry: _Prepared) -> None:
        name, day = key
        st = entry.status
        st.started = time.monotonic()
        st.state = "preparing"  # after ``started``: a reader of "preparing" can count the seconds

        def label() -> str:  # the day once the set is known to depend on it
            return f"{name} ({st.day})" if entry.lexicon is not None and st.day is not None else name

        def step(text: str) -> None:
            st.step = text
            self._say(f"{label()}: {text}")

        def note(msg: str) -> None:
            # progress ("Training the answer model…") is a step, not a note that stays on the page
            if is_progress(msg):
                step(msg.rstrip(" .…").split(" (")[0].lower())
            else:
                entry.notes.append(msg)

        src = self._sources[name]
        step("loading the word lists and the prior")
        lex = src if isinstance(src, Lexicon) else src(_NoteSink(note), day or self.clock())
        self._learn_kind(key, entry, lex)
        entry.lexicon = lex  # enough for the share endpoint (the word length)
        step("building the pattern matrix")
        pattern_matrix(lex)
        transposed(lex)
        step("computing the opening book")
        maker = Advisor(lex, strategy="search")  # the book's long searches get the default table
        maker.book(False, BOOK_GUESSES)
        entry.books.setdefault(maker.goal, {}).update(maker.books())
        st.finished = time.monotonic()
        st.state = "ready"
        self._say(f"{label()}: ready in {st.seconds():.1f} s")
        if self._closing:
            st.step = None
            return
        step("computing the hard-mode opening book")
        try:
            maker.book(True, BOOK_GUESSES)
            entry.books.setdefault(maker.goal, {}).update(maker.books())
            st.hard_ready = True
        except Exception as exc:  # normal play goes on; hard-mode requests are told why not
            st.hard_error = str(exc) or type(exc).__name__
            self._say(f"{label()}: no hard-mode book: {st.hard_error}")
        # The replies to the first move, in the background (the books are shared: a reply added
        # here serves every Advisor at once; a request that reaches one first computes it itself).
        step("computing the opening book's replies")
        for hard in (False, True) if st.hard_ready else (False,):
            if self._closing:
                break
            try:
                maker.complete_book(hard, BOOK_GUESSES, stop=lambda: self._closing)
            except Exception as exc:  # play goes on: each reply is then computed when reached
                self._say(f"{label()}: opening book replies not computed ahead: {exc or type(exc).__name__}")
        st.step = None

    def _learn_kind(self, key, entry: _Prepared, lex: Lexicon) -> None:
        """After a set's first load: whether its prior depends on the day.  A set whose prior does
        not gets one entry for every day."""
        name = key[0]
        if isinstance(self._sources[name], Lexicon):
            return
        with self._lock:
            if lex.day is not None:
                self._daily.add(name)
                return
            self._static.add(name)
            self._days[name].pop(key[1], None)
            self._sets.pop(key, None)
            self._sets[(name, None)] = entry
            entry.status.day = None

    # --- advisors ------------------------------------------------------------------------------

    def _advisor(self, entry: _Prepared, strategy: str, guess_space: str = "all", goal: str = DEFAULT_GOAL) -> Advisor:
        """An idle Advisor of the set, or a new one: at most one per worker is busy, and at most
        IDLE_ADVISORS wait for work (their search tables are most of the server's memory).  The
        books prepared are the default goal's; another goal's are made by its first request
        (then shared, see _release)."""
        adv = None
        kind = strategy if guess_space == "all" else f"{strategy}/{guess_space}"
        with self._lock:
            for key in reversed(self._idle):
                owner, k, idle = self._idle[key]
                if owner is entry and k == (kind, goal):
                    del self._idle[key]
                    adv = idle
                    break
        if adv is None:
            adv = Advisor(
                entry.words,
                strategy=strategy,
                guess_space=guess_space,
                goal=goal,
                search_memory_mb=self._memory_mb,
                searches_kept=SEARCHES_KEPT,
            )
        if guess_space == "all":  # the prepared books are those of any allowed word
            adv.use_books(entry.books.get(goal, {}))  # the hard-mode book may have come since it was made
        return adv

    def _release(self, entry: _Prepared, strategy: str, adv: Advisor) -> None:
        if adv.guess_space != "all":
            strategy = f"{strategy}/{adv.guess_space}"
        with self._lock:
            if adv.goal != DEFAULT_GOAL and adv.guess_space == "all":  # its books serve the next Advisor of its goal
                entry.books.setdefault(adv.goal, {}).update(adv.books())
            if self._sets.get(self._key_of(entry)) is not entry:
                return  # a day forgotten meanwhile
            self._idle[id(adv)] = (entry, (strategy, adv.goal), adv)
            while len(self._idle) > IDLE_ADVISORS:
                self._idle.popitem(last=False)

    def _drop_idle(self, entry: _Prepared) -> None:
        """Forget the idle Advisors of a set no longer kept (called under the lock)."""
        for key in [k for k, (owner, _, _) in self._idle.items() if owner is entry]:
            del self._idle[key]

    def _key_of(self, entry: _Prepared) -> tuple[str, dt.date | None]:
        return (entry.status.words, entry.status.day)

    # --- games ---------------------------------------------------------------------------------

    def game(self, lex: Lexicon, advisor: Advisor, rows: list[Row], *, hard: bool, max_guesses: int) -> Game:
        """The game the rows describe; errors name the row."""
        return Game.from_history(lex, rows, hard=hard, max_guesses=max_guesses, matrix=advisor.matrix)

    def _check_strategy(self, strategy: str, goal: str = DEFAULT_GOAL) -> None:
        if strategy not in self.strategies:
            raise InvalidWordError(f"unknown strategy {strategy!r}; choose one of {', '.join(self.strategies)}")
        if goal not in GOALS:
            raise InvalidWordError(f"unknown goal {goal!r}; choose one of {', '.join(GOALS)}")

    @staticmethod
    def _needs_hard_book(strategy: str, hard: bool, max_guesses: int, rows: int) -> bool:
        """Whether the answer comes from the hard-mode book (prepared after the set is ready)."""
        return strategy == "search" and hard and max_guesses == BOOK_GUESSES and rows <= 1

    def _submit(self, client: Client, fn, *args):
        try:
            return self.queue.submit(client, fn, *args)
        except QueueFull as exc:
            raise BusyError(f"the server is busy ({exc}); try again in {exc.retry_after} s", exc.retry_after) from None

    # --- the day --------------------------------------------------------------------------------

    def history(self) -> list[HistoryEntry]:
        """The answer history (empty when there is none, or it cannot be read), read again at
        most every HISTORY_SECONDS (a ``data update`` shows within a minute)."""
        if self._history_source is None:
            return []
        now = time.monotonic()
        with self._lock:
            kept = self._history_kept
        if kept is not None and now - kept[0] < HISTORY_SECONDS:
            return kept[1]
        try:
            entries = list(self._history_source())
        except DataError:
            entries = []
        with self._lock:
            self._history_kept = (now, entries)
        return entries

    def game_day(
        self, date: str | dt.date | None = None, puzzle: int | None = None, grid_puzzle: int | None = None
    ) -> GameDay:
        """The day of a request (``days.resolve_day`` on the server's clock): today unless the
        request names one; InvalidDayError (400) for one not published yet, or two that differ."""
        return resolve_day(
            date=date,
            puzzle=puzzle,
            grid_puzzle=grid_puzzle,
            today=self.clock(),
            history=self.history() if (date or puzzle is not None or grid_puzzle is not None) else (),
        )

    def day_doc(self, lex: Lexicon, game_day: GameDay | None) -> dict:
        """What an answer says of its day: the day of the prior (null for a set whose prior does
        not depend on it), the puzzle number, where the day came from, and the line to show."""
        gd = game_day or GameDay(self.clock())
        weighted = lex.day is not None
        return {
            "day": lex.day.isoformat() if lex.day is not None else None,
            "puzzle": gd.puzzle,
            "day_source": gd.source,
            "day_text": gd.describe(self.clock()) if weighted else None,
        }

    async def suggest_async(
        self,
        client: Client,
        words: str | None,
        history,
        *,
        hard: bool = False,
        max_guesses: int = 6,
        strategy: str = "search",
        top: int = 10,
        candidates: int = 100,
        day: dt.date | None = None,
        date: str | None = None,
        puzzle: int | None = None,
        guess_space: str = "all",
        goal: str = DEFAULT_GOAL,
    ) -> dict:
        """The same for the event loop: a set not ready, a full queue are answered at once
        (NotReadyError, BusyError); the search runs on a queue worker.  ``date`` / ``puzzle``:
        the day asked for (else ``day``, else today)."""
        self._check_strategy(strategy, goal)
        if guess_space not in GUESS_SPACES:
            raise InvalidWordError(f"unknown guess space {guess_space!r}; choose one of {', '.join(GUESS_SPACES)}")
        gd = self.game_day(date or day, puzzle)
        loaded = await self.ready(words, gd.day, loaded=True)
        rows = parse_rows(history, loaded.words.length)
        needs_book = guess_space == "all" and self._needs_hard_book(strategy, hard, max_guesses, len(rows))
        entry = await self.ready(words, gd.day, hard=needs_book)
        request = _Suggest(
            words or self.default, entry, rows, hard, max_guesses, strategy, top, candidates, guess_space, gd, goal
        )
        return await self._answer(client, self._suggest_now, request)

    async def _answer(self, client: Client, compute, request) -> dict:
        """The cached answer to ``request``, else ``compute(request)`` on a queue worker."""
        hit = self._cached(request.key)
        if hit is not None:
            return hit
        return await asyncio.wrap_future(self._submit(client, compute, request))

    def _cached(self, key) -> dict | None:
        with self._lock:
            hit = self._cache.get(key)
            if hit is None:
                return None
            self._cache.move_to_end(key)
            self.cache_hits += 1
        return dict(json.loads(hit), cached=True)

    def _suggest_now(self, r: _Suggest) -> dict:
        """On a queue worker: the game, its suggestions, the answer document (kept in the cache)."""
        t0 = time.perf_counter()
        lex = r.entry.words
        advisor = self._advisor(r.entry, r.strategy, r.guess_space, r.goal)
        try:
            game = self.game(lex, advisor, r.rows, hard=r.hard, max_guesses=r.max_guesses)
            ranked = [] if game.over else advisor.suggest(game, r.top)
        finally:
            self._release(r.entry, r.strategy, advisor)
        doc = self._describe(r.name, lex, r.strategy, game, ranked, r.candidates)
        doc.update(self.day_doc(lex, r.game_day), guess_space=r.guess_space, goal=r.goal)
        # the replay rule at the end of a game (days.py): its answer was another day's
        history = self.history()
        doc["day_note"] = end_of_game_note(game, r.game_day, history, HOW_REPLAY, self.clock())
        replay = end_of_game_day(game, r.game_day, history, self.clock())
        doc["replay_day"] = replay.isoformat() if replay else None
        doc["notes"] = list(r.entry.notes)
        doc["seconds"] = round(time.perf_counter() - t0, 4)
        return self._keep(r.key, doc)

    def _keep(self, key: tuple, doc: dict) -> dict:
        """Remember an answer (``key`` starts with the set and its day) and return it as new."""
        blob = json.dumps(doc).encode()
        with self._lock:
            if self._cache_size > 0 and len(blob) <= self._cache_bytes and key[:2] in self._sets:
                # (``key[:2] in self._sets``: not a day forgotten meanwhile)
                old = self._cache.pop(key, None)
                self.cache_used += len(blob) - (len(old) if old is not None else 0)
                self._cache[key] = blob
                while len(self._cache) > self._cache_size or self.cache_used > self._cache_bytes:
                    self.cache_used -= len(self._cache.popitem(last=False)[1])
        return dict(doc, cached=False)

    def _describe(self, name: str, lex: Lexicon, strategy: str, game: Game, ranked, n_cands: int) -> dict:
        suggestions = [r.to_dict() for r in ranked]
        why = None
        if ranked and game.candidates.size:
            e = explain(game, ranked[0].word)
            why = {
                "word": e.word,
                "text": e.sentences(),
                "p_answer": e.p_answer,
                "p_known": e.p_known,
                "expected_left": e.expected_left,
                "groups": len(e.groups),
                "largest": {"digits": e.largest.digits, "size": e.largest.size, "p": e.largest.p},
                "top_groups": [{"digits": g.digits, "size": g.size, "p": g.p} for g in e.groups[:WHY_GROUPS]],
            }
        likely = likely_count(game.posterior)
        return {
            "words": name,
            "day": lex.day.isoformat() if lex.day else None,
            "description": lex.describe(),
            "official": lex.official,
            "note": lex.note,
            "length": lex.length,
            "strategy": strategy,
            "hard": game.hard,
            "max_guesses": game.max_guesses,
            "history": game.history(),
            "rows": [{"guess": r.guess, "feedback": r.feedback_digits()} for r in game.rows],
            "solved": game.solved,
            "over": game.over,
            "candidates": int(game.candidates.size),
            "likely": round(likely, 2),
            "likely_text": about(likely),
            # likeliest first (equals in list order), with each one's probability and, on a set
            # whose prior says where it comes from (nyt), the word's group
            "candidate_words": [_candidate(lex, w, p) for w, p in by_likelihood(game, n_cands)],
            "prior_groups": lex.groups.to_dict() if lex.groups is not None else None,
            "suggestions": suggestions,
            "why": why,
        }

    async def multi_suggest_async(
        self,
        client: Client,
        words: str | None,
        boards: int,
        history,
        *,
        hard: bool = False,
        max_guesses: int | None = None,
        top: int = 5,
        candidates: int = 12,
        day: dt.date | None = None,
        objective: str = "score",
        date: str | None = None,
    ) -> dict:
        """Suggestions for a multi-board game (Dordle, Quordle, Octordle): ``multi.suggest`` on a
        queue worker, with each board's candidates."""
        rows = parse_multi_rows(history)
        gd = self.game_day(date or day)
        entry = await self.ready(words, gd.day, loaded=True)  # no book needed
        request = _MultiSuggest(
            words or self.default, entry, boards, rows, hard, max_guesses, top, candidates, objective, gd
        )
        return await self._answer(client, self._multi_now, request)

    def _multi_now(self, r: _MultiSuggest) -> dict:
        t0 = time.perf_counter()
        lex = r.entry.words
        game = MultiGame(lex, r.boards, hard=r.hard, max_guesses=r.max_guesses, matrix=pattern_matrix(lex))
        game.replay(r.rows)
        ranked = multi_suggest(game, r.top, objective=r.objective)
        solved_at = game.solved_at
        boards = []
        for b in range(game.n_boards):
            open_ = solved_at[b] is None
            listed = by_likelihood(game.boards[b], r.candidates) if open_ else []
            boards.append(
                {
                    "board": b + 1,
                    "solved_at": solved_at[b],
                    "candidates": int(game.candidates(b).size) if open_ else 0,
                    "candidate_words": [{"word": w, "p": json_number(p)} for w, p in listed],
                }
            )
        doc = {
            "words": r.name,
            "day": lex.day.isoformat() if lex.day else None,
            "description": lex.describe(),
            "length": lex.length,
            "boards": game.n_boards,
            "variant": game.name,
            "hard": game.hard,
            "max_guesses": game.max_guesses,
            "guesses_left": game.guesses_left,
            "rows": [
                {
                    "guess": row.guess,
                    "feedback": [None if p is None else format_digits(p, lex.length) for p in row.patterns],
                }
                for row in game.rows
            ],
            "history": ",".join(str(row) for row in game.rows),
            "solved": game.solved,
            "over": game.over,
            "objective": r.objective,
            "score": game.score() if game.over else None,
            "guesses_to_finish": game.guesses_to_finish() if game.over else None,
            "board_states": boards,
            "suggestions": [x.to_dict() for x in ranked],
            "game_note": game.off_list_note(),  # a hard-mode game stuck for good, a board off the list
            "cost_text": cost_meaning(r.objective),
            "share": multi_share_text(game) if game.over else None,
            "notes": list(r.entry.notes),
        }
        doc.update(self.day_doc(lex, r.game_day))
        doc["seconds"] = round(time.perf_counter() - t0, 4)
        return self._keep(r.key, doc)

    async def analyze_async(
        self,
        client: Client,
        words: str | None,
        history,
        *,
        answer: str | None = None,
        hard: bool = False,
        max_guesses: int = 6,
        puzzle: int | None = None,
        style: EmojiStyle = "dark",
        date: str | None = None,
        goal: str = DEFAULT_GOAL,
    ) -> dict:
        """A played game rated row by row, with the prior of its day (``date`` or ``puzzle``,
        else today); ``puzzle`` is also the share text's number."""
        self._check_strategy("search", goal)
        gd = self.game_day(date, puzzle)
        loaded = await self.ready(words, gd.day, loaded=True)
        rows = parse_rows(history, loaded.words.length)
        if not rows:
            raise InvalidWordError("there is nothing to analyse: the history has no rows")
        entry = await self.ready(words, gd.day, hard=self._needs_hard_book("search", hard, max_guesses, 0))
        request = _Analyze(words or self.default, entry, rows, answer, hard, max_guesses, puzzle, style, gd, goal)
        return await self._answer(client, self._analyze_now, request)

    def _analyze_now(self, r: _Analyze) -> dict:
        lex = r.entry.words
        answer = None if r.answer is None else check_word(r.answer, lex.length)
        advisor = self._advisor(r.entry, "search", goal=r.goal)
        try:
            game = self.game(lex, advisor, r.rows, hard=r.hard, max_guesses=r.max_guesses)
            report = analyze_game(advisor, game.rows, answer=answer, hard=r.hard, max_guesses=r.max_guesses)
            doc = self._report_doc(advisor, lex, report, game.rows, r.hard, r.max_guesses)
        finally:
            self._release(r.entry, "search", advisor)
        doc.update(self.day_doc(lex, r.game_day), words=r.name, goal=r.goal)
        doc["day_note"] = (
            replay_note([report.answer], r.game_day or GameDay(self.clock()), self.history(), HOW_REPLAY, self.clock())
            if report.answer and lex.day is not None
            else None
        )
        doc["share"] = self.share(
            r.name, game.rows, hard=r.hard, max_guesses=r.max_guesses, puzzle=r.puzzle, style=r.style
        )
        return self._keep(r.key, doc)

    def _report_doc(
        self, advisor: Advisor, lex: Lexicon, report: GameReport, rows: list[Row], hard: bool, max_guesses: int
    ) -> dict:
        """A game's analysis as the API gives it: the summary, each row's figures, and each row
        in plain words (``explain.review_rows``, the sentences the terminal shows)."""
        rated = Game(lex, hard=hard, max_guesses=max(max_guesses, len(rows)), matrix=advisor.matrix)
        for row in rows[: len(report.rows)]:
            rated.guess(row.guess, row.pattern)
        return {**report.to_dict(), "review": review_rows(advisor, rated, report)}

    # --- a pasted share grid ---------------------------------------------------------------------

    async def grid_async(
        self,
        client: Client,
        words: str | None,
        text: str,
        *,
        played=None,
        board=None,
        hard: bool | None = None,
        date: str | None = None,
        style: EmojiStyle = "dark",
    ) -> dict:
        """A pasted share grid, analysed with its day's prior: its puzzle number is the day (a
        ``date`` given must agree), whose answer the history may know; the words played are
        ``played``, or the board's (``board``: rows) when they show the grid's colours, else
        only the colours are read (grid_analysis)."""
        grid = read_grid(text)
        if grid.puzzle is None and not date:
            raise InvalidDayError("that share grid has no puzzle number: give the day it was played")
        gd = self.game_day(date, grid_puzzle=grid.puzzle)
        loaded = await self.ready(words, gd.day, loaded=True)
        if grid.length != loaded.words.length:
            raise InvalidWordError(
                f"the grid has {grid.length}-letter rows; the word set {loaded.words.name} has "
                f"{loaded.words.length}-letter words"
            )
        words_played = None
        if isinstance(played, str):
            played = [w for w in played.replace(",", " ").split() if w]
        if played:
            words_played = tuple(w.strip().lower() for w in played)
        elif board:
            matched = words_of_rows(grid, parse_rows(board, loaded.words.length))
            words_played = tuple(matched) if matched else None
        if words_played is None and gd.answer is None:
            raise InvalidWordError(
                f"the answer of Wordle #{gd.puzzle:,} ({gd.day}) is not in the server's history "
                "(today's is never told), so only the words played can be rated: type them"
            )
        entry = await self.ready(words, gd.day, hard=self._needs_hard_book("search", bool(grid.hard), 6, 0))
        request = _Grid(words or self.default, entry, grid, words_played, hard, style, gd)
        return await self._answer(client, self._grid_now, request)

    def _grid_now(self, r: _Grid) -> dict:
        lex = r.entry.words
        advisor = self._advisor(r.entry, "search")
        try:
            rep: GridReport = analyze_grid(
                advisor, r.grid, r.game_day, played=list(r.played) if r.played else None, hard=r.hard
            )
            doc = {
                "rated": rep.rated,
                "headline": rep.headline("type the words you played to rate each one"),
                "answer": rep.answer,
                "solved": r.grid.solved,
                "max_guesses": r.grid.max_guesses,
                "hard": bool(r.grid.hard if r.hard is None else r.hard),
            }
            if rep.rated and rep.report is not None:
                doc["analysis"] = self._report_doc(
                    advisor, lex, rep.report, rep.played, bool(doc["hard"]), r.grid.max_guesses
                )
                doc["played"] = [{"guess": x.guess, "feedback": x.feedback_digits()} for x in rep.played]
            else:
                doc["rows"] = [
                    {"index": x.index, "feedback": format_digits(x.pattern, lex.length), "fitting": x.fitting}
                    for x in rep.rows
                ]
                doc["lines"] = rep.lines(r.style)
                doc["bot"] = [x.guess for x in rep.bot]
        finally:
            self._release(r.entry, "search", advisor)
        doc.update(self.day_doc(lex, r.game_day), words=r.name)
        return self._keep(r.key, doc)

    def share(
        self,
        words: str | None,
        rows: list[Row],
        *,
        hard: bool = False,
        max_guesses: int = 6,
        puzzle: int | None = None,
        style: EmojiStyle = "dark",
    ) -> str:
        if not rows:
            raise InvalidWordError("there is nothing to share: the history has no rows")
        if len(rows) > max_guesses:
            raise InvalidWordError(f"the history has {len(rows)} rows; the game allows {max_guesses} guesses")
        green = all_green(len(rows[0].guess))
        for k, r in enumerate(rows[:-1], start=1):
            if r.pattern == green:
                raise InvalidFeedbackError(f"row {k} is all green: only the last row can be")
        return share_grid(
            rows, solved=rows[-1].pattern == green, max_guesses=max_guesses, hard=hard, puzzle=puzzle, style=style
        )

    def today_puzzle(self) -> int:
        return puzzle_number(self.clock())


def parse_rows(history: str | list, length: int) -> list[Row]:
    """The request's rows, text or the API's rows (``.guess``, ``.feedback``), read by the one
    history parser (``game.parse_history``: words of ``length`` letters, errors naming the row)."""
    return parse_history(history if isinstance(history, str) else [(r.guess, r.feedback) for r in history], length)


def parse_multi_rows(history: str | list) -> tuple[tuple[str, tuple[str | None, ...]], ...]:
    """Multi-board rows from ``"salet:20110/00000/-/10000,…"`` or the API's rows, as hashable
    (guess, colours per board) pairs; words and colours are checked when the rows are played."""
    pairs = parse_multi_history(history) if isinstance(history, str) else [(r.guess, r.feedback) for r in history]
    return tuple((word, tuple(None if f is None or f.strip() == "-" else f for f in fb)) for word, fb in pairs)


def colours(guess: str, answer: str) -> dict:
    g = check_word(guess)
    a = check_word(answer, len(g))
    fb = Feedback.of(g, a)
    return {
        "guess": g,
        "answer": a,
        "code": fb.code,
        "digits": fb.digits(),
        "letters": fb.letters(),
        "emoji": fb.emoji(),
        "solved": fb.solved,
    }
