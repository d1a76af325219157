"""Time-split backtest of the answer priors: each day of the window scored with the history
before it, as the assistant would have seen it that morning.

The priors compared (``PRIOR_METHODS``), measured the same way:

- ``editor``: the editor model (``editor.py``), fitted on the history before each day, as the
  assistant does (about a quarter of a second a day);
- ``mixture``: the four-number baseline (``mixture.py``), no word features at all;
- ``spy-em``: the previous default (``model.py``: a positive-unlabeled classifier calibrated to
  the lists, Spy-EM), fitted once on the days before the window (a fit takes ~9 s).

1. ranking: log-loss (the mean of -ln P(the day's answer)), the rank of the answer (ties
   counted at their middle, as a random tie-break would give on average), recall within the K
   likeliest words, and calibration: the mass each prior gave to each group of words
   (``CALIBRATION_GROUPS``) summed over the days, beside the days the answer came from it;
2. real play: every day of the window played with the full pipeline (prior + search) for each
   prior, beside the uniform classic 2,315 list, the uniform WordleBot 3,158 list, a
   frequency-only prior and the classifier-plus-ban-past-answers approach (the best-known Python
   bot's), each with the same search.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.data import HistoryEntry
from . import editor
from .model import TrainingData

if TYPE_CHECKING:
    from ..core.words import Lexicon
    from ..policy.advisor import Advisor
    from .model import AnswerModel

PRIOR_METHODS = ("editor", "mixture", "spy-em")
PLAY_METHODS = PRIOR_METHODS + ("uniform-2315", "uniform-3158", "frequency", "classifier-ban")
TOP_K = (100, 250, 500, 1000, 2000, 3158)
CALIBRATION_GROUPS = (
    "fresh: NYT answer list",
    "fresh: WordleBot list only",
    "fresh: any other word",
    "repeat of a 2021 answer",
    "repeat of a later answer",
)


@dataclass(frozen=True, eq=False)
class DayPriors:
    """One method's prior of every day of the window."""

    method: str
    days: tuple[HistoryEntry, ...]
    weights: tuple[np.ndarray, ...]  # per day, over the word list
    note: str  # how it was fitted
    seconds: float
    spy_em: AnswerModel | None = None  # the fitted Spy-EM model (its pool feeds classifier-ban)


@dataclass(frozen=True)
class Calibration:
    group: str
    predicted: float  # the prior's mass on the group, summed over the days
    observed: int  # days whose answer came from the group


@dataclass(frozen=True)
class RankingReport:
    method: str
    window: tuple[dt.date, dt.date]
    days: int
    log_loss: float
    mean_rank: float
    median_rank: float
    recall: dict[int, float]  # K -> share of days whose answer was among the K likeliest
    calibration: tuple[Calibration, ...]
    reachable: float
    seconds: float
    note: str


def window_days(history: Sequence[HistoryEntry], window: int) -> list[HistoryEntry]:
    return list(history[-window:])


def facts_of(data: TrainingData) -> editor.WordFacts:
    from .daily import word_facts

    return word_facts(data.words, data.lists)


def day_priors(
    data: TrainingData,
    method: str,
    window: int = 120,
    facts: editor.WordFacts | None = None,
    progress: Callable[[str, int], None] | None = None,
) -> DayPriors:
    """``method``'s prior of each day of the last ``window`` days of the history."""
    days = window_days(data.history, window)
    facts = facts or facts_of(data)
    t0 = time.perf_counter()
    out: list[np.ndarray] = []
    spy = None
    if method == "editor":
        note = "fitted on the history before each day"
        for i, e in enumerate(days):
            before = [h for h in data.history if h.date < e.date]
            out.append(editor.fit(facts, before).parts(before, e.date).weights)
            if progress:
                progress(method, i + 1)
    elif method == "mixture":
        from .mixture import mixture_prior

        note = "four numbers read off the history before each day"
        out = [mixture_prior(facts, data.history, e.date) for e in days]
    elif method == "spy-em":
        from .model import train

        spy = train(data, until=days[0].date - dt.timedelta(days=1))
        note = f"fitted once, on the history to {spy.trained_until}"
        out = [spy.prior(data.history, on=e.date) for e in days]
    else:
        raise ValueError(f"unknown prior {method!r}; choose one of {', '.join(PRIOR_METHODS)}")
    return DayPriors(method, tuple(days), tuple(out), note, time.perf_counter() - t0, spy)


def calibration_group(facts: editor.WordFacts, before: Sequence[HistoryEntry]) -> np.ndarray:
    """Each word's CALIBRATION_GROUPS index on a day with history ``before``."""
    index = {w: i for i, w in enumerate(facts.words)}
    kind = np.where(facts.group == editor.NYT_LIST, 0, np.where(facts.group == editor.BOT_ONLY, 1, 2))
    seen: set[int] = set()
    for e in before:
        i = index.get(e.word)
        if i is not None and i not in seen:
            seen.add(i)
            kind[i] = 3 if e.date.year == 2021 else 4
    return kind


