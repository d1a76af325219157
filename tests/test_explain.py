"""The likely count and the explanation of a guess, against hand-checked cases and the naive
partition of tests/naive.py."""

from __future__ import annotations

import math

import naive
import numpy as np
import pytest
from conftest import random_words

from wordlebot.core.game import Game
from wordlebot.core.words import Lexicon
from wordlebot.policy.explain import about, by_likelihood, explain, likely_count

WORDS = random_words(200, alphabet="abcdelnorst", seed=5)
ANSWERS = WORDS[::2]


def test_likely_count_by_hand():
    assert likely_count(np.full(37, 1 / 37)) == pytest.approx(37)
    # entropy of (1/2, 1/4, 1/4) is 1.5 bits
    assert likely_count(np.array([0.5, 0.25, 0.25])) == pytest.approx(2**1.5)
    assert likely_count(np.array([1.0, 0.0, 0.0])) == pytest.approx(1)
    assert likely_count(np.array([])) == 0
    # unnormalised weights are normalised first
    assert likely_count(np.array([2.0, 1.0, 1.0])) == pytest.approx(2**1.5)


@pytest.mark.parametrize(
    "n, text",
    [
        (37.0, "37"),
        (37.4, "about 37"),
        (1.0, "1"),
        (2.83, "about 3"),
        (1234.5, "about 1,200"),
        (0.0, "0"),
        (156.2, "about 160"),
    ],
)
def test_about(n, text):
    assert about(n) == text


def test_candidates_likeliest_first_ties_in_list_order():
    weights = {w: 1.0 for w in ANSWERS}
    weights[ANSWERS[7]] = 5.0
    weights[ANSWERS[3]] = 5.0
    lex = Lexicon.from_lists(WORDS, ANSWERS, [weights[a] for a in ANSWERS])
    game = Game(lex)
    ranked = by_likelihood(game)
    listed = list(lex.answers)
    heavy = sorted([ANSWERS[3], ANSWERS[7]], key=listed.index)
    first_light = next(a for a in listed if a not in heavy)
    assert [w for w, _ in ranked[:3]] == heavy + [first_light]
    total = sum(weights.values())
    assert ranked[0][1] == pytest.approx(5 / total) and ranked[2][1] == pytest.approx(1 / total)
    assert len(by_likelihood(game, 4)) == 4


def test_explanation_matches_the_naive_partition():
    lex = Lexicon.from_lists(WORDS, ANSWERS)
    game = Game(lex)
    guess = WORDS[10]
    answer = ANSWERS[20]
    game.guess(guess, naive.feedback_code(guess, answer))
    cands = [a for a in ANSWERS if naive.feedback_code(guess, a) == naive.feedback_code(guess, answer)]
    for word in (WORDS[1], cands[0]):
        e = explain(game, word)
        parts = naive.partition(word, cands)
        n = len(cands)
        assert e.candidates == n and len(e.groups) == len(parts)
        assert sorted(g.size for g in e.groups) == sorted(len(v) for v in parts.values())
        assert {g.pattern: g.size for g in e.groups} == {p: len(v) for p, v in parts.items()}
        assert e.p_answer == pytest.approx(1 / n if word in cands else 0)
        singles = [v for v in parts.values() if len(v) == 1 and v != [word]]
        assert e.p_known == pytest.approx(len(singles) / n)
        assert e.expected_left == pytest.approx(
            naive.expected_left(word, [c for c in cands if c != word]) * (n - (word in cands)) / n
        )
        assert e.likely == pytest.approx(n)
        assert e.groups == sorted(e.groups, key=lambda g: (-g.p, -g.size, g.pattern))
        text = e.text()
        assert f"into {len(parts)} groups" in text and word.upper() in text
        assert ("can be the answer" in text) == (word in cands)


def test_the_last_candidate():
    lex = Lexicon.from_lists(WORDS, ANSWERS)
    game = Game(lex)
    answer = ANSWERS[0]
    for guess in WORDS:
        if game.candidates.size == 1:
            break
        game.guess(guess, naive.feedback_code(guess, answer))
    assert game.candidates.size == 1
    e = explain(game, answer)
    assert e.p_answer == 1 and e.sentences() == [f"{answer.upper()} is the only candidate left: play it to win."]
    assert math.isclose(e.likely, 1)


def test_a_verdict_always_compares_with_the_bots_own_guess():
    """Defect 10 (HELLO was compared with EERIE while the bot's column named LOUIS): whenever a
    guess is worse than the bot's, the sentence names the bot's guess, also when it points at a
    possible answer that would have split as well.  Every guess that is no candidate, at a few
    positions of a small list, the bot's guess being the best-splitting word that cannot win
    (as the bot often plays)."""
    from wordlebot.policy.explain import verdict

    lex = Lexicon.from_lists(WORDS, ANSWERS, name="v")
    positions = seen_alternative = 0
    for opening in WORDS[:60]:
        answer = ANSWERS[(WORDS.index(opening) * 7) % len(ANSWERS)]
        game = Game(lex)
        game.guess(opening, naive.feedback_code(opening, answer))
        cands = game.candidate_words
        if len(cands) < 4:
            continue
        positions += 1
        parts = {w: len(naive.partition(w, cands)) for w in WORDS if w not in cands}
        best = max(parts, key=parts.get)
        for g in WORDS[::5]:
            if g == best or g in cands:
                continue
            text = verdict(game, g, best, 0.25)
            assert best.upper() in text, (g, best, text)
            seen_alternative += "which could have won" in text
        if positions == 6:
            break
    assert positions == 6 and seen_alternative > 0  # the branch that names another word was exercised
