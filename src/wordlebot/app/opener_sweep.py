"""Ranking first words, and proving the best one, on a Dask cluster.

Each task evaluates a batch of first words in a worker process with the tree search, bounded
by the best total known when the batch was sent: a word that cannot beat it stops early and is
reported as ">= bound".  Words go out best-first (by the search's ordering key), so the bound is
tight from the first batches on and most words are cut quickly.  With the exact search, every
word either gets its exact total or a proof that it cannot beat the best: the best word is
proven optimal.

An exact sweep starts by seeding the bound: the near-optimal totals of the most promising words
(SearchTuning.seed_words, more when many are kept: see seed_size; a second each at most; each
the total of a real strategy, so the keep-th best of them bounds the keep-th best exact total
from above) set the bound before any exact search, and those words go out first, best first.
Without the seed, the first words were searched with no bound or a loose one (the search's
ordering key puts TIARE first on the NYT lists, 100 above TARSE): a third of the CPU time of the
words at the head of the order.  A cheaper near-optimal search (SweepSpec.staging) then helps
refute the words the kernel does not refute at once (see refutation).

In hard mode the near-optimal search finds no strategy within the cap, so its totals, with a
failure cost, are estimates, not bounds (on NYT-3158 they were 4 to 85 above the exact totals
of the first 14 words): they order the words, and the keep-th best of them is an aspiration, a
provisional bound.  Without it, the head of the order was searched with no bound at all until
keep exact totals existed (on NYT-3158, keep 100: 25 words exact in the first 47 minutes, up to
287 s each).  A word refuted against the aspiration is final if keep exact totals come out
below it (the proven bound is then lower still); if fewer do, the words refuted against it are
evaluated again, lowest proven bound first, as without an aspiration.

A LocalCluster of one worker process, with a thread per core, is started unless a scheduler
address is given.  A worker process keeps its search (and its table) between tasks, and its
threads share that table (``TreeSearch.lane``): the parts one first word leaves recur under its
anagrams and neighbours (SATER after TARSE took 14 s instead of 30, STARE 8 s instead of 48), so
what one thread proves the other reads, where two processes would each prove it again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..search.tree_search import DEFAULT_TUNING, INF, SearchTuning, TreeSearch

if TYPE_CHECKING:
    from ..core.words import Lexicon

_WORKER_SEARCH: dict[tuple[object, ...], TreeSearch] = {}
_WORKER_LOCK = threading.Lock()  # a worker process's threads build its search once

BATCH_SECONDS = 2.0  # a batch comes back once it has run this long; its other words go out again


@dataclass(frozen=True)
class SweepSpec:
    """Everything a worker needs to rebuild the search (sent to the workers, so plain data)."""

    words: str = "classic"
    length: int = 5
    data_dir: str | None = None
    guesses: str | None = None
    answers: str | None = None
    hard: bool = False
    max_guesses: int = 6
    k: int | None = None  # None: exact
    kc: int = 6
    memory_mb: int = 1024
    fail_cost: float | None = None  # None: a hard cap
    tuning: SearchTuning = DEFAULT_TUNING  # the searches' (and the seed's sizes, see seed_size)

    def key(self) -> tuple[object, ...]:
        return tuple(self.__dict__.values())

    def lexicon(self) -> Lexicon:
        from .wordsets import load_lexicon

        return load_lexicon(
            self.words,
            data_dir=self.data_dir,
            length=self.length,
            guesses=self.guesses,
            answers=self.answers,
            auto_fetch=False,
            notify=lambda m: None,
        )

    def build(self, lexicon: Lexicon, threads: int = 1) -> TreeSearch:
        """A new search of the spec's settings over ``lexicon`` (its lists), on ``threads``."""
        return TreeSearch(
            lexicon,
            k=self.k,
            kc=self.kc,
            hard=self.hard,
            max_guesses=self.max_guesses,
            memory_mb=self.memory_mb,
            threads=threads,
            fail_cost=self.fail_cost,
            tuning=self.tuning,
        )

    def search(self) -> TreeSearch:
        """This worker process's search for the spec (built once; its threads share it)."""
        with _WORKER_LOCK:
            s = _WORKER_SEARCH.get(self.key())
            if s is None:
                if len(_WORKER_SEARCH) >= 3:
                    # a sweep's searches per worker process (exact, seed, stages): bounded memory
                    _WORKER_SEARCH.clear()
                s = self.build(self.lexicon())
                _WORKER_SEARCH[self.key()] = s
            return s

    def seeding(self) -> SweepSpec:
        """The near-optimal search that seeds an exact sweep.  In hard mode it finds no strategy
        within the cap from the NYT lists' first words (its few guesses a node run into the _ARES
        traps), so there a failure costs max_guesses + 2 guesses: its totals are then estimates,
        not bounds."""
        tune = self.tuning
        return replace(
            self,
            k=tune.seed_k,
            kc=tune.seed_kc,
            memory_mb=tune.seed_memory_mb,
            fail_cost=float(self.max_guesses + 2) if self.hard else None,
        )

    def staging(self) -> SweepSpec:
        """The near-optimal search that estimates the gaps of an exact sweep's hard words' parts
        (see refutation): the seed's, with fewer guesses a node (SearchTuning.stage_k)."""
        tune = self.tuning
        return replace(self.seeding(), k=tune.stage_k, kc=tune.stage_kc)

    @property
    def seeds_bound(self) -> bool:
        """Whether the seed's totals are upper bounds (hard cap) or only estimates."""
        return self.seeding().fail_cost is None


