import json

import numpy as np
import pytest
from conftest import random_words
from naive import entropy_bits, feedback_code, hard_mode_legal, play_greedy

from wordlebot.core.matrix import build_matrix
from wordlebot.core.words import Lexicon
from wordlebot.policy.simulate import greedy_chooser, simulate
from wordlebot.search.published import GREEDY_TOTALS


@pytest.fixture(scope="module")
def lex():
    words = random_words(160, alphabet="abcdeorst", seed=8)
    return Lexicon.from_lists(words, words[::3], name="sim")


def test_tree_walk_equals_playing_each_game(lex):
    m = build_matrix(lex.guesses, lex.answers)
    res = simulate(lex, m, greedy_chooser(lex, m, "entropy"), strategy_name="entropy")
    for target, path in zip(res.targets, res.paths):
        want = play_greedy(list(lex.guesses), list(lex.answers), target, entropy_bits)
        assert path == want
        assert len(path) == res.guesses[res.targets.index(target)]
    assert res.total == sum(len(p) for p in res.paths)
    assert sum(res.distribution().values()) == lex.n_answers


def test_hard_mode_games_obey_the_rule(lex):
    m = build_matrix(lex.guesses, lex.answers)
    res = simulate(lex, m, greedy_chooser(lex, m, "minimax", hard=True), hard=True)
    for target, path in zip(res.targets, res.paths):
        rows = []
        for g in path:
            assert hard_mode_legal(g, rows), (target, path)
            rows.append((g, feedback_code(g, target)))
        assert path[-1] == target


def test_fixed_opening_limit_and_outputs(lex, tmp_path):
    m = build_matrix(lex.guesses, lex.answers)
    first = lex.guesses[10]
    res = simulate(lex, m, greedy_chooser(lex, m, "most-parts"), first=10, targets=np.arange(20))
    assert res.n == 20 and all(p[0] == first for p in res.paths) and res.first == first
    res.to_json(tmp_path / "r.json")
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["games"] == 20 and doc["total"] == res.total and len(doc["games_detail"]) == 20
    res.plot(tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_guess_cap_counts_failures():
    # Five answers differing only in the first letter: guessing candidates only, one at a time.
    words = ["bxxxx", "cxxxx", "dxxxx", "exxxx", "fxxxx"]
    lex = Lexicon.from_lists(words, words)
    m = build_matrix(words, words)
    res = simulate(
        lex, m, greedy_chooser(lex, m, "entropy", guess_space="candidates"), guess_space="candidates", max_guesses=3
    )
    # a game ends at the cap, as the real one: the two lost games played three guesses each
    assert sorted(res.guesses.tolist()) == [1, 2, 3, 3, 3]
    assert all(len(p) <= 3 for p in res.paths)
    assert res.distribution() == {"1": 1, "2": 1, "3": 1, "X": 2}
    assert res.solved_pct == pytest.approx(60.0)
    # a loss is counted apart, never as guesses: the average is over the three games solved
    assert res.lost == 2 and res.total == 6 and res.average == pytest.approx(2.0)
    assert res.loss_chance == pytest.approx(0.4) and res.failures() == ["exxxx", "fxxxx"]


@pytest.mark.parametrize("goal", ["streak", "average"])
def test_the_search_policy_plays_to_the_cap_and_counts_the_losses(goal):
    """Twelve answers that differ in the first letter only, and no other guess: each guess rules
    out one word, so six are found (in one to six guesses) and six are lost whatever is played.
    Before, the simulator asked the search for a seventh guess and stopped with 'rows played must
    be 0 to 5, not 6'."""
    from wordlebot.policy.advisor import Advisor
    from wordlebot.policy.simulate import advisor_chooser

    words = [c + "atch" for c in "bcdfhlmpruvw"]
    lex = Lexicon.from_lists(words, words, name="atch")
    m = build_matrix(words, words)
    adv = Advisor(lex, matrix=m, use_book=False, goal=goal)
    res = simulate(lex, m, advisor_chooser(adv), strategy_name="search", goal=goal)
    assert res.lost == 6 and res.solved_pct == pytest.approx(50.0)
    assert sorted(res.guesses[res.solved_mask].tolist()) == [1, 2, 3, 4, 5, 6]
    assert res.average == pytest.approx(3.5) and res.total == 21
    assert all(len(p) <= 6 for p in res.paths) and res.distribution()["X"] == 6
    assert res.summary()["goal"] == goal and res.summary()["lost"] == 6


@pytest.mark.parametrize("strategy,first,total", GREEDY_TOTALS)
def test_published_greedy_totals(classic, classic_matrix, strategy, first, total):
    res = simulate(classic, classic_matrix, greedy_chooser(classic, classic_matrix, strategy), first=classic.id(first))
    assert res.total == total
    assert res.solved_pct == 100.0
