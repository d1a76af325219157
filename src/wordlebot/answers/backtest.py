"""Time-split backtest of the answer model: never trained on a day it is scored on.

The model is trained on the history before the window (the last ``window`` days by default);
each day of the window is then scored with the prior computed from the days before it (which
words are used, how often answers repeat), as the assistant would on that morning.

1. ranking: recall of the true answers at several probability thresholds with the set size at
   each, recall within the top K, mean and median rank, log-loss;
2. real play: every day of the window played with the full pipeline (prior + search), beside
   the uniform classic 2,315 list, the uniform WordleBot 3,158 list, a frequency-only prior and
   the classifier-plus-ban-past-answers approach (the best-known Python bot's), each with the
   same search.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..data import HistoryEntry
from .model import AnswerModel, TrainingData, train

THRESHOLDS = (1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 1e-5, 1e-6)
TOP_K = (100, 500, 1000, 2000, 3158, 5000)


@dataclass
class RankingReport:
    window: tuple[dt.date, dt.date]
    days: int
    trained_until: dt.date
    thresholds: tuple[float, ...]
    recall: list[float]
    set_size: list[float]
    top_k: dict[int, float]
    mean_rank: float
    median_rank: float
    log_loss: float
    reachable: float
    train_seconds: float


def window_days(history: list[HistoryEntry], window: int) -> list[HistoryEntry]:
    return history[-window:]


def ranking_backtest(data: TrainingData, window: int = 120, model: AnswerModel | None = None) -> tuple[RankingReport, AnswerModel]:
    days = window_days(data.history, window)
    start = days[0].date
    t0 = time.perf_counter()
    model = model or train(data, until=start - dt.timedelta(days=1))
    train_s = time.perf_counter() - t0
    index = {w: i for i, w in enumerate(data.words)}
    ranks, logp = [], []
    hits = np.zeros(len(THRESHOLDS))
    sizes = np.zeros(len(THRESHOLDS))
    topk = {k: 0 for k in TOP_K}
    reach = 0
    for e in days:
        p = model.prior(data.history, on=e.date)
        pa = p[index[e.word]]
        # expected rank when ties are broken at random (many words share a probability)
        rank = float((p > pa).sum()) + ((p == pa).sum() + 1) / 2.0
        ranks.append(rank)
        logp.append(np.log(pa) if pa > 0 else -np.inf)
        reach += pa > 0
        for i, t in enumerate(THRESHOLDS):
            hits[i] += pa >= t
            sizes[i] += (p >= t).sum()
        for k in TOP_K:
            topk[k] += rank <= k
    n = len(days)
    return RankingReport(
        (start, days[-1].date), n, model.trained_until, THRESHOLDS, list(hits / n), list(sizes / n),
        {k: v / n for k, v in topk.items()}, float(np.mean(ranks)), float(np.median(ranks)),
        float(-np.mean(logp)), reach / n, train_s,
    ), model


# ---------------------------------------------------------------------------------------------
# Real play


@dataclass
class PlayReport:
    name: str
    games: int
    guesses: list[int] = field(default_factory=list)  # per day; 0 = not solved within the cap
    unreachable: list[str] = field(default_factory=list)  # answers the method had ruled out
    seconds: float = 0.0

    @property
    def solved(self) -> list[int]:
        return [g for g in self.guesses if g > 0]

    @property
    def failures(self) -> int:
        return sum(1 for g in self.guesses if g == 0)

    @property
    def average(self) -> float:
        """Average guesses over the solved days."""
        s = self.solved
        return float(np.mean(s)) if s else float("nan")

    def distribution(self) -> dict[str, int]:
        out = {str(k): sum(1 for g in self.guesses if g == k) for k in range(1, 7)}
        out["X"] = self.failures
        return out


class _Patterns:
    """Pattern matrices of the day-to-day lexicons, sliced from one words x words matrix: the
    lists are all subsets of the same guesses, and patterns do not depend on the list, so no
    lexicon of the window builds (or writes to the disk cache) a matrix of its own."""

    def __init__(self, words: list[str]) -> None:
        from ..matrix import pattern_matrix, transposed
        from ..words import Lexicon

        full = Lexicon.from_lists(words, words, name="backtest-all")
        self.words = tuple(words)
        self.index = {w: i for i, w in enumerate(words)}
        self.m = pattern_matrix(full)
        self.mt = transposed(full)
        self._last: tuple[str, np.ndarray, np.ndarray] | None = None

    def advisor(self, lex, **kw):
        from ..advisor import Advisor

        if self._last is None or self._last[0] != lex.fingerprint:  # lists change rarely: slice once
            if tuple(lex.answers) == self.words:
                m, mt = self.m, self.mt
            else:
                idx = np.array([self.index[a] for a in lex.answers], dtype=np.int64)
                m, mt = np.ascontiguousarray(self.m[:, idx]), np.ascontiguousarray(self.mt[idx])
            self._last = (lex.fingerprint, m, mt)
        return Advisor(lex, matrix=self._last[1], matrix_t=self._last[2], **kw)


def _play_day(adv, answer: str, first: str) -> int:
    """Guesses the Advisor's search needs for one answer (0: not within six)."""
    from ..feedback import _feedback

    game = adv.new_game()
    while not game.solved and len(game.rows) < 6:
        word = first if not game.rows else adv.best(game)
        game.guess(word, _feedback(word, answer))
    return len(game.rows) if game.solved else 0


