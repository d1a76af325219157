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

The player's path (issue 42's target: every reply to the first move, and every third move reached
by the 500 likeliest answers, <= 50 ms at worst on the weighted set):
``python bench/bench_goal.py --set nyt --goal streak --likeliest 500 --repeat 3 --date today``
asks every distinct state once per repeat on one warmed-up Advisor (no ranking remembered
between repeats) and prints each repeat's worst and median per move, then the medians of those.
"""

from __future__ import annotations

import argparse
import datetime as dt
import inspect
import time
from collections.abc import Iterator

import numpy as np
from common import data_dir, report

import wordlebot.policy.strategies  # noqa: F401
import wordlebot.search.openings  # noqa: F401  (everything imported before any work: see below)
import wordlebot.search.tree_search  # noqa: F401
from wordlebot.app.wordsets import load_lexicon
from wordlebot.core.feedback import feedback_unchecked as _feedback
from wordlebot.core.game import Game
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


def second_moves(adv: Advisor, lex, first: str) -> Iterator[Game]:
    """The games after ``first``, one per reply that does not solve it (in pattern order)."""
    for p in sorted({_feedback(first, a) for a in lex.answers}):
        game = adv.new_game()
        game.guess(first, p)
        if not game.solved:
            yield game


def third_moves(adv: Advisor, lex, first: str, answer_ids: list[int], distinct: bool) -> Iterator[Game]:
    """For each answer, the game after ``first`` and the advisor's own second move, unless either
    solves it; with ``distinct`` each state once.  Lazy: each state is timed as it comes, before
    the next is played (the advisor's second move would otherwise be asked ahead of its timing)."""
    seen = set()
    for j in answer_ids:
        answer = lex.answers[j]
        game = adv.new_game()
        game.guess(first, _feedback(first, answer))
        if game.solved:
            continue
        w = adv.best(game)
        game.guess(w, _feedback(w, answer))
        key = (w, _feedback(w, answer), _feedback(first, answer))
        if game.solved or (distinct and key in seen):
            continue
        seen.add(key)
        yield game


def player_path(lex, goal: str, first: str, likeliest: int, repeats: int) -> None:
    """Every reply to ``first`` (second move) and the third move of each of the ``likeliest``
    answers (the goal's own second move played), each distinct state asked once a repeat, on one
    Advisor whose rankings are forgotten between repeats; each repeat's worst and median
    printed, then their medians."""
    order = np.argsort(-np.asarray(lex.prior), kind="stable")[:likeliest] if lex.weighted else np.arange(likeliest)
    figures: dict[str, list[tuple[float, float, float, float, float]]] = {"2nd move": [], "3rd move": []}
    adv = advisor(lex, goal, use_book=False)
    warm = adv.new_game()
    warm.guess(first, _feedback(first, lex.answers[-1]))
    adv.suggest(warm, 5)  # compile and allocate
    for rep in range(repeats):
        # One Advisor, as a server or a screen keeps one: its tables and scratch space are
        # allocated (the first touches of a new one's pages cost ~50 ms, once), and nothing
        # searched is remembered between repeats (each budgeted ranking runs on emptied tables;
        # the rankings kept are dropped here).
        adv._ranked.clear()
        for search in adv._searches.values():
            search._last_order = None
        second = [timed(adv, game) for game in second_moves(adv, lex, first)]
        third = [timed(adv, game) for game in third_moves(adv, lex, first, order.tolist(), distinct=True)]
        for name, both in (("2nd move", second), ("3rd move", third)):
            a = np.array(both)
            row = (
                float(a[:, 0].max()),
                float(np.median(a[:, 0])),
                float(a[:, 1].max()),
                float(np.median(a[:, 1])),
                float(a[:, 2].max()),
            )
            figures[name].append(row)
            print(
                f"   repeat {rep + 1} {name} ({len(a)} states): wall worst {row[0]:.1f} median {row[1]:.1f} ms; "
                f"cpu worst {row[2]:.1f} median {row[3]:.1f} ms; work worst {row[4]:.2f} Mu",
                flush=True,
            )
    for name, rows in figures.items():
        r = np.array(rows)
        report(f"{lex.name} {goal} {name} wall worst (median of {repeats})", float(np.median(r[:, 0])), "ms", 50.0)
        report(f"{lex.name} {goal} {name} wall median (median of {repeats})", float(np.median(r[:, 1])), "ms")
        report(f"{lex.name} {goal} {name} cpu worst (median of {repeats})", float(np.median(r[:, 2])), "ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--goal", action="append", choices=["streak", "average"])
    ap.add_argument("--sample", type=int, default=120, help="answers whose third move is timed")
    ap.add_argument("--date", default="2026-05-20", help="the nyt set's day (its prior); 'today' for today's")
    ap.add_argument("--set", action="append", choices=[w for w, _ in SETS], help="word sets (default: all)")
    ap.add_argument(
        "--likeliest",
        type=int,
        default=0,
        help="the player's path instead: every reply, and the third move of the N likeliest answers",
    )
    ap.add_argument("--repeat", type=int, default=3, help="repeats of the player's path (--likeliest)")
    args = ap.parse_args()
    goals = args.goal or ["average", "streak"]
    data = data_dir()
    day = dt.date.today() if args.date == "today" else dt.date.fromisoformat(args.date)
    for words, first in SETS:
        if args.set and words not in args.set:
            continue
        lex = load_lexicon(words, data_dir=data, day=day if words == "nyt" else None, build_model=True)
        if first is None:
            book = advisor(lex, "streak")
            first = book.best(book.new_game())
        if args.likeliest:
            print(f"-- {words} (prior of {day}), first word {first.upper()}: the player's path", flush=True)
            for goal in goals:
                player_path(lex, goal, first, args.likeliest, args.repeat)
            continue
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
            second = [timed(adv, game) for game in second_moves(adv, lex, first)]
            third = [timed(adv, game) for game in third_moves(adv, lex, first, sample.tolist(), distinct=False)]
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
