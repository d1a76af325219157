"""What an exact opener proof will cost, in minutes instead of hours: a sample of the sweep's
first words, refuted against the proof's final bound (the published optimum + 0.5) exactly as the
sweep's tasks refute them (``opener_sweep.evaluate_batch``: the quick kernel call, then the staged
refutation), on one thread.  Each sampled word stands for the words of its stride, so the
sample's CPU time, each word's weighted by its stride, estimates the proof's CPU time.

The sample is denser in the first quarter of the sweep's order (every ``--every / 4``-th word),
where nearly all of a proof's time goes and one word can cost as much as hundreds of the tail
(TIARE, first in the NYT-3158 order, 17 s in normal mode against 0.05 s for most words): one word
in 300 there gave 2.3 CPU-h for the normal-mode proof against the 0.86 measured.  What the
estimate leaves out, both ways: the sweep's seed (200 near-optimal totals, a few CPU minutes), the
table a word shares with its neighbours in the order (anagrams leave the same parts: cheaper),
and the first words, searched before the bound is known (dearer).  Use it to measure a change to
the search or the staging before spending hours on a whole proof (before and after, same mode),
and quote the whole proof's figures, not this one's, as the result.  Calibration, 2026-11-25, a
quiet machine, the defaults: NYT-3158 hard mode 211 CPU-s for 88 words, estimate 4.63 CPU-h
against the 5.2 CPU-h the whole proof took (four resumed runs, 2026-11-24); normal mode 75 CPU-s,
estimate 1.65 CPU-h against 0.86 measured (the head's shared table saves more there).

    python bench/bench_proof_sample.py --words nyt-3158 [--hard] [--every 300] [--bound B] [--head N] [--tuning a=1]

``--tuning`` and ``--head`` compare a tuning on the costly head of the order, before and after:
each in its own process (cold tables), both at once one a core, or one after the other.
"""

from __future__ import annotations

import argparse
import time

from bench_tuning import tuning
from common import data_dir

from wordlebot.app.opener_sweep import SweepSpec, evaluate_batch, first_word_order
from wordlebot.search.published import OPTIMAL_TOTALS


def proof_bound(words: str, hard: bool) -> float:
    """The bound every other first word is refuted against at the end of a proof: the proven
    optimum (published.py) + the sweep's margin of 0.5."""
    for name, _, h, cap, total in OPTIMAL_TOTALS:
        if name == words and h == hard and cap == 6:
            return total + 0.5
    raise SystemExit(f"no published optimum for {words} {'hard' if hard else 'normal'} mode: give --bound")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", default="nyt-3158")
    ap.add_argument("--hard", action="store_true")
    ap.add_argument(
        "--every",
        type=int,
        default=300,
        help="one first word a stride of this many (of a quarter as many in the head of the order)",
    )
    ap.add_argument("--bound", type=float, default=None, help="default: the published optimum + 0.5")
    ap.add_argument("--tuning", default="", help='SearchTuning fields to change, "a=1,b=2" (bench_tuning.py\'s form)')
    ap.add_argument("--head", type=int, default=None, help="only the sample's words among the first N of the order")
    args = ap.parse_args()
    if args.every < 4:
        raise SystemExit("--every must be at least 4")
    spec = SweepSpec(
        words=args.words, data_dir=str(data_dir()), hard=args.hard, k=None, memory_mb=1024, tuning=tuning(args.tuning)
    )
    bound = args.bound if args.bound is not None else proof_bound(args.words, args.hard)
    order = first_word_order(spec)
    quarter = len(order) // 4
    dense = args.every // 4
    places = [(p, dense) for p in range(0, quarter, dense)] + [
        (p, args.every) for p in range(quarter, len(order), args.every)
    ]
    if args.head is not None:
        places = [(p, stride) for p, stride in places if p < args.head]
    print(
        f"{args.words} {'hard' if args.hard else 'normal'} mode, bound {bound:g}: {len(places)} of "
        f"{len(order):,} first words, every {dense}th of the first {quarter:,} in the sweep's order, "
        f"then every {args.every}th"
        + (f"; only the first {args.head:,}" if args.head is not None else "")
        + (f"; tuning {args.tuning}" if args.tuning else ""),
        flush=True,
    )
    spent = estimate = head = 0.0
    scans = 0
    t0 = time.perf_counter()
    for place, stride in places:
        # The exact search's scans: the same on any machine, so a tuning's effect on the work
        # shows through a busy machine's noise in the seconds (the stages' estimates not counted).
        before = spec.search().stats.scans
        [(word, value, exact, secs)] = evaluate_batch(spec, [order[place]], bound)
        n = spec.search().stats.scans - before
        scans += n
        spent += secs
        estimate += secs * stride
        head += secs * stride if place < quarter else 0.0
        print(f"  {place:6d} {word:<8} {'=' if exact else '>='} {value:<9g} {secs:7.2f} s {n:9,d} scans", flush=True)
    wall = time.perf_counter() - t0
    print(
        f"sample: {spent:.1f} CPU-s, {scans:,} scans for {len(places)} words ({wall:.1f} s wall, table and "
        "kernels included); "
        f"{100 * head / max(estimate, 1e-9):.0f} % of the estimate in the first quarter of the order"
    )
    if args.head is not None:  # a part of the order says nothing of the whole proof
        return
    print(
        f"estimated whole proof: {estimate / 3600:.2f} CPU-h, {estimate / 7200:.2f} h on 2 cores "
        f"({estimate / 7200:.1f}x the target of 1 h on 2 cores)"
    )


if __name__ == "__main__":
    main()
