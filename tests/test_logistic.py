"""The answer model's logistic regression (answers/logistic.py): the optimum of liblinear's
objective, checked against scikit-learn's liblinear itself (the independent reference, from the
test extra) and against objectives written out with numpy; soft labels equal to stacked rows;
bit-identical refits; and the sparse word features against a textbook construction."""

from __future__ import annotations

import numpy as np
import pytest

from wordlebot.answers import features as F
from wordlebot.answers.logistic import CONVERGED, CSR, FeatureMatrix, fit, objective, predict_proba


def _csr(S: np.ndarray) -> CSR:
    rows, cols = np.nonzero(S)
    indptr = np.zeros(S.shape[0] + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=S.shape[0]), out=indptr[1:])
    return CSR(indptr, cols.astype(np.int64), S[rows, cols].astype(np.float64), S.shape[1])


def _problem(seed=0, n=300, n_dense=4, n_sparse=25):
    """Dense standard-normal columns beside sparse 0/1 (and a few 2.5) columns, labels from a
    known logistic model, uneven row weights and soft targets on a third of the rows."""
    rng = np.random.default_rng(seed)
    D = rng.normal(size=(n, n_dense))
    S = (rng.random((n, n_sparse)) < 0.12) * 1.0
    S[rng.random((n, n_sparse)) < 0.02] = 2.5
    logit = D @ rng.normal(size=n_dense) + S @ rng.normal(size=n_sparse) - 0.3
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(float)
    soft = rng.random(n) < 1 / 3
    t = np.where(soft, rng.random(n), y)
    s = rng.uniform(0.3, 2.0, n)
    return FeatureMatrix(D, _csr(S)), np.hstack([D, S]), t, s


def _stacked(A, t, s):
    """The soft rows as scikit-learn must see them: each row twice, positive with weight s t and
    negative with weight s (1 - t); zero weights dropped (liblinear ignores them anyway)."""
    X2 = np.vstack([A, A])
    y2 = np.r_[np.ones(len(t)), np.zeros(len(t))]
    w2 = np.r_[s * t, s * (1 - t)]
    keep = w2 > 0
    return X2[keep], y2[keep], w2[keep]


def _naive_objective(A, t, s, C, w):
    """0.5 ||w||^2 + C sum s_i [log(1 + e^z) - t_i z], the intercept a column of ones."""
    z = np.hstack([A, np.ones((len(A), 1))]) @ w
    return 0.5 * w @ w + C * np.sum(s * (np.logaddexp(0, z) - t * z))


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_fit_matches_liblinear(C):
    """scikit-learn's liblinear run to a tiny tolerance on the stacked rows finds the same
    weights, intercept included (liblinear regularises it: the bias column of value 1)."""
    sklearn = pytest.importorskip("sklearn.linear_model")
    X, A, t, s = _problem()
    ours = fit(X, t, s, C=C)
    assert ours.status == CONVERGED and ours.gradient_norm <= 1e-8
    X2, y2, w2 = _stacked(A, t, s)
    ref = sklearn.LogisticRegression(C=C, solver="liblinear", tol=1e-12, max_iter=100_000)
    ref.fit(X2, y2, sample_weight=w2)
    assert np.allclose(ours.coef, ref.coef_.ravel(), rtol=0, atol=1e-6)
    assert ours.intercept == pytest.approx(ref.intercept_[0], abs=1e-6)
    assert np.allclose(predict_proba(X, ours), ref.predict_proba(A)[:, 1], rtol=0, atol=1e-7)


def test_soft_targets_equal_stacked_rows():
    """One row with target t costs what a positive row of weight t and a negative row of
    weight 1 - t cost together, at any weights; so both fits reach the same optimum."""
    X, A, t, s = _problem(seed=1)
    X2, y2, w2 = _stacked(A, t, s)
    stacked = FeatureMatrix(X2[:, :4], _csr(X2[:, 4:]))
    rng = np.random.default_rng(2)
    for _ in range(3):
        w = rng.normal(size=X.n_features + 1)
        assert objective(X, t, s, 0.3, w) == pytest.approx(objective(stacked, y2, w2, 0.3, w), rel=1e-12)
        assert objective(X, t, s, 0.3, w) == pytest.approx(_naive_objective(A, t, s, 0.3, w), rel=1e-12)
    soft, hard = fit(X, t, s, C=0.3), fit(stacked, y2, w2, C=0.3)
    assert np.allclose(soft.weights, hard.weights, rtol=0, atol=1e-7)


