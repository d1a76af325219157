"""Refuting first words in stages (the opener sweep's hard words), against the naive recursion."""

import numpy as np
import pytest

from conftest import random_words
from naive import optimal_total, partition
from wordlebot import refutation
from wordlebot.game import HardConstraints
from wordlebot.search import INF, BudgetExceeded, TreeSearch
from wordlebot.words import Lexicon

GUESSES = random_words(120, length=5, alphabet="abcdeorst", seed=31)
ANSWERS = GUESSES[::3]
LEX = Lexicon.from_lists(GUESSES, ANSWERS, name="small")


def naive_first_word_total(word):
    green = 3 ** len(word) - 1
    return len(ANSWERS) + sum(optimal_total(GUESSES, part, 5) for code, part in partition(word, ANSWERS).items()
                              if code != green)


TRUTH = {w: naive_first_word_total(w) for w in GUESSES[:60]}


@pytest.fixture
def staged_always(monkeypatch):
    """Every word goes through the stages (the kernel gets no work of its own first), and every
    part of three answers or more is staged: the small lists' words are otherwise all easy."""
    monkeypatch.setattr(refutation, "QUICK_UNITS", 1)
    monkeypatch.setattr(refutation, "STAGE_MIN", 3)


@pytest.mark.parametrize("rank", [0, 3, 10, 30])
def test_words_refuted_in_stages_are_bounded_truly_and_the_others_exact(staged_always, rank):
    """Against bounds from the best word's total to well inside the list: a word below the bound
    gets its exact total, every other one a number at least the bound and at most its total."""
    search = TreeSearch(LEX, k=None, threads=1, memory_mb=64)
    near = TreeSearch(LEX, k=3, kc=1, threads=1, memory_mb=64)  # poor estimates: the kernel must mend them
    bound = sorted(TRUTH.values())[rank] + 0.5
    staged = 0
    with search.lane(), near.lane():
        for w, truth in TRUTH.items():
            v = refutation.value_against(search, near, LEX.id(w), bound)
            if truth < bound:
                assert v == truth, w
            else:
                assert bound <= v <= truth, w
                staged += v != bound  # a total raised past the bound came from the stages
    assert staged > 0


def test_staged_bounds_are_lower_bounds_whatever_the_bound(staged_always):
    """The stages alone, asked for more than a word can give: what they return is still at most
    the word's total (an exact part counted as exact, not as the target it was asked for)."""
    search = TreeSearch(LEX, k=None, threads=1, memory_mb=64)
    near = TreeSearch(LEX, k=12, kc=6, threads=1, memory_mb=64)
    with search.lane(), near.lane():
        for w, truth in TRUTH.items():
            for bound in (truth - 3, truth + 0.5, truth + 40):
                assert refutation.staged_bound(search, near, LEX.id(w), bound) <= truth, (w, bound)


def test_hard_mode_words_refuted_in_stages_keep_the_exact_totals(staged_always):
    """Hard mode (the estimates from a search with a failure cost, as the sweep makes them): the
    same verdicts as the kernel's own evaluation of each word, exact below the bound."""
    search = TreeSearch(LEX, k=None, hard=True, threads=1, memory_mb=64)
    reference = TreeSearch(LEX, k=None, hard=True, threads=1, memory_mb=64)
    near = TreeSearch(LEX, k=4, kc=2, hard=True, threads=1, memory_mb=64, fail_cost=8.0)
    none = HardConstraints.none(5)
    totals = {w: reference.value_of_guess(LEX.id(w), constraints=none, parallel=False) for w in GUESSES[:60]}
    finite = sorted(v for v in totals.values() if v < INF)
    bound = finite[len(finite) // 3] + 0.5
    with search.lane(), near.lane():
        for w, truth in totals.items():
            v = refutation.value_against(search, near, LEX.id(w), bound, none)
            assert (v == truth) if truth < bound else (bound <= v <= truth), w


def test_an_allowance_stops_only_its_own_lane():
    search = TreeSearch(LEX, k=None, threads=1, memory_mb=64)
    with pytest.raises(RuntimeError, match="needs a lane"):
        with search.allowance(1):
            pass
    with search.lane():
        with pytest.raises(BudgetExceeded):
            with search.allowance(1):
                search.value_of_guess(LEX.id(GUESSES[0]), parallel=False)
        # the allowance ends with its block
        assert search.value_of_guess(LEX.id(GUESSES[0]), parallel=False) == TRUTH[GUESSES[0]]


def test_node_value_and_node_bound_against_the_naive_recursion():
    search = TreeSearch(LEX, k=None, threads=1, memory_mb=64)
    parts = [p for p in partition(GUESSES[5], ANSWERS).values() if len(p) >= 3]
    assert parts
    for part in parts:
        H = np.array(sorted(LEX.answers.index(a) for a in part), np.int32)
        truth = optimal_total(GUESSES, part, 5)
        assert search.node_bound(H, rows=1) <= truth
        assert search.node_value(H, rows=1) == truth
        below = search.node_value(H, rows=1, beta=truth - 0.5)
        assert below >= truth - 0.5
