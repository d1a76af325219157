"""Exact search side by side with Alex Selby's C++ solver (the fastest public exact solver), one
thread each, same lists, in the same run: for every row both search times (the peer's own
"Time taken", ours the search alone, each in a new process with its lists and matrices loaded
and its kernels' compiled code too),
every repeat, the median and the ratio ours / peer.  Then our 2-thread time and its speed-up.

    WORDLEBOT_PEER_SELBY=../shared/peers/selby-wordle python bench/bench_peer.py [--repeat 3] [--rows a,b] [--long]

``--tuning "a=1,b=2"`` runs ours under those SearchTuning fields (as bench_tuning.py spells
them); ``--child ROW --threads N [--tuning ...]`` times one search of ours and prints it (JSON).

Without WORDLEBOT_PEER_SELBY only our side runs.  The nyt-3158 rows take minutes per repeat
(the peer ~85 s, normal mode): they run with ``--long`` or when named in ``--rows``.

Measured figures (2 cores, this machine, medians of 3 pairs unless said) are in the closing
notes of issue 13; the ratio is what to trust on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench_tuning import tuning
from common import data_dir

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Row:
    name: str
    guesses: str  # relative to the data folder
    answers: str
    first: str | None  # None: the search chooses (near-optimal rows)
    hard: bool
    k: int | None  # None: exact
    total: int  # the published / proven value
    long: bool = False
    kc: int = 6  # near-optimal: extra possible answers tried per node (the peer has none)


ROWS = (
    Row("classic-salet", "classic/guesses.txt", "classic/answers.txt", "salet", False, None, 7920),
    Row("classic-salet-hard", "classic/guesses.txt", "classic/answers.txt", "salet", True, None, 8122),
    Row("nyt2309-tarse", "nyt/guesses.txt", "nyt/answers-2309.txt", "tarse", False, None, 7883),
    # ours by default: the 12 best guesses per node and 6 possible answers besides (up to 18);
    # like for like with the peer's -n12: 12 per node
    Row("classic-near12", "classic/guesses.txt", "classic/answers.txt", None, False, 12, 7920),
    Row("classic-near12-kc0", "classic/guesses.txt", "classic/answers.txt", None, False, 12, 7920, kc=0),
    Row("nyt3158-tarse", "nyt/guesses.txt", "nyt/wordlebot-3158.txt", "tarse", False, None, 11219, long=True),
    Row("nyt3158-tarse-hard", "nyt/guesses.txt", "nyt/wordlebot-3158.txt", "tarse", True, None, 11627, long=True),
)


def peer(exe: str, data: Path, row: Row) -> tuple[float, int]:
    """The peer's search time (its own figure: score-table set-up excluded) and its total."""
    cmd = [exe, "-a", str(data / row.guesses), "-h", str(data / row.answers)]
    cmd += ["-w", row.first] if row.first else []
    cmd += ["-H"] if row.hard else []
    cmd += [f"-n{row.k}"] if row.k else []
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"Best first guess score = (\d+)", out).group(1))
    secs = float(re.search(r"Time taken = ([\d.]+)", out).group(1))
    return secs, total


