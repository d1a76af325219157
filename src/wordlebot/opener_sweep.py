"""Ranking first words, and proving the best one, on a Dask cluster.

Each task evaluates a batch of first words in a worker process with the tree search, bounded
by the best total known when the batch was sent: a word that cannot beat it stops early and is
reported as ">= bound".  Words go out best-first (by the search's ordering key), so the bound is
tight from the first batches on and most words are cut quickly.  With the exact search, every
word either gets its exact total or a proof that it cannot beat the best: the best word is
proven optimal.

A LocalCluster (one single-threaded worker process per core) is started unless a scheduler
address is given; workers keep their search (and its table) between tasks.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .search import INF, TreeSearch

_WORKER_SEARCH: dict[tuple, TreeSearch] = {}


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

    def key(self) -> tuple:
        return tuple(self.__dict__.values())

    def lexicon(self):
        from .wordsets import load_lexicon

        return load_lexicon(self.words, data_dir=self.data_dir, length=self.length, guesses=self.guesses,
                            answers=self.answers, auto_fetch=False, notify=lambda m: None)

    def search(self) -> TreeSearch:
        s = _WORKER_SEARCH.get(self.key())
        if s is None:
            s = TreeSearch(self.lexicon(), k=self.k, kc=self.kc, hard=self.hard, max_guesses=self.max_guesses,
                           memory_mb=self.memory_mb, threads=1)
            _WORKER_SEARCH.clear()  # one search per worker: bounded memory
            _WORKER_SEARCH[self.key()] = s
        return s


def evaluate_batch(spec: SweepSpec, words: list[str], bound: float) -> list[tuple[str, float, bool, float]]:
    """(word, value, exact, seconds) for each first word; not exact means value >= bound."""
    search = spec.search()
    lex = search.lexicon
    cons = None
    if spec.hard:
        from .game import HardConstraints

        cons = HardConstraints.none(lex.length)
    out = []
    for w in words:
        t0 = time.perf_counter()
        v = search.value_of_guess(lex.id(w), constraints=cons, beta=bound, parallel=False)
        exact = v < bound and v < INF
        out.append((w, float(v), bool(exact), time.perf_counter() - t0))
    return out


def first_word_order(spec: SweepSpec) -> list[str]:
    """Every allowed first word, most promising first (the search's ordering key)."""
    search = TreeSearch(spec.lexicon(), k=0, hard=spec.hard, max_guesses=spec.max_guesses, threads=1,
                        memory_mb=64)
    lex = search.lexicon
    H = np.arange(lex.n_answers, dtype=np.int32)
    T, h, greens, mins = search._allowed(None)
    order = search.root_order(H, spec.max_guesses, T, h, greens, mins)
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


def _local_cluster(LocalCluster, workers: int):
    """A LocalCluster whose worker processes ignore Ctrl+C: the terminal sends SIGINT to every
    process of the job, and this process alone should stop the sweep (closing the cluster ends
    the workers) instead of each worker printing its own traceback.  The workers inherit the
    ignored signal from here, so it is ignored while they are started."""
    import os
    import signal
    import threading

    # The workers' own warnings (tasks cancelled when the sweep stops) are noise on a terminal.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
    if threading.current_thread() is not threading.main_thread():
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    finally:
        signal.signal(signal.SIGINT, previous)


def sweep(
    spec: SweepSpec,
    words: list[str],
    *,
    scheduler: str | None = None,
    workers: int = 2,
    batch: int = 4,
    keep: int = 1,
    margin: float = 0.5,
    done: dict[str, tuple[float, bool]] | None = None,
    on_result: Callable[[str, float, bool], None] | None = None,
    on_batch: Callable[[list[tuple[str, float, bool, float]]], None] | None = None,
) -> SweepResult:
    """Evaluate ``words`` as first words on Dask; the bound is the ``keep``-th best total so far
    (+ margin, so ties are resolved exactly).  Connects to ``scheduler``, or starts a
    LocalCluster with ``workers`` processes.

    ``done``: results of an earlier run of the same sweep (word -> (total, exact)), not evaluated
    again; their exact totals set the bound from the start.  ``on_batch`` gets each batch's rows
    (word, total, exact, seconds) as it comes back (a journal keeps them).  Until ``keep`` exact
    totals are known there is no bound: every word then costs a whole search, so words go out
    one at a time, one per worker, and the bound exists as soon as it can."""
    from dask.distributed import Client, LocalCluster, as_completed

    result = SweepResult()
    kept: list[float] = []
    for w, (v, exact) in (done or {}).items():
        result.values[w] = (v, exact)
        if exact:
            kept.append(v)
    kept.sort()
    todo = [w for w in words if w not in result.values]
    if not todo:
        return result

    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = _local_cluster(LocalCluster, workers)
        client = Client(cluster)
    t0 = time.perf_counter()

    def bound() -> float:
        return kept[keep - 1] + margin if len(kept) >= keep else INF

    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        # Keep a couple of batches per worker in flight so every worker stays busy; each new
        # batch gets the bound known at that moment.
        in_flight = max(2, 2 * n_workers)
        pending = as_completed()
        nxt = 0

        def send() -> None:
            nonlocal nxt
            bounded = len(kept) >= keep
            if not bounded and pending.count() >= n_workers:
                return  # unbounded: no more whole searches at once than workers
            size = batch if bounded else 1
            pending.add(client.submit(evaluate_batch, spec, todo[nxt:nxt + size], bound(), pure=False))
            nxt += size

        def fill() -> None:
            while nxt < len(todo) and pending.count() < in_flight:
                before = nxt
                send()
                if nxt == before:  # unbounded and every worker busy
                    return

        fill()
        for fut in pending:
            rows = fut.result()
            for w, v, exact, secs in rows:
                result.values[w] = (v, exact)
                result.cpu_seconds += secs
                if exact:
                    kept.append(v)
                    kept.sort()
                if on_result:
                    on_result(w, v, exact)
            if on_batch:
                on_batch(rows)
            fill()
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
