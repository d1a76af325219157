"""Greedy rankers: score every allowed guess by what it does to the remaining candidates.

One pass of ``kernels._partition_stats`` gives, per guess, the entropy, the expected number of
candidates left, the largest and smallest part and the number of parts; each strategy is an
ordering of those columns.  Ties go to guesses that can be the answer, then to the higher prior,
then to the earlier word in the guess list, so every ranking is deterministic.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np

from ..core import kernels
from ..core.feedback import all_green
from ..core.matrix import read_only
from ..core.text import json_number
from ..core.words import Lexicon, WordId

STRATEGIES = ("entropy", "approx-entropy", "minimax", "most-parts", "expected-size", "letter-freq")
GuessSpace = Literal["all", "candidates"]

# Scores closer than this are ties (entropy sums in a different order differ by ~1e-15).
_TIE = 1e-9
# approx-entropy: share of guesses (by the letter-entropy prefilter) scored exactly.
APPROX_FRACTION = 0.05


@dataclass(frozen=True)
class Ranked:
    """One row of a suggestion table."""

    word: str
    # the strategy's own measure (see Ranking.score_name); the tree search's is ``expected``
    # (None for a guess that cannot solve)
    score: float | None
    bits: float  # entropy of the feedback, in bits
    expected_left: float  # expected number of candidates left after the guess
    largest: int  # size of the largest part
    parts: int  # number of distinct feedback patterns
    p_answer: float  # probability that this guess is the answer
    can_be_answer: bool
    hard_legal: bool
    # tree search: expected number of guesses from here when solved (this one included): the
    # guesses of the answers it finds, never a penalty for those it does not (see ``lose``)
    expected: float | None = None
    # tree search: guesses searched before the value is estimated (0: searched to the end)
    lookahead: int | None = None
    # tree search: "optimal" (proven), "searched" (the bot's strategy, to the end) or "estimate"
    basis: str = ""
    # tree search: the chance of not solving within the guess cap with this guess and the
    # search's strategy after it (under the prior); None for the greedy rankers
    lose: float | None = None

    def to_dict(self) -> dict[str, object]:
        """The row as the CLI's ``--json`` and the web API give it (figures as ``json_number``)."""
        doc = asdict(self)
        for name in ("score", "bits", "expected_left", "p_answer", "expected", "lose"):
            doc[name] = json_number(doc[name])
        return doc


@dataclass
class Stats:
    """Partition statistics of ``guess_ids`` over a candidate set (all arrays aligned)."""

    guess_ids: np.ndarray
    bits: np.ndarray
    expected_left: np.ndarray
    p_answer: np.ndarray
    parts: np.ndarray
    largest: np.ndarray
    smallest: np.ndarray


def normalised(weights: np.ndarray | None, n: int) -> np.ndarray:
    if weights is None:
        return np.full(n, 1.0 / n)
    w = np.ascontiguousarray(weights, dtype=np.float64)
    out: np.ndarray = w / w.sum()
    return out


def partition_stats(
    matrix: np.ndarray, guess_ids: np.ndarray, cand_ids: np.ndarray, weights: np.ndarray | None = None, length: int = 5
) -> Stats:
    """Checked twin of ``kernels._partition_stats``.  ``cand_ids`` are answer (column) indices."""
    matrix = read_only(matrix)  # the type the kernel is compiled for
    guess_ids = np.ascontiguousarray(guess_ids, dtype=np.int64)
    cand_ids = np.ascontiguousarray(cand_ids, dtype=np.int64)
    if cand_ids.size == 0:
        raise ValueError("no candidates")
    if guess_ids.size and (guess_ids.min() < 0 or guess_ids.max() >= matrix.shape[0]):
        raise IndexError("guess id out of range")
    if cand_ids.min() < 0 or cand_ids.max() >= matrix.shape[1]:
        raise IndexError("candidate id out of range")
    weighted = weights is not None and not np.all(weights == weights[0])
    w = normalised(weights, cand_ids.size)
    ng = guess_ids.size
    out_f = np.empty((ng, 3), np.float64)
    out_i = np.empty((ng, 3), np.int64)
    if ng:
        kernels._partition_stats(
            matrix, guess_ids, cand_ids, w, weighted, 3**length, all_green(length), kernels._chunks(ng), out_f, out_i
        )
    return Stats(guess_ids, out_f[:, 0], out_f[:, 1], out_f[:, 2], out_i[:, 0], out_i[:, 1], out_i[:, 2])