def rank_report(priors: DayPriors, facts: editor.WordFacts, history: Sequence[HistoryEntry]) -> RankingReport:
    index = {w: i for i, w in enumerate(facts.words)}
    ranks, logp = [], []
    hits = {k: 0 for k in TOP_K}
    predicted = np.zeros(len(CALIBRATION_GROUPS))
    observed = np.zeros(len(CALIBRATION_GROUPS), np.int64)
    reach = 0
    for e, p in zip(priors.days, priors.weights):
        i = index[e.word]
        pa = p[i]
        # expected rank when ties are broken at random (many words share a probability)
        rank = float((p > pa).sum()) + ((p == pa).sum() + 1) / 2.0
        ranks.append(rank)
        logp.append(np.log(pa) if pa > 0 else -np.inf)
        reach += pa > 0
        for k in TOP_K:
            hits[k] += rank <= k
        groups = calibration_group(facts, [h for h in history if h.date < e.date])
        predicted += np.bincount(groups, weights=p, minlength=len(CALIBRATION_GROUPS))
        observed[groups[i]] += 1
    n = len(priors.days)
    return RankingReport(
        priors.method,
        (priors.days[0].date, priors.days[-1].date),
        n,
        float(-np.mean(logp)),
        float(np.mean(ranks)),
        float(np.median(ranks)),
        {k: v / n for k, v in hits.items()},
        tuple(Calibration(g, float(a), int(b)) for g, a, b in zip(CALIBRATION_GROUPS, predicted, observed)),
        reach / n,
        priors.seconds,
        priors.note,
    )


def ranking_backtest(
    data: TrainingData,
    window: int = 120,
    methods: Sequence[str] = PRIOR_METHODS,
    progress: Callable[[str, int], None] | None = None,
) -> tuple[list[RankingReport], dict[str, DayPriors]]:
    """The ranking reports of ``methods``, and their priors (for the real play)."""
    facts = facts_of(data)
    priors = {m: day_priors(data, m, window, facts, progress) for m in methods}
    return [rank_report(priors[m], facts, data.history) for m in methods], priors


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
        from ..core.matrix import pattern_matrix, transposed
        from ..core.words import Lexicon

        full = Lexicon.from_lists(words, words, name="backtest-all")
        self.words = tuple(words)
        self.index = {w: i for i, w in enumerate(words)}
        self.m = pattern_matrix(full)
        self.mt = transposed(full)
        self._last: tuple[str, np.ndarray, np.ndarray] | None = None

    def advisor(self, lex: Lexicon, **kw: Any) -> Advisor:
        from ..policy.advisor import Advisor

        if self._last is None or self._last[0] != lex.fingerprint:  # lists change rarely: slice once
            if tuple(lex.answers) == self.words:
                m, mt = self.m, self.mt
            else:
                idx = np.array([self.index[a] for a in lex.answers], dtype=np.int64)
                m, mt = np.ascontiguousarray(self.m[:, idx]), np.ascontiguousarray(self.mt[idx])
            self._last = (lex.fingerprint, m, mt)
        return Advisor(lex, matrix=self._last[1], matrix_t=self._last[2], **kw)


def _play_day(adv: Advisor, answer: str, first: str) -> int:
    """Guesses the Advisor's search needs for one answer (0: not within six)."""
    from ..core.feedback import feedback_unchecked

    game = adv.new_game()
    while not game.solved and len(game.rows) < 6:
        word = first if not game.rows else adv.best(game)
        game.guess(word, feedback_unchecked(word, answer))
    return len(game.rows) if game.solved else 0


def play_backtest(
    data: TrainingData,
    priors: dict[str, DayPriors],
    *,
    window: int = 120,
    methods: Sequence[str] = PLAY_METHODS,
    progress: Callable[[str, int], None] | None = None,
    goal: str = "streak",
) -> list[PlayReport]:
    """Play every day of the window with each method (see the module docstring), the search
    playing for ``goal`` (advisor.GOALS); the prior methods use ``priors`` (from
    ``ranking_backtest``), classifier-ban the Spy-EM pool."""
    from ..core.words import Lexicon
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
        elif method not in PRIOR_METHODS and method != "classifier-ban":
            raise ValueError(f"unknown method {method!r}")
        for i, e in enumerate(days):
            if fixed is not None:
                lex = fixed
            elif method in PRIOR_METHODS:
                from .prior import answer_weights

                lex = Lexicon.from_lists(words, words, answer_weights(priors[method].weights[i]), name="nyt")
            else:  # classifier-ban: the classifier's pool minus every earlier answer
                spy = priors["spy-em"].spy_em
                assert spy is not None
                before = [h for h in data.history if h.date < e.date]
                keep, _, _ = chain([ThresholdFilter(spy.pool, 0.5), PastAnswersFilter(before)], words)
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


def _opening(lex: Lexicon, patterns: _Patterns, goal: str = "streak") -> str:
    """A method's first guess, chosen on the window's first day and kept (the prior and the
    lists move little from day to day): the opening book for the fixed uniform lists (cached on
    disk), a one-guess look-ahead search otherwise."""
    static = not lex.weighted and lex.name in ("classic-2315", "wordlebot-3158")
    adv = patterns.advisor(lex, strategy="search", use_book=static, goal=goal)
    if static:
        return str(adv.best(adv.new_game()))
    search = adv.search_for(False, 6)
    search.set_depth(1)
    try:
        g, _ = search.best()
    finally:
        search.set_depth(None)
    return str(lex.guesses[g])
