"""How far the multi-board policy plays from the optimum, on Dordle over reduced real lists.

A reduced list: seeded samples of the classic answers (the answers) and of the other classic
guesses (added to the guesses), uniform.  For each, the exact optimum of the whole Dordle
(``endgame.exact_value``: every word at every state, no budget; checked against the brute force
of ``exact.py`` in tests/test_multi.py) against the average of the policy, with and without its
endgame search, over every pair of distinct answers, for both objectives.

    python bench/bench_multi_exact.py [--answers 24] [--others 24] [--seeds 3]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from common import data_dir

from wordlebot.app.wordsets import load_lexicon
from wordlebot.core.matrix import build_matrix
from wordlebot.core.words import Lexicon
from wordlebot.multi import MultiGame, policy_expected_score, suggest
from wordlebot.multi.endgame import exact_value


def reduced(classic: Lexicon, answers: int, others: int, seed: int) -> Lexicon:
    rng = random.Random(seed)
    chosen = sorted(rng.sample(list(classic.answers), answers))
    pool = [w for w in classic.guesses if w not in set(chosen)]
    extra = sorted(rng.sample(pool, others))
    return Lexicon.from_lists(
        sorted(chosen + extra), chosen, name=f"classic-{answers}+{others}-s{seed}", official=False
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--answers", type=int, default=24)
    ap.add_argument("--others", type=int, default=24)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    classic = load_lexicon("classic", data_dir=data_dir())
    print(
        f"Dordle, reduced classic lists ({args.answers} answers + {args.others} other guesses), "
        "every pair of distinct answers, uniform"
    )
    print(
        f"{'list':<24} {'objective':<8} {'exact':>8} {'policy':>8} {'gap':>7} {'one-step':>9} {'gap':>7} {'exact s':>8}"
    )
    for seed in range(args.seeds):
        lex = reduced(classic, args.answers, args.others, seed)
        m = np.asarray(build_matrix(lex.guesses, lex.answers))
        for objective in ("score", "guesses"):
            t0 = time.perf_counter()
            best = exact_value(MultiGame(lex, 2, matrix=m), m, objective)
            took = time.perf_counter() - t0
            played = policy_expected_score(
                lex, 2, lambda g: suggest(g, 1, m, objective=objective)[0].word, objective=objective
            )
            one = policy_expected_score(
                lex, 2, lambda g: suggest(g, 1, m, objective=objective, search=False)[0].word, objective=objective
            )
            print(
                f"{lex.name:<24} {objective:<8} {best:8.4f} {played:8.4f} {100 * (played / best - 1):6.2f}%"
                f" {one:9.4f} {100 * (one / best - 1):6.2f}% {took:8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