def letter_scores(
    lexicon: Lexicon, guess_ids: np.ndarray, cand_ids: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(letter-frequency score, approximate entropy) per guess: checked twin of the letter kernels."""
    w = normalised(weights, len(cand_ids))
    at, has = kernels._letter_tables(np.ascontiguousarray(lexicon.answer_codes[cand_ids]), w, lexicon.length)
    codes = np.ascontiguousarray(lexicon.guess_codes[guess_ids])
    freq = np.empty(len(guess_ids))
    approx = np.empty(len(guess_ids))
    if len(guess_ids):
        kernels._letter_scores(codes, at, has, freq, approx)
    return freq, approx


def _q(x: np.ndarray) -> np.ndarray:
    """Quantise floats so that values equal up to rounding noise sort as ties."""
    return np.round(np.asarray(x, dtype=np.float64) / _TIE)


@dataclass
class Ranking:
    """All guesses considered, best first, with their statistics (arrays aligned with ``order``)."""

    strategy: str
    order: np.ndarray  # indices into stats arrays, best first
    stats: Stats
    score: np.ndarray
    can_be_answer: np.ndarray
    prior: np.ndarray  # probability that each considered guess is the answer
    hard_legal: np.ndarray

    @property
    def best(self) -> WordId:
        return int(self.stats.guess_ids[self.order[0]])

    def rows(self, lexicon: Lexicon, top: int | None = 10) -> list[Ranked]:
        s = self.stats
        out = []
        for k in self.order[: top if top else len(self.order)].tolist():
            out.append(
                Ranked(
                    word=lexicon.guesses[int(s.guess_ids[k])],
                    score=float(self.score[k]),
                    bits=float(s.bits[k]),
                    expected_left=float(s.expected_left[k]),
                    largest=int(s.largest[k]),
                    parts=int(s.parts[k]),
                    p_answer=float(s.p_answer[k]),
                    can_be_answer=bool(self.can_be_answer[k]),
                    hard_legal=bool(self.hard_legal[k]),
                )
            )
        return out

    def position(self, lexicon: Lexicon, word: str) -> int | None:
        """0-based rank of ``word`` in this ranking, or None when it was not considered."""
        gid = lexicon.id(word)
        hits = np.flatnonzero(self.stats.guess_ids[self.order] == gid)
        return int(hits[0]) if hits.size else None


SCORE_NAMES = {
    "entropy": "bits",
    "approx-entropy": "bits",
    "minimax": "largest",
    "most-parts": "parts",
    "expected-size": "exp. left",
    "letter-freq": "letters",
}


def rank(
    lexicon: Lexicon,
    matrix: np.ndarray,
    candidates: np.ndarray,
    *,
    strategy: str = "entropy",
    guess_space: GuessSpace = "all",
    legal: np.ndarray | None = None,
    hard_legal: np.ndarray | None = None,
    weights: np.ndarray | None = None,
    approx_fraction: float = APPROX_FRACTION,
) -> Ranking:
    """Rank the guesses for the candidate answers ``candidates`` (answer indices).

    ``legal`` (bool per guess) restricts the guesses considered (hard mode on); ``hard_legal``
    (bool per guess) only fills the hard-legal column (it defaults to ``legal``); ``weights``
    (one per candidate) default to the lexicon prior restricted to the candidates.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    candidates = np.asarray(candidates, dtype=np.int64)
    if weights is None:
        weights = lexicon.prior[candidates]
    w = normalised(weights, candidates.size)
    if guess_space == "candidates":
        guess_ids = lexicon.answer_ids[candidates].astype(np.int64)
    elif guess_space == "all":
        guess_ids = np.arange(lexicon.n_guesses, dtype=np.int64)
    else:
        raise ValueError(f"unknown guess space {guess_space!r}; use 'all' or 'candidates'")
    if legal is not None:
        guess_ids = guess_ids[np.asarray(legal)[guess_ids]]
        if guess_ids.size == 0:  # cannot happen in hard mode: the candidates are always legal
            raise ValueError("no legal guess")
    # The prior of a guess as the answer: its candidate weight, 0 when it cannot be the answer.
    prob_of_answer = np.zeros(lexicon.n_answers)
    prob_of_answer[candidates] = w
    answer_idx = lexicon.answer_of_guess[guess_ids]
    prior = np.where(answer_idx >= 0, prob_of_answer[np.maximum(answer_idx, 0)], 0.0)
    can = prior > 0

    if strategy in ("approx-entropy", "letter-freq"):
        freq, approx = letter_scores(lexicon, guess_ids, candidates, w)
        if strategy == "letter-freq":
            stats = partition_stats(matrix, guess_ids, candidates, w, lexicon.length)
            score = freq
            keys = [-_q(freq)]
        else:
            # Prefilter by the per-position letter entropies, then score the best share exactly.
            keep_n = max(1, min(guess_ids.size, int(np.ceil(approx_fraction * guess_ids.size))))
            pre = np.lexsort((np.arange(guess_ids.size), -prior, -_q(approx)))[:keep_n]
            pre.sort()
            guess_ids, prior, can = guess_ids[pre], prior[pre], can[pre]
            stats = partition_stats(matrix, guess_ids, candidates, w, lexicon.length)
            score = stats.bits
            keys = [-_q(stats.bits)]
    else:
        stats = partition_stats(matrix, guess_ids, candidates, w, lexicon.length)
        if strategy == "entropy":
            score, keys = stats.bits, [-_q(stats.bits)]
        elif strategy == "minimax":
            score = stats.largest.astype(np.float64)
            keys = [stats.largest, _q(stats.expected_left), stats.smallest]
        elif strategy == "most-parts":
            score = stats.parts.astype(np.float64)
            keys = [-stats.parts]
        else:  # expected-size
            score, keys = stats.expected_left, [_q(stats.expected_left)]
    # A guess that neither splits the candidates nor can win is useless whatever its score
    # (letter-freq can favour one); it goes last.
    keys = [-((stats.parts > 1) | can).astype(np.int8)] + keys
    # np.lexsort sorts by the last key first: primary score keys, then the tie-breaks.
    tie_breaks = [-can.astype(np.int8), -_q(prior)]
    order = np.lexsort([stats.guess_ids] + tie_breaks[::-1] + keys[::-1])
    flags = hard_legal if hard_legal is not None else legal
    legal_col = np.ones(stats.guess_ids.size, np.bool_) if flags is None else np.asarray(flags)[stats.guess_ids]
    return Ranking(strategy, order, stats, score, can, prior, legal_col)


def best_guess(lexicon: Lexicon, matrix: np.ndarray, candidates: np.ndarray, **kwargs: Any) -> WordId:
    """The top guess of ``rank`` (the only one a simulation needs)."""
    if len(candidates) == 1:
        return int(lexicon.answer_ids[int(candidates[0])])
    return rank(lexicon, matrix, candidates, **kwargs).best
