"""Multi-board games played end to end over seeded random answer sets, for the policy and the
baselines public solvers use, on the same answer sets.

Choosers (``game -> word``):

- ``policy``: ``policy.suggest`` (a known answer first, then the lowest summed expected cost;
  near the end, the rest of the game searched for the objective's best);
- ``one-step``: the same without the endgame search (what the search adds);
- ``joint-entropy``: the guess whose colours carry the most information summed over the open
  boards (the usual multi-board heuristic);
- ``fixed-opener``: three fixed words (15 letters: TRACE SOLID NYMPH… see ``FIXED_OPENER``), then
  joint entropy.

Every chooser plays a board's answer first once a board has one candidate left (a rule any
sensible solver follows), so the comparison is between the ways of choosing the other guesses.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.matrix import pattern_matrix, read_only
from ..core.words import Lexicon
from ..policy.strategies import partition_stats
from .game import MultiGame
from .policy import suggest

Chooser = Callable[[MultiGame], str]
FIXED_OPENER = ("trace", "solid", "nymph")  # 15 distinct letters, all three classic answers


@dataclass
class MultiSimResult:
    chooser: str
    boards: int
    max_guesses: int
    scores: list[float] = field(default_factory=list)
    lost_boards: list[int] = field(default_factory=list)  # per game
    finished: list[int] = field(default_factory=list)  # per game: the guesses to solve every board
    move_seconds: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def mean_finished(self) -> float:
        """The average of the guesses to solve every board (the other objective)."""
        return statistics.fmean(self.finished)

    @property
    def failure_rate(self) -> float:
        """Share of games with a board not solved."""
        return sum(1 for n in self.lost_boards if n) / len(self.lost_boards)

    @property
    def distribution(self) -> dict[float, int]:
        return dict(sorted(Counter(self.scores).items()))

    def move_ms(self) -> tuple[float, float]:
        """Median and slowest time per move, in milliseconds."""
        return 1000 * statistics.median(self.move_seconds), 1000 * max(self.move_seconds)

    def to_dict(self) -> dict[str, object]:
        med, worst = self.move_ms()
        return {
            "chooser": self.chooser,
            "boards": self.boards,
            "max_guesses": self.max_guesses,
            "games": self.games,
            "mean": self.mean,
            "mean_guesses": self.mean_finished,
            "failure_rate": self.failure_rate,
            "distribution": {f"{k:g}": v for k, v in self.distribution.items()},
            "move_ms_median": med,
            "move_ms_max": worst,
            "scores": self.scores,
        }


def answer_sets(lexicon: Lexicon, boards: int, games: int, seed: int) -> list[list[str]]:
    """``games`` sets of ``boards`` distinct answers, drawn from the answer list (weighted by
    its prior when it has one) by a generator seeded with ``seed``."""
    if boards > lexicon.n_answers:
        raise ValueError(f"{boards} boards need {boards} distinct answers; the list has {lexicon.n_answers}")
    rng = random.Random(seed)
    weights = None if not lexicon.weighted else lexicon.prior.tolist()
    out = []
    for _ in range(games):
        chosen: list[str] = []
        while len(chosen) < boards:
            w = rng.choices(lexicon.answers, weights)[0] if weights else rng.choice(lexicon.answers)
            if w not in chosen:
                chosen.append(w)
        out.append(chosen)
    return out


def _known_answer(game: MultiGame) -> str | None:
    allowed = game.legal_mask()
    for b in game.active:
        c = game.candidates(b)
        if c.size == 1:
            w = game.lexicon.answers[int(c[0])]
            if allowed[game.lexicon.id(w)]:
                return w
    return None


def joint_entropy_chooser(matrix: np.ndarray) -> Chooser:
    def choose(game: MultiGame) -> str:
        known = _known_answer(game)
        if known:
            return known
        lex = game.lexicon
        guesses = np.arange(lex.n_guesses, dtype=np.int64)
        bits = np.zeros(lex.n_guesses)
        for b in game.active:
            c = game.candidates(b)
            bits += partition_stats(matrix, guesses, c, lex.prior[c], lex.length).bits
        bits[~game.legal_mask()] = -np.inf  # (hard mode)
        return lex.guesses[int(np.argmax(np.round(bits, 9)))]  # first of the best: ties in list order

    return choose


def fixed_opener_chooser(matrix: np.ndarray, opener: tuple[str, ...] = FIXED_OPENER) -> Chooser:
    then = joint_entropy_chooser(matrix)

    def choose(game: MultiGame) -> str:
        known = _known_answer(game)
        if known:
            return known
        played = {r.guess for r in game.rows}
        allowed = game.legal_mask()
        for w in opener:
            if w not in played and game.guesses_used < len(opener):
                if allowed[game.lexicon.id(w)]:  # hard mode may bar the next opener word
                    return w
        return then(game)

    return choose


def policy_chooser(matrix: np.ndarray, objective: str = "score", search: bool = True) -> Chooser:
    def choose(game: MultiGame) -> str:
        rows = suggest(game, top=1, matrix=matrix, objective=objective, search=search)
        # none: a hard-mode game stuck for good (MultiGame.stuck); the last guess is always
        # allowed, and the game is played out to the cap, lost
        return rows[0].word if rows else game.rows[-1].guess

    return choose


def choosers(lexicon: Lexicon, matrix: np.ndarray, objective: str = "score") -> dict[str, Chooser]:
    """The policy (for ``objective``), the policy without its search, and the baselines (the
    fixed opener where its words are in the list)."""
    out = {
        "policy": policy_chooser(matrix, objective),
        "one-step": policy_chooser(matrix, objective, search=False),
        "joint-entropy": joint_entropy_chooser(matrix),
    }
    if all(w in lexicon for w in FIXED_OPENER):
        out["fixed-opener"] = fixed_opener_chooser(matrix)
    return out


def simulate(
    lexicon: Lexicon,
    boards: int,
    chooser: Chooser,
    sets: list[list[str]],
    *,
    name: str = "",
    max_guesses: int | None = None,
    matrix: np.ndarray | None = None,
    hard: bool = False,
    progress: Callable[[int], None] | None = None,
) -> MultiSimResult:
    """Play one game per answer set with ``chooser`` (``hard``: in hard mode, every guess
    checked by the game)."""
    m = read_only(matrix) if matrix is not None else pattern_matrix(lexicon)
    result = None
    for answers in sets:
        game = MultiGame(lexicon, boards, max_guesses=max_guesses, matrix=m, answers=answers, hard=hard)
        if result is None:
            result = MultiSimResult(name, boards, game.max_guesses)
        while not game.over:
            t0 = time.perf_counter()
            word = chooser(game)
            result.move_seconds.append(time.perf_counter() - t0)
            game.guess(word)
        result.scores.append(game.score())
        result.finished.append(game.guesses_to_finish())
        result.lost_boards.append(len(game.active))
        if progress:
            progress(1)
    if result is None:
        raise ValueError("no answer sets to play")
    return result


def plot(results: list[MultiSimResult], path: str | Path, *, title: str) -> None:
    """The choosers' score distributions side by side (games per score), written atomically as a
    PNG (needs the 'plots' extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..policy.simulate import save_png

    scores = sorted({s for r in results for s in r.scores})
    width = 0.8 / len(results)
    fig, ax = plt.subplots(figsize=(8, 4), dpi=110)
    for i, r in enumerate(results):
        dist = r.distribution
        xs = [k + (i - (len(results) - 1) / 2) * width for k in range(len(scores))]
        ax.bar(
            xs,
            [dist.get(s, 0) for s in scores],
            width=width,
            label=f"{r.chooser}: mean {r.mean:.3f}, lost {100 * r.failure_rate:.1f} %",
        )
    ax.set_xticks(range(len(scores)), [f"{s:g}" for s in scores], fontsize=8)
    ax.set_xlabel("score (the sum over boards of the guess that solved each)")
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    save_png(fig, path)
