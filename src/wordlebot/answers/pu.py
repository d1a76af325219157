"""Positive-unlabeled learning: logistic regression trained with the Spy-EM procedure.

Only positives are known (words that have been or are listed as answers); every other word is
unlabeled, a mix of words the editor would pick and words she never will.  A share of the
positives is hidden among the unlabeled as *spies*.

1. A classifier g separating labeled from unlabeled under-calls positives by the labeling
   frequency c, estimated as the spies' mean probability (Elkan & Noto).  So the unlabeled hold
   about |labeled| (1 - c) / c positives, and each unlabeled word starts with the weight
   w = P(positive | x, unlabeled) = (1 - c)/c * g/(1 - g).
2. EM: retrain with every unlabeled word counted as positive with weight w and as negative with
   weight 1 - w (M-step); the new classifier's probabilities become the weights, rescaled so
   that they add up to the number of positives the spies estimated (E-step); repeat until no
   weight moves by more than ``tol``.
3. The final probability of an unlabeled word is its weight; a labeled word's is the
   classifier's probability divided by the spies' mean (capped at 1).

The classifier is the logistic regression of ``logistic.py`` (liblinear's objective, solved to
the optimum).  Counting an unlabeled word as positive with weight w and as negative with weight
1 - w is the same loss as one row with the soft target w (derived there), so each M-step fits
the n words once, labeled words with target 1, unlabeled ones with target w, starting from the
previous step's weights (the optimum does not depend on the start; the work does).

Without the rescaling the EM feeds on itself: each round labels a few more unlabeled words
positive, and after a hundred rounds most of the 11,700 unlabeled valid words "look like
answers".  The spies' estimate anchors the total.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .logistic import FeatureMatrix, fit, predict_proba


@dataclass
class SpyEMResult:
    probability: np.ndarray  # P(positive) for every row of X (spies included)
    c: float  # spies' mean probability at the end (labeling frequency estimate)
    iterations: int
    converged: bool
    weight_changes: list[float] = field(default_factory=list)
    coef: np.ndarray | None = None
    intercept: float = 0.0
    positives_in_unlabeled: float = 0.0  # the spies' estimate of positives hidden in the unlabeled
    newton_steps: int = 0  # of every logistic fit together
    fits_converged: bool = True  # every logistic fit reached its tolerance (or the optimum's rounding)


def _rescale(p: np.ndarray, total: float) -> np.ndarray:
    """Scale probabilities so they add up to ``total``, none above 1 (a few fixed-point steps)."""
    w = np.clip(p, 0.0, 1.0)
    for _ in range(50):
        s = w.sum()
        if s <= 0 or abs(s - total) < 1e-6 * max(1.0, total):
            break
        w = np.clip(w * (total / s), 0.0, 1.0)
    out: np.ndarray = w
    return out


def spy_em(
    X: FeatureMatrix | np.ndarray,
    positive: np.ndarray,
    *,
    spy_share: float = 0.15,
    C: float = 0.1,
    max_iter: int = 50,
    tol: float = 1e-3,
    seed: int = 0,
) -> SpyEMResult:
    """Estimate P(positive) for every row of ``X`` given a boolean mask of known positives."""
    positive = np.asarray(positive, dtype=bool)
    n = positive.size
    if positive.sum() < 5 or (~positive).sum() < 5:
        raise ValueError("Spy-EM needs at least 5 positives and 5 unlabeled examples")
    rng = np.random.default_rng(seed)
    pos_idx = np.flatnonzero(positive)
    n_spies = max(1, int(round(spy_share * pos_idx.size)))
    spies = np.zeros(n, bool)
    spies[rng.choice(pos_idx, n_spies, replace=False)] = True
    labeled = positive & ~spies
    unlabeled = ~labeled  # true unlabeled words plus the spies
    X = X if isinstance(X, FeatureMatrix) else FeatureMatrix.from_dense(np.asarray(X, dtype=np.float64))
    if X.n_rows != n:
        raise ValueError(f"{X.n_rows} rows of features for {n} words")

    # Step 0: labeled vs unlabeled.
    target = labeled.astype(np.float64)
    model = fit(X, target, C=C)
    steps = model.newton_steps
    fits_converged = model.converged
    g = predict_proba(X, model)
    c = float(np.clip(g[spies].mean(), 1e-6, 1.0))
    gu = np.clip(g[unlabeled], 1e-9, 1 - 1e-9)
    n_pos_u = float(np.clip(labeled.sum() * (1 - c) / c, 1.0, unlabeled.sum()))
    w = _rescale(np.clip((1 - c) / c * gu / (1 - gu), 0.0, 1.0), n_pos_u)
    changes: list[float] = []
    converged = False
    it = 0
    p = g
    for it in range(1, max_iter + 1):
        # Each unlabeled word is positive with weight w and negative with weight 1 - w: one row
        # with the soft target w.
        target[unlabeled] = w
        model = fit(X, target, C=C, start=model.weights)
        steps += model.newton_steps
        fits_converged = fits_converged and model.converged
        p = predict_proba(X, model)
        w_new = _rescale(p[unlabeled], n_pos_u)
        change = float(np.max(np.abs(w_new - w)))
        changes.append(change)
        w = w_new
        if change < tol:
            converged = True
            break
    c_final = float(np.clip(p[spies].mean(), 1e-6, 1.0))
    p_all = np.clip(p / c_final, 0.0, 1.0)
    p_all[unlabeled] = w
    p_all[spies] = np.clip(p[spies] / c_final, 0.0, 1.0)  # spies are positives: not rescaled
    return SpyEMResult(
        p_all, c, it, converged, changes, model.coef.copy(), model.intercept, n_pos_u, steps, fits_converged
    )
