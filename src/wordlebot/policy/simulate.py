"""Simulation: play every target answer with a strategy and summarise the results.

A deterministic strategy maps a game state to one guess, so the games form a tree: the
simulator walks that tree once, asking the strategy for one guess per distinct state instead of
one per game (2,315 games of classic need about 1,500 decisions, not 8,000).

A game ends as the real one does: solved, or lost when the guess cap is reached without the
answer (no strategy is asked for a guess past the cap).  A lost game is counted apart, never as
a number of guesses: the averages are over the games solved, and the losses are their count
and, on a weighted set, the chance of losing under the prior.

On a weighted word set (``nyt``: all 14,855 valid words, each weighted by the answer prior)
every answer is played and the figures that matter are weighted by the prior: ``expected`` (the
guesses when solved) and ``loss_chance`` are what a player meets on the day the prior is for;
the plain counts and the plain average are over all the words alike, most of which no editor
would pick.  Playing only the words that carry most of the mass would leave out exactly the
unlikely words a streak can be lost on.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..core.feedback import all_green
from ..core.game import HardConstraints
from ..core.words import Lexicon, WordId
from .strategies import best_guess

if TYPE_CHECKING:
    from ..search.tree_search import TreeSearch
    from .advisor import Advisor


class Chooser(Protocol):
    """Picks the next guess: ``(candidates, constraints, rows played as (guess id, pattern))
    -> guess id``."""

    def __call__(
        self, candidates: np.ndarray, constraints: HardConstraints | None, history: list[tuple[int, int]], /
    ) -> WordId: ...


def greedy_chooser(
    lexicon: Lexicon, matrix: np.ndarray, strategy: str = "entropy", *, hard: bool = False, guess_space: str = "all"
) -> Chooser:
    def choose(cands: np.ndarray, constraints: HardConstraints | None, history: list[tuple[int, int]]) -> WordId:
        depth = len(history)
        legal = constraints.mask(lexicon.guess_codes) if (hard and constraints is not None and depth) else None
        return best_guess(lexicon, matrix, cands, strategy=strategy, guess_space=guess_space, legal=legal)

    return choose


def search_chooser(search: TreeSearch) -> Chooser:
    """The tree search's choice at each state, searched to the end (its table makes repeated
    states free)."""

    def choose(cands: np.ndarray, constraints: HardConstraints | None, history: list[tuple[int, int]]) -> WordId:
        g, v = search.best_unchecked(cands, rows=len(history), constraints=constraints if search.hard else None)
        if g < 0:  # nothing finishes in time: play the likeliest candidate
            return int(search.lexicon.answer_ids[int(cands[np.argmax(search.w[cands])])])
        return int(g)

    return choose


def advisor_chooser(advisor: Advisor, *, hard: bool = False, max_guesses: int = 6) -> Chooser:
    """What the assistant would suggest: the opening book, then the budgeted search."""

    def choose(cands: np.ndarray, constraints: HardConstraints | None, history: list[tuple[int, int]]) -> WordId:
        pairs = advisor.search_pairs(cands, history, constraints, hard=hard, max_guesses=max_guesses).pairs
        if not pairs or pairs[0][0] < 0:
            return int(advisor.lexicon.answer_ids[int(cands[np.argmax(advisor.lexicon.prior[cands])])])
        return int(pairs[0][0])

    return choose


@dataclass
class SimResult:
    lexicon: str
    strategy: str
    first: str
    hard: bool
    guess_space: str
    max_guesses: int
    targets: list[str]
    guesses: np.ndarray  # guesses played per target (max_guesses for a game lost)
    weights: np.ndarray  # prior of each target (for the expected number of guesses)
    paths: list[list[str]] = field(repr=False)
    solved: np.ndarray = field(repr=False)  # per target: solved within the cap
    seconds: float = 0.0
    decisions: int = 0
    goal: str = ""  # the search's goal (advisor.GOALS), "" for the greedy rankers

    @property
    def n(self) -> int:
        return len(self.targets)

    @property
    def solved_mask(self) -> np.ndarray:
        return self.solved

    @property
    def solved_pct(self) -> float:
        return 100.0 * float(self.solved_mask.mean())

    @property
    def lost(self) -> int:
        return int((~self.solved_mask).sum())

    @property
    def loss_chance(self) -> float:
        """The chance of losing the game under the targets' prior (the share of games lost for
        uniform answers)."""
        w = self.weights / self.weights.sum()
        return float(w[~self.solved_mask].sum())

    @property
    def total(self) -> int:
        """Guesses of the games solved (a game lost is counted apart: ``lost``)."""
        return int(self.guesses[self.solved_mask].sum())

    @property
    def average(self) -> float:
        """Average guesses of the games solved (NaN when none was)."""
        won = self.guesses[self.solved_mask]
        return float(won.mean()) if won.size else float("nan")

    @property
    def expected(self) -> float:
        """Average guesses of the games solved, weighted by the targets' prior (equals
        ``average`` for uniform answers)."""
        mask = self.solved_mask
        w = self.weights[mask]
        return float((self.guesses[mask] * w).sum() / w.sum()) if mask.any() else float("nan")

    @property
    def median(self) -> float:
        won = self.guesses[self.solved_mask]
        return float(statistics.median(won.tolist())) if won.size else float("nan")

    @property
    def worst(self) -> int:
        """The most guesses a solved game took."""
        won = self.guesses[self.solved_mask]
        return int(won.max()) if won.size else 0

    def distribution(self) -> dict[str, int]:
        """Games per number of guesses (1 … max_guesses) and ``"X"`` for the lost ones."""
        won = self.guesses[self.solved_mask]
        out = {str(k): int((won == k).sum()) for k in range(1, self.max_guesses + 1)}
        out["X"] = int((~self.solved_mask).sum())
        return out

    def failures(self) -> list[str]:
        return [t for t, ok in zip(self.targets, self.solved_mask.tolist()) if not ok]

    def summary(self) -> dict[str, object]:
        return {
            "lexicon": self.lexicon,
            "strategy": self.strategy,
            "first": self.first,
            "hard": self.hard,
            "guess_space": self.guess_space,
            "max_guesses": self.max_guesses,
            "goal": self.goal or None,
            "games": self.n,
            "solved_pct": round(self.solved_pct, 4),
            "lost": self.lost,
            "loss_chance": self.loss_chance,
            "total": self.total,
            "average": _rounded(self.average),
            "expected": _rounded(self.expected),
            "median": _rounded(self.median),
            "max": self.worst,
            "distribution": self.distribution(),
            "failures": self.failures(),
            "seconds": round(self.seconds, 4),
            "ms_per_game": round(1000 * self.seconds / max(1, self.n), 4),
            "decisions": self.decisions,
        }

    def to_json(self, path: Path) -> None:
        from ..core.data import atomic_write_json

        doc = self.summary()
        doc["games_detail"] = [
            {"answer": t, "guesses": p, "solved": bool(ok)}
            for t, p, ok in zip(self.targets, self.paths, self.solved_mask.tolist())
        ]
        atomic_write_json(path, doc, indent=1)

    def plot(self, path: Path) -> None:
        """Histogram of guesses per game, with the lost games as a red bar."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        dist = self.distribution()
        labels = list(dist)
        values = [dist[k] for k in labels]
        colours = ["#6aaa64"] * (len(labels) - 1) + ["#c9302c"]
        fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
        bars = ax.bar(labels, values, color=colours)
        ax.bar_label(bars, labels=[f"{v:,}" for v in values], padding=2, fontsize=8)
        ax.set_xlabel("guesses (X = not solved)")
        ax.set_ylabel("games")
        mode = "hard" if self.hard else "normal"
        ax.set_title(
            f"{self.lexicon} · {self.strategy} from {self.first.upper()} · {mode}\n"
            f"average {self.average:.4f} when solved · solved {self.solved_pct:.2f} % of {self.n:,}",
            fontsize=10,
        )
        ax.spines[["top", "right"]].set_visible(False)
        save_png(fig, path)


