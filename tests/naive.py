"""Slow textbook references the fast code is tested against.

Written from the rules, not from the package: nothing here imports wordlebot.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict

import numpy as np


def feedback_colours(guess: str, answer: str) -> list[str]:
    """The NYT rule as a player would apply it: mark greens; then, left to right, a letter is
    yellow if the answer still has an unmarked copy of it."""
    result = ["gray"] * len(guess)
    pool = list(answer)
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            result[i] = "green"
            pool[i] = None
    for i, g in enumerate(guess):
        if result[i] == "gray" and g in pool:
            result[i] = "yellow"
            pool[pool.index(g)] = None
    return result


@functools.lru_cache(maxsize=1 << 18)  # the same rule, not recomputed: the recursions below ask each pair often
def feedback_code(guess: str, answer: str) -> int:
    value = {"gray": 0, "yellow": 1, "green": 2}
    return sum(value[c] * 3**i for i, c in enumerate(feedback_colours(guess, answer)))


def digits(guess: str, answer: str) -> str:
    """The colours as the digits a player types: 0 gray, 1 yellow, 2 green."""
    code = feedback_code(guess, answer)
    return "".join(str((code // 3**i) % 3) for i in range(len(guess)))


def feedback_rows_numpy(guess: str, answer_codes: np.ndarray) -> np.ndarray:
    """The same rule for one guess against many answers at once (numpy, for the big matrix test):
    greens first, then for each position left to right a yellow consumes one remaining copy."""
    g = np.array([ord(c) - 97 for c in guess])
    green = answer_codes == g  # (n, L)
    remaining = {}
    for x in set(g.tolist()):
        remaining[x] = ((answer_codes == x) & ~green).sum(axis=1)
    code = (green * (2 * 3 ** np.arange(len(guess)))).sum(axis=1)
    for i, x in enumerate(g.tolist()):
        yellow = ~green[:, i] & (remaining[x] > 0)
        remaining[x] = remaining[x] - yellow
        code = code + yellow * 3**i
    return code


def partition(guess: str, candidates: list[str]) -> dict[int, list[str]]:
    parts = defaultdict(list)
    for c in candidates:
        parts[feedback_code(guess, c)].append(c)
    return dict(parts)


def entropy_bits(guess: str, candidates: list[str], weights: dict[str, float] | None = None) -> float:
    w = weights or {c: 1.0 for c in candidates}
    total = sum(w[c] for c in candidates)
    h = 0.0
    for part in partition(guess, candidates).values():
        p = sum(w[c] for c in part) / total
        h -= p * math.log2(p)
    return h


def expected_left(guess: str, candidates: list[str], weights: dict[str, float] | None = None) -> float:
    w = weights or {c: 1.0 for c in candidates}
    total = sum(w[c] for c in candidates)
    return sum(sum(w[c] for c in part) / total * len(part) for part in partition(guess, candidates).values())


def hard_mode_legal(guess: str, rows: list[tuple[str, int]]) -> bool:
    """NYT hard mode, rule by rule: greens stay; each revealed letter is used at least as often as
    it was revealed in each row."""
    return all(_legal_after(guess, word, code) for word, code in rows)


@functools.lru_cache(maxsize=1 << 18)  # one row's rule, asked again and again by the recursions
def _legal_after(guess: str, word: str, code: int) -> bool:
    colours = [(code // 3**i) % 3 for i in range(len(word))]
    revealed = Counter()
    for i, (ch, c) in enumerate(zip(word, colours)):
        if c == 2 and guess[i] != ch:
            return False
        if c in (1, 2):
            revealed[ch] += 1
    have = Counter(guess)
    return all(have[ch] >= n for ch, n in revealed.items())


def consistent(word: str, rows: list[tuple[str, int]]) -> bool:
    return all(feedback_code(g, word) == code for g, code in rows)


def greedy_choice(guesses: list[str], candidates: list[str], score, answers: set[str]) -> str:
    """The best guess by ``score`` (higher is better) with the documented tie-breaks: can be the
    answer first, then the earlier word in the guess list."""
    best = None
    for idx, g in enumerate(guesses):
        key = (round(score(g, candidates), 9), g in candidates, -idx)
        if best is None or key > best[0]:
            best = (key, g)
    return best[1]


def play_greedy(
    guesses: list[str], answers: list[str], target: str, score, first: str | None = None, limit: int = 20
) -> list[str]:
    """Play one game by the greedy rule, game by game (no tree sharing)."""
    cands = list(answers)
    played: list[str] = []
    while len(played) < limit:
        g = (
            first
            if (first and not played)
            else (cands[0] if len(cands) == 1 else greedy_choice(guesses, cands, score, set(answers)))
        )
        played.append(g)
        if g == target:
            return played
        code = feedback_code(g, target)
        cands = [c for c in cands if feedback_code(g, c) == code]
    return played


def optimal_total(
    guesses: list[str],
    answers: list[str],
    max_guesses: int = 6,
    hard: bool = False,
    weights: dict[str, float] | None = None,
    fail_cost: float | None = None,
    first: str | None = None,
) -> float:
    """Minimum over all strategies of the total (weighted) guesses to find every answer, by plain
    exhaustive recursion with memoisation.  Exponential: small lists only.  inf when no strategy
    finishes within ``max_guesses``; with ``fail_cost`` an answer still unknown when the guesses
    run out costs that much (per unit weight) instead; with ``first``, over the strategies that
    open with that word."""

    w = weights or {a: 1.0 for a in answers}

    @functools.cache
    def best(cands: tuple[str, ...], left: int, rows: tuple[tuple[str, int], ...]) -> float:
        if left == 0:
            return math.inf if fail_cost is None else fail_cost * sum(w[c] for c in cands)
        result = math.inf
        for g in [first] if first is not None and left == max_guesses else guesses:
            if hard and not hard_mode_legal(g, list(rows)):
                continue
            parts = partition(g, list(cands))
            if len(parts) == 1 and g not in cands:
                continue  # learns nothing
            total = sum(w[c] for c in cands)
            for code, part in parts.items():
                if code == 3 ** len(g) - 1:
                    continue
                total += best(tuple(part), left - 1, rows + ((g, code),) if hard else ())
                if total >= result:
                    break
            result = min(result, total)
        return result

    return best(tuple(answers), max_guesses, ())


def conditional_logit(theta: np.ndarray, days: list[tuple[np.ndarray, int]]) -> tuple[float, np.ndarray, np.ndarray]:
    """The negative log-likelihood of choices, its gradient and Hessian, straight from the
    definition: each day is (phi: the day's candidates x features, the chosen row); P(row r) =
    exp(theta . phi_r) / sum_s exp(theta . phi_s); the gradient is E[phi] - phi_chosen, the
    Hessian the covariance of phi, summed over days."""
    f = 0.0
    g = np.zeros(theta.size)
    h = np.zeros((theta.size, theta.size))
    for phi, chosen in days:
        s = phi @ theta
        log_z = math.log(sum(math.exp(v) for v in s))
        f -= s[chosen] - log_z
        p = np.array([math.exp(v - log_z) for v in s])
        e = p @ phi
        g += e - phi[chosen]
        h += (phi * p[:, None]).T @ phi - np.outer(e, e)
    return f, g, h


def least_loss_then_guesses(
    guesses: list[str], answers: list[str], weights: dict[str, float], max_guesses: int, first: str | None = None
) -> tuple[float, float]:
    """The streak goal by exhaustive recursion: over all strategies, the least weight of answers
    not found within ``max_guesses``, then among those the least total weighted guesses (a lost
    answer counting every guess it used).  Returns (loss, guesses); with ``first``, over the
    strategies that open with that word.  Small lists only."""

    tol = 1e-12

    @functools.cache
    def best(cands: tuple[str, ...], left: int) -> tuple[float, float]:
        mass = sum(weights[c] for c in cands)
        if left == 0:
            return mass, 0.0
        result = (math.inf, math.inf)
        for g in [first] if first is not None and left == max_guesses else guesses:
            parts = partition(g, list(cands))
            if len(parts) == 1 and g not in cands:
                continue  # learns nothing
            loss, total = 0.0, mass
            for code, part in parts.items():
                if code == 3 ** len(g) - 1:
                    continue
                part_loss, part_total = best(tuple(part), left - 1)
                loss += part_loss
                total += part_total
            if loss < result[0] - tol or (abs(loss - result[0]) <= tol and total < result[1] - tol):
                result = (loss, total)
        return result

    return best(tuple(answers), max_guesses)
