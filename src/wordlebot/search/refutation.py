"""Refuting a first word against a bound, in stages: the opener sweep's hard words.

An exact opener sweep asks of nearly every first word only "is it worse than the best?".  The
kernel's answer (``value_of_guess`` with a bound) bounds each part the word leaves by a scan,
then solves the parts one by one, smallest first, each against what is left of the bound: the
small parts exactly, then the big ones in turn, each nearly exactly too, because what a big
part is worth above its one-scan bound (its gap) is only found by searching it.  On the NYT lists
SAICE, whose near-optimal total is 11421, took 146 s to be proven >= 11219.5 so, and the ~1,000
words like it were most of a proof's 3 CPU-hours.

In stages, a word the kernel does not refute within its quick allowance of work is refuted thus: each
big part's near-optimal value (a second's work for all of them) estimates its gap; each big
part, largest gap first, is then asked only for its share of what the bound needs ("is it worth
at least its bound + share x its gap?"): a search against a target below the part's value, in
which most guesses fail at once.  It stops as soon as the bounds proven add up to the bound.  In
a first round no part is asked for more than half its gap in hard mode, 0.7 of it in normal
mode (an estimate above a part's value had the part solved exactly: hard-mode CLOTE took 740 s
so), in a second for the rest.  In hard mode the cheap parts go first, each asked for as much
of what the bound needs as it can give alone (within the round's cap), and the big ones for the
rest (see staged_bound).  Work for
SAICE: 124 G scan units -> 14 G (CRIED 99 -> 26, TRIED 107 -> 36); CLOTE hard 30 G.  Every
answer is a proven lower bound or an exact value (a part that fails its target answers with the
least bound it proved of its guesses, often above the target: the kernel fails soft, so what a
part gives beyond its share counts against the others'), kept in the search's table, so when the
estimates were wrong (the word is better than they said) the kernel's evaluation that follows
reads them: the exact totals are the kernel's, as before.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.feedback import all_green
from ..core.game import HardConstraints
from .tree_search import INF, BudgetExceeded, TreeSearch

# The stages' thresholds are the search's tuning: SearchTuning.refute_quick_units, stage_min,
# stage_slack, stage_rounds, stage_rounds_normal and stage_big_hard (tree_search.py, where each
# is explained).


def value_against(
    search: TreeSearch, near: TreeSearch, guess: int, bound: float, constraints: HardConstraints | None = None
) -> float:
    """``search.value_of_guess(guess, beta=bound)`` for a first word: its exact total if below
    ``bound``, else a proven lower bound ``>= bound``; the hard ones refuted in stages, ``near``
    (a near-optimal search of the same lists and rules) estimating each part's gap.  Call it
    inside ``search.lane()``."""
    try:
        with search.allowance(search.tuning.refute_quick_units):
            return search.value_of_guess(guess, constraints=constraints, beta=bound, parallel=False)
    except BudgetExceeded:
        pass
    v = staged_bound(search, near, guess, bound, constraints)
    if v >= bound:
        return v
    return search.value_of_guess(guess, constraints=constraints, beta=bound, parallel=False)


def staged_bound(
    search: TreeSearch, near: TreeSearch, guess: int, bound: float, constraints: HardConstraints | None = None
) -> float:
    """A proven lower bound on ``guess``'s total as a first word, raised in stages (see the
    module's text) until it reaches ``bound`` or the estimates run out."""
    lex = search.lexicon
    tune = search.tuning
    H = np.arange(lex.n_answers, dtype=np.int32)
    word = lex.guesses[guess]
    pats = np.asarray(search.mt[H, guess])
    green = all_green(lex.length)
    total = float(H.size)
    big = []
    for p in np.unique(pats).tolist():
        if p == green:
            continue
        Hp = H[pats == p]
        cons = constraints.add(word, p) if constraints is not None else None
        if Hp.size <= 2:
            total += 2 * Hp.size - 1  # exact: one guess, or two answers in three guesses
            continue
        lb = search.node_bound(Hp, rows=1, constraints=cons)
        total += lb
        if Hp.size >= tune.stage_min:
            big.append((Hp, cons, lb))
    if total >= bound:
        return total
    parts = []  # [estimated value, answers, constraints, proven bound]: the ones with a gap
    for Hp, cons, lb in big:
        est = near.best_unchecked(Hp, rows=1, constraints=cons, parallel=False)[1]
        if est < INF and est > lb:
            parts.append([est, Hp, cons, lb])
    # Two rounds: at first no part is asked for more than half its estimated gap (0.7 of it in
    # normal mode: SearchTuning.stage_rounds_normal; an estimate above the part's value would
    # have it solved exactly: a big part, the dearest search of all), then what is still
    # missing from the parts that met their targets.  In hard mode the cheap parts (fewer than
    # tune.stage_big_hard answers) go first, smallest first, each asked for as much of what the
    # bound needs as it can give alone; the big ones (every part in normal mode) then share
    # what is left in proportion to their gaps, largest gap first.
    big_from = tune.stage_big_hard if search.hard else 0
    for cap in tune.stage_rounds if search.hard else tune.stage_rounds_normal:
        parts.sort(key=lambda t: (1, t[3] - t[0]) if t[1].size >= big_from else (0, t[1].size))
        left_big = sum(est - lb for est, Hp, _, lb in parts if Hp.size >= big_from)
        kept = []
        for part in parts:
            est, Hp, cons, lb = part
            if total >= bound:
                kept.append(part)
                continue
            gap = est - lb
            if Hp.size < big_from:
                share = tune.stage_slack * (bound - total) / gap
            else:
                share = tune.stage_slack * (bound - total) / left_big
                left_big -= gap
            target = lb + math.ceil(gap * min(cap, share))
            v = search.node_value(Hp, rows=1, constraints=cons, beta=target)
            total += v - lb
            if v >= target and est > v:  # bounded, not exact: it may give more in the next round
                kept.append([est, Hp, cons, v])
        if total >= bound:
            break
        parts = kept
    return total
