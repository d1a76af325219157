"""Weighted L2-regularised logistic regression with soft labels: a Newton-CG solver in Numba.

It minimises exactly the primal objective liblinear minimises when scikit-learn calls it
(``LogisticRegression(solver="liblinear", C=C)`` with ``sample_weight``):

    f(w) = 0.5 * ||w||^2 + C * sum_i s_i * [log(1 + exp(z_i)) - t_i * z_i],   z_i = x_i . w

where x_i ends with a constant feature of value 1 (the intercept, liblinear's bias with
intercept_scaling=1), so the intercept IS regularised like every other weight: that is what
liblinear does, and the reason its intercept differs from an unregularised one.

Soft labels.  A row counted as positive with weight t and as negative with weight 1 - t (how
Spy-EM used to stack its unlabeled words twice) costs, with l(z) = log(1 + exp(z)):
    t * l(-z) + (1 - t) * l(z) = t * (l(z) - z) + (1 - t) * l(z) = l(z) - t * z,
since l(-z) = l(z) - z.  So one row with target t in [0, 1] is the same as the two stacked rows,
and a label in {0, 1} is the special case; the gradient coefficient is s * (sigmoid(z) - t).

The solver is Newton's method: each step solves H p = -g by conjugate gradients (to a residual
that shrinks with ||g||), then an Armijo backtracking line search whose decrease is computed term
by term, so it stays meaningful below the rounding error of f.  CG is preconditioned with the
exact Hessian block of the dense columns, the intercept and the first ``sparse_head`` sparse
columns (a few hundred strongly correlated columns: diagonal scaling alone leaves CG slow on
them) and the diagonal elsewhere, built from the curvature at the fit's start (any fixed
positive definite preconditioner keeps CG exact; rebuilding it each step costs more than it
saves).  It stops when ||g|| <= tol * ||g(0)||, the gradient at w = 0 (a reference that does
not depend on the starting point, so a warm start changes the path but not the stopping rule).
tol defaults to 1e-8: far below liblinear's (relative 1e-4 as scikit-learn calls it), so the
result is the optimum itself, not a solver's approximation of it.

Determinism: every reduction is a serial loop in a fixed order inside a kernel (no BLAS, whose
kernels and threading vary by machine, no parallel sums, no fastmath to let the compiler
reorder a sum), and the iteration rules are fixed, so two fits on the same input are
bit-identical, on any thread, on machines with the same numpy, Numba and C maths library (exp
and log1p come from the platform's libm, which may differ in the last bit elsewhere; so did
scikit-learn's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..core.kernels import JIT

TOL = 1e-8  # relative gradient norm at which the fit stops
MAX_NEWTON = 100
MAX_CG = 1000
ARMIJO = 1e-4  # sufficient-decrease constant of the line search
MAX_HALVINGS = 40

# Status codes of a fit (the kernel returns the numbers)
CONVERGED = 0
MAX_ITERATIONS = 1  # MAX_NEWTON steps without reaching the tolerance
STALLED = 2  # no step of the line search decreased f: already at the optimum to rounding


# ---------------------------------------------------------------------------------------------
# The feature matrix


@dataclass(frozen=True)
class CSR:
    """Rows of a sparse matrix in compressed sparse row form (as scipy keeps them)."""

    indptr: np.ndarray  # int64, n_rows + 1: row i holds entries indptr[i]:indptr[i + 1]
    indices: np.ndarray  # int64 column of each entry
    data: np.ndarray  # float64 value of each entry
    n_cols: int

    @property
    def shape(self) -> tuple[int, int]:
        return (self.indptr.size - 1, self.n_cols)

    def take(self, rows: np.ndarray) -> CSR:
        rows = np.flatnonzero(rows) if np.asarray(rows).dtype == bool else np.asarray(rows, np.int64)
        lengths = self.indptr[rows + 1] - self.indptr[rows]
        indptr = np.zeros(rows.size + 1, np.int64)
        np.cumsum(lengths, out=indptr[1:])
        pick = (np.repeat(self.indptr[rows] - indptr[:-1], lengths) + np.arange(indptr[-1])).astype(np.int64)
        return CSR(indptr, self.indices[pick], self.data[pick], self.n_cols)

    def toarray(self) -> np.ndarray:
        out = np.zeros(self.shape)
        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        out[rows, self.indices] = self.data
        return out


@dataclass(frozen=True)
class FeatureMatrix:
    """The design matrix: a dense block (standardised features) beside a sparse block; the
    intercept column is implicit.  Weight vectors are laid out [dense, sparse, intercept]."""

    dense: np.ndarray  # float64, n_rows x n_dense
    sparse: CSR
    # leading sparse columns the solver's preconditioner treats exactly, with the dense ones and
    # the intercept (at most a few hundred): for the one-hot letters, which sum to the intercept
    # and make up dense features (vowel counts, suffix -s), only a joint block helps CG
    sparse_head: int = 0
    # the dense block also column by column: X w then runs down the columns, a loop the compiler
    # vectorises without changing the order of any row's sum (X^T u keeps the rows)
    dense_t: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.dense.ndim != 2 or self.dense.shape[0] != self.sparse.shape[0]:
            raise ValueError(
                f"dense block {self.dense.shape} and sparse block {self.sparse.shape} must have the same rows"
            )
        if not 0 <= self.sparse_head <= self.sparse.n_cols:
            raise ValueError(f"sparse_head {self.sparse_head} is not within the {self.sparse.n_cols} sparse columns")
        object.__setattr__(self, "dense", np.ascontiguousarray(self.dense, np.float64))
        object.__setattr__(self, "dense_t", np.ascontiguousarray(self.dense.T))

    @classmethod
    def from_dense(cls, X: np.ndarray) -> FeatureMatrix:
        X = np.ascontiguousarray(X, dtype=np.float64)
        return cls(X, CSR(np.zeros(X.shape[0] + 1, np.int64), np.zeros(0, np.int64), np.zeros(0), 0))

    @property
    def n_rows(self) -> int:
        return self.dense.shape[0]

    @property
    def n_features(self) -> int:
        """Columns without the intercept."""
        return self.dense.shape[1] + self.sparse.n_cols

    def take(self, rows: np.ndarray) -> FeatureMatrix:
        return FeatureMatrix(self.dense[rows], self.sparse.take(rows), self.sparse_head)

    def toarray(self) -> np.ndarray:
        return np.hstack([self.dense, self.sparse.toarray()])

    def arrays(self) -> tuple:
        """The arrays every kernel takes, in their order and types."""
        return (
            self.dense,
            self.dense_t,
            np.ascontiguousarray(self.sparse.indptr, np.int64),
            np.ascontiguousarray(self.sparse.indices, np.int64),
            np.ascontiguousarray(self.sparse.data, np.float64),
        )


@dataclass(frozen=True)
class LogisticFit:
    coef: np.ndarray  # weights of the dense then the sparse columns
    intercept: float
    newton_steps: int
    cg_steps: int
    gradient_norm: float  # relative to the gradient at w = 0
    status: int  # CONVERGED, MAX_ITERATIONS or STALLED

    @property
    def converged(self) -> bool:
        return self.status != MAX_ITERATIONS

    @property
    def weights(self) -> np.ndarray:
        """[coef, intercept]: the layout ``fit`` takes as a warm start."""
        return np.append(self.coef, self.intercept)


# ---------------------------------------------------------------------------------------------
# Kernels.  dense: n x d float64, dense_t: its transpose (C-contiguous both); indptr, indices
# (int64), data (float64): the sparse block in CSR; the weight vector w has d + n_sparse + 1
# entries, the intercept last.


@njit(**JIT)
def _margins(dense_t, indptr, indices, data, w, z):
    """z[i] = x_i . w: the intercept, plus the dense columns in order, plus the sparse entries."""
    d, n = dense_t.shape
    bias = w[w.size - 1]
    for i in range(n):
        z[i] = bias
    for j in range(d):
        wj = w[j]
        col = dense_t[j]
        for i in range(n):
            z[i] += col[i] * wj
    for i in range(n):
        # two partial sums (even and odd entries): each addition need not wait on the last
        s0 = 0.0
        s1 = 0.0
        end = indptr[i + 1]
        k = indptr[i]
        while k + 1 < end:
            s0 += data[k] * w[d + indices[k]]
            s1 += data[k + 1] * w[d + indices[k + 1]]
            k += 2
        if k < end:
            s0 += data[k] * w[d + indices[k]]
        z[i] += s0 + s1


@njit(**JIT)
def _transpose_times(dense, indptr, indices, data, u, out):
    """out = X^T u, the intercept's entry (the sum of u) included; rows summed in order."""
    n, d = dense.shape
    out.fill(0.0)
    last = out.size - 1
    for i in range(n):
        ui = u[i]
        if ui == 0.0:
            continue
        for j in range(d):
            out[j] += dense[i, j] * ui
        for k in range(indptr[i], indptr[i + 1]):
            out[d + indices[k]] += data[k] * ui
        out[last] += ui


