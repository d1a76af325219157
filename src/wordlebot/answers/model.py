"""The previous answer model (Spy-EM), kept as a baseline of ``wordlebot answers evaluate``: for
every valid word, the probability that it is a given day's answer.  The prior every shell uses is
the editor model's (``editor.py``); this one is fitted in process when a backtest asks for it and
never stored.

Everything is fitted on history before a cut-off date only:

1. **pool probability** pi(w): how much w looks like an answer, by a Spy-EM positive-unlabeled
   logistic regression (``pu.py``) over offline features (``features.py``).  Positives: answers
   before the cut-off and the published answer lists (classic 2,315, NYT 2,309, WordleBot
   3,158); every other valid word is unlabeled.
2. **calibration** to what the editor actually does.  A fresh answer comes from the known lists
   almost always: since the WordleBot list appeared (2023-07) only LORIS and KEFIR did not.  The
   share of fresh answers from outside, m_out, is that rate smoothed ((n + 0.5) / (days + 1));
   inside each group (listed, unlisted) a word's share is proportional to pi(w), so among the
   ~11,700 unlisted words the likely-looking ones (common, uninflected) carry that small mass.
3. **repeats**: since 2026-02 the NYT repeats past answers.  A share rho of days is a repeat
   (recency-weighted rate of repeats so far, shrunk toward a 1 % floor, so a past answer is never
   impossible); that share is spread over past answers in proportion to pi(w) (age / 365)^kappa,
   kappa fitted to the repeats seen (the editor has favoured the oldest answers).

For a day d: P(w) = (1 - rho) [(1 - m_out) pi(w) / sum over fresh listed words, or m_out pi(w) /
sum over fresh unlisted words] for words not yet used, rho pi(w) age(w)^kappa / sum(...) for past
answers.  Every word keeps a positive probability, so no answer is ever unreachable.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import clock
from ..core.data import HistoryEntry
from ..core.errors import DataError
from . import features as F

if TYPE_CHECKING:
    from .logistic import FeatureMatrix

SEED = 20260202
LISTS_SINCE = dt.date(2023, 7, 1)  # the WordleBot list: the pool of today's editor
BLACKLIST_PENALTY = 0.01
REPEAT_FLOOR = 0.01  # share of days assumed to be repeats when none has been seen
REPEAT_PSEUDO_DAYS = 30.0
REPEAT_HALF_LIFE = 60.0  # days: the repeat rate follows the recent past


@dataclass
class AnswerModel:
    words: list[str]
    pool: np.ndarray  # Spy-EM probability that each word is in the editor's pool
    listed: np.ndarray  # bool: in a published answer list or already an answer at training time
    m_out: float  # share of fresh answers that come from outside the lists
    kappa: float  # repeat preference for older answers
    trained_until: dt.date  # last history day used
    meta: dict[str, Any] = field(default_factory=dict)
    coef: np.ndarray | None = None  # logistic regression weights (for "why")
    intercept: float = 0.0
    dense_mean: np.ndarray | None = None
    dense_std: np.ndarray | None = None

    # --- probabilities ------------------------------------------------------------------------

    def prior(self, history: list[HistoryEntry], on: dt.date | None = None) -> np.ndarray:
        """P(answer on day ``on``) for every word, from the history before that day."""
        on = on or (history[-1].date + dt.timedelta(days=1) if history else clock.today())
        past = [e for e in history if e.date < on]
        return day_prior(self.pool * self.penalty(), self.listed, self.m_out, self.words, past, on, self.kappa)

    def penalty(self) -> np.ndarray:
        """Weight factor of the default blacklist (x0.01: penalised, never banned)."""
        from .filters import BlacklistFilter, default_blacklist

        factor = BlacklistFilter(default_blacklist(), penalty=BLACKLIST_PENALTY).apply(self.words).factor
        assert factor is not None  # (a blacklist weighs every word)
        return factor


# ---------------------------------------------------------------------------------------------
# The day prior


def repeat_rate(history: list[HistoryEntry], on: dt.date) -> float:
    """Recency-weighted share of days that repeated an earlier answer, shrunk toward the floor."""
    seen: set[str] = set()
    num = den = 0.0
    for e in history:
        repeat = e.word in seen
        seen.add(e.word)
        age = (on - e.date).days
        wgt = 0.5 ** (age / REPEAT_HALF_LIFE)
        num += wgt * repeat
        den += wgt
    return (num + REPEAT_FLOOR * REPEAT_PSEUDO_DAYS) / (den + REPEAT_PSEUDO_DAYS)


def day_prior(
    pool: np.ndarray,
    listed: np.ndarray,
    m_out: float,
    words: list[str],
    history: list[HistoryEntry],
    on: dt.date,
    kappa: float,
    rho: float | None = None,
) -> np.ndarray:
    """P(answer on ``on``) from the pool probabilities and the history before that day."""
    pool = np.maximum(pool, 1e-9)
    last_used: dict[str, dt.date] = {}
    for e in history:
        last_used[e.word] = e.date
    index = {w: i for i, w in enumerate(words)}
    used = np.zeros(len(words), bool)
    age = np.ones(len(words))
    for w, d in last_used.items():
        i = index.get(w)
        if i is not None:
            used[i] = True
            age[i] = max(1, (on - d).days)
    if rho is None:
        rho = repeat_rate(history, on) if history else 0.0
    if not used.any():
        rho = 0.0
    p = np.zeros(len(words))
    inside = pool * (listed & ~used)
    outside = pool * (~listed & ~used)
    share_out = m_out if inside.sum() > 0 else 1.0
    if inside.sum() > 0:
        p += (1.0 - rho) * (1.0 - share_out) * inside / inside.sum()
    if outside.sum() > 0:
        p += (1.0 - rho) * share_out * outside / outside.sum()
    if used.any():
        rep = pool * used * (age / 365.0) ** kappa
        p += rho * rep / rep.sum()
    out: np.ndarray = p / p.sum()
    return out


def fit_kappa(base: np.ndarray, words: list[str], history: list[HistoryEntry]) -> float:
    """Maximum-likelihood preference for older answers among the repeats in ``history``."""
    index = {w: i for i, w in enumerate(words)}
    events = []
    last: dict[str, dt.date] = {}
    for e in history:
        if e.word in last and e.word in index:
            ages = {w: max(1, (e.date - d).days) for w, d in last.items() if w in index}
            events.append((index[e.word], ages))
        last[e.word] = e.date
    if len(events) < 3:
        return 0.0  # too few repeats to tell: every past answer alike
    prepared = []
    for j, ages in events:
        ids = np.array([index[w] for w in ages])
        la = np.log(np.array(list(ages.values())) / 365.0)
        prepared.append((np.flatnonzero(ids == j)[0], np.log(np.maximum(base[ids], 1e-9)), la))

    def nll(k: float) -> float:
        tot = 0.0
        for pos, lb, la in prepared:
            z = lb + k * la
            m = z.max()
            tot -= z[pos] - (m + math.log(np.exp(z - m).sum()))
        return tot

    ks = np.linspace(0.0, 8.0, 81)
    return float(ks[int(np.argmin([nll(k) for k in ks]))])


# ---------------------------------------------------------------------------------------------
# Training


@dataclass
class TrainingData:
    words: list[str]
    history: list[HistoryEntry]
    lists: dict[str, list[str]]  # named answer lists used as positives


def positives_mask(data: TrainingData, until: dt.date) -> np.ndarray:
    index = {w: i for i, w in enumerate(data.words)}
    pos = np.zeros(len(data.words), bool)
    for lst in data.lists.values():
        for w in lst:
            if w in index:
                pos[index[w]] = True
    for e in data.history:
        if e.date <= until and e.word in index:
            pos[index[e.word]] = True
    return pos


class _Features:
    """Features of the word list, standardised (dense part) beside the sparse part."""

    def __init__(self, words: list[str]) -> None:
        self.dense, self.sparse = F.feature_matrix(words)
        self.mean = self.dense.mean(axis=0)
        self.std = self.dense.std(axis=0) + 1e-9

    def matrix(self) -> FeatureMatrix:
        from .logistic import FeatureMatrix  # Numba kernels: only when training

        # the letter one-hot (the sparse block's first columns) in the solver's exact block
        return FeatureMatrix(
            (self.dense - self.mean) / self.std, self.sparse, sparse_head=F.letter_columns(self.sparse)
        )


def outside_rate(data: TrainingData, until: dt.date) -> tuple[float, int, int]:
    """Smoothed share of fresh answers, since the lists appeared, that were in no list and had
    not been an answer before: (rate, such answers, days)."""
    known = set()
    for lst in data.lists.values():
        known.update(lst)
    n_out = days = 0
    for e in data.history:
        if e.date > until:
            break
        if e.date >= LISTS_SINCE and e.word not in known:
            n_out += 1
        if e.date >= LISTS_SINCE:
            days += 1
        known.add(e.word)
    return (n_out + 0.5) / (days + 1.0), n_out, days


def train(data: TrainingData, until: dt.date | None = None, *, seed: int = SEED) -> AnswerModel:
    """Fit the model on the history up to ``until`` (default: all of it)."""
    t0 = time.perf_counter()
    history = [e for e in data.history if until is None or e.date <= until]
    if not history:
        raise DataError("the answer history is empty: run 'wordlebot data fetch' (or data update) first")
    until = history[-1].date
    feats = _Features(data.words)
    pos = positives_mask(data, until)
    from .pu import spy_em  # the Numba solver: only when training

    res = spy_em(feats.matrix(), pos, seed=seed)
    m_out, n_out, days = outside_rate(data, until)
    kappa = fit_kappa(res.probability, data.words, history)
    meta = {
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "seed": seed,
        "history_days": len(history),
        "history_first": history[0].date.isoformat(),
        "positives": int(pos.sum()),
        "lists": {k: len(v) for k, v in data.lists.items()},
        "spy_em": {
            "iterations": res.iterations,
            "converged": res.converged,
            "fits_converged": res.fits_converged,
            "c": round(res.c, 5),
            "weight_changes": [round(x, 5) for x in res.weight_changes],
        },
        "outside_answers": n_out,
        "outside_days": days,
        "features": {
            "dense": list(F.DENSE_NAMES),
            "letter_positions": 26 * len(data.words[0]),
            "ngram_bits": F.NGRAM_BITS,
            "version": F.FEATURE_VERSION,
        },
        "seconds": round(time.perf_counter() - t0, 2),
    }
    return AnswerModel(
        list(data.words),
        res.probability,
        pos,
        m_out,
        kappa,
        until,
        meta,
        res.coef,
        res.intercept,
        feats.mean,
        feats.std,
    )
