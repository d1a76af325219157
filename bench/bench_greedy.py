"""Greedy rankers and the simulator.

- entropy over all 14,855 guesses for the 3,158 WordleBot candidates (target: milliseconds);
- a full classic simulation with greedy entropy from SOARE (target <= 5 s on 2 cores; a popular
  solver's tester takes 71 s for the easier candidates-only variant), and the other rankers'
  published totals.
"""

from __future__ import annotations

import numpy as np
from common import best_of, data_dir, report

from wordlebot.app.wordsets import load_lexicon
from wordlebot.core.matrix import pattern_matrix
from wordlebot.policy.simulate import greedy_chooser, simulate
from wordlebot.policy.strategies import rank
from wordlebot.search.published import GREEDY_TOTALS

GOLDEN = GREEDY_TOTALS


def main() -> None:
    data = data_dir()
    lex = load_lexicon("nyt-3158", data_dir=data)
    m = pattern_matrix(lex)
    cands = np.arange(lex.n_answers)
    for strategy in ("entropy", "minimax", "approx-entropy", "letter-freq"):
        rank(lex, m, cands, strategy=strategy)  # warm
        t = best_of(lambda: rank(lex, m, cands, strategy=strategy), 5)
        report(
            f"rank {strategy}: 14,855 guesses x 3,158 candidates",
            1000 * t,
            "ms",
            100 if strategy == "entropy" else None,
        )

    nyt = load_lexicon("nyt", data_dir=data)
    mn = pattern_matrix(nyt)
    t = best_of(lambda: rank(nyt, mn, np.arange(nyt.n_answers)), 3)
    report("rank entropy: 14,855 x 14,855 weighted (nyt opening)", 1000 * t, "ms")

    classic = load_lexicon("classic", data_dir=data)
    mc = pattern_matrix(classic)
    for strategy, first, gold in GOLDEN:
        chooser = greedy_chooser(classic, mc, strategy)
        simulate(classic, mc, chooser, first=classic.id(first), targets=np.arange(50))  # warm
        r = simulate(classic, mc, chooser, first=classic.id(first))
        report(
            f"simulate classic {strategy} from {first.upper()} (total {r.total}, published {gold})",
            r.seconds,
            "s",
            5.0 if strategy == "entropy" else None,
        )
    chooser = greedy_chooser(classic, mc, "entropy", guess_space="candidates")
    r = simulate(classic, mc, chooser, guess_space="candidates")
    report(f"simulate classic entropy, candidates only (total {r.total}); reference tester 71 s", r.seconds, "s", 71.0)


if __name__ == "__main__":
    main()
