"""The answer model: fitting time, and the time-split backtest of the priors (ranking and real
play over the last 120 days of the history, each day with the history before it), the editor
model beside its baselines: the four-number mixture and the previous Spy-EM model.
Targets: a fit well under 10 s on 2 cores; log-loss at most 7.0 nats and below both baselines;
real play below both baselines with no failure.
"""

from __future__ import annotations

import statistics
import time

from common import data_dir, report

from wordlebot.answers import backtest, editor, store
from wordlebot.answers.daily import word_facts
from wordlebot.core.words import read_word_file


def main() -> None:
    folder = data_dir()
    words = read_word_file(folder / "nyt/guesses.txt")
    data = store.training_data(folder, words)
    t0 = time.perf_counter()
    facts = word_facts(words, data.lists)
    report("the words' facts (frequency, inflections; once per list, cached)", time.perf_counter() - t0, "s", 10.0)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        model = editor.fit(facts, data.history)
        times.append(time.perf_counter() - t0)
    report("fit the editor model on the whole history (median of 5)", statistics.median(times), "s", 10.0)
    print(
        f"  {model.meta['fresh_choices']:,} fresh choices, {model.meta['repeat_choices']} repeats, "
        f"{model.meta['newton_steps']} Newton steps"
    )
    reports, priors = backtest.ranking_backtest(data, 120)
    r0 = reports[0]
    print(f"ranking: {r0.days} days {r0.window[0]} … {r0.window[1]}, each with the history before it")
    for r in reports:
        print(
            f"  {r.method:<8} log-loss {r.log_loss:.3f}  mean rank {r.mean_rank:,.1f}  median {r.median_rank:,.1f}  "
            + " ".join(f"top{k}:{v:.1%}" for k, v in r.recall.items())
            + f"  ({r.seconds:.0f} s)"
        )
    by = {r.method: r for r in reports}
    report(
        "editor log-loss (target 7.0, must beat the mixture's)",
        by["editor"].log_loss,
        "nats",
        min(7.0, by["mixture"].log_loss),
    )
    plays = backtest.play_backtest(data, priors, window=120)
    print("real play (same search for every method):")
    for r in plays:
        dist = " ".join(f"{k}:{v}" for k, v in r.distribution().items())
        print(
            f"  {r.name:<15} average {r.average:.4f}  failures {r.failures:>2} (unreachable {len(r.unreachable)})  "
            f"{dist}  {r.seconds:.0f} s"
        )
    play = {r.name: r for r in plays}
    mine = play["editor"]
    best_base = min(play["mixture"].average, play["spy-em"].average)
    report(
        "editor real-play average (must beat the mixture and Spy-EM with no failure)",
        mine.average,
        "guesses",
        best_base if mine.failures == 0 else 0.0,
    )


if __name__ == "__main__":
    main()
