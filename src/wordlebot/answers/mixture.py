"""The four-number mixture: the simple baseline the editor model must beat.

No word features at all, four numbers read off the history before the day:

1. P(repeat): (repeats + 1) / (days + 2) over the days since the first repeat (1 % before it);
2. 3. the fresh answers' split by list over the last 365 days: the NYT 2,309 list, the
   WordleBot 3,158 list only, anything else, each count + 1/2 (each group's share spread evenly
   over its unused words; a group without an unused word gives its share to the others);
4. past answers weighted 4:1 toward 2021 answers (the ones the editor has replayed most).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np

from ..core.data import HistoryEntry
from .editor import BOT_ONLY, NYT_LIST, WordFacts, repeat_share

SHARE_DAYS = 365
OLD_ANSWER_WEIGHT = 4.0  # a 2021 answer against a later one, as a repeat


def mixture_prior(facts: WordFacts, history: Sequence[HistoryEntry], on: dt.date) -> np.ndarray:
    """P(answer on ``on``) for every word of ``facts`` from the history before that day."""
    before = [e for e in history if e.date < on]
    index = {w: i for i, w in enumerate(facts.words)}
    n = len(facts.words)
    first: dict[int, dt.date] = {}
    counts = np.zeros(3)  # fresh answers in the last SHARE_DAYS: NYT list, WordleBot only, other
    for e in before:
        i = index.get(e.word)
        if i is None or i in first:
            continue
        first[i] = e.date
        if (on - e.date).days <= SHARE_DAYS:
            counts[_kind(facts.group[i])] += 1
    used = np.zeros(n, bool)
    old = np.zeros(n, bool)
    for i, d in first.items():
        used[i] = True
        old[i] = d.year == 2021
    kind = np.array([_kind(g) for g in range(4)])[facts.group]
    sizes = np.array([np.sum(~used & (kind == k)) for k in range(3)], np.float64)
    share = np.where(sizes > 0, counts + 0.5, 0.0)  # + 1/2: a group not drawn this year stays possible
    share = share / share.sum() if share.sum() > 0 else share
    rho = repeat_share(before, on) if used.any() else 0.0
    p = np.zeros(n)
    for k in range(3):
        if sizes[k] > 0:
            p[~used & (kind == k)] = (1.0 - rho) * share[k] / sizes[k]
    if used.any():
        rep = np.where(old, OLD_ANSWER_WEIGHT, 1.0) * used
        p += rho * rep / rep.sum()
    if p.sum() <= 0:  # every word used and no repeat seen: all alike
        p[:] = 1.0
    out: np.ndarray = p / p.sum()
    return out


def _kind(group: int) -> int:
    return 0 if group == NYT_LIST else 1 if group == BOT_ONLY else 2