def seed_size(keep: int, hard: bool = False, tuning: SearchTuning = DEFAULT_TUNING) -> int:
    """How many of the most promising first words seed a sweep that keeps ``keep`` exact totals.
    The bound is the keep-th best of the seed's totals, so the seed must hold about keep words
    near the keep-th best total, and the order only roughly puts them first: on NYT-3158 (normal
    mode) the 100 best first words lie among the first 1,395 of the order but one (the first 200
    hold 67 of them, the first 800 hold 95).  The 100th best seeded total: 11,376 from 200 words,
    11,363 from 500, 11,357 from 800, 11,356 from 1,000, against 11,351 proven; refuting words
    from the head of the order against 11,375.5 cost a third more than against 11,351.5
    (bench_proof_sample).  A seed word costs ~0.2 CPU-s, a word at the head refuted several.

    In hard mode the order is a poor guide: of the 100 best estimates among the first 2,500
    words of the NYT-3158 order, 63 lie in the first 800, 88 in the first 2,000 and 12 between
    2,000 and 2,500, and exact totals among the ten best lie further still (CLAST 11,675 at
    place 2,601, CROST 11,680 at 2,029, SPALT 11,683 at 3,295; SPLAT 11,699 at 3,639), so no
    prefix is safe; while the sweep had not reached them, the words at the head were
    refuted against an aspiration of 11,813.5 where 11,788.5 was at hand, near-ties at 10 s
    to 19 min each.  An estimate costs ~0.15 CPU-s: for keep > 1 the seed is much wider (all
    14,855 NYT words at keep 100).  Keep 1 stays at ``tuning.seed_words``: the best first word is
    first in the order in both modes."""
    per_kept = tuning.seed_per_kept_hard if hard and keep > 1 else tuning.seed_per_kept
    return max(tuning.seed_words, per_kept * keep)


def _timed_values(
    search: TreeSearch,
    words: list[str],
    bound: float,
    near: TreeSearch | None = None,
    seconds: float = INF,
    beating: Collection[str] = (),
) -> list[tuple[str, float, float]]:
    """(word, value, seconds) of each first word against ``bound``, on a lane of the calling
    thread (the worker process's threads share the search's table); with ``near``, the hard
    words refuted in stages (see refutation), but for the words of ``beating``, known to beat
    the bound (see evaluate_batch).  Stops after the word that brings the time spent to
    ``seconds``: the words after it are left out."""
    from ..search.refutation import value_against

    lex = search.lexicon
    cons = None
    if search.hard:
        from ..core.game import HardConstraints

        cons = HardConstraints.none(lex.length)
    out: list[tuple[str, float, float]] = []
    start = time.perf_counter()
    with search.lane(), near.lane() if near is not None else contextlib.nullcontext():
        for w in words:
            t0 = time.perf_counter()
            if out and t0 - start >= seconds:
                break
            if near is not None and bound < INF and w not in beating:
                v = value_against(search, near, lex.id(w), bound, cons)
            else:
                v = search.value_of_guess(lex.id(w), constraints=cons, beta=bound, parallel=False)
            out.append((w, float(v), time.perf_counter() - t0))
    return out


