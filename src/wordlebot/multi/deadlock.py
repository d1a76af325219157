"""Hard-mode deadlocks: the guesses after which a multi-board game is lost for certain.

With the hard-mode rule applied per board, every guess must keep the hints of every open board.
Once no open board's answer keeps the hints of all of them (two greens in one place, more letters
revealed between them than a word holds, or just hints that board's answer breaks), no board can
be solved again, since a board's hints go only when it is solved: every open board is lost.  The
player learns it later (``MultiGame.stuck``: no candidate left keeps the hints).  The usual
openers do that more often than not (classic Dordle, 300 seeded pairs: ROATE 62 %, SALET 59 %,
CRANE 51 % of games lost so at the first guess; JUMPY 18 %, VIVID 8 %), so the policy charges each
guess for the share of likely answer tuples after which the game would be lost so.

The share is measured on answer tuples drawn from the boards' candidates by the prior (each board
independently), the same tuples for every guess (the ranking compares like with like), from a
generator seeded by the state: a function of the lists, prior, rules and rows alone.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..core import kernels
from ..core.errors import WordlebotError
from ..core.feedback import all_green
from ..core.matrix import read_only
from .game import MultiGame

DEADLOCK_SAMPLES = 256  # answer tuples per state: a share's standard error is at most 3 points


def sample_tuples(game: MultiGame, boards: list[int], n: int = DEADLOCK_SAMPLES) -> np.ndarray:
    """``n`` answer tuples (rows: an answer id per board of ``boards``, drawn from that board's
    candidates by the prior), from a generator seeded by the game's lists, prior and rows."""
    lex = game.lexicon
    h = hashlib.blake2b(digest_size=8)
    h.update(
        repr(
            (
                lex.fingerprint,
                game.hard,
                game.max_guesses,
                boards,
                [(row.guess, tuple(row.patterns)) for row in game.rows],
            )
        ).encode()
    )
    h.update(lex.prior.tobytes())
    rng = np.random.default_rng(int.from_bytes(h.digest(), "little"))
    out = np.empty((n, len(boards)), np.int64)
    for j, b in enumerate(boards):
        c = game.candidates(b).astype(np.int64)
        w = lex.prior[c]
        out[:, j] = rng.choice(c, size=n, p=w / w.sum())
    return out


def doomed_share(
    game: MultiGame,
    guess_ids: np.ndarray,
    matrix: np.ndarray,
    samples: np.ndarray | None = None,
    stop_at: np.ndarray | None = None,
) -> np.ndarray:
    """For each guess of ``guess_ids``, the share of answer tuples (``samples``: rows of answer
    ids, one per open board, each a candidate of its board; drawn by ``sample_tuples`` when None)
    after which the game is lost for certain: no open board's answer keeps the hints of every
    board left open, so none can be guessed, and hints go only with a solved board.  Zero outside
    hard mode, and where an open board's answer is off the list (where it stands is not known).

    ``stop_at`` (one count per guess) lets a caller that only needs to know whether a guess's
    share reaches a mark stop counting it there: a share at or past ``stop_at[k]`` / samples is
    then a lower bound (the tuples after that point are not looked at)."""
    guess_ids = np.ascontiguousarray(guess_ids, np.int64)
    lex = game.lexicon
    if guess_ids.size and (guess_ids.min() < 0 or guess_ids.max() >= lex.n_guesses):
        raise WordlebotError(f"guess ids must lie in 0..{lex.n_guesses - 1}")
    boards = game.active
    out = np.zeros(guess_ids.size)
    if not game.hard or game.over or game.off_list or not guess_ids.size:
        return out
    if samples is None:
        samples = sample_tuples(game, boards)
    samples = np.ascontiguousarray(samples, np.int64)
    if samples.ndim != 2 or samples.shape[1] != len(boards) or not samples.shape[0]:
        raise WordlebotError(f"samples must be rows of {len(boards)} answer ids, one per open board")
    for j, b in enumerate(boards):
        if not np.isin(samples[:, j], game.candidates(b)).all():
            raise WordlebotError(f"a sampled answer for board {b + 1} is not one of its candidates")
    if stop_at is None:
        stop_at = np.full(guess_ids.size, samples.shape[0] + 1, np.int64)
    stop_at = np.ascontiguousarray(stop_at, np.int64)
    if stop_at.shape != guess_ids.shape:
        raise WordlebotError("stop_at must give one count per guess")
    rules = [game.boards[b].constraints for b in boards]
    green_at = np.array([r.green_at for r in rules], np.int8).reshape(len(boards), lex.length)
    need = np.array([r.min_count for r in rules], np.int64).reshape(len(boards), kernels.ALPHABET)
    kernels._doomed_share(
        read_only(matrix),
        guess_ids,
        lex.guess_codes,
        lex.answer_codes,
        lex.answer_letter_counts,
        green_at,
        need,
        samples,
        stop_at,
        all_green(lex.length),
        out,
    )
    return out
