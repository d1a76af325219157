"""Shared helpers for the benchmark scripts: where the data is, timing, peak memory."""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """$WORDLEBOT_DATA, else ../shared/data next to the checkout; exits with a message if absent."""
    env = os.environ.get("WORDLEBOT_DATA")
    for cand in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "data"]:
        if (cand / "nyt" / "guesses.txt").is_file():
            return cand
    sys.exit("benchmarks need the official lists: set WORDLEBOT_DATA (or run 'wordlebot data fetch')")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Timer:
    def __enter__(self):
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.t0


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def report(name: str, value: float, unit: str, target: float | None = None, lower_is_better: bool = True) -> None:
    line = f"{name:<52} {value:>10.3f} {unit}"
    if target is not None:
        ok = value <= target if lower_is_better else value >= target
        line += f"   target {'<=' if lower_is_better else '>='} {target:g} {unit}: {'ok' if ok else 'MISSED'}"
        if lower_is_better and value > 0:
            line += f" ({target / value:.1f}x margin)"
    print(line, flush=True)