def evaluate_batch(
    spec: SweepSpec, words: list[str], bound: float, seconds: float = INF, beating: Collection[str] = ()
) -> list[tuple[str, float, bool, float]]:
    """(word, value, exact, seconds) for the first words, in order, until the batch has run
    ``seconds`` (at least the first word; the caller sends the rest again); not exact means
    value >= bound.

    ``beating``: words known to beat the bound (in normal mode, a seeded total below it: a real
    strategy's, so the exact total is lower still).  Their exact total is searched at once: the
    refutation tried first (a quick allowance, then the staged bounds) would only fail, and on
    NYT-3158's head (CRANE, SALET, TRACE, ROATE, CARET against 11,351.5, each on a cold table)
    it added 39 % to the scans (188,792 without it, 261,792 with).  Only the work moves: a word
    wrongly named here still gets its value against ``bound``, exact or not, as any other."""
    near = spec.staging().search() if spec.k is None else None
    return [
        (w, v, bool(v < bound and v < INF), secs)
        for w, v, secs in _timed_values(spec.search(), words, bound, near, seconds, frozenset(beating))
    ]


def evaluate_uppers(spec: SweepSpec, words: list[str]) -> list[tuple[str, float, float]]:
    """(word, near-optimal total, seconds) for each first word: the seed of an exact sweep.  Each
    total is that of a strategy the near-optimal search found, so it bounds the word's exact
    total from above (INF when it found none within the guess cap; in hard mode an estimate,
    see ``SweepSpec.seeding``)."""
    return _timed_values(spec.seeding().search(), words, INF)


def first_word_order(spec: SweepSpec) -> list[str]:
    """Every allowed first word, most promising first (the search's ordering key)."""
    search = TreeSearch(spec.lexicon(), k=0, hard=spec.hard, max_guesses=spec.max_guesses, threads=1, memory_mb=64)
    lex = search.lexicon
    H = np.arange(lex.n_answers, dtype=np.int32)
    order = search.root_order(H, spec.max_guesses, search.allowed())
    rest = np.setdiff1d(np.arange(lex.n_guesses), order, assume_unique=False)  # useless ones last
    return [lex.guesses[g] for g in np.concatenate([order, rest]).tolist()]


@dataclass
class SweepResult:
    values: dict[str, tuple[float, bool]] = field(default_factory=dict)  # word -> (value, exact)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def best(self) -> tuple[str, float] | None:
        exact = [(v, w) for w, (v, e) in self.values.items() if e]
        if not exact:
            return None
        v, w = min(exact)
        return w, v

    def ranking(self) -> list[tuple[str, float, bool]]:
        """Exact totals first, best first, then the words only bounded (a word known to need at
        least the bound may still beat an exact total above it: it is not ranked among them)."""
        return sorted(((w, v, e) for w, (v, e) in self.values.items()), key=lambda t: (not t[2], t[1], t[0]))

    def standing(self) -> Standing:
        """What the sweep proved about the order of the first words (see ``Standing``)."""
        return Standing.of(self.values)


@dataclass(frozen=True)
class Place:
    """A first word with an exact total and the places it can hold in the full ranking: ``first``
    is one more than the words proven better (exact and lower); ``last`` adds the words only
    bounded below its total, which may yet beat it.  Words of equal totals share a place."""

    word: str
    total: float
    first: int
    last: int

    @property
    def proven(self) -> bool:
        return self.first == self.last