def simulate(
    lexicon: Lexicon,
    matrix: np.ndarray,
    chooser: Chooser,
    *,
    targets: np.ndarray | None = None,
    first: WordId | None = None,
    hard: bool = False,
    max_guesses: int = 6,
    strategy_name: str = "",
    guess_space: str = "all",
    progress: Callable[[int], None] | None = None,
    goal: str = "",
) -> SimResult:
    """Play each target (answer indices; all answers by default) and return the results.

    ``first`` fixes the opening guess; otherwise the chooser picks it.  ``progress`` is called
    with the number of games finished each time some finish.
    """
    t0 = time.perf_counter()
    all_answers = np.arange(lexicon.n_answers, dtype=np.int32)
    targets = all_answers if targets is None else np.asarray(targets, dtype=np.int32)
    solved_code = all_green(lexicon.length)
    guesses = np.zeros(targets.size, np.int64)
    solved = np.zeros(targets.size, np.bool_)
    paths: list[list[str]] = [[] for _ in range(targets.size)]
    decisions = 0
    opening = first
    # Each stack item: candidates, positions (into targets) of the targets still in play, the
    # hard-mode constraints so far, the rows played (guess id, pattern).
    stack: list[tuple[np.ndarray, np.ndarray, HardConstraints, tuple[tuple[int, int], ...]]] = [
        (all_answers, np.arange(targets.size), HardConstraints.none(lexicon.length), ())
    ]
    while stack:
        cands, here, cons, history = stack.pop()
        depth = len(history)
        if depth == 0 and opening is not None:
            gid = opening
        else:
            gid = chooser(cands, cons, list(history))
            decisions += 1
            if depth == 0:
                opening = gid
        word = lexicon.guesses[gid]
        for k in here.tolist():
            paths[k].append(word)
        pats_targets = matrix[gid, targets[here]]
        pats_cands = matrix[gid, cands]
        for p in np.unique(pats_targets).tolist():
            group = here[pats_targets == p]
            if p == solved_code or depth + 1 >= max_guesses:  # solved, or the cap reached: lost
                guesses[group] = depth + 1
                solved[group] = p == solved_code
                if progress:
                    progress(group.size)
                continue
            nxt = cands[pats_cands == p]
            stack.append((nxt, group, cons.add(word, p) if hard else cons, history + ((gid, p),)))
    return SimResult(
        lexicon=lexicon.name,
        strategy=strategy_name,
        first=lexicon.guesses[opening] if opening is not None else "",
        hard=hard,
        guess_space=guess_space,
        max_guesses=max_guesses,
        targets=[lexicon.answers[j] for j in targets.tolist()],
        guesses=guesses,
        weights=np.asarray(lexicon.prior[targets], dtype=np.float64),
        paths=paths,
        solved=solved,
        seconds=time.perf_counter() - t0,
        decisions=decisions,
        goal=goal,
    )


def _rounded(x: float) -> float | None:
    return None if x != x else round(x, 6)  # NaN (no game solved): null in JSON


def save_png(fig: Any, path: str | Path) -> None:
    """Lay out a matplotlib figure, write it as a PNG atomically (no half-written file), close it."""
    import io

    import matplotlib.pyplot as plt

    from ..core.data import atomic_write

    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    atomic_write(Path(path), buf.getvalue())
