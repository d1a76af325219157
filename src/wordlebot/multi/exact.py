"""The exact expected score of a multi-board game, by exhaustive search: small lists only (a few
guesses and answers), to measure how far a policy plays from the optimum.

The boards' answers are distinct words of the answer list, every such tuple equally likely.  A
state is the set of answer tuples the rows so far leave (so what one board's colours say about
another's answer, through distinctness, is used); the score is the sum over boards of the
guess that solved each, a board not solved within the cap costing ``fail_cost``; or, with
``objective="guesses"``, the guess that solved the last board (a game not finished: the cap plus
one per open board, as ``MultiGame.guesses_to_finish`` counts it).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import numpy as np

from ..core.feedback import all_green
from ..core.matrix import build_matrix
from ..core.words import Lexicon
from .game import EXTRA_GUESSES, MultiGame, check_objective

MAX_TUPLES = 5_000  # beyond this the search takes too long to be a test


def answer_tuples(lexicon: Lexicon, boards: int) -> list[tuple[int, ...]]:
    return list(itertools.permutations(range(lexicon.n_answers), boards))


def exact_expected_score(
    lexicon: Lexicon,
    boards: int,
    *,
    max_guesses: int | None = None,
    fail_cost: float | None = None,
    objective: str = "score",
) -> float:
    """The lowest expected score any strategy achieves (see the module's docstring)."""
    by_guesses = check_objective(objective) == "guesses"
    cap = boards + EXTRA_GUESSES if max_guesses is None else max_guesses
    fail = cap + 1 if fail_cost is None else fail_cost
    tuples = answer_tuples(lexicon, boards)
    if not tuples:
        raise ValueError(f"{lexicon.n_answers} answers cannot fill {boards} boards with distinct words")
    if len(tuples) > MAX_TUPLES:
        raise ValueError(f"{len(tuples):,} answer tuples: the exact search is for small cases")
    # guesses x answers, as Python lists: the search reads one pattern at a time (a numpy
    # element read from Python costs several times a list's)
    m = build_matrix(lexicon.guesses, lexicon.answers).tolist()
    green = all_green(lexicon.length)
    n_guesses = lexicon.n_guesses

    @cache
    def value(state: tuple[tuple[int, ...], ...], solved: tuple[bool, ...], t: int) -> float:
        """Expected score still to come, summed over the tuples of ``state`` (not averaged)."""
        open_boards = [b for b in range(boards) if not solved[b]]
        if not open_boards:
            return 0.0
        if t == cap:
            if by_guesses:
                return (cap + len(open_boards)) * len(state)
            return fail * len(open_boards) * len(state)
        best = float("inf")
        for g in range(n_guesses):
            row = m[g]
            parts: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
            for tup in state:
                key = tuple(row[tup[b]] for b in open_boards)
                parts.setdefault(key, []).append(tup)
            if len(parts) == 1 and green not in next(iter(parts)):
                continue  # learns nothing and solves nothing
            total = 0.0
            for key, part in parts.items():
                now = list(solved)
                for b, p in zip(open_boards, key):
                    if p == green:
                        now[b] = True
                        if not by_guesses:
                            total += (t + 1) * len(part)
                if by_guesses and all(now):
                    total += (t + 1) * len(part)
                else:
                    total += value(tuple(part), tuple(now), t + 1)
                if total >= best:
                    break
            best = min(best, total)
        return best

    return value(tuple(tuples), (False,) * boards, 0) / len(tuples)


def policy_expected_score(
    lexicon: Lexicon,
    boards: int,
    policy: Callable[[MultiGame], str],
    *,
    max_guesses: int | None = None,
    fail_cost: float | None = None,
    objective: str = "score",
) -> float:
    """The average score of ``policy(game) -> word`` over every tuple of distinct answers."""
    tuples = answer_tuples(lexicon, boards)
    m = build_matrix(lexicon.guesses, lexicon.answers)
    total = 0.0
    for tup in tuples:
        game = MultiGame(
            lexicon, boards, max_guesses=max_guesses, matrix=np.asarray(m), answers=[lexicon.answers[a] for a in tup]
        )
        while not game.over:
            game.guess(policy(game))
        total += game.score(fail_cost) if objective == "score" else game.value(objective)
    return total / len(tuples)
