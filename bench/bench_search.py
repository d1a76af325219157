"""Tree search: the published optimal totals (each tree verified by replay), exact SALET serial
and on 2 threads, the near-optimal tree choosing its own first word, mid-game suggestion latency
and the CLI's cold start.  Targets (2 cores): exact SALET normal <= 3 s, hard <= 6 s; near-optimal
full classic tree <= 7925 in <= 60 s; mid-game suggestion <= 100 ms; cold start <= 3 s.
The C++ peer side by side: bench_peer.py.  Each search here gets a new TreeSearch (tables
allocated afresh), several in one process: every repeat is printed, so a slow one shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
from common import Timer, data_dir, peak_rss_mb, report

from wordlebot.app.wordsets import reference_lexicon
from wordlebot.core.feedback import feedback_unchecked as _feedback
from wordlebot.policy.advisor import Advisor
from wordlebot.search import tree as tr
from wordlebot.search.published import OPTIMAL_TOTALS
from wordlebot.search.tree_search import TreeSearch

GOLDEN = OPTIMAL_TOTALS
REPEATS = 3


def verified_tree(lex, words, first, hard, cap, threads):
    ts = TreeSearch(lex, k=None, hard=hard, max_guesses=cap, threads=threads)
    with Timer() as t:
        node = ts.tree(lex.id(first))
    paths = tr.paths_of(lex, node)
    summary = tr.TreeSummary.of(paths)
    meta = tr.header(lex, summary, words=words, hard=hard, max_guesses=cap, search="exact", first=first)
    rep = tr.verify_paths(lex, meta, [(i, paths[a]) for i, a in enumerate(sorted(paths))])
    return node.value, rep.ok and rep.summary.total == node.value, t.seconds


def main() -> None:
    data = data_dir()
    only = set(sys.argv[1:])
    lexicons = {}

    def lex_of(name):
        if name not in lexicons:
            lexicons[name] = reference_lexicon(name, data)
        return lexicons[name]

    print("-- published optimal totals (exact search, 2 threads, tree verified by replay)")
    for words, first, hard, cap, total in GOLDEN:
        if only and words not in only:
            continue
        v, ok, secs = verified_tree(lex_of(words), words, first, hard, cap, 2)
        mode = ("hard" if hard else "normal") + (f" <= {cap}" if cap != 6 else "")
        status = "ok" if (v == total and ok) else f"MISMATCH (got {v:g}, verified {ok})"
        report(
            f"{words} {first.upper()} {mode}: {total} {status}",
            secs,
            "s",
            3.0
            if (words == "classic" and first == "salet" and not hard)
            else 6.0
            if (words == "classic" and first == "salet")
            else None,
        )

    classic = lex_of("classic")
    print("-- exact SALET, serial vs 2 threads (in turn, every repeat shown; the speed-up is the median of the pairs)")
    for hard in (False, True):
        serial, par = [], []
        for _ in range(REPEATS):
            serial.append(verified_tree(classic, "classic", "salet", hard, 6, 1)[2])
            par.append(verified_tree(classic, "classic", "salet", hard, 6, 2)[2])
        mode = "hard" if hard else "normal"
        ups = [a / b for a, b in zip(serial, par)]
        print(
            f"   {mode}: 1 thread "
            + " ".join(f"{x:.2f}" for x in serial)
            + " s; 2 threads "
            + " ".join(f"{x:.2f}" for x in par)
            + " s"
        )
        report(f"exact SALET {mode}: 1 thread (median)", float(np.median(serial)), "s")
        report(
            f"exact SALET {mode}: 2 threads (median; speed-up {np.median(ups):.2f}x)",
            float(np.median(par)),
            "s",
            6.0 if hard else 3.0,
        )

    print("-- near-optimal (k=12) full classic tree, first word chosen by the search")
    ts = TreeSearch(classic, k=12, threads=2)
    with Timer() as t:
        node = ts.tree()
    report(
        f"near-optimal tree: {classic.guesses[node.guess].upper()} total {node.value:g} (target <= 7925)",
        t.seconds,
        "s",
        60.0,
    )

    print("-- mid-game suggestions (Advisor, after warm-up), every reply to a first guess")
    # nyt: every valid word weighted by the answer model, after the book's first word.
    for words, first in (("classic", "salet"), ("classic", "crane"), ("nyt-3158", "tarse"), ("nyt", None)):
        lex = lex_of(words)
        if first is None:
            book_adv = Advisor(lex)
            first = book_adv.best(book_adv.new_game())
        adv = Advisor(lex, use_book=False)
        pats = {}
        for j, a in enumerate(lex.answers):
            pats.setdefault(_feedback(first, a), []).append(a)
        warm = adv.new_game()
        warm.guess(first, _feedback(first, lex.answers[0]))
        adv.suggest(warm, 5)  # compile and allocate
        times = []
        for p in pats:
            game = adv.new_game()
            game.guess(first, p)
            if game.solved:
                continue
            t0 = time.perf_counter()
            adv.suggest(game, 5)
            times.append(time.perf_counter() - t0)
        ms = 1000 * np.array(times)
        report(f"{words} after {first.upper()}: median over {len(ms)} replies", float(np.median(ms)), "ms")
        report(f"{words} after {first.upper()}: 90th percentile", float(np.quantile(ms, 0.9)), "ms")
        report(f"{words} after {first.upper()}: worst", float(ms.max()), "ms", 100.0)

    print("-- cold start: a new process to the first suggestion (opening book cached)")
    env = dict(os.environ, WORDLEBOT_DATA=str(data))
    cmd = [sys.executable, "-m", "wordlebot", "suggest", "--words", "classic", "--top", "5"]
    subprocess.run(cmd, env=env, capture_output=True, check=True)  # builds the book if missing
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True, check=True)
        runs.append(time.perf_counter() - t0)
    report("cold start to the first suggestion (classic)", min(runs), "s", 3.0)
    cmd2 = cmd + ["--history", "salet:00000"]
    t0 = time.perf_counter()
    subprocess.run(cmd2, env=env, capture_output=True, check=True)
    report("cold start to a second-move suggestion (classic, from the book)", time.perf_counter() - t0, "s", 3.0)
    report("peak RSS of this benchmark process", peak_rss_mb(), "MB")


if __name__ == "__main__":
    main()
