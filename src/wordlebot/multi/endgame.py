"""The end of a multi-board game, searched exactly: when few answer tuples are left, every way of
playing on is tried to the guess cap, over the boards jointly.

The one-step estimate (``policy.py``) prices a guess board by board, with a rough solve time for
each part; it does not see that one guess serves several boards, nor what the next guesses can
do.  Near the end, where those decide the score, the candidates of the open boards are few, and
the game can be played out: a state is the set of answer tuples the rows leave (one answer per
open board, distinct, weighted by the prior), a guess splits it by the colours it shows on every
board, and the value of a state is the least expected cost (the objective's) of any guess; a
board lost at the cap costs ``LOSS_PENALTY`` guesses more than the game counts, so that no
fraction of a guess is bought with the risk of a lost board.

The guesses tried are the candidate words of the open boards and the best ``EXTRA_WORDS`` others
by the estimate, at every depth: the result is exact among those words (a guess outside them,
better still, is possible but rare so late: the test measures the gap to the unrestricted optimum
of ``exact.py``).  The search is branch and bound with memoised states; a state costs at least
one guess per open board, each on a later turn.  It gives up, deterministically, after
``NODE_BUDGET`` states (the estimate then ranks as before), so a suggestion stays a function of
the state alone and quick.

In hard mode a guess must keep the hints of every board still open (each board is a game of
its own, as ``MultiGame.guess`` checks it), so the words allowed change along every line of play:
a state also carries, per open board, which pool words its rows so far allow (a board's rule is
the conjunction of one rule per row, so a row's colours narrow its board's words, and a board
solved drops its rule).  Where no pool word is allowed, the open boards are lost.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from ..core import kernels
from ..core.feedback import all_green
from ..core.game import HardConstraints
from .game import MultiGame

ENDGAME_TUPLES = 200  # answer tuples at most for the search to start (more rarely finish in the budget)
EXTRA_WORDS = 12  # non-candidate words the search may play, the best by the estimate
# A lost board costs this many guesses more than the game counts it (the cap plus one): at the
# game's own count a search would risk a board for a fraction of a guess, and the policy is to
# lose one only where it cannot be helped (the single-board engine charges the same: advisor.py).
LOSS_PENALTY = 10.0
NODE_BUDGET = 2_000  # states searched at most before giving up (~0.07 ms each: under 150 ms in all)


TIE = 1e-9  # values this close are equal (the policy ranks them by a tie-break)


class _OverBudget(Exception):
    pass


def answer_tuples(game: MultiGame, limit: int = ENDGAME_TUPLES) -> tuple[np.ndarray, np.ndarray] | None:
    """The open boards' possible answers as tuples (rows: one answer id per open board, distinct)
    and their probabilities, or None when there are more than ``limit`` (or none)."""
    cands = [game.candidates(b) for b in game.active]
    if math.prod(c.size for c in cands) > limit * 4:  # distinctness removes few: not worth listing
        return None
    rows = [t for t in itertools.product(*(c.tolist() for c in cands)) if len(set(t)) == len(t)]
    if not rows or len(rows) > limit:
        return None
    tuples = np.array(rows, np.int64).reshape(len(rows), len(cands))
    prior = game.lexicon.prior
    weights = np.prod(prior[tuples], axis=1)
    return tuples, weights / weights.sum()


def search(
    game: MultiGame,
    matrix: np.ndarray,
    objective: str,
    estimate: Callable[[np.ndarray], np.ndarray],
    top: int = 5,
    *,
    limit: int | None = None,
    extra_words: int | None = None,
    budget: float | None = None,
) -> list[tuple[int, float]] | None:
    """The best ``top`` words (or more) the search may play, with their exact expected cost from
    now (the objective's: "score", the guesses until each open board is solved, summed over
    them; "guesses", the guesses until all are), best first; None when the state is too big for
    the search or it gives up (in the pool's order: the caller ranks them, with its tie-break).
    ``estimate(pool) -> costs`` is the one-step estimate, which
    picks the extra words (in hard mode among the words allowed now).  At most 8 open boards of
    5 letters (their colours make one 64-bit key).  ``limit``,
    ``extra_words`` and ``budget`` default to ``ENDGAME_TUPLES``, ``EXTRA_WORDS`` and
    ``NODE_BUDGET`` (see ``exact_value`` for a search without them)."""
    if game.lexicon.length * len(game.active) > 40:
        return None  # (3^40 < 2^64: the colours of every open board make one 64-bit key)
    found = answer_tuples(game, ENDGAME_TUPLES if limit is None else limit)
    if found is None:
        return None
    tuples, weights = found
    lex = game.lexicon
    n_open = tuples.shape[1]
    words = np.arange(lex.n_guesses, dtype=np.int64)
    rough = estimate(words)
    candidates = np.unique(lex.answer_ids[tuples.ravel()])
    is_candidate = np.zeros(lex.n_guesses, bool)
    is_candidate[candidates] = True
    by_estimate = np.lexsort((words, np.round(rough, 9)))
    others = ~is_candidate[by_estimate]
    if game.hard:  # the extra words are for now: ones the rule allows on every open board
        others &= game.legal_mask()[by_estimate]
    extra = by_estimate[others][: EXTRA_WORDS if extra_words is None else extra_words]
    pool = np.concatenate([candidates, extra])
    pool = pool[np.lexsort((pool, np.round(rough[pool], 9)))]  # the likely best first: tighter bounds sooner
    # hard mode: per open board (the tuples' columns), the pool words its rows allow
    masks = np.array([game.boards[b].legal_mask()[pool] for b in game.active]) if game.hard else None
    # colours[g, tuple, board]: what pool word g shows on each open board of each tuple
    colours = np.ascontiguousarray(np.asarray(matrix)[pool][:, tuples])
    answer_of_pool = lex.answer_of_guess[pool].astype(np.int64)  # -1 for a word that is no answer
    solver = _Solver(
        colours,
        weights,
        all_green(lex.length),
        game.max_guesses,
        by_guesses=objective == "guesses",
        n_patterns=3**lex.length,
        tuples=tuples,
        answer_of_word=answer_of_pool,
        budget=NODE_BUDGET if budget is None else budget,
        words=[lex.guesses[g] for g in pool.tolist()] if game.hard else None,
        codes=lex.guess_codes[pool] if game.hard else None,
    )
    t = game.guesses_used
    everyone = np.arange(tuples.shape[0])
    try:
        # First the best word alone: whether the search answers, and what it plays, must not
        # depend on how many rows were asked for (a bigger ``top`` explores more at the root).
        values, exact = solver.values(everyone, (1 << n_open) - 1, t, keep=1, ties=True, masks=masks)
    except _OverBudget:
        return None
    if not any(exact):
        return None  # (hard mode: no pool word allowed now; the estimate's words are the rule's)
    if top > 1:
        # Then the next rows, from the states already valued, within half a budget more; when
        # that runs out the rows of the first pass stay (the best word is in both).
        solver.budget = solver.nodes + (NODE_BUDGET if budget is None else budget) / 2
        try:
            values, exact = solver.values(everyone, (1 << n_open) - 1, t, keep=top, ties=True, masks=masks)
        except _OverBudget:
            pass
    # back to "from now": the objective's cost of the turns already played is taken off
    offset = t * n_open if objective == "score" else t
    return [(g, v - offset) for g, v, sure in zip(pool.tolist(), values, exact) if sure]


class _Solver:
    """Values of states: a state is (tuple indices, mask of open boards, guesses played); its
    value is the expected cost (per unit of the tuples' probability) of the best play from it,
    counting the turns on which the boards still open will be solved (the objective's way).

    Each state prices all the pool's words at once, by a lower bound (every part of the split
    needs a guess per board still open in it, on later turns), and plays them out in that order
    until the bound reaches the best value found: most words are never played out."""

    def __init__(
        self,
        colours: np.ndarray,
        weights: np.ndarray,
        green: int,
        cap: int,
        *,
        by_guesses: bool,
        n_patterns: int,
        tuples: np.ndarray,
        answer_of_word: np.ndarray,
        budget: float = math.inf,
        words: list[str] | None = None,
        codes: np.ndarray | None = None,
    ) -> None:
        self.colours = colours
        self.boards = kernels.EndgameBoards(
            colours,
            weights,
            tuples,
            answer_of_word,
            int(green),
            int(n_patterns),
            int(tuples.max()) + 1,
            bool(by_guesses),
        )
        self.budget = budget
        self.tuples = tuples
        self.answer_of_word = answer_of_word
        self.n_answers = int(tuples.max()) + 1
        self.weights = weights
        self.green = green
        self.cap = cap
        self.by_guesses = by_guesses
        self.base = n_patterns
        self.memo: dict[tuple[object, ...], float] = {}
        self.nodes = 0
        # hard mode: the pool's words and letter codes, and the words each (word, colours) row allows
        self.words, self.codes = words, codes
        self.row_rules: dict[tuple[int, int], np.ndarray] = {}

    def row_allows(self, k: int, pattern: int) -> np.ndarray:
        """The pool words hard mode allows after pool word ``k`` showed ``pattern`` on a board."""
        rule = self.row_rules.get((k, pattern))
        if rule is None:
            assert self.words is not None and self.codes is not None  # (hard mode has them)
            rule = HardConstraints.none(len(self.words[k])).add(self.words[k], pattern).mask(self.codes)
            self.row_rules[(k, pattern)] = rule
        return rule

    def bound(self, open_count: int, t: int) -> float:
        """Least cost per tuple of a state at turn ``t`` with ``open_count`` open boards: each
        needs a guess of its own, on turns t+1, t+2, …; boards past the cap are lost.  It is the
        exact value when the answers are known (one tuple), and at the cap."""
        if not open_count:
            return 0.0
        if self.by_guesses:
            # a loss costs the cap, one per board left (at least t + open_count - cap), the penalty
            last = t + open_count
            return float(last if last <= self.cap else last + LOSS_PENALTY)
        return float(sum(t + i if t + i <= self.cap else self.cap + 1 + LOSS_PENALTY for i in range(1, open_count + 1)))

    def value(self, ids: np.ndarray, open_mask: int, t: int, masks: np.ndarray | None = None) -> float:
        """``masks`` (hard mode): per board, the pool words its rows allow (the open boards' rows
        are part of the state)."""
        key: tuple[object, ...] = (ids.tobytes(), open_mask, t)
        if masks is not None:
            key += (masks[[b for b in range(masks.shape[0]) if open_mask >> b & 1]].tobytes(),)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OverBudget
        open_count = bin(open_mask).count("1")
        if t == self.cap:
            best = self.bound(open_count, t)
        else:
            best = min(self.values(ids, open_mask, t, keep=1, ties=False, masks=masks)[0], default=math.inf)
            if best == math.inf:  # hard mode: no pool word allowed (or none that does anything)
                best = self.bound(open_count, self.cap)  # the open boards are lost
        self.memo[key] = best
        return best

    def values(
        self, ids: np.ndarray, open_mask: int, t: int, keep: int, ties: bool, masks: np.ndarray | None = None
    ) -> tuple[list[float], list[bool]]:
        """The value of playing each pool word now, and whether it is exact: it is for the best
        ``keep`` words, and with ``ties`` for every word as good as the ``keep``-th (so that the
        tie-break, not the order of the search, chooses among equals, whatever ``keep``); the
        others get a lower bound no better than the ``keep``-th best value (inf: a word that
        neither learns nor solves anything).  A state's value needs neither.

        The bounds (``kernels._endgame_split``): a part's open boards are solved one a turn from
        t + 2 on only if the guess at t + 2 is an answer there, which it is at best with the
        chance of the word likeliest to be one; otherwise each waits a turn more."""
        open_boards = np.array([b for b in range(self.colours.shape[2]) if open_mask >> b & 1], np.int64)
        n_words, n = self.colours.shape[0], ids.size
        n_open = open_boards.size
        floors = np.array([self.bound(k, t + 1) for k in range(n_open + 1)])
        next_guess = t + 1 < self.cap
        later = np.array([self.bound(k, t + 2) for k in range(n_open + 1)]) if next_guess else floors
        split = kernels.EndgameSplit.empty(n_words, n)
        kernels._endgame_split(
            self.boards, kernels.EndgameState(ids, open_boards, float(t + 1), floors, later, next_guess), split
        )
        order, part_first, part_count, lo, hi = split.order, split.first, split.count, split.lo, split.hi
        mass, floor, now, left, solved = split.mass, split.floor, split.now, split.left, split.solved
        settled, lower = split.settled, split.lower
        if masks is not None:  # hard mode: only the words every open board's rows allow
            lower[~np.logical_and.reduce(masks[open_boards])] = math.inf
        total_mass = float(self.weights[ids].sum())
        out = lower.tolist()
        exact = [False] * n_words
        found: list[float] = []  # the exact values so far, best first
        slack = TIE if ties else 0.0
        for k in np.argsort(lower, kind="stable").tolist():
            cutoff = found[keep - 1] + slack if len(found) >= keep else math.inf
            if lower[k] >= cutoff:
                break  # every word from here is bounded no better
            total = lower[k] * total_mass
            p0 = int(part_first[k])
            parts = range(p0, p0 + int(part_count[k]))
            for p in sorted(parts, key=lambda q: -mass[q]):
                if settled[p] and (masks is None or left[p] == 0 or not next_guess):
                    # (in hard mode a known tuple's answers may be barred by the other boards'
                    # rules, in some order or in all: played out, unless nothing is left to
                    # play or no guess is left to play it)
                    continue
                mask = open_mask
                if solved[p] >= 0:
                    mask &= ~(1 << int(open_boards[solved[p]]))
                sub = np.sort(ids[order[k, lo[p] : hi[p]]])
                child = None
                if masks is not None:  # each board still open learns this row's colours
                    child = masks.copy()
                    first = ids[order[k, lo[p]]]
                    for b in open_boards.tolist():
                        if mask >> b & 1:
                            child[b] &= self.row_allows(k, int(self.colours[k, first, b]))
                total += mass[p] * (now[p] + self.value(sub, mask, t + 1, child) - floor[p])
                if total / total_mass >= cutoff:
                    break
            out[k] = total / total_mass
            if out[k] < cutoff:
                exact[k] = True
                found.append(out[k])
                found.sort()
        return out, exact


def exact_value(game: MultiGame, matrix: np.ndarray, objective: str = "score", *, max_tuples: int = 5_000) -> float:
    """The exact optimum of the rest of ``game`` (expected cost from now, as ``search`` counts it,
    a lost board with ``LOSS_PENALTY``): every word of the list may be played at every state, no
    budget.  For measuring the policy on reduced lists (``bench/bench_multi_exact.py``); its
    time grows with the tuples and the words, so ``max_tuples`` bounds what it is asked."""
    if game.hard:
        raise ValueError("the exact value is for normal mode (hard mode changes the words at every state)")
    found = answer_tuples(game, max_tuples)
    if found is None:
        raise ValueError(f"more than {max_tuples:,} answer tuples: too big for an exact search")
    ranked = search(
        game,
        matrix,
        objective,
        lambda words: np.zeros(words.size),
        top=1,
        limit=max_tuples,
        extra_words=game.lexicon.n_guesses,
        budget=math.inf,
    )
    assert ranked  # no budget: the search always answers
    return min(v for _, v in ranked)  # (the words come in the pool's order, not ranked)