@njit(**JIT)
def _log1pexp(z):
    """log(1 + exp(z)) without overflow."""
    if z > 0.0:
        return z + math.log1p(math.exp(-z))
    return math.log1p(math.exp(z))


@njit(**JIT)
def _sigmoid(z):
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@njit(**JIT)
def _dot(a, b):
    s = 0.0
    for i in range(a.size):
        s += a[i] * b[i]
    return s


@njit(**JIT)
def _objective(w, z, target, weight, C):
    loss = 0.0
    for i in range(z.size):
        loss += weight[i] * (_log1pexp(z[i]) - target[i] * z[i])
    return 0.5 * _dot(w, w) + C * loss


@njit(**JIT)
def _decrease(w, p, z, q, target, weight, C, alpha):
    """f(w + alpha p) - f(w), computed from the differences term by term so that it stays
    accurate when it is far below the rounding error of f itself (near the optimum)."""
    reg = alpha * _dot(w, p) + 0.5 * alpha * alpha * _dot(p, p)
    loss = 0.0
    for i in range(z.size):
        delta = alpha * q[i]
        if delta < 30.0:
            # (1 + e^(z + delta)) / (1 + e^z) = 1 + sigmoid(z) (e^delta - 1)
            dl = math.log1p(_sigmoid(z[i]) * math.expm1(delta))
        else:
            dl = _log1pexp(z[i] + delta) - _log1pexp(z[i])
        loss += weight[i] * (dl - target[i] * delta)
    return reg + C * loss


