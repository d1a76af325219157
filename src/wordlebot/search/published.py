"""Published results the project must reproduce (docs/ARCHITECTURE.md; the README's results): the tests
check the ones that run in seconds, the benchmarks all of them.  One table, so a test and a
benchmark can never disagree about a golden value."""

from __future__ import annotations

# Word sets of the table that are not named sets of the CLI: (guesses, answers) in the data folder.
LIST_PAIRS = {
    # the NYT's 2022 answers with the original game's 12,972 guesses (alex1770/wordle's results)
    "nyt-2309/classic-guesses": ("classic/guesses.txt", "nyt/answers-2309.txt"),
}

# (word set, first guess, hard mode, guess cap, proven optimal total)
OPTIMAL_TOTALS = (
    ("classic", "salet", False, 6, 7920),
    ("classic", "salet", True, 6, 8122),
    ("classic", "palet", True, 5, 8206),
    ("nyt-2309", "tarse", False, 6, 7883),
    ("nyt-2309", "salet", True, 6, 8097),
    ("nyt-3158", "tarse", False, 6, 11219),
    ("nyt-3158", "tarse", True, 6, 11627),
    ("nyt-2309/classic-guesses", "salet", False, 6, 7897),
    ("nyt-2309/classic-guesses", "salet", True, 6, 8099),
)

# Rows that take minutes: benchmarks only.
SLOW_SETS = ("nyt-3158",)


# Greedy one-step baselines on classic, every allowed guess: (strategy, first guess, total)
GREEDY_TOTALS = (
    ("most-parts", "trace", 7951),
    ("entropy", "soare", 8018),
    ("expected-size", "roate", 8060),
    ("minimax", "raise", 8142),
)
