"""What a player reads beside the numbers: how many of the candidates are really in play, and
why a guess is good, in words.

On a weighted set most listed candidates will never be the answer ("522 left" on ``nyt`` is
mostly words no editor would pick), so the figure a player can use is the *perplexity* of the
posterior, 2 ** entropy: the number of equally likely answers that would leave as much doubt.
It equals the count when every candidate is as likely, and is near 1 when one word dominates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.feedback import Pattern, all_green, format_digits
from ..core.game import Game
from ..core.text import format_prob, plural

if TYPE_CHECKING:
    from .advisor import Advisor
    from .analysis import GameReport


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
        out.append(
            f"Its colours split the {n:,} candidates into {k:,} group{'s' if k != 1 else ''}; "
            f"the worst leaves {big.size:,} ({_pct(big.p)} chance)."
        )
        if self.p_known > 0:
            out.append(
                f"{_pct(self.p_known + self.p_answer)} chance to know the answer after it "
                f"({self.singles:,} group{'s' if self.singles != 1 else ''} of one word"
                f"{' or the win itself' if self.p_answer > 0 else ''})."
            )
        else:
            out.append(
                "No colours it can get leave a single word, "
                f"but about {self.expected_left:.1f} candidates are expected to be left."
            )
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
    npat = 3**lex.length
    sizes = np.bincount(pats, minlength=npat)
    weight = np.bincount(pats, weights=post, minlength=npat)
    green = all_green(lex.length)
    present = np.flatnonzero(sizes)
    order = sorted(present.tolist(), key=lambda p: (-weight[p], -sizes[p], p))
    groups = [Group(p, format_digits(p, lex.length), int(sizes[p]), float(weight[p])) for p in order]
    p_answer = float(weight[green])
    p_known = float(sum(weight[p] for p in present.tolist() if sizes[p] == 1 and p != green))
    expected_left = float(sum(weight[p] * sizes[p] for p in present.tolist() if p != green))
    return Explanation(lex.guesses[gid], int(H.size), likely_count(post), p_answer, p_known, expected_left, groups)


def _risk(p: float) -> str:
    """A difference in the chance of losing: ``4.8 %``, ``0.12 %``, ``<0.01 %``."""
    if p >= 0.01:
        return f"{100 * p:.1f} %"
    if p >= 0.0001:
        return f"{100 * p:.2f} %"
    return "<0.01 %"


def _pct(p: float) -> str:
    if p >= 0.995:
        return "100%" if p >= 1 - 1e-12 else ">99%"
    if p >= 0.1:
        return f"{100 * p:.0f}%"
    if p >= 0.001:
        return f"{100 * p:.1f}%"
    return "<0.1%" if p > 0 else "0%"


def tie_ranks(values: np.ndarray, rtol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """Tie-aware ranks, largest first: for each value the first and last (1-based) rank of the
    group of values equal to it (to a relative ``rtol``).  A value alone has first == last; 800
    words sharing the top probability all rank 1-800, and their fair rank is the middle, 400.5."""
    v = np.asarray(values, np.float64)
    order = np.argsort(-v, kind="stable")
    s = v[order]
    start = np.ones(s.size, np.bool_)
    if s.size > 1:
        start[1:] = ~np.isclose(s[1:], s[:-1], rtol=rtol, atol=0.0)
    group = np.cumsum(start) - 1
    starts = np.flatnonzero(start)
    ends = np.append(starts[1:], s.size)
    first = np.empty(s.size, np.int64)
    last = np.empty(s.size, np.int64)
    first[order] = starts[group] + 1
    last[order] = ends[group]
    return first, last


def rank_text(first: int, last: int, total: int) -> str:
    """``rank 12 of 14,855``, or for a tie ``rank ≈400 of 14,855: 800 words tie at ranks 1-800``
    (the fair rank of a tie is the middle of its ranks)."""
    if first == last:
        return f"rank {first:,} of {total:,}"
    return f"rank ≈{(first + last) / 2:,.0f} of {total:,}: {last - first + 1:,} words tie at ranks {first:,}-{last:,}"


def hard_mode_trap(game: Game) -> str | None:
    """In hard mode, the trap of words that differ in one letter only: every guess must keep the
    greens, so each one tests a single letter there and may rule out a single word.  Says so when
    more words fit than guesses remain (``_ATCH: 6 words fit and 5 guesses remain``); else None."""
    if not game.hard or game.over or game.off_list:
        return None
    words = game.candidate_words
    left = game.max_guesses - len(game.rows)
    if len(words) < 2 or len(words) <= left:
        return None
    free = [i for i in range(game.lexicon.length) if len({w[i] for w in words}) > 1]
    if len(free) != 1:
        return None
    shape = "".join("_" if i in free else words[0][i].upper() for i in range(game.lexicon.length))
    return (
        f"hard-mode trap: {shape}: {len(words):,} words fit and {left} guess{'es' if left != 1 else ''} "
        "remain, and each guess can rule out only one"
    )


def _parts(game: Game, gid: int) -> tuple[int, int]:
    """(groups, largest group) the guess ``gid`` splits the game's candidates into."""
    pats = np.asarray(game.matrix[gid, game.candidates])
    counts = np.bincount(pats.astype(np.int64))
    return int(np.count_nonzero(counts)), int(counts.max())


