import math

import numpy as np
import pytest
from conftest import random_words
from naive import entropy_bits, expected_left, partition

from wordlebot.core.matrix import build_matrix
from wordlebot.core.words import Lexicon
from wordlebot.policy.strategies import STRATEGIES, letter_scores, partition_stats, rank


@pytest.fixture
def lex():
    guesses = random_words(250, seed=11)
    return Lexicon.from_lists(guesses, guesses[::4], name="t")


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_cands", [1, 2, 7, 40, 63])
def test_partition_stats_match_reference(lex, weighted, n_cands):
    m = build_matrix(lex.guesses, lex.answers)
    rng = np.random.default_rng(n_cands)
    cands = np.sort(rng.choice(lex.n_answers, n_cands, replace=False))
    words = [lex.answers[j] for j in cands]
    w = rng.uniform(0.1, 2.0, n_cands) if weighted else None
    wmap = dict(zip(words, w)) if weighted else None
    gids = np.arange(0, lex.n_guesses, 7)
    s = partition_stats(m, gids, cands, w, 5)
    for k, g in enumerate(gids.tolist()):
        word = lex.guesses[g]
        parts = partition(word, words)
        assert s.parts[k] == len(parts)
        assert s.largest[k] == max(map(len, parts.values()))
        assert s.smallest[k] == min(map(len, parts.values()))
        assert math.isclose(s.bits[k], entropy_bits(word, words, wmap), abs_tol=1e-9)
        assert math.isclose(s.expected_left[k], expected_left(word, words, wmap), rel_tol=1e-9)
        p_ans = (wmap[word] / sum(wmap.values()) if weighted else 1 / n_cands) if word in words else 0.0
        assert math.isclose(s.p_answer[k], p_ans, abs_tol=1e-12)


def test_long_words_use_the_sparse_path():
    g = random_words(80, 9, alphabet="abcdefg", seed=2)
    lex = Lexicon.from_lists(g, g[:30])
    m = build_matrix(lex.guesses, lex.answers)
    s = partition_stats(m, np.arange(80), np.arange(30), None, 9)
    for k in range(80):
        assert s.parts[k] == len(partition(g[k], g[:30]))
        assert math.isclose(s.bits[k], entropy_bits(g[k], g[:30]), abs_tol=1e-9)


def _reference_best(lex, cands, score):
    """Best guess by score (higher better), ties: can be answer, then earlier in the list."""
    words = [lex.answers[j] for j in cands]
    best = max(
        range(lex.n_guesses), key=lambda i: (round(score(lex.guesses[i], words), 9), lex.guesses[i] in words, -i)
    )
    return lex.guesses[best]


SCORES = {
    "entropy": lambda g, c: entropy_bits(g, c),
    "most-parts": lambda g, c: len(partition(g, c)),
    "expected-size": lambda g, c: -expected_left(g, c),
    "minimax": lambda g, c: (
        -max(map(len, partition(g, c).values())),
        -round(expected_left(g, c), 9),
        -min(map(len, partition(g, c).values())),
    ),
}


@pytest.mark.parametrize("strategy", list(SCORES))
def test_greedy_choice_matches_reference(lex, strategy):
    m = build_matrix(lex.guesses, lex.answers)
    rng = np.random.default_rng(5)
    for n in (2, 5, 20, lex.n_answers):
        cands = np.sort(rng.choice(lex.n_answers, n, replace=False))
        got = lex.guesses[rank(lex, m, cands, strategy=strategy).best]
        score = SCORES[strategy]
        if strategy == "minimax":
            words = [lex.answers[j] for j in cands]
            best = max(range(lex.n_guesses), key=lambda i: (score(lex.guesses[i], words), lex.guesses[i] in words, -i))
            want = lex.guesses[best]
        else:
            want = _reference_best(lex, cands, score)
        assert got == want, (strategy, n)


def test_ties_prefer_possible_answers_then_prior():
    guesses = ["abcde", "bbbbb", "zzzzz", "abcdz"]
    lex = Lexicon.from_lists(guesses, ["abcde", "abcdz"], [1.0, 3.0])
    m = build_matrix(lex.guesses, lex.answers)
    r = rank(lex, m, np.array([0, 1]), strategy="entropy")
    top = [row.word for row in r.rows(lex, 4)]
    # every guess but bbbbb/zzzzz splits the two; the likelier answer abcdz wins the tie
    assert top[:2] == ["abcdz", "abcde"]
    assert r.rows(lex, 1)[0].p_answer == pytest.approx(0.75)


def test_guess_space_candidates_and_legal_mask(lex):
    m = build_matrix(lex.guesses, lex.answers)
    cands = np.arange(0, lex.n_answers, 3)
    r = rank(lex, m, cands, guess_space="candidates")
    assert set(r.stats.guess_ids.tolist()) == set(lex.answer_ids[cands].tolist())
    legal = np.zeros(lex.n_guesses, bool)
    legal[[3, 5, 8]] = True
    r = rank(lex, m, cands, legal=legal)
    assert set(r.stats.guess_ids.tolist()) == {3, 5, 8}
    assert all(row.hard_legal for row in r.rows(lex, 3))


def test_letter_scores_and_approx_entropy(lex):
    cands = np.arange(lex.n_answers)
    words = list(lex.answers)
    freq, approx = letter_scores(lex, np.arange(lex.n_guesses), cands)
    for k in range(0, lex.n_guesses, 17):
        g = lex.guesses[k]
        want_freq = sum(sum(ch in w for w in words) for ch in set(g)) / len(words) + sum(
            sum(w[i] == ch for w in words) for i, ch in enumerate(g)
        ) / len(words)
        assert freq[k] == pytest.approx(want_freq)
        want_approx = 0.0
        for i, ch in enumerate(g):
            green = sum(w[i] == ch for w in words) / len(words)
            yellow = sum(ch in w and w[i] != ch for w in words) / len(words)
            for q in (green, yellow, 1 - green - yellow):
                if q > 0:
                    want_approx -= q * math.log2(q)
        assert approx[k] == pytest.approx(want_approx)


def test_approx_entropy_scores_its_shortlist_exactly(lex):
    m = build_matrix(lex.guesses, lex.answers)
    cands = np.arange(lex.n_answers)
    full = rank(lex, m, cands, strategy="entropy")
    approx = rank(lex, m, cands, strategy="approx-entropy", approx_fraction=1.0)
    assert approx.best == full.best
    short = rank(lex, m, cands, strategy="approx-entropy", approx_fraction=0.1)
    assert short.stats.guess_ids.size == 25
    for row in short.rows(lex, 5):
        assert row.bits == pytest.approx(entropy_bits(row.word, list(lex.answers)))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_ranks_all_guesses(lex, strategy):
    m = build_matrix(lex.guesses, lex.answers)
    r = rank(lex, m, np.arange(10), strategy=strategy)
    rows = r.rows(lex, None)
    assert len({row.word for row in rows}) == len(rows)
    # the first guess is useful: it splits the candidates or can win
    assert rows[0].parts > 1 or rows[0].can_be_answer


def test_openers_on_the_classic_lists(classic, classic_matrix):
    """The published greedy first words (all 12,972 guesses, 2,315 answers)."""
    cands = np.arange(classic.n_answers)
    best = {
        s: classic.guesses[rank(classic, classic_matrix, cands, strategy=s).best]
        for s in ("entropy", "minimax", "most-parts", "expected-size")
    }
    assert best == {"entropy": "soare", "minimax": "raise", "most-parts": "trace", "expected-size": "roate"}
