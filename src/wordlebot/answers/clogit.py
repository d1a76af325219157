"""Conditional logit, fitted by Newton's method: the editor's choice of a day's answer.

Each past day is one choice among that day's possible words: word w is chosen with probability
exp(theta . phi(w, day)) / sum over the day's words v of exp(theta . phi(v, day)).  The negative
log-likelihood is convex in theta; its gradient is E[phi] - phi(chosen) and its Hessian the
covariance of phi under the day's distribution, summed over days.

Two kernels compute (f, gradient, Hessian) at theta:

- ``_fresh_objective``: the choice among the words not used yet (about 13,000 a day, 1,300
  days).  phi(w, day) = [x_w, u(day, group of w), same first letter as the day before, same last
  letter as the day before]: a word's static features, its group's day features (how many words
  the group has left, a trend) and two letters compared with the previous day's answer.  Nothing
  but the group and the two letters varies by day, so the day's sums are sums over cells (group,
  first letter, last letter) of per-word moments: the sum over the day's words of e, e x and
  e x x^T, e = exp(beta . x).  The kernel keeps those moments for the words still unused, cell
  by cell with the marginals, and takes a word out the day it is first used: a day costs
  O(groups x F^2) and the whole fit milliseconds.
- ``_choice_objective``: a plain conditional logit over explicit candidate rows (the repeat
  choice among past answers: a few dozen days of at most 2,000 rows).

``newton`` minimises f + 0.5 sum lambda_k theta_k^2 with a Cholesky solve and a backtracking
line search.  Every sum is a serial loop in a fixed order (no BLAS), so a fit is bit-identical
from run to run on a machine, as ``answers/logistic.py``'s is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from ..core.kernels import JIT

LETTERS = 26
MAX_NEWTON = 60
MAX_HALVINGS = 50
TOL = 1e-9  # max |gradient| per choice at which a fit stops
# A step cut below MIN_STEP where the gradient is within NEAR x the tolerance ends a fit (see newton)
MIN_STEP = 2.0**-10
NEAR = 1000.0


class FreshDays(NamedTuple):
    """The fresh choices' data, laid out for ``_fresh_objective`` (a named tuple: the kernel
    takes it whole and reads its fields by name).

    The days are every history day in order, each with the word it used (taken out of the
    fresh pool after the day); ``train`` marks the days whose choice is scored (a fresh answer
    on or after the start of training)."""

    features: np.ndarray  # float64, words x F: static features x_w
    group: np.ndarray  # int64 per word, 0 .. groups - 1
    first: np.ndarray  # int64 per word: first letter 0 .. 25
    last: np.ndarray  # int64 per word: last letter
    day_word: np.ndarray  # int64 per day: the word used that day (taken out of the pool if fresh)
    day_fresh: np.ndarray  # bool per day: the word was not used before
    train: np.ndarray  # bool per day: a scored choice
    prev_first: np.ndarray  # int64 per day: first letter of the day before's answer, -1 if unknown
    prev_last: np.ndarray  # int64 per day
    day_features: np.ndarray  # float64, days x groups x K: u(day, group)
    groups: int


class Moments(NamedTuple):
    """The unused words' moment sums, cell by cell with the marginals: order 0 (sum of e), 1
    (sum of e x) and 2 (sum of e x x^T), by group (``*g``), (group, first letter) (``*a``),
    (group, last letter) (``*b``) and (group, first, last) (``*c``)."""

    m0g: np.ndarray
    m1g: np.ndarray
    m2g: np.ndarray
    m0a: np.ndarray
    m1a: np.ndarray
    m2a: np.ndarray
    m0b: np.ndarray
    m1b: np.ndarray
    m2b: np.ndarray
    m0c: np.ndarray
    m1c: np.ndarray
    m2c: np.ndarray


@njit(**JIT)
def _no_moments(groups, F):
    L = LETTERS
    return Moments(
        np.zeros(groups),
        np.zeros((groups, F)),
        np.zeros((groups, F, F)),
        np.zeros((groups, L)),
        np.zeros((groups, L, F)),
        np.zeros((groups, L, F, F)),
        np.zeros((groups, L)),
        np.zeros((groups, L, F)),
        np.zeros((groups, L, F, F)),
        np.zeros((groups, L, L)),
        np.zeros((groups, L, L, F)),
        np.zeros((groups, L, L, F, F)),
    )


@njit(**JIT)
def _add_moments(m, e, x, g, a, b, sign):
    """Add sign * (e, e x, e x x^T) of one word (group g, first letter a, last letter b) to its
    cells of ``m``."""
    F = x.size
    s = sign * e
    m.m0g[g] += s
    m.m0a[g, a] += s
    m.m0b[g, b] += s
    m.m0c[g, a, b] += s
    for i in range(F):
        v = s * x[i]
        m.m1g[g, i] += v
        m.m1a[g, a, i] += v
        m.m1b[g, b, i] += v
        m.m1c[g, a, b, i] += v
        for j in range(F):
            w = v * x[j]
            m.m2g[g, i, j] += w
            m.m2a[g, a, i, j] += w
            m.m2b[g, b, i, j] += w
            m.m2c[g, a, b, i, j] += w


@njit(**JIT)
def _fresh_objective(theta, days, need_derivatives):
    """(f, gradient, Hessian) of the fresh choices' negative log-likelihood at ``theta`` =
    [beta (F), alpha (K), delta_first, delta_last] (see ``FreshDays``)."""
    features, group, first, last = days.features, days.group, days.first, days.last
    day_word, day_fresh, train = days.day_word, days.day_fresh, days.train
    prev_first, prev_last, day_features, groups = days.prev_first, days.prev_last, days.day_features, days.groups
    W, F = features.shape
    K = day_features.shape[2]
    P = F + K + 2
    beta = theta[:F]
    alpha = theta[F : F + K]
    d_first = theta[F + K]
    d_last = theta[F + K + 1]
    # static scores, shifted by their maximum (the shift cancels in every ratio)
    score = np.empty(W)
    top = -np.inf
    for w in range(W):
        s = 0.0
        for i in range(F):
            s += features[w, i] * beta[i]
        score[w] = s
        if s > top:
            top = s
    mom = _no_moments(groups, F)  # the moments of the words not used yet
    e = np.empty(W)
    for w in range(W):
        e[w] = math.exp(score[w] - top)
        _add_moments(mom, e[w], features[w], group[w], first[w], last[w], 1.0)
    f = 0.0
    grad = np.zeros(P)
    hess = np.zeros((P, P))
    S1 = np.zeros(P)
    S2 = np.zeros((P, P))
    dyn = np.zeros(K + 2)
    c0 = np.zeros(4)
    c1 = np.zeros((4, F))
    c2 = np.zeros((4, F, F))
    for t in range(day_word.size):
        if train[t]:
            a = prev_first[t]
            b = prev_last[t]
            Z = 0.0
            if need_derivatives:
                S1[:] = 0.0
                S2[:, :] = 0.0
            for g in range(groups):
                # the group's unused words split by (same first letter, same last letter)
                c0[:] = 0.0
                c1[:, :] = 0.0
                c2[:, :, :] = 0.0
                if a >= 0:
                    c0[3] = mom.m0c[g, a, b]
                    c0[2] = mom.m0a[g, a] - c0[3]
                    c0[1] = mom.m0b[g, b] - c0[3]
                    c0[0] = mom.m0g[g] - c0[1] - c0[2] - c0[3]
                    if need_derivatives:
                        for i in range(F):
                            c1[3, i] = mom.m1c[g, a, b, i]
                            c1[2, i] = mom.m1a[g, a, i] - c1[3, i]
                            c1[1, i] = mom.m1b[g, b, i] - c1[3, i]
                            c1[0, i] = mom.m1g[g, i] - c1[1, i] - c1[2, i] - c1[3, i]
                            for j in range(F):
                                c2[3, i, j] = mom.m2c[g, a, b, i, j]
                                c2[2, i, j] = mom.m2a[g, a, i, j] - c2[3, i, j]
                                c2[1, i, j] = mom.m2b[g, b, i, j] - c2[3, i, j]
                                c2[0, i, j] = mom.m2g[g, i, j] - c2[1, i, j] - c2[2, i, j] - c2[3, i, j]
                else:  # the day before is unknown: no letter matches
                    c0[0] = mom.m0g[g]
                    if need_derivatives:
                        for i in range(F):
                            c1[0, i] = mom.m1g[g, i]
                            for j in range(F):
                                c2[0, i, j] = mom.m2g[g, i, j]
                for cls in range(4):
                    if c0[cls] <= 0.0:
                        continue
                    u = 0.0
                    for k in range(K):
                        dyn[k] = day_features[t, g, k]
                        u += dyn[k] * alpha[k]
                    dyn[K] = 1.0 if cls >= 2 else 0.0  # same first letter
                    dyn[K + 1] = 1.0 if cls == 1 or cls == 3 else 0.0  # same last letter
                    u += dyn[K] * d_first + dyn[K + 1] * d_last
                    cu = math.exp(u)
                    Z += cu * c0[cls]
                    if need_derivatives:
                        for i in range(F):
                            S1[i] += cu * c1[cls, i]
                            for j in range(F):
                                S2[i, j] += cu * c2[cls, i, j]
                            for k in range(K + 2):
                                v = cu * c1[cls, i] * dyn[k]
                                S2[i, F + k] += v
                                S2[F + k, i] += v
                        for k in range(K + 2):
                            S1[F + k] += cu * c0[cls] * dyn[k]
                            for m in range(K + 2):
                                S2[F + k, F + m] += cu * c0[cls] * dyn[k] * dyn[m]
            # the chosen word's phi and score
            w = day_word[t]
            g = group[w]
            u = 0.0
            for k in range(K):
                u += day_features[t, g, k] * alpha[k]
            same_first = 1.0 if a >= 0 and first[w] == a else 0.0
            same_last = 1.0 if a >= 0 and last[w] == b else 0.0
            u += same_first * d_first + same_last * d_last
            f -= (score[w] - top) + u - math.log(Z)
            if need_derivatives:
                for i in range(P):
                    S1[i] /= Z
                for i in range(F):
                    grad[i] += S1[i] - features[w, i]
                for k in range(K):
                    grad[F + k] += S1[F + k] - day_features[t, g, k]
                grad[F + K] += S1[F + K] - same_first
                grad[F + K + 1] += S1[F + K + 1] - same_last
                for i in range(P):
                    for j in range(P):
                        hess[i, j] += S2[i, j] / Z - S1[i] * S1[j]
        if day_fresh[t]:  # the word leaves the pool of unused words
            w = day_word[t]
            _add_moments(mom, e[w], features[w], group[w], first[w], last[w], -1.0)
    return f, grad, hess


@njit(**JIT)
def _choice_objective(theta, rows, start, chosen, need_derivatives):
    """(f, gradient, Hessian) of a conditional logit over explicit candidates: choice c has the
    rows start[c] .. start[c + 1] - 1 of ``rows`` (candidates x P), the chosen one at row
    ``chosen[c]``."""
    P = rows.shape[1]
    f = 0.0
    grad = np.zeros(P)
    hess = np.zeros((P, P))
    E = np.zeros(P)
    for c in range(chosen.size):
        lo = start[c]
        hi = start[c + 1]
        top = -np.inf
        for r in range(lo, hi):
            s = 0.0
            for i in range(P):
                s += rows[r, i] * theta[i]
            if s > top:
                top = s
        Z = 0.0
        E[:] = 0.0
        M = np.zeros((P, P)) if need_derivatives else np.zeros((1, 1))
        for r in range(lo, hi):
            s = 0.0
            for i in range(P):
                s += rows[r, i] * theta[i]
            e = math.exp(s - top)
            Z += e
            if need_derivatives:
                for i in range(P):
                    E[i] += e * rows[r, i]
                    for j in range(P):
                        M[i, j] += e * rows[r, i] * rows[r, j]
        s = 0.0
        for i in range(P):
            s += rows[chosen[c], i] * theta[i]
        f -= s - top - math.log(Z)
        if need_derivatives:
            for i in range(P):
                E[i] /= Z
            for i in range(P):
                grad[i] += E[i] - rows[chosen[c], i]
                for j in range(P):
                    hess[i, j] += M[i, j] / Z - E[i] * E[j]
    return f, grad, hess


@njit(**JIT)
def _cholesky_solve(A, b):
    """x with A x = b for a symmetric positive definite A (serial, no LAPACK)."""
    n = b.size
    L = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            s = A[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            if i == j:
                L[i, i] = math.sqrt(max(s, 1e-300))
            else:
                L[i, j] = s / L[j, j]
    y = np.zeros(n)
    for i in range(n):
        s = b[i]
        for k in range(i):
            s -= L[i, k] * y[k]
        y[i] = s / L[i, i]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        s = y[i]
        for k in range(i + 1, n):
            s -= L[k, i] * x[k]
        x[i] = s / L[i, i]
    return x


@dataclass(frozen=True)
class Fit:
    theta: np.ndarray
    nll: float  # the data's negative log-likelihood at theta (no penalty)
    iterations: int
    converged: bool


def newton(
    objective: Callable[[np.ndarray, bool], tuple[float, np.ndarray, np.ndarray]], penalty: np.ndarray, choices: int
) -> Fit:
    """Minimise objective(theta) + 0.5 sum penalty * theta^2 from theta = 0."""
    theta = np.zeros(penalty.size)
    tol = TOL * max(choices, 1)

    def total(th: np.ndarray, derivatives: bool):
        f, g, h = objective(th, derivatives)
        f += 0.5 * float(np.dot(penalty, th * th))
        if derivatives:
            g = g + penalty * th
            h = h + np.diag(penalty)
        return f, g, h

    f, g, h = total(theta, True)
    for it in range(1, MAX_NEWTON + 1):
        if np.max(np.abs(g)) <= tol:
            return Fit(theta, float(objective(theta, False)[0]), it - 1, True)
        step = _cholesky_solve(h, g)
        a = 1.0
        for _ in range(MAX_HALVINGS):
            cand = theta - a * step
            fc = total(cand, False)[0]
            if fc <= f:
                break
            a *= 0.5
        else:  # no decrease: at the optimum to rounding
            return Fit(theta, float(objective(theta, False)[0]), it, True)
        if a < MIN_STEP and np.max(np.abs(g)) <= NEAR * tol:
            # Near the optimum Newton's full step is taken; one cut below MIN_STEP of it found a
            # "decrease" only in f's rounding, and every further step would do the same: the
            # gradient is as small as rounding lets it be.  Without this exit such a fit ran all
            # MAX_NEWTON iterations, each halving its step ~25 times: 10 of the 120 days of the
            # published backtest (2026-02-06 among them: |gradient| stuck at 7e-6 against a
            # tolerance of 1.2e-6) took up to 1,855 evaluations and 15 s instead of 22 and 0.4 s.
            return Fit(cand, float(objective(cand, False)[0]), it, True)
        theta = cand
        f, g, h = total(theta, True)
    return Fit(theta, float(objective(theta, False)[0]), MAX_NEWTON, bool(np.max(np.abs(g)) <= tol))


def fit_fresh(days: FreshDays, penalty: np.ndarray) -> Fit:
    """Fit [beta, alpha, delta_first, delta_last] to the fresh choices."""

    def objective(theta: np.ndarray, derivatives: bool):
        return _fresh_objective(theta, days, derivatives)

    return newton(objective, penalty, int(days.train.sum()))


def fit_choices(rows: np.ndarray, start: np.ndarray, chosen: np.ndarray, penalty: np.ndarray) -> Fit:
    """Fit a conditional logit over explicit candidate rows (see ``_choice_objective``)."""
    rows = np.ascontiguousarray(rows, np.float64)

    def objective(theta: np.ndarray, derivatives: bool):
        return _choice_objective(theta, rows, start, chosen, derivatives)

    return newton(objective, penalty, int(chosen.size))
