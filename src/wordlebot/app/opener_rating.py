"""How good is one first word, exactly: its total under the exact search, and where it stands
among the first words whose exact totals are known for the same lists and rules.

A rating is the exact search's value of the word as a first guess (the optimal tree after it):
the total of guesses over every answer, or none when no strategy after it finds every answer
within the guess cap (hard mode).  It takes seconds to minutes, so every exact total found is
kept in the cache folder (``openers/exact-KEY.json``, one file per lists, rules and cap) and
read back the next time: by a rating of another word (to rank it) or of the same word (at once).
``openers --exact`` sweeps feed the same file when they finish or stop: their exact totals, and,
when a sweep went over every first word and finished, the lowest bound it proved for the words
it only bounded (``complete_below``): every first word whose total is below it is then known.

What a rating can honestly say about its place:

- its ``rank`` among the words rated so far (1 + those with a lower total: ties share a rank),
  out of ``known``; never a bare "rank 3", which would read as a place among all first words;
- the best total rated so far, and whether it is the proven best (``best_proven``: a finished
  sweep over every first word proved nothing beats it), or only the best of those rated;
- ``place_proven``: its rank is its place among all first words, because its total is below every
  bound of a finished sweep (every word that could beat it has its exact total in the store).

The file is a sealed cache file (core/cache_seal.py: the key of its inputs and a checksum):
damaged, edited or of other inputs, it is set aside with a note and started again, never fatal.
Writers merge under a lock on the folder (two ratings at once both keep their totals) and write
atomically.  The totals depend only on the lists, the rules and the cap, never on the day: the
exact search counts guesses over an answer list, so a weighted set (``nyt``) has no ratings.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import cache_seal, cache_store
from ..core.cache_formats import RATING_STORE_VERSION
from ..core.errors import CacheError, WordlebotError
from ..core.feedback import all_green
from ..core.paths import cache_dir
from ..core.words import list_fingerprint
from ..search.kernels import INF

if TYPE_CHECKING:
    from ..core.game import HardConstraints
    from ..core.words import Lexicon
    from ..search.tree_search import TreeSearch
    from .opener_journal import Journal
    from .opener_sweep import SweepSpec

# The work a rating tries on one thread before it goes to all (scan units, as SearchTuning's
# refute_quick_units: the same order of work, about a second): see _value.
SERIAL_UNITS = 150_000_000
STORE_VERSION = RATING_STORE_VERSION  # (cache_store lists the files by it)


class RatingError(WordlebotError, ValueError):
    """A first word that cannot be rated on these inputs (a weighted word set)."""


@dataclass(frozen=True)
class OpenerRating:
    """One first word's exact value and its standing among the first words rated so far."""

    word: str
    total: int | None  # total guesses over every answer; None: cannot win within the cap
    answers: int  # how many answers the total is over
    rank: int | None  # 1 + the words rated so far with a lower total (None: cannot win)
    known: int  # first words with an exact value for these inputs, this one included
    best: tuple[str, int] | None  # the best total known (word, total)
    best_proven: bool  # a finished sweep over every first word proved ``best`` optimal
    place_proven: bool  # ``rank`` is the word's place among all first words
    seconds: float  # the search's time (0 when the total was known already)
    cached: bool  # the total came from the store, not from a search now

    @property
    def mean(self) -> float | None:
        """Average guesses per answer."""
        return None if self.total is None else self.total / self.answers

    @property
    def gap(self) -> int | None:
        """Guesses more than the best known total (0 for the best)."""
        if self.total is None or self.best is None:
            return None
        return self.total - self.best[1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "total": self.total,
            "answers": self.answers,
            "mean": self.mean,
            "rank": self.rank,
            "known": self.known,
            "best": None if self.best is None else {"word": self.best[0], "total": self.best[1]},
            "best_proven": self.best_proven,
            "place_proven": self.place_proven,
            "gap": self.gap,
            "seconds": self.seconds,
            "cached": self.cached,
        }


def _fingerprints(lex: Lexicon) -> tuple[str, str]:
    # the 16 first hex digits: what an openers journal's sweep line names its lists by
    return list_fingerprint(lex.guesses)[:16], list_fingerprint(lex.answers)[:16]


def store_key(guesses_fp: str, answers_fp: str, hard: bool, max_guesses: int) -> str:
    """Names what the totals depend on: the two lists (fingerprints), the rules and the cap."""
    text = repr((guesses_fp, answers_fp, bool(hard), int(max_guesses), STORE_VERSION))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass
