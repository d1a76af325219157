"""How long one first word's exact total takes (``openers --exact --word W``, issue 42: <= 30 s on 2
cores for the 1,000 best first words of NYT-3158, <= 5 min for any word): each word in a process
of its own (a fresh search table, no stored totals: app/opener_rating.py's store is a folder of
this run), the matrix read from the cache; wall and CPU time, and the load beside each (the
machine is shared: a figure is only as quiet as its load says).  A word still searching after
``--timeout`` seconds is stopped and reported so.  Totals the C++ author published (quoted in
issue 42 and published.py) are checked.

    python bench/bench_rate_word.py --words nyt-3158 [--hard] [--threads 2] [--timeout 600] \\
        [--first tarse,salet,crane,slate,raise,roate,trace,audio,adieu,qajaq] [--tuning a=1,b=2]

``--tuning``: SearchTuning fields as in bench_tuning.py (a change measured before and after).
``--sample N``: instead of ``--first``, N words spread evenly over the first 1,000 of the opener
sweep's own order (``opener_sweep.first_word_order``: places 1, 1 + 1000/N, ...), a stand-in for
"the 1,000 best first words", whose exact ranking only a whole sweep gives; a summary line
says how many finished within 30 s.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import subprocess
import sys
import tempfile
import time

from bench_tuning import tuning
from common import data_dir

from wordlebot.app.opener_sweep import SweepSpec, first_word_order
from wordlebot.search.published import OPTIMAL_TOTALS
from wordlebot.search.tree_search import SearchTuning

# The C++ author's exact totals quoted in issue 42 (NYT-3158, normal mode), beside published.py's.
QUOTED = {("nyt-3158", False, "salet"): 11235, ("nyt-3158", False, "crane"): 11309}

CHILD = """
import dataclasses, json, sys
from wordlebot.app.opener_rating import rate_first_word
from wordlebot.app.opener_sweep import SweepSpec
from wordlebot.search.tree_search import SearchTuning
words, data, hard, threads, memory, folder, word, tuning = sys.argv[1:9]
tune = dataclasses.replace(SearchTuning(), **json.loads(tuning))
spec = SweepSpec(words=words, data_dir=data or None, hard=hard == "1", memory_mb=int(memory), tuning=tune)
print(json.dumps(rate_first_word(spec, word, threads=int(threads), folder=folder).to_dict()))
"""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default="nyt-3158")
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--memory", type=int, default=2048, help="the search's table, MB (the CLI's default)")
    ap.add_argument("--first", default="tarse,salet,crane,slate,raise,roate,trace,audio,adieu,qajaq")
    ap.add_argument("--tuning", default="", help="SearchTuning fields, a=1,b=2 (see bench_tuning.py)")
    ap.add_argument("--sample", type=int, default=0, help="N words spread over the sweep order's first 1,000")
    args = ap.parse_args()
    default = dataclasses.asdict(SearchTuning())
    changed = {k: v for k, v in dataclasses.asdict(tuning(args.tuning)).items() if v != default[k]}
    known = {(w, h, f): t for w, f, h, cap, t in OPTIMAL_TOTALS if cap == 6} | QUOTED
    data = str(data_dir() or "")
    mode = "hard" if args.hard else "normal"
    print(
        f"{args.words} · {mode} · exact · {args.threads} threads · one process a word, no stored totals"
        + (f" · tuning {args.tuning}" if changed else "")
    )
    import json

    words = args.first.split(",")
    if args.sample > 0:
        head = first_word_order(SweepSpec(words=args.words, data_dir=data or None, hard=args.hard))[:1000]
        places = sorted({i * len(head) // args.sample for i in range(args.sample)})
        words = [head[i] for i in places]
        print("places in the sweep's order: " + ", ".join(f"{i + 1} {head[i].upper()}" for i in places))
    took: list[float] = []  # each process's wall time, inf for a word stopped or failed
    for word in words:
        before = load()
        with tempfile.TemporaryDirectory() as folder:
            cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            argv = [sys.executable, "-c", CHILD, args.words, data, "1" if args.hard else "0"]
            try:
                proc = subprocess.run(
                    argv + [str(args.threads), str(args.memory), folder, word, json.dumps(changed)],
                    capture_output=True,
                    text=True,
                    timeout=args.timeout,
                )
            except subprocess.TimeoutExpired:
                print(f"{word.upper():6} not finished in {args.timeout:.0f} s (stopped) · load {before} -> {load()}")
                took.append(float("inf"))
                continue
            wall = time.perf_counter() - t0
            cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        if proc.returncode != 0:
            print(f"{word.upper():6} failed: {proc.stderr.strip().splitlines()[-1:]}")
            took.append(float("inf"))
            continue
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        took.append(wall)
        expected = known.get((args.words, args.hard, word))
        check = (
            ""
            if expected is None
            else (" (published: equal)" if r["total"] == expected else f" (PUBLISHED {expected})")
        )
        total = "cannot win" if r["total"] is None else f"{r['total']:,}"
        print(
            f"{word.upper():6} {total}{check} · search {r['seconds']:.1f} s · process {wall:.1f} s wall, "
            f"{cpu:.1f} CPU-s ({100 * cpu / wall:.0f} %) · load {before} -> {load()}",
            flush=True,
        )
    if took:
        within = sum(t <= 30.0 for t in took)
        ranked = sorted(took)
        print(
            f"{len(took)} words: {within} within 30 s · median {ranked[len(ranked) // 2]:.1f} s · "
            f"worst {ranked[-1]:.1f} s (each process's wall time)"
        )


if __name__ == "__main__":
    main()
