"""The near-optimal search's width against its baseline: the tree's total and CPU time for k=12
with kc extra possible answers a node, kc=0 (12 guesses a node, as the C++ solver's ``-n12``)
beside the default kc=6, on the official lists in both modes (several first words and the
search's own) and on the wordfreq lists of 4, 5 and 6 letters.

    python bench/bench_near_width.py [--kc 0,6] [--k 12] [--sets classic,nyt-2309,nyt-3158,wordfreq]

Each row prints every width's total ("unsolvable": no strategy within six guesses found) and
CPU seconds (one thread, ``time.process_time``, the tables emptied for each search); the end
says in how many rows each width found the least total, and the CPU time of each summed over
the rows.  It is what keeps ``DEFAULT_KC`` honest: the extras cost time on every tree, so they
must find better trees somewhere (2026-12-02: see the README's peer section).
"""

from __future__ import annotations

import argparse
import time

from common import data_dir

from wordlebot.app.wordsets import load_lexicon
from wordlebot.core.errors import UnsolvableError
from wordlebot.core.words import Lexicon
from wordlebot.search.tree_search import INF, TreeSearch

FIRST_WORDS = ("salet", "crane", "trace", "audio", "raise", "soare", None)  # None: the search's own


def total(lex: Lexicon, k: int, kc: int, hard: bool, first: str | None) -> tuple[float, float, str]:
    """The near-optimal tree's total (INF when it finds no strategy), its CPU seconds, its opener."""
    search = TreeSearch(lex, k=k, kc=kc, hard=hard, threads=1)
    t0 = time.process_time()
    try:
        if first is None:
            gid, value = search.best()
            opener = lex.guesses[gid]
        else:
            opener, value = first, search.value_of_guess(lex.id(first), parallel=False)
    except UnsolvableError:  # value_of_guess says so with INF: a first word it finds no way past
        opener, value = first or "-", INF
    return float(value), time.process_time() - t0, str(opener)


def rows(sets: list[str]):
    data = data_dir()
    for name in sets:
        if name == "wordfreq":
            for length in (4, 5, 6):
                lex = load_lexicon("wordfreq", data_dir=data, length=length)
                for hard in (False, True):
                    yield f"wordfreq-{length}", lex, hard, None
            continue
        lex = load_lexicon(name, data_dir=data)
        for hard in (False, True):
            for first in FIRST_WORDS:
                yield name, lex, hard, first


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kc", default="0,6", help="widths to compare, comma-separated (the first is the baseline)")
    ap.add_argument("--k", type=int, default=12)
    ap.add_argument("--sets", default="classic,nyt-2309,nyt-3158,wordfreq")
    args = ap.parse_args()
    widths = [int(x) for x in args.kc.split(",")]
    best_count = dict.fromkeys(widths, 0)
    cpu = dict.fromkeys(widths, 0.0)
    n = 0
    for name, lex, hard, first in rows(args.sets.split(",")):
        got = {kc: total(lex, args.k, kc, hard, first) for kc in widths}
        least = min(v for v, _, _ in got.values())
        cells = []
        for kc, (value, seconds, opener) in got.items():
            best_count[kc] += value == least
            cpu[kc] += seconds
            shown = "unsolvable" if value >= INF else f"{value:,.0f}"
            cells.append(f"kc={kc} {shown:>10} {seconds:6.2f} s" + ("" if first else f" ({opener.upper()})"))
        n += 1
        mode = "hard" if hard else "normal"
        print(f"{name:<11} {mode:<6} {(first or 'own').upper():<6} " + " | ".join(cells), flush=True)
    print(f"-- {n} trees, k={args.k}")
    base = widths[0]
    for kc in widths:
        ratio = f", x{cpu[kc] / cpu[base]:.2f} the CPU time of kc={base}" if kc != base and cpu[base] > 0 else ""
        print(f"kc={kc}: the least total in {best_count[kc]} of {n}; CPU {cpu[kc]:.1f} s{ratio}")


if __name__ == "__main__":
    main()
