"""What the web API computes, without any HTTP: word sets, one Advisor per (set, day, strategy),
and a cache of answers.

The API is stateless (every request carries the whole game), so any request can be answered by
any worker and a reload loses nothing.  Advisors are costly to build (pattern matrix, search
tables, opening book) and keep useful tables between calls, so each is built once and shared;
a TreeSearch changes its own settings while it ranks, hence one lock per Advisor.  Suggestions
are a pure function of the state, and players who follow them meet the same states over and
over: a bounded cache answers those without a search.

The ``nyt`` set's prior belongs to a day (``answers.daily``): the engine asks its clock for the
day of each request, loads the set again when the day changes (a long-running server never
plays today with yesterday's prior), and keys every table by the day as well as the set.
"""

from __future__ import annotations

import datetime as dt
import math
import threading
import time
from collections import OrderedDict
from dataclasses import asdict
from typing import Callable, Hashable, Mapping

import numpy as np

from ..advisor import Advisor
from ..analysis import analyze_game, share_text
from ..errors import InconsistentFeedbackError, InvalidFeedbackError, InvalidWordError, WordlebotError
from ..explain import about, by_likelihood, explain, likely_count
from ..feedback import Feedback, all_green, check_word, format_digits, parse_feedback
from ..game import Game, Row
from ..data import puzzle_day
from ..render import puzzle_number
from ..strategies import STRATEGIES
from ..words import Lexicon
from ..wordsets import NAMED

# The exact search can take minutes on a big node: not something a web request may start.
WEB_STRATEGIES = ("search",) + STRATEGIES
CACHE_SIZE = 4096
WHY_GROUPS = 6  # colour groups of the top suggestion listed in its explanation
# A request waits this long for a busy Advisor before the server answers 503 (busy).
LOCK_WAIT = 60.0
OFFICIAL_SETS = tuple(NAMED)
DAYS_KEPT = 3  # days whose word sets and Advisors stay loaded (today, and a few analysed ones)

# A source is a Lexicon, or a loader called with a list to append notes to and the day; a loaded
# set whose ``day`` is None has a prior that does not change with the day and is loaded once.
LexiconSource = Lexicon | Callable[[list[str], dt.date], Lexicon]
Clock = Callable[[], dt.date]


class BusyError(Exception):
    """Every Advisor of a word set stayed busy for LOCK_WAIT seconds."""


class UnknownWordSet(WordlebotError, LookupError):
    pass


class InvalidDayError(WordlebotError, ValueError):
    """A day the server cannot give a prior for (a puzzle not played yet)."""


def _finite(x: float | None) -> float | None:
    """JSON has no infinity or NaN: an unreachable value is reported as null."""
    if x is None or not math.isfinite(x) or abs(x) >= 1e15:
        return None
    return float(x)


