"""Refuting a first word against a bound, in stages: the opener sweep's hard words.

An exact opener sweep asks of nearly every first word only "is it worse than the best?".  The
kernel's answer (``value_of_guess`` with a bound) bounds each part the word leaves by a scan,
then solves the parts one by one, smallest first, each against what is left of the bound: the
small parts exactly, then the big ones in turn, each nearly exactly too, because what a big
part is worth above its one-scan bound (its gap) is only found by searching it.  On the NYT lists
SAICE, whose near-optimal total is 11421, took 146 s to be proven >= 11219.5 so, and the ~1,000
words like it were most of a proof's 3 CPU-hours.

In stages, a word the kernel does not refute within QUICK_UNITS of work is refuted thus: each
big part's near-optimal value (a second's work for all of them) estimates its gap; each big
part, largest gap first, is then asked only for its share of what the bound needs ("is it worth
at least its bound + share x its gap?"): a search against a target below the part's value, in
which most guesses fail at once.  It stops as soon as the bounds proven add up to the bound.  In
a first round no part is asked for more than half its gap (an estimate above a part's value had
the part solved exactly: hard-mode CLOTE took 740 s so), in a second for the rest.  In hard
mode the cheap parts go first, each asked for as much of what the bound needs as it can give
alone (within the round's cap), and the big ones for the rest (see staged_bound).  Work for
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
from .tree_search import INF, BudgetExceeded, TreeSearch

# Work the kernel gets on its own first (scan units: about half a second on the NYT lists).
# Most first words are refuted by it in a tenth of a second; staging costs about a second.
# Measured 2026-11-27 against 11,678.5 (the hard top-10 bound), one thread, cold table, 80 words
# drawn at random from the ~10,000 a hard top-10 run leaves after its first 4,878: 90 CPU-s at
# 150 M, 83 at 300 M, 77 at 1.5 G, 67 with no limit (the kernel alone beats the stages on the far
# tail), 182 with no quick try (the stages alone: what the try leaves in the table pays); but 42
# dearer words of the run's head went 336 -> 403 CPU-s at 4 G (HAROS 4.6 -> 21 s, ALECS 8.7 ->
# 32 s).  No budget wins both by more than the noise, and none comes near halving the run.
QUICK_UNITS = 150_000_000
STAGE_MIN = 20  # parts of fewer answers are left to the kernel (their gaps are small and cheap)
# Ask the parts for this much more than the bound needs.  1.2 (estimates err) was the guess; the
# kernel fails soft, so a part that meets its target usually proves more than it, and that
# overshoot is the margin.  NYT-3158 hard mode, refuted against the top-100 bound 11,762.5 (one
# thread, cold table, a fresh process per set, 2026-11-27): 9 tail words (seed estimates 12,000-12,200)
# 157 and 148 CPU-s at 1.2, 125 at 1.0; 14 others (11,990-12,300) 93.6 -> 79.6; the proof
# sample (bench_proof_sample --hard, bound 11,627.5) 197 -> 204 CPU-s: no change within noise.
# One round with no cap (STAGE_ROUNDS = (1.0,)) did better on the tail (101-110 CPU-s) but 3-4x
# worse on words whose small parts hold most of the gap (GRAVE 1.9 -> 6.4 s, TIARE 9 -> 37 s).
STAGE_SLACK = 1.0
STAGE_ROUNDS = (0.5, 1.0)  # the most of its estimated gap a part is asked for, round by round
# In hard mode, parts of this many answers or more are the dear ones: they share what the
# cheaper parts cannot give (see staged_bound).  NYT-3158 hard mode, 30 first words of the
# proof's head: 126 s with every part sharing in proportion to its gap, largest gap first; 96 s
# so (120: 109 s, 300: 103 s).  Not in normal mode, where the same 30 words took 43 s sharing
# and 48 s so: there the estimates are real strategies' totals, and sharing in proportion to
# them is the better guess; in hard mode they include failure costs (see opener_sweep).  500
# since 2026-11-27 (the slack at 1.0; one thread, cold table, the top-100 run beside it): the
# words of the top-100 proof's tail spend 70-85 % of their time in their one part of 650-800
# answers (CARKS: 8.3 of 12.2 s in its part of 661), which at 200 shared with the parts of
# 200-499 and was asked for more than it need be.  Refuted against 11,762.5: 9 tail words 136 ->
# 118 CPU-s, 14 others 75.9 -> 64.9, the dear head words DOILT, CLOTE, DROIT, PLANE 365 (325-358
# before: no change); against 11,627.5: 7 words 45.9 -> 43.0, the proof sample 204 -> 211
# (noise).  800 gave nothing (134 on the 9 tail words).
STAGE_BIG_HARD = 500


def value_against(search: TreeSearch, near: TreeSearch, guess: int, bound: float, constraints=None) -> float:
    """``search.value_of_guess(guess, beta=bound)`` for a first word: its exact total if below
    ``bound``, else a proven lower bound ``>= bound``; the hard ones refuted in stages, ``near``
    (a near-optimal search of the same lists and rules) estimating each part's gap.  Call it
    inside ``search.lane()``."""
    try:
        with search.allowance(QUICK_UNITS):
            return search.value_of_guess(guess, constraints=constraints, beta=bound, parallel=False)
    except BudgetExceeded:
        pass
    v = staged_bound(search, near, guess, bound, constraints)
    if v >= bound:
        return v
    return search.value_of_guess(guess, constraints=constraints, beta=bound, parallel=False)


def staged_bound(search: TreeSearch, near: TreeSearch, guess: int, bound: float, constraints=None) -> float:
    """A proven lower bound on ``guess``'s total as a first word, raised in stages (see the
    module's text) until it reaches ``bound`` or the estimates run out."""
    lex = search.lexicon
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
        if Hp.size >= STAGE_MIN:
            big.append((Hp, cons, lb))
    if total >= bound:
        return total
    parts = []  # [estimated value, answers, constraints, proven bound]: the ones with a gap
    for Hp, cons, lb in big:
        est = near.best_unchecked(Hp, rows=1, constraints=cons, parallel=False)[1]
        if est < INF and est > lb:
            parts.append([est, Hp, cons, lb])
    # Two rounds: at first no part is asked for more than half its estimated gap (an estimate
    # above the part's value would have it solved exactly: a big part, the dearest search of
    # all), then what is still missing from the parts that met their targets.  In hard mode the
    # cheap parts (fewer than STAGE_BIG_HARD answers) go first, smallest first, each asked for
    # as much of what the bound needs as it can give alone; the big ones (every part in normal
    # mode) then share what is left in proportion to their gaps, largest gap first.
    big_from = STAGE_BIG_HARD if search.hard else 0
    for cap in STAGE_ROUNDS:
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
                share = STAGE_SLACK * (bound - total) / gap
            else:
                share = STAGE_SLACK * (bound - total) / left_big
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
