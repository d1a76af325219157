"""Issue 41: no multi-board suggestion may scan without a bound.  Near the cap the failure risk
scanned every guess of the list for every part of every board of two dozen guesses: an Octordle
first move with 10 guesses took 196 s on classic.  Work is counted in cells (guesses scanned
times candidates), a function of the state, not of time."""

import numpy as np
import pytest
from conftest import random_words
from naive import feedback_code

from wordlebot.core.words import Lexicon
from wordlebot.multi import MultiGame, policy

GUESSES = random_words(3000, alphabet="abcdefghilmnoprstu", seed=41)
ANSWERS = GUESSES[::3]


@pytest.fixture(scope="module")
def lex():
    return Lexicon.from_lists(GUESSES, ANSWERS, name="budget")


def _count_cells(monkeypatch):
    """Counts the cells the failure risk's scans cover (the partition kernel's, as before the
    bound; the stamped scan's since), and fails fast past four budgets (minutes otherwise)."""
    cells = [0]
    limit = 4 * getattr(policy, "RISK_WORK", 20_000_000)

    def add(n):
        cells[0] += n
        if cells[0] > limit:
            raise AssertionError(f"{cells[0]:,} cells scanned")

    scan = policy.partition_stats

    def counted_scan(matrix, guesses, cands, weights=None, length=5):
        add(len(guesses) * len(cands))
        return scan(matrix, guesses, cands, weights, length)

    monkeypatch.setattr(policy, "partition_stats", counted_scan)
    from wordlebot.core import kernels

    most = kernels._most_parts

    def counted_most(matrix, guesses, part, n_patterns):
        add(len(guesses) * len(part))
        return most(matrix, guesses, part, n_patterns)

    monkeypatch.setattr(kernels, "_most_parts", counted_most)
    return cells


@pytest.mark.parametrize("boards,cap", [(8, 10), (6, 8), (5, 7)])
def test_a_first_move_near_the_cap_scans_a_bounded_number_of_cells(lex, monkeypatch, boards, cap):
    policy._openings.clear()
    cells = _count_cells(monkeypatch)
    game = MultiGame(lex, boards, max_guesses=cap)
    rows = policy._rank(game, 5, None, "score", False)
    assert len(rows) == 5
    # the exact scans within the budget, then the small pool's: at most 24 + 48 words for the
    # parts of each board's 1,000 candidates, for each of the 24 guesses checked (13.8 M cells
    # for 8 boards; fewer here: the boards of a first move are alike and scanned once)
    pool = (policy.ENDGAME_CHECKED + policy.RISK_POOL_OWN) * len(ANSWERS) * boards * policy.ENDGAME_CHECKED
    assert 0 < cells[0] <= policy.RISK_WORK + pool


def test_the_bounded_ranking_is_a_function_of_the_state(lex):
    """The budget is counted per ranking: the same state ranks the same, whatever came before."""
    game = MultiGame(lex, 6, max_guesses=8)
    first = policy._rank(game, 8, None, "score", False)
    policy._rank(MultiGame(lex, 5, max_guesses=7), 3, None, "score", False)
    again = policy._rank(MultiGame(lex, 6, max_guesses=8), 8, None, "score", False)
    assert [(r.word, r.cost) for r in again] == [(r.word, r.cost) for r in first]


def test_within_the_budget_the_risk_is_the_exact_scan(lex):
    """A part scanned within the budget finds the most parts any guess of the list makes; past
    it the small pool finds no more (a lower bound: the risk overstated, never understated)."""
    from wordlebot.core.matrix import pattern_matrix
    from wordlebot.policy.strategies import partition_stats

    m = pattern_matrix(lex)
    part = np.arange(0, len(ANSWERS), 7, dtype=np.int64)
    exact = int(partition_stats(m, np.arange(lex.n_guesses), part, None, 5).parts.max())
    roomy = policy.RiskWork(m, lex, np.arange(5), budget=lex.n_guesses * part.size)
    assert roomy.most_parts(part) == exact and roomy.left == 0
    tight = policy.RiskWork(m, lex, np.arange(5), budget=0)
    assert 1 <= tight.most_parts(part) <= exact
    assert tight.spent <= (5 + policy.RISK_POOL_OWN) * part.size


@pytest.mark.parametrize("boards,cap,rows", [(2, 7, 0), (4, 9, 0), (3, 6, 1)])
def test_the_deadlock_share_measured_in_chunks_ranks_as_measured_whole(lex, monkeypatch, boards, cap, rows):
    """Hard mode measured the deadlock share of every word (2.4 s of an nyt first move); measured
    best-bound first, in chunks, until no word left can enter the rows kept, the rows are the
    same words with the same costs and reasons."""
    game = MultiGame(lex, boards, max_guesses=cap, hard=True)
    for _ in range(rows):
        word = lex.guesses[5]
        game.guess(word, [feedback_code(word, lex.answers[b * 7]) for b in range(boards)])

    def ranked(chunk):
        monkeypatch.setattr(policy, "DEADLOCK_CHUNK", chunk)
        return [(r.word, r.cost, r.why) for r in policy._rank(game, 12, None, "score", False)]

    whole = ranked(10**9)
    assert ranked(7) == whole and ranked(512) == whole


def test_the_deadlock_chunks_stop_once_no_word_left_can_enter_the_rows_kept(lex, monkeypatch):
    """The same, on estimates made up so that the bound stops the measuring early: the first
    24 by the charged total are those of the whole measure, with the same totals and shares."""
    from wordlebot.core.matrix import pattern_matrix
    from wordlebot.multi import deadlock

    m = pattern_matrix(lex)
    game = MultiGame(lex, 2, max_guesses=9, hard=True)
    pool = np.arange(lex.n_guesses, dtype=np.int64)
    total = 3.0 + 0.01 * pool  # (the loss of both boards is 2 x 10 = 20)
    measured = []
    share = deadlock.doomed_share
    monkeypatch.setattr(deadlock, "doomed_share", lambda *a: measured.append(len(a[1])) or share(*a))

    def best(chunk):
        monkeypatch.setattr(policy, "DEADLOCK_CHUNK", chunk)
        measured.clear()
        charged, doomed = policy._charge_deadlocks(game, pool, total, m, 24)
        first = np.lexsort((pool, np.round(charged, 9)))[:24]
        return first.tolist(), charged[first].tolist(), doomed[first].tolist(), sum(measured)

    whole, chunked = best(10**9), best(64)
    assert chunked[:3] == whole[:3]
    assert whole[3] == lex.n_guesses and chunked[3] < lex.n_guesses  # it did stop early
