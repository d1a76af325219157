"""A tuning measured on the first words a finished sweep found dear: words drawn from an opener
sweep's journal by the seconds they took there, refuted against a bound exactly as the sweep's
tasks refute them (the quick kernel call, then the staged refutation), one thread, a cold table.

    python bench/bench_journal_sample.py JOURNAL LO HI N [--tuning a=1] [--bound B]
    python bench/bench_journal_sample.py JOURNAL LO HI N --exact --bound B [--seeded]

Takes every word of the journal's rows that took LO to HI seconds and was only bounded (a word
with an exact total is not refuted), N of them evenly spread; prints the CPU time of all of
them, then the dearest eight.  Where ``bench_proof_sample.py`` estimates a whole proof, this
one asks where the time goes, by the cost of a word: a hard top-10 sweep spends two thirds of
its CPU on words of 0.5-5 s and a fifth on the ~150 of 5 s or more.  Compare tunings each in
its own process, both at once one a core (``taskset -c 0 ... & taskset -c 1 ...``), then with
the cores swapped: one run moves a few per cent.

``--exact`` takes the words with an exact total below the bound instead (a normal-mode top-100
sweep proved 101 such below 11,351.5, 112 exact in all, on 2026-11-29), evaluated as the sweep
evaluates them; ``--seeded`` reads the seed's totals beside the journal (``JOURNAL.seed``, which
a sweep keeps while it runs and deletes when it ends: copy it before), so the words whose seeded
total is below the bound are searched at once, as the sweep sends them
(``opener_sweep.beating_words``); without it, every word is first tried as a refutation.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench_tuning import tuning
from common import data_dir

from wordlebot.app.opener_journal import Journal
from wordlebot.app.opener_sweep import SweepSpec, beating_words, evaluate_batch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journal", type=Path, help="an opener sweep's journal (openers --exact --out FILE)")
    ap.add_argument("lo", type=float, help="the words that took at least this many seconds ...")
    ap.add_argument("hi", type=float, help="... and fewer than this many")
    ap.add_argument("n", type=int, help="how many of them, evenly spread")
    ap.add_argument("--words", default="nyt-3158")
    ap.add_argument("--bound", type=float, default=11678.5, help="default: the NYT-3158 hard top-10 bound")
    ap.add_argument("--tuning", default="", help='SearchTuning fields to change, "a=1,b=2" (bench_tuning.py\'s form)')
    ap.add_argument("--exact", action="store_true", help="the words with an exact total below the bound instead")
    ap.add_argument("--seeded", action="store_true", help="with --exact: name the words JOURNAL.seed proves to beat")
    args = ap.parse_args()
    journal = Journal.read(args.journal)
    hard = bool(journal.sweep.get("hard"))
    pool = sorted(
        w
        for w, (v, exact, secs) in journal.rows.items()
        if (exact and v < args.bound if args.exact else not exact) and args.lo <= secs < args.hi
    )
    kind = "exact" if args.exact else "bounded"
    if not pool or args.n < 1:
        raise SystemExit(f"no {kind} words of {args.lo}-{args.hi} s in {args.journal}")
    words = pool[:: max(1, len(pool) // args.n)][: args.n]
    spec = SweepSpec(
        words=args.words, data_dir=str(data_dir()), hard=hard, k=None, memory_mb=2048, tuning=tuning(args.tuning)
    )
    beating = []
    if args.seeded:
        upper = journal.estimates()
        if not upper:
            raise SystemExit(f"no seed's totals for this sweep in {journal.seed_path}")
        beating = beating_words(spec, words, upper, args.bound)
    evaluate_batch(spec, ["qajaq"], args.bound)  # the searches built, the kernels warm, off the clock
    c0 = time.process_time()
    out = [(w, v, secs) for w, v, _, secs in evaluate_batch(spec, words, args.bound, beating=beating)]
    cpu = time.process_time() - c0
    wrong = [w for w, v, _ in out if (v >= args.bound) == args.exact]
    print(
        f"[{args.tuning or 'defaults'}] {'hard' if hard else 'normal'} mode, {len(words)} of {len(pool)} {kind} words "
        f"of {args.lo:g}-{args.hi:g} s against {args.bound:g} ({len(beating)} named as beating it): {cpu:.2f} CPU-s"
        + (f"; NOT {'exact' if args.exact else 'refuted'}: {', '.join(wrong)}" if wrong else "")
    )
    print("   dearest:", " ".join(f"{w}:{s:.2f}" for w, _, s in sorted(out, key=lambda t: -t[2])[:8]))


if __name__ == "__main__":
    main()