@njit(**JIT)
def _cholesky(a, L):
    """The lower Cholesky factor of a small symmetric positive definite matrix, into ``L``
    (filled in place: an array assignment would compile Numba's shape-error messages, seconds
    of compile time)."""
    m = a.shape[0]
    L.fill(0.0)
    for j in range(m):
        s = a[j, j]
        for k in range(j):
            s -= L[j, k] * L[j, k]
        L[j, j] = math.sqrt(s)
        for i in range(j + 1, m):
            s = a[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            L[i, j] = s / L[j, j]


@njit(**JIT)
def _preconditioner(dense, indptr, indices, data, curv, C, head, L, diag):
    """The Hessian's block over the dense columns, the first ``head`` sparse columns and the
    intercept (weights 0 .. d + head - 1, then the last), factored into ``L``; its diagonal for
    the other sparse columns in ``diag`` (curv[i] = s_i sigmoid(z_i) (1 - sigmoid(z_i)))."""
    n, d = dense.shape
    m = d + head + 1
    bias = m - 1
    block = np.zeros((m, m))  # lower triangle filled, then mirrored
    diag.fill(0.0)
    for i in range(n):
        ci = curv[i]
        for a in range(d):
            va = dense[i, a] * ci
            for b in range(a + 1):
                block[a, b] += va * dense[i, b]
            block[bias, a] += va
        block[bias, bias] += ci
        for k in range(indptr[i], indptr[i + 1]):
            col = indices[k]
            vk = data[k] * ci
            if col >= head:
                diag[col] += data[k] * vk
                continue
            a = d + col
            for b in range(d):
                block[a, b] += vk * dense[i, b]
            for k2 in range(indptr[i], k + 1):
                if indices[k2] < head:
                    b = d + indices[k2]
                    if b <= a:
                        block[a, b] += vk * data[k2]
                    else:
                        block[b, a] += vk * data[k2]
            block[bias, a] += vk
    for a in range(m):
        for b in range(a + 1):
            block[a, b] *= C
            block[b, a] = block[a, b]
        block[a, a] += 1.0
    for k in range(diag.size):
        diag[k] = 1.0 + C * diag[k]
    _cholesky(block, L)


@njit(**JIT)
def _precondition(L, diag, head, r, out):
    """out = M^-1 r: two triangular solves on the block, a division elsewhere."""
    m = L.shape[0]
    last = r.size - 1
    y = np.empty(m)
    for a in range(m):  # the block's entries are r[0 : m - 1] and the intercept r[-1]
        s = r[a] if a < m - 1 else r[last]
        for b in range(a):
            s -= L[a, b] * y[b]
        y[a] = s / L[a, a]
    for a in range(m - 1, -1, -1):
        s = y[a]
        for b in range(a + 1, m):
            s -= L[b, a] * y[b]
        y[a] = s / L[a, a]
    for a in range(m - 1):
        out[a] = y[a]
    out[last] = y[m - 1]
    d = m - 1 - head
    for k in range(head, diag.size):
        out[d + k] = r[d + k] / diag[k]


@njit(**JIT)
def _hessian_times(dense, dense_t, indptr, indices, data, curv, C, v, xv, out):
    """out = v + C X^T (curv * (X v)); xv is a scratch row."""
    _margins(dense_t, indptr, indices, data, v, xv)
    for i in range(xv.size):
        xv[i] *= curv[i]
    _transpose_times(dense, indptr, indices, data, xv, out)
    for k in range(out.size):
        out[k] = v[k] + C * out[k]


@njit(**JIT)
def _newton_cg(dense, dense_t, indptr, indices, data, head, target, weight, C, w, tol, max_newton, max_cg):
    """Minimise f from the start ``w`` (updated in place); returns (Newton steps, CG steps,
    ||g|| / ||g(0)||, status)."""
    n, d = dense.shape
    p_len = w.size
    n_sparse = p_len - d - 1
    z = np.empty(n)
    u = np.empty(n)
    xv = np.empty(n)
    g = np.empty(p_len)
    # the reference: the gradient at w = 0, where every sigmoid is 1/2
    for i in range(n):
        u[i] = C * weight[i] * (0.5 - target[i])
    _transpose_times(dense, indptr, indices, data, u, g)
    g0 = math.sqrt(_dot(g, g))
    if g0 == 0.0:
        g0 = 1.0
    curv = np.empty(n)
    L = np.empty((d + head + 1, d + head + 1))
    diag = np.empty(n_sparse)
    p = np.empty(p_len)
    r = np.empty(p_len)
    s = np.empty(p_len)
    hs = np.empty(p_len)
    q = np.empty(n)
    cg_total = 0
    status = 1
    steps = 0
    gnorm = 0.0
    for steps in range(max_newton + 1):
        _margins(dense_t, indptr, indices, data, w, z)
        for i in range(n):
            sg = _sigmoid(z[i])
            u[i] = C * weight[i] * (sg - target[i])
            curv[i] = weight[i] * sg * (1.0 - sg)
        _transpose_times(dense, indptr, indices, data, u, g)
        for k in range(p_len):
            g[k] += w[k]
        gnorm = math.sqrt(_dot(g, g))
        if gnorm <= tol * g0:
            status = 0
            break
        if steps == max_newton:
            break
        # Solve H p = -g by preconditioned CG, to a relative residual that shrinks with ||g||
        # (an inexact Newton method that still converges superlinearly).
        if steps == 0:  # any fixed positive definite M will do: the first curvature serves the fit
            _preconditioner(dense, indptr, indices, data, curv, C, head, L, diag)
        eta = min(0.1, math.sqrt(gnorm / g0))
        p.fill(0.0)
        for k in range(p_len):
            r[k] = -g[k]
        _precondition(L, diag, head, r, s)
        rz = _dot(r, s)
        for it in range(max_cg):
            _hessian_times(dense, dense_t, indptr, indices, data, curv, C, s, xv, hs)
            alpha = rz / _dot(s, hs)
            for k in range(p_len):
                p[k] += alpha * s[k]
                r[k] -= alpha * hs[k]
            cg_total += 1
            if math.sqrt(_dot(r, r)) <= eta * gnorm:
                break
            _precondition(L, diag, head, r, hs)
            rz_new = _dot(r, hs)
            beta = rz_new / rz
            rz = rz_new
            for k in range(p_len):
                s[k] = hs[k] + beta * s[k]
        # Armijo backtracking from the full Newton step.
        _margins(dense_t, indptr, indices, data, p, q)
        slope = _dot(g, p)
        step = 1.0
        accepted = False
        for _ in range(MAX_HALVINGS):
            if _decrease(w, p, z, q, target, weight, C, step) <= ARMIJO * step * slope:
                accepted = True
                break
            step *= 0.5
        if not accepted:
            status = 2
            break
        for k in range(p_len):
            w[k] += step * p[k]
    return steps, cg_total, gnorm / g0, status


@njit(**JIT)
def _probabilities(dense, dense_t, indptr, indices, data, w, out):
    _margins(dense_t, indptr, indices, data, w, out)
    for i in range(out.size):
        out[i] = _sigmoid(out[i])


# ---------------------------------------------------------------------------------------------
# Checked entry points


def fit(
    X: FeatureMatrix,
    target: np.ndarray,
    weight: np.ndarray | None = None,
    *,
    C: float = 1.0,
    start: np.ndarray | None = None,
    tol: float = TOL,
    max_newton: int = MAX_NEWTON,
    max_cg: int = MAX_CG,
) -> LogisticFit:
    """Fit the logistic regression to soft labels ``target`` (in [0, 1]) with row weights
    ``weight`` (default 1); ``start``: weights [coef, intercept] to start from (default 0)."""
    target = np.ascontiguousarray(target, dtype=np.float64)
    weight = np.ones(X.n_rows) if weight is None else np.ascontiguousarray(weight, dtype=np.float64)
    if target.shape != (X.n_rows,) or weight.shape != (X.n_rows,):
        raise ValueError(f"target {target.shape} and weight {weight.shape} must have one entry per row ({X.n_rows})")
    if not (np.all((target >= 0) & (target <= 1)) and np.all(weight >= 0)):
        raise ValueError("targets must lie in [0, 1] and weights must not be negative")
    if not C > 0:
        raise ValueError(f"C must be positive, not {C}")
    w = np.zeros(X.n_features + 1) if start is None else np.array(start, dtype=np.float64)
    if w.shape != (X.n_features + 1,):
        raise ValueError(f"start has {w.size} weights; the matrix needs {X.n_features + 1}")
    steps, cg, gnorm, status = _newton_cg(
        *X.arrays(), X.sparse_head, target, weight, float(C), w, float(tol), int(max_newton), int(max_cg)
    )
    return LogisticFit(w[:-1].copy(), float(w[-1]), int(steps), int(cg), float(gnorm), int(status))


def predict_proba(X: FeatureMatrix, fitted: LogisticFit | np.ndarray) -> np.ndarray:
    """P(positive) of every row under the weights [coef, intercept]."""
    w = fitted.weights if isinstance(fitted, LogisticFit) else np.ascontiguousarray(fitted, np.float64)
    if w.shape != (X.n_features + 1,):
        raise ValueError(f"{w.size} weights for a matrix of {X.n_features} features and the intercept")
    out = np.empty(X.n_rows)
    _probabilities(*X.arrays(), w, out)
    return out


def objective(X: FeatureMatrix, target: np.ndarray, weight: np.ndarray | None, C: float, w: np.ndarray) -> float:
    """f(w), the objective ``fit`` minimises."""
    z = np.empty(X.n_rows)
    w = np.ascontiguousarray(w, np.float64)
    _margins(*X.arrays()[1:], w, z)
    weight = np.ones(X.n_rows) if weight is None else np.ascontiguousarray(weight, np.float64)
    return float(_objective(w, z, np.ascontiguousarray(target, np.float64), weight, float(C)))