class OpenerStore:
    """The exact first-word totals known for one pair of lists, rules and cap (see the module)."""

    path: Path
    key: str
    words: str  # the word set's name, for ``wordlebot cache`` listings
    guesses_fp: str
    answers_fp: str
    hard: bool
    max_guesses: int
    n_answers: int
    n_guesses: int
    totals: dict[str, int | None] = field(default_factory=dict)  # word -> total (None: cannot win)
    complete_below: float | None = None  # every first word with a total below it is in ``totals``

    @classmethod
    def open(cls, lex: Lexicon, hard: bool, max_guesses: int, folder: Path | None = None) -> OpenerStore:
        """The store of these lists and rules in the cache folder (or ``folder``): its totals so
        far, none when there is no file yet or it was unusable (then set aside)."""
        if lex.weighted:
            raise RatingError(
                f"exact first-word totals count guesses over an answer list; the {lex.name} word set is "
                "weighted by a prior: use --words classic, nyt-2309 or nyt-3158 (or --guesses/--answers)"
            )
        g, a = _fingerprints(lex)
        key = store_key(g, a, hard, max_guesses)
        root = Path(folder) if folder is not None else cache_dir() / "openers"
        store = cls(root / f"exact-{key}.json", key, lex.name, g, a, bool(hard), int(max_guesses),
                    lex.n_answers, lex.n_guesses)  # fmt: skip
        store._load(set(lex.guesses))
        return store

    def _load(self, allowed: set[str] | None = None) -> None:
        try:
            doc = cache_seal.read_sealed(self.path, self.key)
            if doc is None:
                return
            totals, below = _parse(doc, allowed)
        except (CacheError, ValueError, TypeError, KeyError, AttributeError) as exc:
            cache_seal.set_aside(self.path, "store of exact first-word totals", exc)
            return
        self.totals, self.complete_below = totals, below
        cache_store.touch(self.path)

    def record(self, totals: dict[str, int | None], complete_below: float | None = None) -> None:
        """Add exact totals (and a finished sweep's ``complete_below``) and write the file:
        under a lock, merged with what another process wrote meanwhile, atomically."""
        from ..core.data import atomic_write_json

        self.path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(self.path.parent):
            self._load()  # another process's totals since this one read the file
            self.totals.update(totals)
            if complete_below is not None:
                self.complete_below = max(self.complete_below or -INF, complete_below)
            doc = {
                "version": STORE_VERSION,
                "words": self.words,
                "guesses": self.guesses_fp,
                "answers": self.answers_fp,
                "hard": self.hard,
                "max_guesses": self.max_guesses,
                "n_answers": self.n_answers,
                "complete_below": self.complete_below,
                "totals": dict(sorted(self.totals.items())),
            }
            atomic_write_json(self.path, cache_seal.seal(doc, self.key))
        cache_store.after_write(self.path)

    def record_sweep(self, values: dict[str, tuple[float, bool]], *, complete: bool) -> None:
        """Keep an exact sweep's results (word -> (value, exact)): its exact totals, the words it
        proved unable to win, and, when it ``complete``d over every first word, the lowest bound
        of its other words (every word that could beat it is exact).  A stopped sweep gives its
        totals only: its bounds say nothing of the words it had not reached."""
        totals: dict[str, int | None] = {}
        bounds = []
        for w, (v, exact) in values.items():
            if exact:
                totals[w] = _total(v)
            elif v >= INF:
                totals[w] = None  # proven unable to win within the cap: as exact as a total
            else:
                bounds.append(v)
        below = None
        if complete and len(values) >= self.n_guesses:
            below = min(bounds, default=INF)
        self.record(totals, below)

    def record_journal(self, journal: Journal) -> None:
        """Keep the exact totals of an openers journal of these lists and rules (a sweep that
        finished over every first word gives its bounds too, as in ``record_sweep``)."""
        sweep = journal.sweep
        mine = {"guesses": self.guesses_fp, "answers": self.answers_fp, "hard": self.hard,
                "max_guesses": self.max_guesses, "search": "exact"}  # fmt: skip
        other = [k for k, v in mine.items() if sweep.get(k) != v]
        if other:
            raise RatingError(f"{journal.path} is the journal of another sweep ({', '.join(other)} differ)")
        values = {w: (v, e) for w, (v, e, _) in journal.rows.items()}
        self.record_sweep(values, complete=journal.complete)

    def rating(self, word: str, *, seconds: float = 0.0, cached: bool = False) -> OpenerRating:
        """The standing of ``word``, whose total is in the store."""
        total = self.totals[word]
        finite = sorted((t, w) for w, t in self.totals.items() if t is not None)
        best = (finite[0][1], finite[0][0]) if finite else None
        below = self.complete_below
        rank = None if total is None else 1 + sum(1 for t, _ in finite if t < total)
        return OpenerRating(
            word=word,
            total=total,
            answers=self.n_answers,
            rank=rank,
            known=len(self.totals),
            best=best,
            best_proven=best is not None and below is not None and best[1] < below,
            place_proven=total is not None and below is not None and total < below,
            seconds=seconds,
            cached=cached,
        )


