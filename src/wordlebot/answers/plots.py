"""The backtest's calibration plot (extra ``plots``): is a prior's probability what happens?

Left: each group's mass, summed over the window's days, beside the days its answer came from it
(a calibrated prior's bar matches the count).  Right: the words of every day binned by their
probability, the answers that fell in a bin against the bin's summed probability (the diagonal
is calibration; a point below it, probability given to words that were not drawn).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np

from .backtest import CALIBRATION_GROUPS, DayPriors, RankingReport
from .model import TrainingData

BINS = np.logspace(-9, -1, 17)


def reliability(priors: DayPriors, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(expected answers, observed answers) per probability bin of BINS (and one below, one above)."""
    index = {w: i for i, w in enumerate(words)}
    expected = np.zeros(BINS.size + 1)
    observed = np.zeros(BINS.size + 1)
    for e, p in zip(priors.days, priors.weights):
        b = np.searchsorted(BINS, p)
        expected += np.bincount(b, weights=p, minlength=BINS.size + 1)
        observed[b[index[e.word]]] += 1
    return expected, observed


def calibration_plot(
    reports: list[RankingReport], priors: dict[str, DayPriors], data: TrainingData, path: Path
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5))
    x = np.arange(len(CALIBRATION_GROUPS))
    width = 0.8 / (len(reports) + 1)
    left.bar(x, [c.observed for c in reports[0].calibration], width, label="happened", color="black")
    for k, r in enumerate(reports, 1):
        left.bar(
            x + k * width, [c.predicted for c in r.calibration], width, label=f"{r.method} (log-loss {r.log_loss:.3f})"
        )
    left.set_xticks(x + width * len(reports) / 2, [textwrap.fill(g, 16) for g in CALIBRATION_GROUPS], fontsize=8)
    left.set_ylabel(f"days of {reports[0].days}")
    left.set_title("each group's predicted mass and what happened")
    left.legend(fontsize=8)
    for r in reports:
        exp_, obs = reliability(priors[r.method], data.words)
        keep = exp_ > 0.05
        right.plot(exp_[keep], np.maximum(obs[keep], 0.3), "o-", label=r.method)
    lim = [0.05, reports[0].days * 1.5]
    right.plot(lim, lim, ":", color="grey", label="calibrated")
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("summed probability of the words in a bin")
    right.set_ylabel("answers in that bin (0 drawn at 0.3)")
    right.set_title("words binned by probability")
    right.legend(fontsize=8)
    fig.suptitle(f"answer priors, {reports[0].window[0]} … {reports[0].window[1]}, each day with the history before it")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
