"""One-off work done ahead of play, each step under a progress line: compiling the kernels, and
for a word set its pattern matrices, its answer model (nyt) and its opening book.

Without it the first suggestion pays for all of it: about a minute of Numba compilation on the
very first run, then seconds per word set.  ``make`` runs the compilation step when it sets up
(``wordlebot prepare --kernels``) and ``data fetch`` points at the rest, so a first game starts
at once.  Every step leaves in the caches exactly what play would have left there: what
is prepared is what play computes, ahead of time, never something different.

Compilation: Numba compiles a kernel for each combination of argument types it is called with
and keeps the machine code on disk (``cache=True``).  The kernels are compiled here by playing
small games on a made-up word list through the same code paths as real play (every strategy,
normal and hard mode, uniform and weighted answers, the answer model's fit), so that every
specialisation real play needs is compiled.  Nothing of the made-up list is written to the cache.
On two cores the 6-letter games are played in a second process at the same time (the kernel
cache's lock, ``core/kernel_cache.py``, keeps the two processes' entries apart).
"""

from __future__ import annotations

import datetime as dt
import itertools
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Step:
    """One piece of one-off work: ``label`` says what it does, ``about`` how long it takes on
    2 cores (for the progress line)."""

    label: str
    about: str
    run: Callable[[], None]


def _made_up_words(n: int, length: int = 5) -> list[str]:
    """``n`` distinct words over a small alphabet (repeated letters included: they take their own
    branches of the feedback rule), in a fixed order."""
    if n * 37 > 6**length:
        raise ValueError(f"only {6**length // 37} made-up words of {length} letters")
    return ["".join(p) for p in itertools.islice(itertools.product("aeorst", repeat=length), 0, n * 37, 37)]


# The made-up games, one case each: (word length, weighted answers).  Five letters (patterns fit
# a byte) and six (two bytes: every kernel over the matrix is compiled again for them; longer words
# have the same pattern type up to seven letters, and the search stops at seven), uniform and
# weighted answers.
FIVE_LETTER_CASES = ((5, False), (5, True))
SIX_LETTER_CASE = (6, False)