def _total(v: float) -> int | None:
    return None if v >= INF else int(round(v))


def _parse(doc: dict[str, Any], allowed: set[str] | None) -> tuple[dict[str, int | None], float | None]:
    if doc.get("version") != STORE_VERSION:
        raise ValueError(f"is of format {doc.get('version')!r}, not {STORE_VERSION}")
    totals: dict[str, int | None] = {}
    for w, t in doc["totals"].items():
        if allowed is not None and w not in allowed:
            raise ValueError(f"names {w!r}, not a word of the guess list")
        if t is not None and (isinstance(t, bool) or not isinstance(t, int) or t <= 0):
            raise ValueError(f"holds {t!r} as the total of {w!r}")
        totals[w] = t
    below = doc["complete_below"]
    if below is not None and not (isinstance(below, (int, float)) and math.isfinite(below)):
        raise ValueError(f"holds {below!r} as the sweep's lowest bound")
    return totals, None if below is None else float(below)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """An exclusive lock on the folder (POSIX), so two writers merge instead of one losing the
    other's totals; where there is no flock, the last writer wins (a total lost is found again)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # (closing releases the lock)


def rate_first_words(
    spec: SweepSpec,
    words: Iterable[str],
    *,
    threads: int = 2,
    lexicon: Lexicon | None = None,
    folder: Path | None = None,
    on_bounds: Callable[[RatingBounds], None] | None = None,
    on_rating: Callable[[OpenerRating], None] | None = None,
) -> list[OpenerRating]:
    """The exact total of each first word (``spec``'s lists, rules and cap; its search settings
    but ``k``: the search is exact) and its standing among the words rated so far, this call's
    included.  Every word is checked before any search (an unknown word raises
    ``InvalidWordError`` with the near words); totals known already are read, not searched
    again; the others are searched one after another on ``threads`` threads, sharing one
    search's table, and kept as soon as each is found (a stop keeps those done).

    ``on_bounds``: called with a word's ``RatingBounds`` when its search did not finish within
    a second or so of work on one thread (a word that will take a while), before the rest of
    it; the bounds' few seconds are then a small part of the whole, and the player knows, at
    once, about how good the word is and that the exact total is on its way.  ``on_rating``:
    called with each word's rating as soon as it is known: first the words whose totals were
    known already, then each searched word as its search ends and its total is kept (each with
    its rank among the words rated until then; the list returned has every rank as of the
    end)."""
    from ..core.game import HardConstraints

    lex = lexicon if lexicon is not None else spec.lexicon()
    store = OpenerStore.open(lex, spec.hard, spec.max_guesses, folder)
    ids = [lex.id(w) for w in words]  # InvalidWordError, with near words, before any search
    chosen = list(dict.fromkeys(lex.guesses[g] for g in ids))
    seconds = dict.fromkeys(chosen, 0.0)
    todo = [w for w in chosen if w not in store.totals]
    if on_rating is not None:
        for w in chosen:
            if w not in todo:
                on_rating(store.rating(w, cached=True))
    if todo:
        search = replace(spec, k=None, fail_cost=None).build(lex, threads)  # exact, a hard cap
        cons = HardConstraints.none(lex.length) if spec.hard else None
        near: list[TreeSearch] = []  # built for the first word that needs bounds

        def bounds_of(g: int) -> Callable[[], None] | None:
            if on_bounds is None:
                return None

            def tell() -> None:
                if not near:
                    near.append(_near_search(spec, lex, threads))
                on_bounds(first_word_bounds(search, near[0], g, cons))

            return tell

        def stop() -> None:
            for s in [search, *near]:
                s.stop()

        for w in todo:
            t0 = time.perf_counter()
            g = lex.id(w)
            v = _interruptibly(stop, functools.partial(_value, search, g, cons, bounds_of(g)))
            seconds[w] = time.perf_counter() - t0
            store.record({w: _total(v)})
            if on_rating is not None:
                on_rating(store.rating(w, seconds=seconds[w]))
    return [store.rating(w, seconds=seconds[w], cached=w not in todo) for w in chosen]


@dataclass(frozen=True)
class RatingBounds:
    """What a rating knows of a first word's total before its exact search ends, said at once
    when that search will take a while (see ``rate_first_words``): a proven lower bound and the
    total of a real strategy after the word (an upper bound), each in a few seconds, where the
    exact total can take minutes (QAJAQ on NYT-3158: its biggest part holds 1,891 of the 3,158
    answers, a game of its own with its best guess to prove)."""

    word: str
    lower: int | None  # the total is at least this (proven: each part bounded by a scan); None: proven unable to win
    upper: int | None  # at most this: a near-optimal strategy's total (None: it found none within the cap)
    answers: int  # how many answers the totals are over
    biggest: int  # answers in the biggest part the word leaves (what makes the exact search long)
    seconds: float  # what the two bounds took

    @property
    def upper_mean(self) -> float | None:
        return None if self.upper is None else self.upper / self.answers


def first_word_bounds(
    search: TreeSearch, near: TreeSearch, guess: int, constraints: HardConstraints | None
) -> RatingBounds:
    """A proven lower bound on a first word's total (every answer's first guess, plus each part
    it leaves bounded by a scan of every guess, as the exact search bounds it first) and an upper
    bound: the total of ``near``'s strategy after it (a near-optimal search with a hard guess
    cap, so a real strategy's total, or none when it finds no way to win within the cap)."""
    t0 = time.perf_counter()
    lex = search.lexicon
    H = np.arange(lex.n_answers, dtype=np.int32)
    pats = np.asarray(search.mt[H, guess])
    green = all_green(lex.length)
    word = lex.guesses[guess]
    lower = float(H.size)
    biggest = 0
    with search.isolated():  # tables of its own, emptied: the same bound whatever was searched before
        for p in np.unique(pats).tolist():
            if p == green:
                continue
            Hp = H[pats == p]
            biggest = max(biggest, int(Hp.size))
            if Hp.size <= 2:
                lower += 2 * Hp.size - 1  # one guess, or two answers in three guesses
                continue
            cons = constraints.add(word, p) if constraints is not None else None
            lower += search.node_bound(Hp, rows=1, constraints=cons)
    upper = near.value_of_guess(guess, constraints=constraints)
    return RatingBounds(
        word=word,
        lower=_total(lower),
        upper=_total(upper),
        answers=int(H.size),
        biggest=biggest,
        seconds=time.perf_counter() - t0,
    )