def play_backtest(
    data: TrainingData,
    model: AnswerModel,
    *,
    window: int = 120,
    methods: tuple[str, ...] = ("model", "uniform-2315", "uniform-3158", "frequency", "classifier-ban"),
    progress: Callable[[str, int], None] | None = None,
    goal: str = "streak",
) -> list[PlayReport]:
    """Play every day of the window with each method (see the module docstring), the search
    playing for ``goal`` (advisor.GOALS)."""
    from ..words import Lexicon
    from .features import zipf
    from .filters import PastAnswersFilter, ThresholdFilter, chain

    days = window_days(data.history, window)
    words = data.words
    patterns = _Patterns(words)
    reports = []
    for method in methods:
        rep = PlayReport(method, len(days))
        t0 = time.perf_counter()
        first = None
        fixed = None  # the lexicon of a method whose lists do not change from day to day
        if method == "uniform-2315":
            fixed = Lexicon.from_lists(words, data.lists["classic"], name="classic-2315")
        elif method == "uniform-3158":
            fixed = Lexicon.from_lists(words, data.lists["wordlebot-3158"], name="wordlebot-3158")
        elif method == "frequency":
            w = np.array([10 ** zipf(x) for x in words]) + 1e-3
            fixed = Lexicon.from_lists(words, words, w, name="frequency")
        elif method not in ("model", "classifier-ban"):
            raise ValueError(f"unknown method {method!r}")
        for i, e in enumerate(days):
            if fixed is not None:
                lex = fixed
            elif method == "model":
                lex = Lexicon.from_lists(words, words, model.prior(data.history, on=e.date), name="nyt")
            else:  # classifier-ban: the classifier's pool minus every earlier answer
                before = [h for h in data.history if h.date < e.date]
                keep, _, _ = chain([ThresholdFilter(model.pool, 0.5), PastAnswersFilter(before)], words)
                lex = Lexicon.from_lists(words, [x for x, k in zip(words, keep) if k], name="classifier-ban")
            if not lex.is_answer(e.word):
                rep.unreachable.append(e.word)
                rep.guesses.append(0)
            else:
                if first is None:
                    first = _opening(lex, patterns, goal)
                # a fresh Advisor each day: its search tables and budgets start as the
                # assistant's would that morning
                adv = patterns.advisor(lex, strategy="search", use_book=False, goal=goal)
                rep.guesses.append(_play_day(adv, e.word, first))
            if progress:
                progress(method, i + 1)
        rep.seconds = time.perf_counter() - t0
        reports.append(rep)
    return reports


def _opening(lex, patterns: _Patterns, goal: str = "streak") -> str:
    """A method's first guess, chosen on the window's first day and kept (the prior and the
    lists move little from day to day): the opening book for the fixed uniform lists (cached on
    disk), a one-guess look-ahead search otherwise."""
    static = not lex.weighted and lex.name in ("classic-2315", "wordlebot-3158")
    adv = patterns.advisor(lex, strategy="search", use_book=static, goal=goal)
    if static:
        return adv.best(adv.new_game())
    search = adv.search_for(False, 6)
    search.set_depth(1)
    try:
        g, _ = search.best()
    finally:
        search.set_depth(None)
    return lex.guesses[g]