@dataclass(frozen=True)
class Standing:
    """The ranking a sweep can stand behind: the words with an exact total, best first, each
    with the places it may hold (``Place``), and the rest, which are only proven to need at least
    a bound.  A bounded word is not a place: its total is unknown beyond the bound, so it is
    counted (``bounded``, the lowest bound, ``unwinnable``: proven unable to win within the guess
    cap), never ranked among the exact ones."""

    places: list[Place]
    bounded: int
    lowest_bound: float | None  # the smallest bound of the bounded words (None: there are none)
    unwinnable: int

    @classmethod
    def of(cls, values: dict[str, tuple[float, bool]]) -> Standing:
        exact = sorted((v, w) for w, (v, e) in values.items() if e)
        bounds = np.sort(np.array([v for v, e in values.values() if not e], dtype=np.float64))
        exact_totals = np.array([v for v, _ in exact], dtype=np.float64)
        places = []
        for v, w in exact:
            better = int(np.searchsorted(exact_totals, v, side="left"))
            # a bound b says total >= b: only a bound below v leaves room to beat v
            maybe = int(np.searchsorted(bounds, v, side="left"))
            places.append(Place(w, v, better + 1, better + maybe + 1))
        return cls(
            places=places,
            bounded=int(bounds.size),
            lowest_bound=float(bounds[0]) if bounds.size else None,
            unwinnable=int(np.count_nonzero(bounds >= INF)),
        )


def _local_cluster(LocalCluster: Any, threads: int) -> Any:
    """A LocalCluster of one worker process with ``threads`` threads (they share its search's
    table), which ignores Ctrl+C: the terminal sends SIGINT to every process of the job, and
    this process alone should stop the sweep (closing the cluster ends the worker) instead of
    the worker printing its own traceback.  The worker inherits the ignored signal from here, so
    it is ignored while it is started."""
    import os
    import signal
    import threading

    # The worker's own warnings (tasks cancelled when the sweep stops) are noise on a terminal.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")

    def start() -> Any:
        # No dashboard, and the scheduler's HTTP server (always started) on a free port of this
        # machine alone: on its default port, a second sweep warned that 8787 was taken.
        return LocalCluster(
            n_workers=1,
            threads_per_worker=threads,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        )

    if threading.current_thread() is not threading.main_thread():
        return start()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return start()
    finally:
        signal.signal(signal.SIGINT, previous)


class _Kept:
    """The totals that set the bound: the exact ones so far, and the seed's upper ones; before
    there are keep of either, an aspiration (a provisional bound, see ``sweep``) if any."""

    def __init__(self, keep: int, margin: float) -> None:
        self.keep, self.margin = keep, margin
        self.exact: list[float] = []
        self.upper: list[float] = []
        self.aspiration = INF

    def add_exact(self, v: float) -> None:
        self.exact.append(v)
        self.exact.sort()

    def add_upper(self, v: float) -> None:
        if v < INF:
            self.upper.append(v)
            self.upper.sort()

    @property
    def bounded(self) -> bool:
        return len(self.exact) >= self.keep or len(self.upper) >= self.keep

    def proven(self) -> float:
        """The keep-th best exact total so far, or of the seed's totals, if lower (keep words
        reach it, so the keep-th best exact total is at most that), plus the margin: a word that
        could be among the keep best is never cut off."""
        b = INF
        if len(self.exact) >= self.keep:
            b = self.exact[self.keep - 1]
        if len(self.upper) >= self.keep:
            b = min(b, self.upper[self.keep - 1])
        return b + self.margin if b < INF else INF

    def bound(self) -> float:
        """What words are evaluated against: the proven bound, or the aspiration while it is
        lower.  Keep exact totals may exist before keep of them are below the aspiration (the
        NYT-3158 hard run had 8 above it from its unbounded start): the aspiration still stands
        then, or the words after would be searched against a looser bound, and those refuted
        against the aspiration so far would go again if it is proven after all."""
        return min(self.proven(), self.aspiration)

    def settled(self, v: float, exact: bool) -> bool:
        """Whether a result is final: an exact total, or a refutation against a bound at least
        the proven one (every refutation, once it exists, except those against an aspiration
        that proved too low)."""
        return exact or v >= INF or (self.bounded and v >= self.proven())


