"""Simulation: play every target answer with a strategy and summarise the results.

A deterministic strategy maps a game state to one guess, so the games form a tree: the
simulator walks that tree once, asking the strategy for one guess per distinct state instead of
one per game (2,315 games of classic need about 1,500 decisions, not 8,000).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

import numpy as np

from .feedback import all_green
from .game import HardConstraints
from .strategies import best_guess
from .words import Lexicon, WordId

# A game longer than this is abandoned as a failure (only a broken strategy gets here).
MAX_DEPTH = 20


class Chooser(Protocol):
    """Picks the next guess: ``(candidates, constraints, rows played as (guess id, pattern))
    -> guess id``."""

    def __call__(self, candidates: np.ndarray, constraints: HardConstraints | None,
                 history: list[tuple[int, int]]) -> WordId: ...


def greedy_chooser(lexicon: Lexicon, matrix: np.ndarray, strategy: str = "entropy", *,
                   hard: bool = False, guess_space: str = "all") -> Chooser:
    def choose(cands: np.ndarray, constraints: HardConstraints | None, history) -> WordId:
        depth = len(history)
        legal = constraints.mask(lexicon.guess_codes) if (hard and constraints is not None and depth) else None
        return best_guess(lexicon, matrix, cands, strategy=strategy, guess_space=guess_space, legal=legal)

    return choose


def search_chooser(search) -> Chooser:
    """The tree search's choice at each state, searched to the end (its table makes repeated
    states free)."""

    def choose(cands: np.ndarray, constraints: HardConstraints | None, history) -> WordId:
        g, v = search.best_unchecked(cands, rows=len(history), constraints=constraints if search.hard else None)
        if g < 0:  # nothing finishes in time: play the likeliest candidate
            return int(search.lexicon.answer_ids[int(cands[np.argmax(search.w[cands])])])
        return g

    return choose


def advisor_chooser(advisor, *, hard: bool = False, max_guesses: int = 6) -> Chooser:
    """What the assistant would suggest: the opening book, then the budgeted search."""

    def choose(cands: np.ndarray, constraints: HardConstraints | None, history) -> WordId:
        pairs = advisor.search_pairs(cands, history, constraints, hard=hard, max_guesses=max_guesses).pairs
        if not pairs or pairs[0][0] < 0:
            return int(advisor.lexicon.answer_ids[int(cands[np.argmax(advisor.lexicon.prior[cands])])])
        return pairs[0][0]

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
    guesses: np.ndarray  # guesses used per target; > max_guesses means the game was lost
    weights: np.ndarray  # prior of each target (for the expected number of guesses)
    paths: list[list[str]] = field(repr=False)
    seconds: float = 0.0
    decisions: int = 0

    @property
    def n(self) -> int:
        return len(self.targets)

    @property
    def solved_mask(self) -> np.ndarray:
        return self.guesses <= self.max_guesses

    @property
    def solved_pct(self) -> float:
        return 100.0 * float(self.solved_mask.mean())

    @property
    def total(self) -> int:
        return int(self.guesses.sum())

    @property
    def average(self) -> float:
        return float(self.guesses.mean())

    @property
    def expected(self) -> float:
        """Average weighted by the targets' prior (equals ``average`` for uniform answers)."""
        w = self.weights / self.weights.sum()
        return float((self.guesses * w).sum())

    @property
    def median(self) -> float:
        return float(statistics.median(self.guesses.tolist()))

    @property
    def worst(self) -> int:
        return int(self.guesses.max())

    def distribution(self) -> dict[str, int]:
        """Games per number of guesses (1 … max_guesses) and ``"X"`` for the lost ones."""
        out = {str(k): int((self.guesses == k).sum()) for k in range(1, self.max_guesses + 1)}
        out["X"] = int((~self.solved_mask).sum())
        return out

    def failures(self) -> list[str]:
        return [t for t, ok in zip(self.targets, self.solved_mask.tolist()) if not ok]

    def summary(self) -> dict:
        return {
            "lexicon": self.lexicon, "strategy": self.strategy, "first": self.first, "hard": self.hard,
            "guess_space": self.guess_space, "max_guesses": self.max_guesses, "games": self.n,
            "solved_pct": round(self.solved_pct, 4), "total": self.total,
            "average": round(self.average, 6), "expected": round(self.expected, 6),
            "median": self.median, "max": self.worst, "distribution": self.distribution(),
            "failures": self.failures(), "seconds": round(self.seconds, 4),
            "ms_per_game": round(1000 * self.seconds / max(1, self.n), 4), "decisions": self.decisions,
        }

    def to_json(self, path: Path) -> None:
        from .data import atomic_write_json

        doc = self.summary()
        doc["games_detail"] = [{"answer": t, "guesses": p} for t, p in zip(self.targets, self.paths)]
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
        ax.set_title(f"{self.lexicon} · {self.strategy} from {self.first.upper()} · {mode}\n"
                     f"average {self.average:.4f} · solved {self.solved_pct:.2f} % of {self.n:,}", fontsize=10)
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
    paths: list[list[str]] = [[] for _ in range(targets.size)]
    decisions = 0
    opening = first
    # Each stack item: candidates, positions (into targets) of the targets still in play, the
    # hard-mode constraints so far, the rows played (guess id, pattern).
    stack = [(all_answers, np.arange(targets.size), HardConstraints.none(lexicon.length), ())]
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
            if p == solved_code:
                guesses[group] = depth + 1
                if progress:
                    progress(group.size)
                continue
            if depth + 1 >= MAX_DEPTH:
                guesses[group] = MAX_DEPTH + 1
                if progress:
                    progress(group.size)
                continue
            nxt = cands[pats_cands == p]
            stack.append((nxt, group, cons.add(word, p) if hard else cons, history + ((gid, p),)))
    return SimResult(
        lexicon=lexicon.name, strategy=strategy_name, first=lexicon.guesses[opening] if opening is not None else "",
        hard=hard, guess_space=guess_space, max_guesses=max_guesses,
        targets=[lexicon.answers[j] for j in targets.tolist()], guesses=guesses,
        weights=np.asarray(lexicon.prior[targets], dtype=np.float64), paths=paths,
        seconds=time.perf_counter() - t0, decisions=decisions,
    )


def save_png(fig, path) -> None:
    """Lay out a matplotlib figure, write it as a PNG atomically (no half-written file), close it."""
    import io

    import matplotlib.pyplot as plt

    from .data import atomic_write

    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    atomic_write(Path(path), buf.getvalue())
