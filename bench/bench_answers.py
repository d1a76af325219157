"""The answer model: training time (and the Spy-EM iterations it took), and the time-split
backtest (ranking and real play over the last 120 days of the history, beside the baselines).
Targets: training under a minute; no failure; every window answer reachable; real-play average
below the uniform 3,158 list's.  The best-known Python bot's headline is 3.4387 on its own filtered set.
"""

from __future__ import annotations

import time

from common import data_dir, report
from wordlebot.answers import backtest, store
from wordlebot.words import read_word_file


def main() -> None:
    folder = data_dir()
    words = read_word_file(folder / "nyt/guesses.txt")
    data = store.training_data(folder, words)
    t0 = time.perf_counter()
    from wordlebot.answers.model import train

    model = train(data)
    report("train the answer model on the whole history", time.perf_counter() - t0, "s", 60.0)
    em = model.meta["spy_em"]
    print(f"  Spy-EM: {em['iterations']} iterations ({'converged' if em['converged'] else 'NOT converged'}), "
          f"c {em['c']}")
    rep, m = backtest.ranking_backtest(data, 120)
    print(f"ranking: {rep.days} days {rep.window[0]} … {rep.window[1]}, trained to {rep.trained_until}")
    for t, r, n in zip(rep.thresholds, rep.recall, rep.set_size):
        print(f"  P >= {t:<7g} recall {r:6.1%}  mean set size {n:8,.0f}")
    print("  top-K recall: " + ", ".join(f"{k:,}: {v:.1%}" for k, v in rep.top_k.items()))
    print(f"  mean rank {rep.mean_rank:,.1f}, median rank {rep.median_rank:,.1f}, log-loss {rep.log_loss:.3f}, "
          f"reachable {rep.reachable:.0%}")
    reports = backtest.play_backtest(data, m, window=120)
    print("real play (same search for every method):")
    base = next(r for r in reports if r.name == "uniform-3158")
    for r in reports:
        dist = " ".join(f"{k}:{v}" for k, v in r.distribution().items())
        print(f"  {r.name:<15} average {r.average:.4f}  failures {r.failures:>2} (unreachable {len(r.unreachable)})  "
              f"{dist}  {r.seconds:.0f} s")
    mine = next(r for r in reports if r.name == "model")
    report("model average guesses (must beat uniform 3,158 with no failure)", mine.average, "guesses",
           base.average if mine.failures == 0 else 0.0)


if __name__ == "__main__":
    main()