def sweep(
    spec: SweepSpec,
    words: list[str],
    *,
    scheduler: str | None = None,
    workers: int = 2,
    batch: int = 4,
    batch_seconds: float = BATCH_SECONDS,
    keep: int = 1,
    margin: float = 0.5,
    seed: int | None = None,
    done: dict[str, tuple[float, bool]] | None = None,
    estimates: dict[str, float] | None = None,
    on_result: Callable[[str, float, bool], None] | None = None,
    on_batch: Callable[[list[tuple[str, float, bool, float]]], None] | None = None,
    on_seed: Callable[[int, float], None] | None = None,
    on_estimates: Callable[[dict[str, float]], None] | None = None,
) -> SweepResult:
    """Evaluate ``words`` as first words on Dask; the bound is the ``keep``-th best total so far
    (+ margin, so ties are resolved exactly).  Connects to ``scheduler``, or starts a
    LocalCluster of one process with ``workers`` threads.

    An exact sweep is seeded first (see the module's text): the near-optimal totals of the first
    ``seed`` words set the bound (default: ``seed_size(keep, spec.hard, spec.tuning)``), and those words go
    first, best first (0: no seed).

    ``done``: results of an earlier run of the same sweep (word -> (total, exact)), not evaluated
    again; their exact totals set the bound from the start; ``estimates``: the seed's totals
    of an earlier run (word -> near-optimal total), not computed again.  ``on_batch`` gets each
    batch's rows (word, total, exact, seconds) as it comes back (a journal keeps them),
    ``on_seed`` the number of seed words computed and their CPU seconds (not called when every
    one was known), ``on_estimates`` all of the seed's totals (the journal keeps them too: a
    hard-mode seed of every NYT word took 2,275 CPU-s, paid once, not at every resume).
    Until the bound exists every word costs a whole search, so words then go out one at a
    time, no more at once than exact totals are missing, and the bound exists as soon as it
    can.  In hard mode the seed sets an aspiration instead (see the
    module's text); the words it refuted are evaluated again at the end if it proved too low,
    and so are resumed refutations that do not reach the final bound.

    A batch of ``batch`` words comes back once it has run ``batch_seconds``, and the words it
    did not reach go out again first (with the bound known then): a sweep stopped loses only
    the words being searched, not the finished words of a batch held up by a slow one (stopping
    the NYT-3158 hard-mode run lost words of four batches, each over 15 minutes in)."""
    from dask.distributed import Client, LocalCluster, as_completed

    result = SweepResult()
    kept = _Kept(keep, margin)
    for w, (v, exact) in (done or {}).items():
        result.values[w] = (v, exact)
        if exact:
            kept.add_exact(v)
    todo = [w for w in words if w not in result.values]
    if not todo and all(kept.settled(*result.values[w]) for w in words):
        return result
    if seed is None:
        seed = seed_size(keep, spec.hard, spec.tuning)
    seed = seed if spec.k is None else 0  # near-optimal sweeps have no use for it

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = _local_cluster(LocalCluster, workers)
        client = Client(cluster)
    t0 = time.perf_counter()

    try:
        info = client.scheduler_info().get("workers", {})
        n_threads = max(1, sum(int(w.get("nthreads", 1)) for w in info.values()) or workers)
        upper: dict[str, float] = {}  # the seed's totals: real strategies' in normal mode
        if seed > 0:
            cpu = result.cpu_seconds
            known = estimates or {}
            todo, upper = _seeded(client, spec, words[:seed], todo, kept, n_threads, result, known)
            computed = sum(w not in known for w in upper)
            if computed and on_seed:
                on_seed(computed, result.cpu_seconds - cpu)
            if computed and on_estimates:
                on_estimates(upper)
        # Keep a couple of batches per thread in flight so every thread stays busy; each new
        # batch gets the bound known at that moment.
        in_flight = max(2, 2 * n_threads)
        pending: Any = None  # the batches in flight (as_completed), and the words to send: set
        queue: deque[str] = deque()  # at each pass over todo below
        sent: dict[Any, list[str]] = {}  # future -> its words

        def send() -> bool:
            bounded = kept.bound() < INF
            if not bounded and pending.count() >= min(n_threads, keep - len(kept.exact)):
                # Unbounded: no more whole searches at once than exact totals are missing (in
                # hard mode, unseeded, LEAST took 198 s beside TARSE's 57 s, all of it wasted
                # once TARSE's total set the bound), and no more than threads.
                return False
            chunk = [queue.popleft() for _ in range(min(batch if bounded else 1, len(queue)))]
            bound = kept.bound()
            beating = beating_words(spec, chunk, upper, bound)
            fut = client.submit(evaluate_batch, spec, chunk, bound, batch_seconds, beating, pure=False)
            sent[fut] = chunk
            pending.add(fut)
            return True

        def fill() -> None:
            while queue and pending.count() < in_flight and send():
                pass

        place = {w: i for i, w in enumerate(words)}  # the order, for the words that go again
        while todo:
            pending, queue = as_completed(), deque(todo)
            fill()
            for fut in pending:
                rows = fut.result()
                queue.extendleft(reversed(sent.pop(fut)[len(rows) :]))  # not reached: first again
                for w, v, exact, secs in rows:
                    result.values[w] = (v, exact)
                    result.cpu_seconds += secs
                    if exact:
                        kept.add_exact(v)
                    if on_result:
                        on_result(w, v, exact)
                if on_batch:
                    on_batch(rows)
                fill()
            # A refutation against an aspiration that proved too low (fewer than keep totals
            # under it), or a resumed one against such, is not final: those words go again,
            # lowest proven bound first, against the proven bound (or none, as without a seed).
            todo = sorted(
                (w for w, (v, e) in result.values.items() if w in place and not kept.settled(v, e)),
                key=lambda w: (result.values[w][0], place[w]),
            )
            kept.aspiration = INF
    except KeyboardInterrupt:
        # stopping mid-task: the cluster's shutdown warnings (workers killed) say nothing new
        import logging

        logging.getLogger("distributed").setLevel(logging.ERROR)
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    result.seconds = time.perf_counter() - t0
    return result


