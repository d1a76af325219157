"""The worst time of a multi-board suggestion over the web endpoint's parameter space (issue 41).

Each request is what ``/api/multi/suggest`` runs on its worker (``MultiGame`` replayed, then
``multi.suggest``), drawn at random: word set (classic, nyt), boards 2-8, the guess cap (the
boards up to boards + 5), hard mode, objective, and a history of 0-3 rows (random guesses against
random answers, one per board).  First moves are ranked afresh (an empty cache folder, the
process's kept first moves forgotten before each request): the dearest case a request can ask for.
The cases of the issue (255 s, 229 s, 59 s) are always among them.  Prints each request's time,
then the worst and the median.

    python bench/bench_multi_fuzz.py [--requests 60] [--seed 41] [--hard-first-moves]

``--hard-first-moves`` adds every cold nyt hard-mode first move (boards 2-8, every cap up to
boards + 5, both objectives): the dearest corner of the space, where the deadlock share and the
failure risk near the cap are both measured over all 14,855 words.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time

from common import data_dir

ISSUE_CASES = [  # (words, boards, max_guesses): the requests of issue 41's defect 1
    ("nyt", 6, 8),
    ("nyt", 5, 7),
    ("classic", 8, 10),
    ("nyt", 8, 10),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=60, help="random requests besides the issue's")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--hard-first-moves", action="store_true", help="every cold nyt hard first move too")
    args = ap.parse_args()
    os.environ["WORDLEBOT_DATA"] = str(data_dir())
    os.environ["WORDLEBOT_CACHE"] = tempfile.mkdtemp(prefix="bench-multi-fuzz-")  # nothing kept

    from wordlebot.app.wordsets import load_lexicon
    from wordlebot.core.feedback import feedback_unchecked
    from wordlebot.core.matrix import pattern_matrix
    from wordlebot.multi import MultiGame, policy, suggest

    # (build_model: the answer model's prior of today, as the web endpoint serves it)
    lexicons = {name: load_lexicon(name, build_model=True) for name in ("classic", "nyt")}
    matrices = {name: pattern_matrix(lex) for name, lex in lexicons.items()}
    rng = random.Random(args.seed)
    cases = [(w, b, cap, False, "score", 0) for w, b, cap in ISSUE_CASES]
    if args.hard_first_moves:
        cases += [
            ("nyt", b, cap, True, objective, 0)
            for b in range(2, 9)
            for cap in range(b, b + 6)
            for objective in ("score", "guesses")
        ]
    for _ in range(args.requests):
        boards = rng.randint(2, 8)
        cases.append(
            (
                rng.choice(["classic", "nyt"]),
                boards,
                rng.randint(boards, boards + 5),
                rng.random() < 0.3,
                rng.choice(["score", "guesses"]),
                rng.randint(0, 3),
            )
        )
    times = []
    for words, boards, cap, hard, objective, n_rows in cases:
        lex, m = lexicons[words], matrices[words]
        answers = rng.sample(range(lex.n_answers), boards)
        policy._openings.clear()
        t0 = time.perf_counter()
        game = MultiGame(lex, boards, hard=hard, max_guesses=cap, matrix=m)
        for _ in range(min(n_rows, cap - boards)):  # rows that leave every board solvable in time
            legal = game.legal_mask()  # (hard mode: a guess that keeps the hints)
            word = lex.guesses[rng.choice(legal.nonzero()[0].tolist())]
            game.guess(
                word,
                [
                    None if b not in game.active else feedback_unchecked(word, lex.answers[a])
                    for b, a in enumerate(answers)
                ],
            )
            if game.over:
                break
        suggest(game, 5, matrix=m, objective=objective)
        seconds = time.perf_counter() - t0
        times.append(seconds)
        print(
            f"{seconds:7.2f} s  {words:8s} boards {boards}  cap {cap:2d}  "
            f"{'hard' if hard else 'easy'}  {objective:8s} rows {len(game.rows)}",
            flush=True,
        )
    load = os.getloadavg()
    print(
        f"worst {max(times):.2f} s, median {statistics.median(times):.2f} s over {len(times)} requests "
        f"(load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})"
    )


if __name__ == "__main__":
    main()