def play_case(length: int, weighted: bool) -> None:
    """One case's small games, through the code paths of real play (public: the second process
    of ``_play_small_games`` runs it by name)."""
    import tempfile

    from ..core.matrix import cache_path, load_cached, pattern_matrix
    from ..core.words import Lexicon
    from ..multi import MultiGame
    from ..multi import suggest as suggest_multi
    from ..policy.advisor import ALL_STRATEGIES, Advisor

    weights = np.random.default_rng(0).random(40) + 0.05 if weighted else None
    with tempfile.TemporaryDirectory(prefix="wordlebot-warm-up-") as folder:
        words = _made_up_words(120, length)
        lex = Lexicon.from_lists(words, words[::3], weights, name="warm-up", official=False)
        # built, checksummed and written, then read back and checked: the cache's own path, in a
        # throwaway folder (the in-memory memo keeps the two small arrays, under that folder's name)
        matrix = pattern_matrix(lex, folder=Path(folder))
        matrix_t = pattern_matrix(lex, folder=Path(folder), transposed=True)
        for transposed in (False, True):
            load_cached(cache_path(lex, Path(folder), transposed), lex, transposed)
        for strategy in ALL_STRATEGIES:
            adv = Advisor(lex, strategy=strategy, matrix=matrix, matrix_t=matrix_t, use_book=False)
            for hard in (False, True):
                game = adv.new_game(hard=hard)
                first = adv.suggest(game, 3)[0].word
                game.guess(first, int(matrix[lex.id(first), 0]))
                if not game.over:
                    adv.suggest(game, 3)
        # the multi-board policy's kernels (assist and simulate --boards): a whole Dordle, whose
        # last guesses go to the endgame search; its first guess is not the policy's (the
        # policy's first move would be kept in the user's cache folder)
        duo = MultiGame(lex, 2, answers=lex.answers[:2], matrix=matrix)
        duo.guess(lex.guesses[1])
        while not duo.over:
            duo.guess(suggest_multi(duo, 3, matrix=matrix)[0].word)
        # and in hard mode, whose ranking also measures each guess's risk of a deadlock, and
        # with few guesses left, where it charges the boards a guess would leave unfinishable
        # (five kernels left to the first such game before, 16 s of it, 2026-12-02): without the
        # endgame search, which on a list this small would take every move (real games reach
        # the ranking wherever the search declines a big state).  The weights add no type of
        # their own.  A made-up hard game may end stuck: no guess keeps every hint.
        if not weighted:
            # opened with the guess that leaves each board most candidates (of the two, the
            # fewer), so that the charge is met: a board with two guesses and three answers
            left = [min(int((matrix[g] == matrix[g, b]).sum()) for b in (0, 1)) for g in range(lex.n_guesses)]
            duo = MultiGame(lex, 2, answers=lex.answers[:2], matrix=matrix, hard=True, max_guesses=5)
            duo.guess(lex.guesses[int(np.argmax(left))])
            while not duo.over and (moves := suggest_multi(duo, 3, matrix=matrix, search=False)):
                duo.guess(moves[0].word)
        # the whole-tree searches (`tree`, `tree --exact`, `openers --exact`) share a big part
        # of a first guess out to the threads, and big nodes' scans are shared out too: paths
        # that made-up lists never reach, which ``warm_up`` takes (four kernels compiled at
        # the first `tree --exact`, 7 s, and one more at the first `--hard --exact`, 4 s,
        # before).  The shared parts on five letters only: six letters and the near-optimal
        # search besides made setting up 15-20 s slower.
        if length == 5 and weights is None:
            from ..search.tree_search import TreeSearch

            for hard in (False, True):
                TreeSearch(lex, k=None, hard=hard, memory_mb=16, matrix=matrix, matrix_t=matrix_t).warm_up()
        adv.search_for(False, 6).warm_up(shared_parts=False)


def _second_process_useful() -> bool:
    import os

    from ..core import kernel_cache
    from ..core.kernels import compiled

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores >= 2 and compiled() and kernel_cache.install()


def _play_small_games() -> None:
    """Every case's small games.  The 6-letter case (43 % of the compile, measured 2026-12-02:
    180 of 420 s) runs in a second process beside the 5-letter ones where there are two cores
    and the kernel cache is locked (``core/kernel_cache.py``: without the lock two processes
    compiling one kernel at once can corrupt its cache).  Then this process plays the 6-letter
    case itself: it loads what the second process compiled (seconds), compiles whatever that
    process did not save (had it failed or been killed), and raises any error of that case here,
    where the user sees it, so the second process's own output is not shown.  Measured 2026-12-02
    (``prepare --kernels`` in a fresh Numba cache, the two versions in turn, 2 each): 442.9 →
    235.7 s (median wall), CPU 0.90×, the largest process's peak memory 1,104 → 805 MiB (the two
    at once hold more than the one did); the same 102 specialisations cached."""
    import time

    side = _start_second_process(*SIX_LETTER_CASE) if _second_process_useful() else None
    try:
        t0 = time.monotonic()
        for length, weighted in FIVE_LETTER_CASES:
            play_case(length, weighted)
        if side is not None:
            # its share is about three quarters of this process's: one still running long after
            # is stuck (a hung threading layer, a stopped process), and what it did not save is
            # compiled below all the same
            try:
                side.wait(timeout=max(600.0, 2 * (time.monotonic() - t0)))
            except subprocess.TimeoutExpired:
                pass
    finally:
        if side is not None and side.poll() is None:  # interrupted or stuck: it stops too
            side.kill()
            side.wait()
    play_case(*SIX_LETTER_CASE)