def beating_words(spec: SweepSpec, words: list[str], upper: dict[str, float], bound: float) -> list[str]:
    """The words sure to beat ``bound``: a seeded total below it, where the seed's totals are
    those of real strategies (an exact sweep in normal mode, see ``SweepSpec.seeds_bound``; in
    hard mode they are estimates and prove nothing)."""
    if spec.k is not None or not spec.seeds_bound:
        return []
    return [w for w in words if upper.get(w, INF) < bound]


def aspiration(estimates: list[float], keep: int, margin: float) -> float:
    """A hard-mode sweep's provisional bound (see the module's text): the keep-th best of the
    seed's estimates, plus the margin (INF when fewer than keep are finite)."""
    finite = sorted(v for v in estimates if v < INF)
    return finite[keep - 1] + margin if len(finite) >= keep else INF


def _seeded(
    client: Any,
    spec: SweepSpec,
    head: list[str],
    todo: list[str],
    kept: _Kept,
    n_threads: int,
    result: SweepResult,
    known: dict[str, float],
) -> tuple[list[str], dict[str, float]]:
    """Seed the bound with the near-optimal totals of ``head`` (those not ``known`` computed on
    the cluster, all of them before any exact search); return ``todo`` with the seeded words
    first, best total first (the order's place breaks ties), and the totals.  In hard mode the
    totals are estimates: they order the words and set the aspiration."""
    from dask.distributed import wait

    upper = {w: known[w] for w in head if w in known}
    missing = [w for w in head if w not in upper]
    size = max(1, -(-len(missing) // (2 * n_threads)))
    futures = [
        client.submit(evaluate_uppers, spec, missing[i : i + size], pure=False) for i in range(0, len(missing), size)
    ]
    wait(futures)
    for fut in futures:
        for w, v, secs in fut.result():
            upper[w] = v
            result.cpu_seconds += secs
    if spec.seeds_bound:
        for w in head:
            kept.add_upper(upper[w])
    if not spec.seeds_bound:
        kept.aspiration = aspiration(list(upper.values()), kept.keep, kept.margin)
    place = {w: i for i, w in enumerate(todo)}
    first = sorted((w for w in head if w in place and upper[w] < INF), key=lambda w: (upper[w], place[w]))
    chosen = set(first)
    return first + [w for w in todo if w not in chosen], upper