def _value(
    search: TreeSearch,
    guess: int,
    constraints: HardConstraints | None,
    bounds: Callable[[], None] | None = None,
) -> float:
    """The exact value of a first word: first on this thread alone within a small allowance of
    work, then (not done by then) on all the search's threads.  Both stop at the first part
    found unable to win within the cap, but they meet the parts in different orders: the
    serial search the smallest of the big parts first, the threads the biggest first, whole
    small parts last.  NYT-3158 hard mode SALET (unable to win, like nearly half of the first
    words there) took 12.5 s on 2 threads and takes 0.1 s so.  What the serial attempt proved
    is in the table the parallel search reads; the value is the search's either way.  Between
    the two, ``bounds`` is called (the word's bounds, told to the player: see RatingBounds)."""
    from ..search.tree_search import BudgetExceeded

    with search.lane():
        try:
            with search.allowance(SERIAL_UNITS):
                return search.value_of_guess(guess, constraints=constraints, parallel=False)
        except BudgetExceeded:
            pass
    if bounds is not None:
        bounds()
    return search.value_of_guess(guess, constraints=constraints)


def _interruptibly(stop: Callable[[], None], run: Callable[[], float]) -> float:
    """``run()``, from the main thread on a thread of its own while the main thread waits: a
    Ctrl+C then stops the rating at once, where a kernel running on the main thread (a whole
    first word on one thread: minutes) would hold it until it returned.  On the interrupt
    ``stop()`` stops the searches (TreeSearch.stop), the thread ends within milliseconds, and
    the interrupt goes on."""
    if threading.current_thread() is not threading.main_thread():
        return run()
    value: list[float] = []
    error: list[BaseException] = []

    def work() -> None:
        try:
            value.append(run())
        except BaseException as exc:  # re-raised in the caller's thread
            error.append(exc)

    thread = threading.Thread(target=work, name="rating", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.25)
    except KeyboardInterrupt:
        stop()
        thread.join()
        raise
    if error:
        raise error[0]
    return value[0]


def _near_search(spec: SweepSpec, lex: Lexicon, threads: int) -> TreeSearch:
    """The near-optimal search of a rating's upper bound: the opener sweep's seed, but always
    with a hard guess cap (the seed's hard-mode failure cost makes estimates, not the totals of
    real strategies)."""
    return replace(spec.seeding(), fail_cost=None).build(lex, threads)


def rate_first_word(
    spec: SweepSpec, word: str, *, threads: int = 2, lexicon: Lexicon | None = None, folder: Path | None = None
) -> OpenerRating:
    """The exact total of one first word and its standing (see ``rate_first_words``)."""
    return rate_first_words(spec, [word], threads=threads, lexicon=lexicon, folder=folder)[0]