class Engine:
    """Word sets by name (given, or loaded on first use for each day) and their Advisors.
    ``clock`` gives today's date (injected so a test can move it)."""

    def __init__(self, lexicons: Mapping[str, LexiconSource], default: str | None = None, *,
                 cache_size: int = CACHE_SIZE, clock: Clock = dt.date.today, days_kept: int = DAYS_KEPT) -> None:
        if not lexicons:
            raise ValueError("at least one word set is needed")
        self._sources = dict(lexicons)
        self.default = default or next(iter(self._sources))
        if self.default not in self._sources:
            raise ValueError(f"default word set {self.default!r} is not among {list(self._sources)}")
        self.strategies = WEB_STRATEGIES
        self.clock = clock
        self._days_kept = days_kept
        # keyed by (set, day); the day is None for a set whose prior does not change with it
        self._lexicons: dict[tuple[str, dt.date | None], Lexicon] = {}
        self._notes: dict[tuple[str, dt.date | None], list[str]] = {}
        self._static: set[str] = set()  # sets loaded once for every day
        self._days: dict[str, OrderedDict] = {name: OrderedDict() for name in self._sources}
        self._advisors: dict[tuple[str, dt.date | None, str], tuple[Advisor, threading.Lock]] = {}
        self._load_locks = {name: threading.Lock() for name in self._sources}
        self._lock = threading.Lock()  # the cache and the advisor table: held briefly
        self._build_lock = threading.Lock()  # building an Advisor (seconds): not under _lock
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size
        self.cache_hits = 0

    # --- word sets and advisors ----------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self._sources)

    def today(self) -> dt.date:
        return self.clock()

    def lexicon(self, name: str | None, day: dt.date | None = None) -> Lexicon:
        """The word set ``name`` with the prior of ``day`` (default: the clock's today)."""
        name = name or self.default
        if name not in self._sources:
            raise UnknownWordSet(f"unknown word set {name!r}; this server offers {', '.join(self._sources)}")
        src = self._sources[name]
        if isinstance(src, Lexicon):
            return src
        day = day or self.clock()
        with self._load_locks[name]:  # two first requests must not load a big set twice
            key = (name, None if name in self._static else day)
            if key not in self._lexicons:
                notes: list[str] = []
                lex = src(notes, day)
                if lex.day is None:
                    self._static.add(name)
                key = (name, lex.day)
                self._lexicons[key], self._notes[key] = lex, notes
            if key[1] is not None:
                self._used(name, key[1])
            return self._lexicons[key]

    def _used(self, name: str, day: dt.date) -> None:
        """Keep the ``days_kept`` most recently used days of a set; forget the others' tables."""
        days = self._days[name]
        days[day] = True
        days.move_to_end(day)
        dropped = False
        while len(days) > self._days_kept:
            old, _ = days.popitem(last=False)
            self._lexicons.pop((name, old), None)
            self._notes.pop((name, old), None)
            dropped = True
        if not dropped:  # the common case (a known day): nothing to purge, no lock to wait for
            return
        with self._build_lock:
            for key in [k for k in self._advisors if k[0] == name and k[1] is not None and k[1] not in days]:
                del self._advisors[key]
        with self._lock:
            for key in [k for k in self._cache if k[0] == name and k[1] is not None and k[1] not in days]:
                del self._cache[key]

    def notes(self, name: str | None, day: dt.date | None = None) -> list[str]:
        lex = self.lexicon(name, day)
        return list(self._notes.get((name or self.default, lex.day), []))

    def advisor(self, name: str | None, strategy: str, day: dt.date | None = None) -> tuple[Advisor, threading.Lock]:
        if strategy not in self.strategies:
            raise InvalidWordError(f"unknown strategy {strategy!r}; choose one of {', '.join(self.strategies)}")
        name = name or self.default
        lex = self.lexicon(name, day)
        key = (name, lex.day, strategy)
        found = self._advisors.get(key)
        if found is not None and found[0].lexicon is lex:
            return found
        with self._build_lock:
            found = self._advisors.get(key)
            if found is None or found[0].lexicon is not lex:
                # Advisors of one set share its pattern matrix: pattern_matrix memoises it per lexicon.
                self._advisors[key] = (Advisor(lex, strategy=strategy), threading.Lock())
            return self._advisors[key]

    def warm(self, name: str | None = None) -> float:
        """Load a set and compute its first suggestion (the opening book: seconds, once)."""
        t0 = time.perf_counter()
        self.suggest(name, [], top=1, candidates=0)
        return time.perf_counter() - t0

    # --- games ---------------------------------------------------------------------------------

    def game(self, lex: Lexicon, advisor: Advisor, rows: list[Row], *, hard: bool, max_guesses: int) -> Game:
        """The game the rows describe; errors name the row."""
        if len(rows) > max_guesses:
            raise InvalidWordError(f"the history has {len(rows)} rows; the game allows {max_guesses} guesses")
        game = Game(lex, hard=hard, max_guesses=max_guesses, matrix=advisor.matrix)
        for k, row in enumerate(rows, start=1):
            try:
                game.guess(row.guess, row.pattern)
            except InconsistentFeedbackError:
                raise
            except WordlebotError as exc:
                raise type(exc)(f"row {k}: {exc}") from None
        return game

    def suggest(self, words: str | None, rows: list[Row], *, hard: bool = False, max_guesses: int = 6,
                strategy: str = "search", top: int = 10, candidates: int = 100, day: dt.date | None = None) -> dict:
        name = words or self.default
        day = day or self.clock()
        lex = self.lexicon(name, day)
        advisor, lock = self.advisor(name, strategy, day)
        key: tuple[Hashable, ...] = (name, lex.day, strategy, hard, max_guesses,
                                     tuple((r.guess, r.pattern) for r in rows), top, candidates)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                self.cache_hits += 1
                return dict(hit, cached=True)
        t0 = time.perf_counter()
        if not lock.acquire(timeout=LOCK_WAIT):
            raise BusyError()
        try:
            game = self.game(lex, advisor, rows, hard=hard, max_guesses=max_guesses)
            ranked = [] if game.over else advisor.suggest(game, top)
        finally:
            lock.release()
        doc = self._describe(name, lex, strategy, game, ranked, candidates)
        doc["seconds"] = round(time.perf_counter() - t0, 4)
        with self._lock:
            if self._cache_size <= 0:
                return dict(doc, cached=False)
            self._cache[key] = doc
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return dict(doc, cached=False)

    def _describe(self, name: str, lex: Lexicon, strategy: str, game: Game, ranked, n_cands: int) -> dict:
        suggestions = []
        for r in ranked:
            d = asdict(r)
            for f in ("score", "bits", "expected_left", "p_answer", "expected"):
                d[f] = _finite(d[f])
            suggestions.append(d)
        why = None
        if ranked and game.candidates.size:
            e = explain(game, ranked[0].word)
            why = {"word": e.word, "text": e.sentences(), "p_answer": e.p_answer, "p_known": e.p_known,
                   "expected_left": e.expected_left, "groups": len(e.groups),
                   "largest": {"digits": e.largest.digits, "size": e.largest.size, "p": e.largest.p},
                   "top_groups": [{"digits": g.digits, "size": g.size, "p": g.p} for g in e.groups[:WHY_GROUPS]]}
        likely = likely_count(game.posterior)
        return {
            "words": name, "day": lex.day.isoformat() if lex.day else None, "description": lex.describe(),
            "official": lex.official, "note": lex.note,
            "length": lex.length, "strategy": strategy, "hard": game.hard, "max_guesses": game.max_guesses,
            "history": game.history(),
            "rows": [{"guess": r.guess, "feedback": r.feedback_digits()} for r in game.rows],
            "solved": game.solved, "over": game.over,
            "candidates": int(game.candidates.size),
            "likely": round(likely, 2), "likely_text": about(likely),
            # likeliest first (equals in list order), with each one's probability
            "candidate_words": [{"word": w, "p": _finite(p)} for w, p in by_likelihood(game, n_cands)],
            "suggestions": suggestions,
            "why": why,
        }

    def analyze(self, words: str | None, rows: list[Row], *, answer: str | None = None, hard: bool = False,
                max_guesses: int = 6, puzzle: int | None = None, style: str = "dark") -> dict:
        """Rate a played game; a game of a known puzzle is judged with that day's prior."""
        if not rows:
            raise InvalidWordError("there is nothing to analyse: the history has no rows")
        name = words or self.default
        day = self.puzzle_day(puzzle) if puzzle is not None else self.clock()
        lex = self.lexicon(name, day)
        if answer is not None:
            answer = check_word(answer, lex.length)
        advisor, lock = self.advisor(name, "search", day)
        if not lock.acquire(timeout=LOCK_WAIT):
            raise BusyError()
        try:
            game = self.game(lex, advisor, rows, hard=hard, max_guesses=max_guesses)
            report = analyze_game(advisor, game.rows, answer=answer, hard=hard, max_guesses=max_guesses)
        finally:
            lock.release()
        return {
            "words": name, "day": lex.day.isoformat() if lex.day else None,
            "summary": report.summary(), "skill": report.skill, "luck": report.luck,
            "solved": report.solved, "answer": report.answer,
            "rows": [{"index": r.index, "guess": r.guess, "feedback": format_digits(r.pattern, lex.length),
                      "candidates_before": r.candidates_before, "candidates_after": r.candidates_after,
                      "best": r.best, "best_expected": _finite(r.best_expected),
                      "player_expected": _finite(r.player_expected), "skill": r.skill, "luck": r.luck,
                      "solved": r.solved} for r in report.rows],
            "share": self.share(name, game.rows, hard=hard, max_guesses=max_guesses, puzzle=puzzle, style=style),
        }

    def share(self, words: str | None, rows: list[Row], *, hard: bool = False, max_guesses: int = 6,
              puzzle: int | None = None, style: str = "dark") -> str:
        if not rows:
            raise InvalidWordError("there is nothing to share: the history has no rows")
        if len(rows) > max_guesses:
            raise InvalidWordError(f"the history has {len(rows)} rows; the game allows {max_guesses} guesses")
        green = all_green(len(rows[0].guess))
        for k, r in enumerate(rows[:-1], start=1):
            if r.pattern == green:
                raise InvalidFeedbackError(f"row {k} is all green: only the last row can be")
        return share_text(rows, solved=rows[-1].pattern == green, max_guesses=max_guesses, hard=hard,
                          puzzle=puzzle, style=style)

    def today_puzzle(self) -> int:
        return puzzle_number(self.clock())

    def puzzle_day(self, puzzle: int) -> dt.date:
        """The day of a puzzle number; refused when that day has not come yet."""
        day = puzzle_day(puzzle)
        today = self.clock()
        if day > today:
            raise InvalidDayError(f"puzzle {puzzle:,} is the one of {day}, after today ({today})")
        return day


