"""The exact opener proof: every one of the 12,972 classic first words, on a Dask LocalCluster
of one worker process with 2 threads (the machine's two cores, sharing one table).  Each word either gets its exact total or a
proof that it cannot beat the best found so far; SALET at 7920 must come out proven optimal.
For comparison, the C++ peer (bench_peer.py) measured side by side on this machine needs
0.45-0.79 CPU-s per first word over all of them (about 2 s only for the ~200 most promising):
1.6-2.8 CPU-hours for the classic proof.

    python bench/bench_openers.py [--words classic] [--hard] [--limit N]
"""

from __future__ import annotations

import argparse
import time

from common import data_dir, report

from wordlebot.app.opener_sweep import SweepSpec, first_word_order, sweep


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", default="classic")
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2, help="threads of the LocalCluster's worker process")
    args = ap.parse_args()
    spec = SweepSpec(words=args.words, data_dir=str(data_dir()), hard=args.hard, k=None, memory_mb=2048)
    words = first_word_order(spec)
    if args.limit:
        words = words[: args.limit]
    done = [0]
    t0 = time.perf_counter()

    def progress(word, value, exact):
        done[0] += 1
        if done[0] % 1000 == 0:
            print(f"  {done[0]:,} words, {time.perf_counter() - t0:.0f} s", flush=True)

    result = sweep(spec, words, workers=args.workers, batch=8, on_result=progress)
    best = result.best
    exact = sum(1 for v, e in result.values.values() if e)
    print(
        f"best: {best[0].upper()} {best[1]:g}; {len(result.values):,} first words, {exact} with exact totals, "
        f"the rest proven >= the best"
    )
    report(
        f"exact opener proof, {args.words}{' hard' if args.hard else ''}, {len(words):,} first words, "
        f"{args.workers} threads",
        result.seconds / 60,
        "min",
    )
    report("CPU time in the searches", result.cpu_seconds / 3600, "h")
    report(
        "mean CPU per first word (C++ peer, measured: 0.45-0.79 s)", result.cpu_seconds / max(1, len(words)), "s", 0.45
    )


if __name__ == "__main__":
    main()