# The second process's program: the package from the same folder as this process's (the same
# source, so the same cache entries), put first on the path only if another would be found.
# It then fits the small answer model too, the next step's work: its share is the smaller (the
# 6-letter case finished before the 5-letter ones, 2026-12-02), and the step then only loads
# what it compiled (the fit 19.9 s in a fresh cache, loaded ~1.5 s).
SECOND_PROCESS = """
import importlib.util, os.path, sys
root, length, weighted = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "True"
spec = importlib.util.find_spec("wordlebot")
if spec is None or spec.origin is None or os.path.dirname(os.path.dirname(os.path.realpath(spec.origin))) != root:
    sys.path.insert(0, root)
from wordlebot.app.prepare import fit_small_model, play_case
play_case(length, weighted)
fit_small_model()
"""


def _start_second_process(length: int, weighted: bool) -> subprocess.Popen[bytes] | None:
    """The case in a process of its own, silent, or None where none can be started: the case is
    then compiled in this process alone, as on one core."""
    import sys

    if not sys.executable:  # an embedded interpreter: no program to start
        return None
    root = str(Path(__file__).resolve().parents[2])  # the folder holding the package
    # -P: the current folder is not put on the path (a stray numpy.py there is not imported)
    args = [sys.executable, "-P", "-c", SECOND_PROCESS, root, str(length), str(weighted)]
    try:
        return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, ValueError):
        return None


def fit_small_model() -> None:
    """The answer model's small fits (public: the second process runs it by name)."""
    # the fits' own steps on made-up words and days, so the kernels compile for exactly the types
    # fitting passes them: the editor model (the prior of every day), then Spy-EM (the previous
    # model, a baseline of 'answers evaluate')
    import datetime as dt

    from ..answers.editor import WordFacts, fit
    from ..answers.model import _Features
    from ..answers.pu import spy_em
    from ..core.data import HistoryEntry

    words = _made_up_words(200)
    facts = WordFacts.build(words, {"nyt-2309": words[:80], "wordlebot-3158": words[:120]})
    start = dt.date(2026, 1, 1)
    used = words[:30] + words[:3]  # 30 fresh days, then 3 repeats
    fit(facts, [HistoryEntry(start + dt.timedelta(days=k), w) for k, w in enumerate(used)])
    positive = np.zeros(len(words), bool)
    positive[::4] = True
    spy_em(_Features(words).matrix(), positive)


def kernel_steps() -> list[Step]:
    """Compile every kernel play and the whole-tree searches use (a few minutes on the first run,
    on two processes where there are two cores: 2026-12-02, a fresh cache, 3 min 56 s against
    7 min 23 s in one process, medians of 2; instant once compiled)."""
    return [
        Step("compiling the solver's kernels", "a few minutes, once", _play_small_games),
        Step("compiling the answer model's kernels", "a few seconds, once", fit_small_model),
    ]


def set_steps(
    words: str,
    *,
    data_dir: str | Path | None = None,
    day: dt.date | None = None,
    hard: bool = False,
    notify: Callable[[str], None] | None = None,
) -> list[Step]:
    """A word set's one-off work: its lists (and, for nyt, the answer model of the day), its
    pattern matrices, and the opening book of the normal rules (and the hard ones with ``hard``)."""
    from .wordsets import load_lexicon

    held: dict[str, Any] = {}  # "lex": the Lexicon, "adv": its Advisor

    def lexicon() -> None:
        held["lex"] = load_lexicon(
            words, data_dir=data_dir, day=day, build_model=True, auto_fetch=False, notify=notify, prefetch_matrix=True
        )

    def matrices() -> None:
        from ..policy.advisor import Advisor

        held["adv"] = Advisor(held["lex"])
        held["adv"].search_for(False, 6)  # the search's answers x guesses matrix

    def book(hard_mode: bool) -> Callable[[], None]:
        return lambda: held["adv"].book(hard_mode, 6)

    steps = [
        Step(f"{words}: word lists" + (" and the answer model" if words == "nyt" else ""), "seconds", lexicon),
        Step(f"{words}: pattern matrices", "seconds", matrices),
        Step(f"{words}: opening book", "seconds", book(False)),
    ]
    if hard:
        steps.append(Step(f"{words}: hard-mode opening book", "up to a minute", book(True)))
    return steps