def test_the_optimum_has_a_zero_gradient_and_does_not_depend_on_the_start():
    X, A, t, s = _problem(seed=3)
    C = 0.5
    a = fit(X, t, s, C=C)
    b = fit(X, t, s, C=C, start=np.random.default_rng(4).normal(size=X.n_features + 1))
    assert np.allclose(a.weights, b.weights, rtol=0, atol=1e-7)
    # the gradient written out with numpy, at the solution
    Z = np.hstack([A, np.ones((len(A), 1))])
    p = 1 / (1 + np.exp(-(Z @ a.weights)))
    g = a.weights + C * Z.T @ (s * (p - t))
    g0 = C * Z.T @ (s * (0.5 - t))
    assert np.linalg.norm(g) <= 1e-8 * np.linalg.norm(g0)
    assert np.allclose(p, predict_proba(X, a), rtol=0, atol=1e-12)


def test_refits_are_bit_identical():
    """The same fit again, and two at once on other threads (the kernels release the GIL):
    the same bits."""
    from concurrent.futures import ThreadPoolExecutor

    X, _, t, s = _problem(seed=5, n=800, n_sparse=60)
    a, b = fit(X, t, s, C=0.1), fit(X, t, s, C=0.1)
    assert np.array_equal(a.weights, b.weights) and a.cg_steps == b.cg_steps
    assert np.array_equal(predict_proba(X, a), predict_proba(X, b))
    with ThreadPoolExecutor(2) as pool:
        fits = list(pool.map(lambda _: fit(X, t, s, C=0.1), range(2)))
    assert all(np.array_equal(f.weights, a.weights) for f in fits)


def test_sparse_head_changes_the_work_not_the_optimum():
    """The preconditioner's exact block (sparse_head) is a solver choice only."""
    X, _, t, s = _problem(seed=6)
    Xh = FeatureMatrix(X.dense, X.sparse, sparse_head=10)
    assert np.allclose(fit(X, t, s, C=1.0).weights, fit(Xh, t, s, C=1.0).weights, rtol=0, atol=1e-7)


def test_csr_rows_and_checks():
    S = np.array([[0, 1.0, 0], [2.0, 0, 3.0], [0, 0, 0], [4.0, 0, 0]])
    m = _csr(S)
    assert np.array_equal(m.toarray(), S) and m.shape == (4, 3)
    assert np.array_equal(m.take(np.array([3, 1])).toarray(), S[[3, 1]])
    assert np.array_equal(m.take(np.array([True, False, True, True])).toarray(), S[[0, 2, 3]])
    X = FeatureMatrix(np.ones((4, 2)), m)
    assert np.array_equal(X.take(np.array([1, 2])).toarray(), np.hstack([np.ones((2, 2)), S[[1, 2]]]))
    with pytest.raises(ValueError, match="same rows"):
        FeatureMatrix(np.ones((3, 2)), m)
    with pytest.raises(ValueError, match=r"targets must lie in \[0, 1\]"):
        fit(X, np.array([0, 1, 2, 0.5]))
    with pytest.raises(ValueError, match="one entry per row"):
        fit(X, np.zeros(3))
    with pytest.raises(ValueError, match="C must be positive"):
        fit(X, np.zeros(4), C=0)


# --- the sparse word features -----------------------------------------------------------------


def _fnv1a(s: str) -> int:
    """FNV-1a, 32 bits, from its definition."""
    h = 0x811C9DC5
    for b in s.encode():
        h ^= b
        h = (h * 0x01000193) % 2**32
    return h


def test_sparse_features_match_their_definition():
    """Column 26 j + letter for the letter at position j; then 130 + (FNV-1a of each 2- and
    3-gram of ^word$, low 12 bits); value 1, once per column however often it occurs."""
    words = ["crane", "eerie", "llama", "zzzzz", "aback"]
    m = F.sparse_features(words)
    assert m.shape == (5, 130 + 4096)
    dense = m.toarray()
    for i, w in enumerate(words):
        cols = {26 * j + ord(c) - 97 for j, c in enumerate(w)}
        marked = f"^{w}$"
        cols |= {130 + (_fnv1a(marked[k : k + n]) & 4095) for n in (2, 3) for k in range(len(marked) - n + 1)}
        assert set(np.flatnonzero(dense[i])) == cols, w
        assert set(dense[i][dense[i] != 0]) == {1.0}
        row = m.indices[m.indptr[i] : m.indptr[i + 1]]
        assert np.all(np.diff(row) > 0)  # sorted, no duplicates
    with pytest.raises(ValueError, match="same length"):
        F.sparse_features(["crane", "cranes"])


def test_frequency_ranks_are_a_stable_sort_by_frequency():
    freq = F._freq()
    ranks = F._ranks()
    some = list(freq)[::997]
    by_sort = {w: i for i, (w, _) in enumerate(sorted(freq.items(), key=lambda kv: -kv[1]))}
    assert all(ranks[w] == by_sort[w] for w in some)
