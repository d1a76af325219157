"""Searches for many clients on a few threads, fairly and with bounded waiting.

Each client's jobs wait in a line of their own, and the worker threads serve the lines in turn
(round robin): a client with twenty jobs waiting delays another client's one job by at most
one job per worker, not twenty.  A line holds at most ``per_client`` jobs and all lines
together ``total``; past that ``submit`` refuses at once with ``QueueFull`` (the server answers
503 with Retry-After), so a flood costs the flooder, not everyone, and memory stays bounded.

The queue knows nothing of HTTP or Wordle: a job is a callable, a client any hashable key.
"""

from __future__ import annotations

import math
import statistics
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future

RECENT_JOBS = 51  # the jobs whose median time Retry-After is reckoned from


class QueueFull(Exception):
    """The client's line or the whole queue is full; ``retry_after`` is a fair guess in seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class FairQueue:
    def __init__(
        self,
        workers: int = 2,
        *,
        per_client: int = 16,
        total: int = 64,
        name: str = "search",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if workers < 1 or per_client < 1 or total < 1:
            raise ValueError("workers, per_client and total must be at least 1")
        self.workers = workers
        self.per_client = per_client
        self.total = total
        self._lines: OrderedDict[Hashable, deque] = OrderedDict()  # the next line to serve first
        self._waiting = 0
        self._running = 0
        self._cond = threading.Condition()
        self._closed = False
        # Seconds the last jobs took, for Retry-After: their median, which a few slow jobs do not
        # drag (a running mean did: after two searches of minutes every 503 said "come back in
        # 5 minutes" while ordinary jobs took a tenth of a second).
        self._clock = clock
        self._times: deque[float] = deque([0.1], maxlen=RECENT_JOBS)
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(workers)]
        for t in self._threads:
            t.start()

    @property
    def waiting(self) -> int:
        return self._waiting

    @property
    def running(self) -> int:
        return self._running

    def retry_after(self) -> int:
        """Seconds after which a refused client could expect room (at least 1)."""
        typical = statistics.median(self._times)
        return max(1, math.ceil((self._waiting + self._running) * typical / self.workers))

    def submit(self, client: Hashable, fn: Callable, *args) -> Future:
        """Queue ``fn(*args)`` in ``client``'s line; its Future gets the result or the exception.
        Raises QueueFull at once when there is no room."""
        fut: Future = Future()
        with self._cond:
            if self._closed:
                raise RuntimeError("the queue is closed")
            line = self._lines.get(client)
            if line is not None and len(line) >= self.per_client:
                raise QueueFull(f"{len(line)} requests of this client are waiting already", self.retry_after())
            if self._waiting >= self.total:
                raise QueueFull(f"{self._waiting} requests are waiting already", self.retry_after())
            if line is None:
                line = self._lines[client] = deque()
            line.append((fut, fn, args))
            self._waiting += 1
            self._cond.notify()
        return fut

    def close(self) -> None:
        """Stop the workers once the jobs queued are done (none is accepted any more)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        for t in self._threads:
            t.join()

    def _next(self):
        """The first job of the line whose turn it is; that line then goes to the back."""
        client, line = next(iter(self._lines.items()))
        job = line.popleft()
        if line:
            self._lines.move_to_end(client)
        else:
            del self._lines[client]
        self._waiting -= 1
        return job

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._lines and not self._closed:
                    self._cond.wait()
                if not self._lines:  # closed and drained
                    return
                fut, fn, args = self._next()
                self._running += 1
            try:
                if fut.set_running_or_notify_cancel():  # False: the client gave up meanwhile
                    t0 = self._clock()
                    try:
                        result = fn(*args)
                    except BaseException as exc:  # delivered to the caller, who decides
                        fut.set_exception(exc)
                    else:
                        fut.set_result(result)
                    self._times.append(self._clock() - t0)
            finally:
                with self._cond:
                    self._running -= 1
