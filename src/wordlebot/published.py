"""Published results the project must reproduce (DESIGN.md, "Reference results"): the tests
check the ones that run in seconds, the benchmarks all of them.  One table, so a test and a
benchmark can never disagree about a golden value."""

# (word set, first guess, hard mode, guess cap, proven optimal total)
OPTIMAL_TOTALS = (
    ("classic", "salet", False, 6, 7920),
    ("classic", "salet", True, 6, 8122),
    ("classic", "palet", True, 5, 8206),
    ("nyt-2309", "tarse", False, 6, 7883),
    ("nyt-2309", "salet", True, 6, 8097),
    ("nyt-3158", "tarse", False, 6, 11219),
)

# Greedy one-step baselines on classic, every allowed guess: (strategy, first guess, total)
GREEDY_TOTALS = (
    ("most-parts", "trace", 7951),
    ("entropy", "soare", 8018),
    ("expected-size", "roate", 8060),
    ("minimax", "raise", 8142),
)
