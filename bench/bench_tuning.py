"""One proof (or near-optimal tree) under several search tunings, alternated in one process: for
each tuning the CPU time of every repeat (``time.process_time``, one thread: on a shared machine it holds to a
few per cent where wall-clock times from separate processes do not), the median, the ratio to
the first tuning, and the value, nodes and scans (a tuning must not change the value).

    python bench/bench_tuning.py classic-salet "" scan_cut=0 [--hard] [--repeat 3]

Each tuning is a comma-separated list of SearchTuning fields (``""``: the defaults).  Rows:
classic-salet, nyt2309-tarse, nyt3158-tarse (minutes a repeat), and bench_peer's near-optimal
classic-near12 and classic-near12-kc0 (the first word the search's own), and nyt2309-near12 (the
default near-optimal tree on the NYT lists).  The kernels are
compiled, and the search warmed on a small part, before any repeat is timed.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

import numpy as np
from common import data_dir

from wordlebot.core.words import Lexicon, read_word_file
from wordlebot.search.tree_search import SearchTuning, TreeSearch

# name: guesses, answers, first word (None: the search's own, as `tree` chooses it), k and kc
# (k None: the exact search; else bench_peer's near-optimal rows)
ROWS: dict[str, tuple[str, str, str | None, int | None, int]] = {
    "classic-salet": ("classic/guesses.txt", "classic/answers.txt", "salet", None, 0),
    "nyt2309-tarse": ("nyt/guesses.txt", "nyt/answers-2309.txt", "tarse", None, 0),
    "nyt3158-tarse": ("nyt/guesses.txt", "nyt/wordlebot-3158.txt", "tarse", None, 0),
    "classic-near12": ("classic/guesses.txt", "classic/answers.txt", None, 12, 6),
    "classic-near12-kc0": ("classic/guesses.txt", "classic/answers.txt", None, 12, 0),
    "nyt2309-near12": ("nyt/guesses.txt", "nyt/answers-2309.txt", None, 12, 6),
}


def tuning(spec: str) -> SearchTuning:
    kw: dict[str, object] = {}
    for item in filter(None, spec.split(",")):
        name, value = item.split("=")
        kind = type(getattr(SearchTuning(), name))
        if kind is tuple:  # a tuple's items are separated by "/": stage_rounds=0.5/1.0
            kw[name] = tuple(float(x) for x in value.split("/"))
        else:
            kw[name] = bool(int(value)) if kind is bool else kind(value)
    return dataclasses.replace(SearchTuning(), **kw)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("row", choices=sorted(ROWS))
    ap.add_argument("tunings", nargs="+", help='SearchTuning fields, "a=1,b=2" ("" for the defaults)')
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    data = data_dir()
    guesses, answers, first, k, kc = ROWS[args.row]
    lex = Lexicon.from_lists(read_word_file(data / guesses), read_word_file(data / answers), name=args.row)
    TreeSearch(lex, k=k, kc=kc, hard=args.hard, threads=1, memory_mb=64).value_of_guess(
        lex.id(first or "salet"), np.arange(800, dtype=np.int32), parallel=False
    )
    specs = [(s, tuning(s)) for s in args.tunings]
    times: dict[str, list[float]] = {s: [] for s, _ in specs}
    seen: dict[str, set[tuple[int, int, int]]] = {s: set() for s, _ in specs}
    for _ in range(args.repeat):
        for spec, tune in specs:
            search = TreeSearch(lex, k=k, kc=kc, hard=args.hard, threads=1, tuning=tune)
            c0 = time.process_time()
            if first is None:
                value = search.best(parallel=False)[1]
            else:
                value = search.value_of_guess(lex.id(first), parallel=False)
            times[spec].append(time.process_time() - c0)
            seen[spec].add((round(value), search.stats.nodes, search.stats.scans))
    base = statistics.median(times[specs[0][0]])
    mode = "hard" if args.hard else "normal"
    for spec, _ in specs:
        med = statistics.median(times[spec])
        every = " ".join(f"{t:.2f}" for t in times[spec])
        runs = "; ".join(f"value {v:,} nodes {n:,} scans {s:,}" for v, n, s in sorted(seen[spec]))
        print(f"{args.row} {mode} {spec or 'defaults':24} median {med:7.3f} s  x{med / base:.2f}  [{every}]  {runs}")


if __name__ == "__main__":
    main()