def parse_rows(history: str | list, length: int) -> list[Row]:
    """Rows from ``"salet:20110,crony:00210"`` (split as ``game.parse_history`` splits it) or from
    the API's rows (``.guess``, ``.feedback``); checked (a-z words of ``length`` letters, feedback
    in any accepted format), errors naming the row."""
    if isinstance(history, str):
        parts = [p for p in history.replace(";", ",").replace("\n", ",").split(",") if p.strip()]
        pairs = []
        for k, part in enumerate(parts, start=1):
            word, sep, fb = part.partition(":")
            if not sep:
                raise InvalidFeedbackError(f"row {k}: {part.strip()!r} is not GUESS:FEEDBACK, e.g. salet:20110")
            pairs.append((word, fb))
    else:
        pairs = [(r.guess, r.feedback) for r in history]
    rows = []
    for k, (word, fb) in enumerate(pairs, start=1):
        try:
            rows.append(Row(check_word(word, length), parse_feedback(fb, length)))
        except WordlebotError as exc:
            raise type(exc)(f"row {k}: {exc}") from None
    return rows


def colours(guess: str, answer: str) -> dict:
    g = check_word(guess)
    a = check_word(answer, len(g))
    fb = Feedback.of(g, a)
    return {"guess": g, "answer": a, "code": fb.code, "digits": fb.digits(),
            "letters": fb.letters(), "emoji": fb.emoji(), "solved": fb.solved}