def ours(data: Path, row: Row, threads: int, spec: str = "") -> tuple[float, int]:
    """Our search time and total, in a new process (as the peer runs)."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__)), "--child", row.name, "--threads", str(threads), "--tuning", spec],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, WORDLEBOT_DATA=str(data)),
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return got["seconds"], got["total"]


def child(name: str, threads: int, spec: str = "") -> None:
    import numpy as np

    from wordlebot.core.words import Lexicon, read_word_file
    from wordlebot.search.tree_search import TreeSearch

    data = data_dir()
    row = next(r for r in ROWS if r.name == name)
    lex = Lexicon.from_lists(read_word_file(data / row.guesses), read_word_file(data / row.answers), name=row.name)
    # Numba loads each kernel's compiled code from its cache on the kernel's first call (~20 ms
    # each, ~60 ms for a search: 10 % of classic SALET's time, and not shared out to threads):
    # set-up, like the peer's score table, so loaded first by a small search on a table of its own.
    # Its parts are shared out as the big ones are (a lower threshold for it alone): an 800-answer
    # search has no part that big, and the shared-out path's kernels then loaded inside the timed
    # search (classic SALET on 2 threads: 0.367 s instead of 0.317 s).
    from wordlebot.search.tree_search import SearchTuning

    warm = TreeSearch(
        lex, k=row.k, kc=row.kc, hard=row.hard, threads=threads, memory_mb=64, tuning=SearchTuning(split_part_min=20)
    )
    warm.value_of_guess(lex.id(row.first or "salet"), np.arange(800, dtype=np.int32), parallel=threads > 1)
    if row.first is None:
        # ... and the root's (its scan, shared out on threads, and its ordering): 30 ms of the
        # near-optimal rows' time on one thread or two, loaded here rather than in the search
        warm.best(np.arange(800, dtype=np.int32))
    del warm
    ts = TreeSearch(lex, k=row.k, kc=row.kc, hard=row.hard, threads=threads, tuning=tuning(spec))
    t0 = time.perf_counter()
    if row.first is None:
        _, total = ts.best()
    else:
        total = ts.value_of_guess(lex.id(row.first), parallel=threads > 1)
    print(json.dumps({"seconds": time.perf_counter() - t0, "total": total}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rows", default="")
    ap.add_argument("--long", action="store_true")
    ap.add_argument("--threads", type=int, default=2, help="also time ours on this many threads (1: skip)")
    ap.add_argument("--child")
    ap.add_argument("--tuning", default="", help='SearchTuning fields for ours, "a=1,b=2" (default: none)')
    args = ap.parse_args()
    if args.child:
        child(args.child, args.threads, args.tuning)
        return
    data = data_dir()
    exe = os.environ.get("WORDLEBOT_PEER_SELBY")
    wanted = {r for r in args.rows.split(",") if r}
    rows = [r for r in ROWS if (r.name in wanted) if wanted] or [r for r in ROWS if args.long or not r.long]
    print(f"peer: {exe or 'none (set WORDLEBOT_PEER_SELBY to compare)'}; {args.repeat} repeats, pairs in turn")
    for row in rows:
        mine, theirs, par = [], [], []
        for _ in range(args.repeat):
            if exe:
                s, tot = peer(exe, data, row)
                theirs.append(s)
                if tot != row.total:
                    print(f"  peer total {tot} != {row.total}")
            s, tot = ours(data, row, 1, args.tuning)
            mine.append(s)
            if tot != row.total:
                print(f"  our total {tot:g} != {row.total}: MISMATCH")
            if args.threads > 1:
                s, tot = ours(data, row, args.threads, args.tuning)
                par.append(s)
                if tot != row.total:
                    print(f"  our {args.threads}-thread total {tot:g} != {row.total}: MISMATCH")
        line = f"{row.name:<20} {row.total:>6}  ours 1 thread {statistics.median(mine):7.2f} s"
        if theirs:
            ratios = [a / b for a, b in zip(mine, theirs)]
            line += f"  peer {statistics.median(theirs):7.2f} s  ratio {statistics.median(ratios):.2f}"
        if par:
            ups = [a / b for a, b in zip(mine, par)]
            line += f"  | {args.threads} threads {statistics.median(par):7.2f} s (x{statistics.median(ups):.2f})"
        print(line, flush=True)
        print(
            "    every repeat: ours "
            + " ".join(f"{x:.2f}" for x in mine)
            + ("; peer " + " ".join(f"{x:.2f}" for x in theirs) if theirs else "")
            + ("; threads " + " ".join(f"{x:.2f}" for x in par) if par else ""),
            flush=True,
        )


if __name__ == "__main__":
    main()
