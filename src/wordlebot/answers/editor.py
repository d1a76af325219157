"""The editor's choice: for every valid word, the probability that it is a given day's answer.

Since 2022-11-07 an editor picks the NYT answers (before that the game followed the original
2021 schedule, which the history matches day for day).  Each day the editor either repeats a
past answer (since 2026-02-02) or draws a word never used before.  The model follows that:

    P(w on day d) = rho(d) * P(w | repeat, d) + (1 - rho(d)) * P(w | fresh, d)

- **fresh**: a conditional logit over the words not used before d, fitted by maximum likelihood
  on every fresh choice the editor made before d (each day is one choice among that day's
  unused words, so the likelihood is exactly the log-loss the backtest reports).  Its features:
  which list holds the word (the NYT's 2,309 answers, the WordleBot 3,158 list only, the six
  words removed from the original 2,315, none), how common it is (wordfreq Zipf, per group, with
  a bend at both ends of the NYT list), inflections (plural, past …) of WordleBot-only and
  unlisted words, the default blacklist, how many unused words the word's group has left that
  day (the editor keeps each list's share steady while its pool shrinks), a trend in the
  WordleBot-only share (4 such days in 2023, 17 in 2025), and whether the word starts or ends
  with the letter the previous day's answer did (the editor avoids that: 53 days against 85
  expected by chance since 2022-11).
- **repeat**: a conditional logit over the past answers, fitted the same way on the repeats
  before d: first used in 2021 (the editor has replayed mostly the oldest answers), years since
  first use, frequency.  Few repeats are known, so its penalty keeps it near uniform until they
  say otherwise.
- **rho**: the share of repeat days since the first repeat, (repeats + 1) / (days + 2); 1 %
  before any repeat was seen.

A floor of ``FLOOR`` per word keeps every valid word possible: no answer is unreachable.

Everything the prior of d uses comes from the history before d and the lists, so the same
history before d gives the same prior bit for bit, whatever the file holds about d and after.
Training is deterministic (Newton's method from zero, serial sums: ``clogit.py``) and takes well
under a second once the words' facts (frequency, inflections: about 2 s) are known; the facts
are stored with the model so that a day's prior loads without them.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core import clock
from ..core.cache_formats import ANSWER_MODEL_VERSION as MODEL_VERSION  # 3: this model (2: Spy-EM, model.py)
from ..core.data import HistoryEntry, atomic_write_json
from ..core.errors import DataError
from ..core.words import list_fingerprint
from . import clogit

EDITOR_SINCE = dt.date(2022, 11, 7)  # the first answer the editor chose (BEGIN)
MIN_EDITOR_DAYS = 60  # fewer editor days before d: train on every day before d
TREND_EPOCH = dt.date(2025, 1, 1)  # bot_trend is 0 here: bot_only is the 2025 level
REPEAT_RATE_BEFORE_ANY = 0.01  # share of repeat days assumed before the first repeat is seen
FLOOR = 1e-7  # per word: no answer is unreachable (0.15 % of the mass over 14,855 words)
FREQ_CENTRE = 4.0  # Zipf 4: a word met once in ten thousand; the frequency features are 0 there
RARE_BEND = 2.5  # below this Zipf the NYT list's rare words lose more (8 picks against 35 expected)
COMMON_BEND = 4.5  # above this the commonest gain more (259 picks against 134)

# Groups of words, by the lists that hold them (a word in several takes the first that applies)
NYT_LIST, BOT_ONLY, REMOVED, OTHER = 0, 1, 2, 3
GROUPS = 4
GROUP_NAMES = ("NYT answer list", "WordleBot list only", "removed from the original list", "in no list")

FRESH_STATIC = (
    "nyt_list",
    "bot_only",
    "removed",
    "freq_nyt",
    "freq_bot",
    "freq_other",
    "rare_nyt",
    "common_nyt",
    "inflected_bot",
    "inflected_other",
    "blacklisted",
)
FRESH_DAY = ("pool_size", "bot_trend")
FRESH_LETTERS = ("same_first", "same_last")
REPEAT_FEATURES = ("first_2021", "age", "freq")

# L2 penalties (the precision of a Gaussian prior on each coefficient).  The fresh words': chosen
# on two windows before the backtest's, each day scored with a model fitted on the days before it
# (2025-06-01 … 09-30 and 2025-10-01 … 2026-01-31; mean log-loss 6.881 / 6.876 / 6.871 / 6.870
# for 0.1 / 0.3 / 1 / 3): 1, as 3 is no better.  It keeps a coefficient finite when its words were
# never chosen (the six removed words, the blacklist).  The day features' are light (a handful of
# well-measured numbers); the repeat features' firmer, as only a few dozen repeats are known.
FRESH_PENALTY = 1.0
DAY_PENALTY = 0.01
LETTER_PENALTY = 0.1
REPEAT_PENALTY = 0.3


# ---------------------------------------------------------------------------------------------
# Facts about the words (static; from the lists, wordfreq and lemminflect)


@dataclass(frozen=True, eq=False)
class WordFacts:
    words: tuple[str, ...]
    group: np.ndarray  # int64 per word
    zipf: np.ndarray  # float64 per word, rounded to 3 decimals (as stored)
    inflected: np.ndarray  # bool: an inflected form (plural, past, -ing, comparative …)
    blacklisted: np.ndarray  # bool: on the default blacklist (answers/blacklist.txt)

    @classmethod
    def build(cls, words: Sequence[str], lists: dict[str, list[str]]) -> WordFacts:
        from .features import morphology, zipf
        from .filters import default_blacklist

        nyt = set(lists.get("nyt-2309", ()))
        bot = set(lists.get("wordlebot-3158", ()))
        classic = set(lists.get("classic", ()))
        group = np.array(
            [NYT_LIST if w in nyt else REMOVED if w in classic else BOT_ONLY if w in bot else OTHER for w in words],
            np.int64,
        )
        z = np.round(np.array([zipf(w) for w in words]), 3)
        inflected = np.array([bool(morphology(w)["tags"]) for w in words])
        banned = default_blacklist()
        return cls(tuple(words), group, z, inflected, np.array([w in banned for w in words]))

    @functools.cached_property
    def static_features(self) -> np.ndarray:
        """Words x FRESH_STATIC (read-only)."""
        g, z = self.group, self.zipf - FREQ_CENTRE
        col = {
            "nyt_list": g == NYT_LIST,
            "bot_only": g == BOT_ONLY,
            "removed": g == REMOVED,
            "freq_nyt": z * (g == NYT_LIST),
            "freq_bot": z * (g == BOT_ONLY),
            "freq_other": z * (g == OTHER),
            "rare_nyt": np.minimum(self.zipf - RARE_BEND, 0.0) * (g == NYT_LIST),
            "common_nyt": np.maximum(self.zipf - COMMON_BEND, 0.0) * (g == NYT_LIST),
            "inflected_bot": self.inflected & (g == BOT_ONLY),
            "inflected_other": self.inflected & (g == OTHER),
            "blacklisted": self.blacklisted,
        }
        out = np.ascontiguousarray(np.column_stack([np.asarray(col[n], np.float64) for n in FRESH_STATIC]))
        out.flags.writeable = False
        return out

    @functools.cached_property
    def letters(self) -> tuple[np.ndarray, np.ndarray]:
        codes = np.frombuffer("".join(self.words).encode(), np.uint8).reshape(len(self.words), -1).astype(np.int64) - 97
        return np.ascontiguousarray(codes[:, 0]), np.ascontiguousarray(codes[:, -1])

    def to_json(self) -> dict[str, Any]:
        return {
            "group": self.group.tolist(),
            "zipf": self.zipf.tolist(),
            "inflected": np.flatnonzero(self.inflected).tolist(),
            "blacklisted": np.flatnonzero(self.blacklisted).tolist(),
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any], words: Sequence[str]) -> WordFacts:
        n = len(words)
        group = np.array(doc["group"], np.int64)
        z = np.array(doc["zipf"], np.float64)
        if group.shape != (n,) or z.shape != (n,) or group.min(initial=0) < 0 or group.max(initial=0) >= GROUPS:
            raise ValueError("word facts do not match the word list")
        inflected = np.zeros(n, bool)
        inflected[np.array(doc["inflected"], np.int64)] = True
        black = np.zeros(n, bool)
        black[np.array(doc["blacklisted"], np.int64)] = True
        return cls(tuple(words), group, z, inflected, black)


# ---------------------------------------------------------------------------------------------
# The history as the model sees it


@dataclass(frozen=True)
class Timeline:
    """The history before a day, in the model's terms: per entry the word's index, whether it
    was fresh, and the entry before it when that was the day before."""

    entries: tuple[HistoryEntry, ...]
    word: np.ndarray  # int64 index of each entry's word (-1: not a valid word)
    fresh: np.ndarray  # bool: not an answer before
    first_use: dict[int, dt.date]  # word index -> the day it was first an answer
    uses: dict[int, int]  # word index -> times used

    @classmethod
    def of(cls, entries: Sequence[HistoryEntry], index: dict[str, int]) -> Timeline:
        word = np.array([index.get(e.word, -1) for e in entries], np.int64)
        fresh = np.zeros(len(entries), bool)
        first: dict[int, dt.date] = {}
        uses: dict[int, int] = {}
        for k, (e, w) in enumerate(zip(entries, word.tolist())):
            if w < 0:
                continue
            fresh[k] = w not in first
            first.setdefault(w, e.date)
            uses[w] = uses.get(w, 0) + 1
        return cls(tuple(entries), word, fresh, first, uses)

    def previous(self, k: int) -> int:
        """The word of the entry before entry k when it was the day before, else -1."""
        if k > 0 and self.word[k - 1] >= 0 and (self.entries[k].date - self.entries[k - 1].date).days == 1:
            return int(self.word[k - 1])
        return -1


def repeat_share(history: Sequence[HistoryEntry], on: dt.date) -> float:
    """rho: (repeats + 1) / (days + 2) over the days from the first repeat to the day before ``on``
    (the uniform prior's posterior mean); REPEAT_RATE_BEFORE_ANY before any repeat."""
    seen: set[str] = set()
    first_repeat = None
    days = repeats = 0
    for e in history:
        if e.date >= on:
            break
        repeat = e.word in seen
        seen.add(e.word)
        if repeat and first_repeat is None:
            first_repeat = e.date
        if first_repeat is not None:
            days += 1
            repeats += repeat
    if first_repeat is None:
        return REPEAT_RATE_BEFORE_ANY
    return (repeats + 1.0) / (days + 2.0)


def _years(a: dt.date, b: dt.date) -> float:
    return (b - a).days / 365.25


def repeat_rows(facts: WordFacts, timeline: Timeline, upto: int, on: dt.date) -> tuple[np.ndarray, np.ndarray]:
    """The past answers before entry ``upto`` as candidates of a repeat on ``on``: their word
    indices (in order of first use) and their features (REPEAT_FEATURES)."""
    seen: dict[int, dt.date] = {}
    for k in range(upto):
        w = int(timeline.word[k])
        if w >= 0 and w not in seen:
            seen[w] = timeline.entries[k].date
    ids = np.array(list(seen), np.int64)
    firsts = list(seen.values())
    rows = (
        np.column_stack(
            [
                np.array([d.year == 2021 for d in firsts], np.float64),
                np.log(np.maximum(np.array([_years(d, on) for d in firsts]), 1.0 / 365.25)),
                facts.zipf[ids] - FREQ_CENTRE if ids.size else np.zeros(0),
            ]
        )
        if ids.size
        else np.zeros((0, len(REPEAT_FEATURES)))
    )
    return ids, np.ascontiguousarray(rows, np.float64)


def _day_features(facts: WordFacts, on: dt.date, left: np.ndarray) -> np.ndarray:
    """groups x FRESH_DAY for a day whose groups have ``left`` unused words each."""
    out = np.zeros((GROUPS, len(FRESH_DAY)))
    out[:, 0] = np.log(np.maximum(left, 1))
    out[BOT_ONLY, 1] = _years(TREND_EPOCH, on)
    return out


# ---------------------------------------------------------------------------------------------
# The model


@dataclass(eq=False)
class EditorModel:
    facts: WordFacts
    fresh: dict[str, float]  # coefficient of each FRESH_STATIC + FRESH_DAY + FRESH_LETTERS feature
    repeat: dict[str, float]  # coefficient of each REPEAT_FEATURES feature
    trained_until: dt.date  # the last history day it was fitted on
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def words(self) -> tuple[str, ...]:
        return self.facts.words

    # --- probabilities ------------------------------------------------------------------------

    def parts(self, history: Sequence[HistoryEntry], on: dt.date) -> PriorParts:
        """The prior of ``on`` from the history before it, with its two branches."""
        before = [e for e in history if e.date < on]
        index = {w: i for i, w in enumerate(self.words)}
        tl = Timeline.of(before, index)
        n = len(self.words)
        used = np.zeros(n, bool)
        used[tl.word[tl.word >= 0]] = True
        g = self.facts.group
        left = np.bincount(g[~used], minlength=GROUPS).astype(np.float64)
        day = _day_features(self.facts, on, left)
        beta = np.array([self.fresh[k] for k in FRESH_STATIC])
        alpha = np.array([self.fresh[k] for k in FRESH_DAY])
        score = self.facts.static_features @ beta + (day @ alpha)[g]
        prev = tl.word[-1] if before and tl.word[-1] >= 0 and (on - before[-1].date).days == 1 else -1
        if prev >= 0:
            first, last = self.facts.letters
            score = (
                score
                + self.fresh["same_first"] * (first == first[prev])
                + self.fresh["same_last"] * (last == last[prev])
            )
        fresh = np.zeros(n)
        if (~used).any():
            s = np.where(used, -np.inf, score)
            fresh = np.exp(s - s[~used].max())
            fresh /= fresh.sum()
        repeat = np.zeros(n)
        ids, rows = repeat_rows(self.facts, tl, len(before), on)
        if ids.size:
            r = rows @ np.array([self.repeat[k] for k in REPEAT_FEATURES])
            e = np.exp(r - r.max())
            repeat[ids] = e / e.sum()
        rho = repeat_share(before, on) if ids.size else 0.0
        if not (~used).any():
            rho = 1.0
        p = (1.0 - rho) * fresh + rho * repeat
        p = (1.0 - FLOOR * n) * p + FLOOR
        return PriorParts(on, p / p.sum(), fresh, repeat, rho, used, tl)

    def prior(self, history: Sequence[HistoryEntry], on: dt.date | None = None) -> np.ndarray:
        """P(answer on day ``on``) for every word, from the history before that day."""
        on = on or (history[-1].date + dt.timedelta(days=1) if history else clock.today())
        return self.parts(history, on).weights

    # --- storage -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "version": MODEL_VERSION,
            "kind": "editor",
            "words": "nyt",
            "words_sha256": list_fingerprint(self.words),
            "trained_until": self.trained_until.isoformat(),
            "fresh": self.fresh,
            "repeat": self.repeat,
            "meta": self.meta,
            "facts": self.facts.to_json(),
        }

    def save(self, path: Path) -> None:
        atomic_write_json(path, self.to_json())

    @classmethod
    def from_json(cls, doc: dict[str, Any], words: Sequence[str], path: str = "in memory") -> EditorModel:
        if not isinstance(doc, dict) or doc.get("version") != MODEL_VERSION or doc.get("kind") != "editor":
            raise DataError(f"answer model {path} is from another version; it will be retrained")
        if doc.get("words_sha256") != list_fingerprint(list(words)):
            raise DataError(f"answer model {path} was trained for another word list; it will be retrained")
        try:
            fresh = {k: float(doc["fresh"][k]) for k in FRESH_STATIC + FRESH_DAY + FRESH_LETTERS}
            repeat = {k: float(doc["repeat"][k]) for k in REPEAT_FEATURES}
            if not all(math.isfinite(v) for v in (*fresh.values(), *repeat.values())):
                raise ValueError("a coefficient is not a finite number")
            facts = WordFacts.from_json(doc["facts"], words)
            until = dt.date.fromisoformat(doc["trained_until"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise DataError(f"answer model {path} is damaged ({exc}); it will be retrained") from None
        return cls(facts, fresh, repeat, until, dict(doc.get("meta") or {}))

    @classmethod
    def load(cls, path: Path, words: Sequence[str]) -> EditorModel:
        try:
            doc = json.loads(Path(path).read_text())
        except FileNotFoundError:
            raise DataError(f"no answer model at {path}") from None
        except (OSError, ValueError) as exc:
            raise DataError(f"answer model {path} is unreadable ({exc}); it will be retrained") from None
        return cls.from_json(doc, words, str(path))


@dataclass(frozen=True, eq=False)
class PriorParts:
    """A day's prior and how it was made: the two branches and the repeat share."""

    day: dt.date
    weights: np.ndarray  # P(answer on day), floored, sums to 1
    fresh: np.ndarray  # P(w | a word never used before)
    repeat: np.ndarray  # P(w | a repeat)
    rho: float  # P(a repeat)
    used: np.ndarray  # bool: an answer before the day
    timeline: Timeline


# ---------------------------------------------------------------------------------------------
# Training


def history_fingerprint(history: Sequence[HistoryEntry]) -> str:
    """sha256 of the entries (what a model trained on them depends on, with the lists)."""
    h = hashlib.sha256()
    for e in history:
        h.update(f"{e.date.isoformat()},{e.word}\n".encode())
    return h.hexdigest()


def fresh_days(facts: WordFacts, history: Sequence[HistoryEntry], since: dt.date) -> clogit.FreshDays:
    """Every history entry in order, the fresh ones on or after ``since`` scored."""
    index = {w: i for i, w in enumerate(facts.words)}
    tl = Timeline.of(history, index)
    first, last = facts.letters
    g = facts.group
    n_days = len(history)
    left = np.bincount(g, minlength=GROUPS).astype(np.float64)
    day_feats = np.zeros((n_days, GROUPS, len(FRESH_DAY)))
    prev_first = np.full(n_days, -1, np.int64)
    prev_last = np.full(n_days, -1, np.int64)
    for k, e in enumerate(history):
        day_feats[k] = _day_features(facts, e.date, left)
        p = tl.previous(k)
        if p >= 0:
            prev_first[k], prev_last[k] = first[p], last[p]
        if tl.fresh[k]:
            left[g[tl.word[k]]] -= 1
    train = tl.fresh & np.array([e.date >= since for e in history], bool)
    return clogit.FreshDays(
        facts.static_features,
        g,
        first,
        last,
        np.maximum(tl.word, 0),
        tl.fresh,
        train,
        prev_first,
        prev_last,
        day_feats,
        GROUPS,
    )


def training_start(history: Sequence[HistoryEntry]) -> dt.date:
    """EDITOR_SINCE when the history holds MIN_EDITOR_DAYS of the editor's days, else its start
    (a day replayed from the first months of the editor, or of the game)."""
    editor_days = sum(1 for e in history if e.date >= EDITOR_SINCE)
    return EDITOR_SINCE if editor_days >= MIN_EDITOR_DAYS else (history[0].date if history else EDITOR_SINCE)


def fit(facts: WordFacts, history: Sequence[HistoryEntry]) -> EditorModel:
    """Fit both branches on ``history`` (all of it: the caller passes the days before the day)."""
    if not history:
        raise DataError("the answer history is empty: run 'wordlebot data fetch' (or data update) first")
    t0 = time.perf_counter()
    since = training_start(history)
    days = fresh_days(facts, history, since)
    penalty = np.r_[
        np.full(len(FRESH_STATIC), FRESH_PENALTY),
        np.full(len(FRESH_DAY), DAY_PENALTY),
        np.full(len(FRESH_LETTERS), LETTER_PENALTY),
    ]
    fresh_fit = clogit.fit_fresh(days, penalty)
    # repeats: each repeat day is a choice among the answers before it
    index = {w: i for i, w in enumerate(facts.words)}
    tl = Timeline.of(history, index)
    blocks, chosen, start = [], [], [0]
    for k, e in enumerate(history):
        if tl.word[k] >= 0 and not tl.fresh[k]:
            ids, rows = repeat_rows(facts, tl, k, e.date)
            chosen.append(start[-1] + int(np.flatnonzero(ids == tl.word[k])[0]))
            blocks.append(rows)
            start.append(start[-1] + len(ids))
    if chosen:
        rep_fit = clogit.fit_choices(
            np.vstack(blocks),
            np.array(start, np.int64),
            np.array(chosen, np.int64),
            np.full(len(REPEAT_FEATURES), REPEAT_PENALTY),
        )
        rep_theta, rep_nll, rep_conv = rep_fit.theta, rep_fit.nll, rep_fit.converged
    else:  # no repeat seen: every past answer alike
        rep_theta, rep_nll, rep_conv = np.zeros(len(REPEAT_FEATURES)), 0.0, True
    names = FRESH_STATIC + FRESH_DAY + FRESH_LETTERS
    meta = {
        "trained_from": since.isoformat(),
        "fresh_choices": int(days.train.sum()),
        "repeat_choices": len(chosen),
        "fresh_nll": round(fresh_fit.nll, 4),
        "repeat_nll": round(rep_nll, 4),
        "converged": bool(fresh_fit.converged and rep_conv),
        "newton_steps": fresh_fit.iterations,
        "history_sha256": history_fingerprint(history),
        "seconds": round(time.perf_counter() - t0, 3),
    }
    return EditorModel(
        facts,
        {k: float(v) for k, v in zip(names, fresh_fit.theta)},
        {k: float(v) for k, v in zip(REPEAT_FEATURES, rep_theta)},
        history[-1].date,
        meta,
    )