def verdict(game: Game, guess: str, best: str, regret: float, risk: float = 0.0) -> str:
    """One plain-language sentence on ``guess`` played at ``game``'s position, where the bot
    played ``best``, the guess cost ``regret`` guesses on average over it when solved and
    ``risk`` more chance of losing the game."""
    lex = game.lexicon
    n = int(game.candidates.size)
    g = lex.guesses[lex.id(guess)]
    W, B = g.upper(), best.upper()
    words = game.candidate_words
    if n == 1:
        return (
            "the only word left: solved."
            if g == words[0]
            else f"only {words[0].upper()} was left, so {W} could not win: a wasted guess."
        )
    groups, worst = _parts(game, lex.id(g))
    can_win = g in words
    if groups == n and can_win:
        split = f"it could be the answer and split the {n:,} candidates into single words"
    else:
        split = (
            f"it {'could be the answer and ' if can_win else 'could not be the answer and '}split the "
            f"{n:,} candidates into {groups:,} group{'s' if groups != 1 else ''} (the largest {worst:,})"
        )
    if g == best.lower() or (regret <= 1e-9 and risk <= 1e-12):
        head = "the bot's choice" if g == best.lower() else f"as good as the bot's {B}"
        return f"{head}: {split}."
    if risk > 1e-12:
        return f"it risked the game: {_risk(risk)} more chance to lose than with {B} ({split})."
    bg, bw = _parts(game, lex.id(best))
    bot = f"{B} makes {bg:,} group{'s' if bg != 1 else ''} (the largest {bw:,})"
    if not can_win and n <= 200:
        # a possible answer (the likeliest such) that splits as well had a chance to win on the
        # spot; the sentence still compares with the bot's own guess, the one its table names
        for w, _ in by_likelihood(game):
            gw, ww = _parts(game, lex.id(w))
            if gw >= groups and ww <= worst:
                other = (
                    "which could have won"
                    if w == best.lower()
                    else f"which could have won; the bot's {B} was {regret:.2f} guesses better on average: {bot}"
                )
                return (
                    f"a wasted guess: it could not be the answer and split the {n:,} candidates no better "
                    f"than {w.upper()}, {other}."
                )
    return f"{regret:.2f} guesses worse on average than {B}: {split}; {bot}."


def review_rows(advisor: Advisor, game: Game, report: GameReport, limit: int = 12) -> list[str]:
    """For each rated row of ``report`` (a GameReport of ``game``): the verdict on the guess,
    then the words still possible after it, likeliest first (``limit`` shown)."""
    trial = Game(
        game.lexicon,
        hard=game.hard,
        max_guesses=max(game.max_guesses, len(game.rows)),
        matrix=advisor.matrix,
        answer=game.answer,
    )
    out = []
    for r in report.rows:
        regret = 0.0
        if r.player_expected is not None and r.best_expected is not None:
            regret = r.player_expected - r.best_expected
        text = verdict(trial, r.guess, r.best, regret, r.player_lose - r.best_lose)
        trial.guess(r.guess, r.pattern)
        n = int(trial.candidates.size)
        if trial.solved:
            after = " It was the answer." if n > 0 and r.candidates_before > 1 else ""
        elif n == 0:
            after = " No listed word fits any more."
        else:
            shown = by_likelihood(trial, limit)
            names = ", ".join(w.upper() for w, _ in shown) + (f" … (+{n - len(shown):,})" if n > len(shown) else "")
            likely = f", {about(likely_count(trial.posterior))} likely" if game.lexicon.weighted and n > 1 else ""
            after = f" Still possible ({n:,}{likely}): {names}."
        out.append(f"{r.index}. {r.guess.upper()}: {text[0].upper()}{text[1:]}{after}")
    return out


def goal_line(goal: str) -> str:
    """Which goal the search plays for, as a caption line."""
    from .advisor import GOAL_TEXT  # (advisor imports nothing of this module)

    return f"goal: {GOAL_TEXT[goal]}"


def candidates_line(game: Game) -> str:
    """``840 candidates left``, and on a weighted set, where most listed words are unlikely
    answers, how many are really in play: ``840 candidates left · about 120 likely`` (the
    perplexity of the posterior, ``explain.likely_count``)."""
    n = int(game.candidates.size)
    line = f"{plural(n, 'candidate')} left"
    if game.lexicon.weighted and n > 1:
        line += f" · {about(likely_count(game.posterior))} likely"
    return line


def possible_line(game: Game, limit: int = 12) -> str:
    """``possible: SHORE, SNORE, STORE`` likeliest first (with each one's chance on a weighted
    set), ``… (+N)`` past ``limit``."""
    shown = by_likelihood(game, limit)
    weighted = game.lexicon.weighted
    words = ", ".join(w.upper() + (f" {format_prob(p) or '<0.01%'}" if weighted else "") for w, p in shown)
    n = int(game.candidates.size)
    return "possible: " + words + (f" … (+{n - len(shown):,})" if n > len(shown) else "")
