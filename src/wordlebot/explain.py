"""What a player reads beside the numbers: how many of the candidates are really in play, and
why a guess is good, in words.

On a weighted set most listed candidates will never be the answer ("522 left" on ``nyt`` is
mostly words no editor would pick), so the figure a player can use is the *perplexity* of the
posterior, 2 ** entropy: the number of equally likely answers that would leave as much doubt.
It equals the count when every candidate is as likely, and is near 1 when one word dominates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .feedback import Pattern, all_green, format_digits
from .game import Game


def likely_count(posterior: np.ndarray) -> float:
    """2 ** (entropy in bits) of a probability vector: "about N likely answers" (0 for none)."""
    p = np.asarray(posterior, np.float64)
    p = p[p > 0]
    if p.size == 0:
        return 0.0
    p = p / p.sum()
    return float(2.0 ** -(p * np.log2(p)).sum())


def about(n: float) -> str:
    """A likely count as a player reads it: "about 37", "1", "about 1,200"."""
    if n <= 0:
        return "0"
    r = round(n)
    if abs(n - r) < 1e-9 or r == 0:
        r = max(1, r)
        return f"{r:,}"
    if n >= 100:
        r = int(round(n, -1)) if n < 1000 else int(round(n, -2))
    return f"about {r:,}"


def by_likelihood(game: Game, top: int | None = None) -> list[tuple[str, float]]:
    """The remaining candidates as (word, probability), likeliest first; equals keep the list's
    order (a stable sort), so the order is a function of the state alone."""
    post = game.posterior
    order = np.argsort(-post, kind="stable")
    if top is not None:
        order = order[:top]
    words = game.lexicon.answers
    cands = game.candidates
    return [(words[int(cands[i])], float(post[i])) for i in order.tolist()]


@dataclass(frozen=True)
class Group:
    """The candidates one colour pattern would leave."""

    pattern: Pattern
    digits: str  # the pattern as digits, 0 gray 1 yellow 2 green
    size: int
    p: float  # chance of this pattern (the prior's weight of its candidates)


@dataclass(frozen=True)
class Explanation:
    """How ``word`` splits the candidates of a state."""

    word: str
    candidates: int
    likely: float  # likely_count of the candidates before the guess
    p_answer: float  # chance the guess is the answer (solved now)
    p_known: float  # chance the colours leave a single candidate (solved next turn at the latest)
    expected_left: float  # candidates expected after the guess, weighted by the pattern's chance
    groups: list[Group]  # every pattern the guess can draw, likeliest first (equals: larger, then by code)

    @property
    def largest(self) -> Group:
        return max(self.groups, key=lambda g: (g.size, g.p, -g.pattern))

    @property
    def singles(self) -> int:
        return sum(1 for g in self.groups if g.size == 1 and g.digits != "2" * len(g.digits))

    def sentences(self) -> list[str]:
        """The explanation in words, one sentence per line."""
        w = self.word.upper()
        n = self.candidates
        if n == 1:
            return [f"{w} is the only candidate left: play it to win."]
        out = []
        if self.p_answer > 0:
            out.append(f"{w} can be the answer ({_pct(self.p_answer)} chance).")
        else:
            out.append(f"{w} cannot be the answer; it is played to narrow the {n:,} candidates down.")
        k = len(self.groups)
        big = self.largest
        out.append(f"Its colours split the {n:,} candidates into {k:,} group{'s' if k != 1 else ''}; "
                   f"the worst leaves {big.size:,} ({_pct(big.p)} chance).")
        if self.p_known > 0:
            out.append(f"{_pct(self.p_known + self.p_answer)} chance to know the answer after it "
                       f"({self.singles:,} group{'s' if self.singles != 1 else ''} of one word"
                       f"{' or the win itself' if self.p_answer > 0 else ''}).")
        else:
            out.append("No colours it can get leave a single word, "
                       f"but about {self.expected_left:.1f} candidates are expected to be left.")
        return out

    def text(self) -> str:
        return " ".join(self.sentences())


def explain(game: Game, word: str) -> Explanation:
    """How ``word`` splits the candidates of ``game`` (checked: a word of the lexicon; a game that
    has candidates left)."""
    lex = game.lexicon
    gid = lex.id(word)
    H = game.candidates
    if H.size == 0:
        raise ValueError("the game has no candidates left")
    post = game.posterior
    pats = np.asarray(game.matrix[gid, H]).astype(np.int64)
    npat = 3 ** lex.length
    sizes = np.bincount(pats, minlength=npat)
    weight = np.bincount(pats, weights=post, minlength=npat)
    green = all_green(lex.length)
    present = np.flatnonzero(sizes)
    order = sorted(present.tolist(), key=lambda p: (-weight[p], -sizes[p], p))
    groups = [Group(p, format_digits(p, lex.length), int(sizes[p]), float(weight[p])) for p in order]
    p_answer = float(weight[green])
    p_known = float(sum(weight[p] for p in present.tolist() if sizes[p] == 1 and p != green))
    expected_left = float(sum(weight[p] * sizes[p] for p in present.tolist() if p != green))
    return Explanation(lex.guesses[gid], int(H.size), likely_count(post), p_answer, p_known,
                       expected_left, groups)


def _pct(p: float) -> str:
    if p >= 0.995:
        return "100%" if p >= 1 - 1e-12 else ">99%"
    if p >= 0.1:
        return f"{100 * p:.0f}%"
    if p >= 0.001:
        return f"{100 * p:.1f}%"
    return "<0.1%" if p > 0 else "0%"
