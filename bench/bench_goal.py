"""Mid-game suggestion latency under each play goal (``streak``: the smallest chance of losing
first, then the fewest guesses; ``average``: the fewest guesses, a loss counted as ten more).

Each state is asked once, on one Advisor per word set and goal without an opening book (every
state searched, none remembered: each budgeted search runs on tables emptied first):

* second move: every reply to the first word (classic SALET, nyt-3158 TARSE, the weighted nyt
  set of a fixed day after the book's first word), as in bench_search.py;
* third move: for a fixed sample of answers, the state after the first word and the goal's own
  second move (the later moves are where a chance of losing appears).

Usage: ``python bench/bench_goal.py [--goal streak|average]… [--sample N] [--date D]``; prints
median, 90th percentile and worst per set and goal, wall clock and CPU time.  An older checkout
(no goals) runs too, for a before/after: ``PYTHONPATH=old/src python bench/bench_goal.py``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import time

import numpy as np
from common import data_dir, report

import wordlebot.policy.strategies  # noqa: F401
import wordlebot.search.openings  # noqa: F401  (everything imported before any work: see below)
import wordlebot.search.tree_search  # noqa: F401
from wordlebot.app.wordsets import load_lexicon
from wordlebot.core.feedback import _feedback
from wordlebot.policy.advisor import Advisor

SETS = (("classic", "salet"), ("nyt-3158", "tarse"), ("nyt", None))


def advisor(lex, goal: str | None, **kw) -> Advisor:
    # older checkouts have no goal (their play policy is the one `average` keeps)
    if goal is not None and "goal" in inspect.signature(Advisor).parameters:
        kw["goal"] = goal
    return Advisor(lex, **kw)


def timed(adv: Advisor, game) -> tuple[float, float, float]:
    """Wall and CPU milliseconds (the CPU time of every thread: on a machine shared with other
    work it says what the suggestion cost, where the wall clock also says how long it waited),
    and the search's work in millions of scan units (search/kernels.py's M_WORK: what the work budget
    counts, the same on any machine and load)."""
    search = adv.search_for(game.hard, game.max_guesses)
    w0 = search.work_done
    t0, c0 = time.perf_counter(), time.process_time()
    adv.suggest(game, 5)
    return (1000 * (time.perf_counter() - t0), 1000 * (time.process_time() - c0), (search.work_done - w0) / 1e6)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--goal", action="append", choices=["streak", "average"])
    ap.add_argument("--sample", type=int, default=120, help="answers whose third move is timed")
    ap.add_argument("--date", default="2026-05-20", help="the nyt set's day (its prior)")
    args = ap.parse_args()
    goals = args.goal or ["average", "streak"]
    data = data_dir()
    day = dt.date.fromisoformat(args.date)
    for words, first in SETS:
        lex = load_lexicon(words, data_dir=data, day=day if words == "nyt" else None, build_model=True)
        if first is None:
            book = advisor(lex, "streak")
            first = book.best(book.new_game())
        rng = np.random.default_rng(0)
        sample = rng.choice(lex.n_answers, size=min(args.sample, lex.n_answers), replace=False)
        if lex.weighted:  # answers drawn by the prior: the states a player meets
            p = lex.prior / lex.prior.sum()
            sample = rng.choice(lex.n_answers, size=args.sample, replace=False, p=p)
        for goal in goals:
            adv = advisor(lex, goal, use_book=False)
            warm = adv.new_game()
            warm.guess(first, _feedback(first, lex.answers[0]))
            adv.suggest(warm, 5)  # compile and allocate
            second = []
            for p in sorted({_feedback(first, a) for a in lex.answers}):
                game = adv.new_game()
                game.guess(first, p)
                if not game.solved:
                    second.append(timed(adv, game))
            third = []
            for j in sample.tolist():
                answer = lex.answers[j]
                game = adv.new_game()
                game.guess(first, _feedback(first, answer))
                if game.solved:
                    continue
                w = adv.best(game)
                game.guess(w, _feedback(w, answer))
                if game.solved:
                    continue
                third.append(timed(adv, game))
            for name, both in (("2nd move", second), ("3rd move", third)):
                for clock, ms in zip(("wall", "cpu", "work"), np.array(both).T):
                    unit = "Mu" if clock == "work" else "ms"
                    report(f"{words} {goal} {name} {clock} median ({len(ms)})", float(np.median(ms)), unit)
                    report(f"{words} {goal} {name} {clock} 90th pct", float(np.quantile(ms, 0.9)), unit)
                    report(f"{words} {goal} {name} {clock} worst", float(ms.max()), unit)
                    if clock == "work":
                        report(f"{words} {goal} {name} work total", float(ms.sum()), unit)


if __name__ == "__main__":
    main()
