"""A suggestion is a function of its inputs (lists, prior, rules, rows, settings): the same when
asked again, after other searches, on a fresh Advisor, on one thread or two, from several threads
at once.  Also the play policy's parts on their own: the work budget, the look-ahead levels, the
pool of big nodes, and the comparison behind the skill score."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import random_words
from naive import feedback_code, optimal_total

from wordlebot.core.words import Lexicon
from wordlebot.policy import advisor as advisor_mod
from wordlebot.policy.advisor import PLAY_TOP, Advisor

GUESSES = random_words(700, length=5, alphabet="abcdeilnorst", seed=7)
ANSWERS = GUESSES[::2]
FIRST = GUESSES[100]  # leaves parts of 20 to 44 answers
OTHER = GUESSES[200]


def largest_part(g):
    sizes = {}
    for a in ANSWERS:
        sizes[feedback_code(g, a)] = sizes.get(feedback_code(g, a), 0) + 1
    return max(sizes.values())


POOR = max(GUESSES, key=largest_part)  # a poor opener: one reply leaves over 100 answers


def rows_of(adv, game, top=5):
    return [(r.word, r.expected, r.lose, r.lookahead, r.basis) for r in adv.suggest(game, top)]


def games_after(adv, first, patterns):
    """A game per reply pattern, each after ``first``."""
    games = []
    for p in patterns:
        g = adv.new_game()
        g.guess(first, p)
        games.append(g)
    return games


def states(lex, first, min_left=20):
    """Games after ``first`` for each reply that leaves at least ``min_left`` answers."""
    replies = {}
    for a in lex.answers:
        replies.setdefault(feedback_code(first, a), []).append(a)
    return [p for p, words in sorted(replies.items()) if len(words) >= min_left]


@pytest.fixture
def tight_budget(monkeypatch):
    """A budget small enough that the search to the end stops on the bigger nodes of the
    synthetic list, so the budget's verdict is exercised without the official lists."""
    monkeypatch.setattr(advisor_mod, "PLAY_WORK_BUDGET", 100_000)


def test_budget_verdict_is_exercised_on_the_synthetic_list(tight_budget):
    """Without this the determinism tests below could pass trivially: some nodes finish the
    search to the end within the budget and some do not."""
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    adv = Advisor(lex, use_book=False)
    seen = set()
    for p in states(lex, FIRST):
        g = adv.new_game()
        g.guess(FIRST, p)
        seen.add(adv.suggest(g, 3)[0].lookahead)
    assert seen == {0, 1}


def test_same_state_same_rows_whatever_was_asked_before(tight_budget):
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    adv = Advisor(lex, use_book=False)
    games = games_after(adv, FIRST, states(lex, FIRST))
    first = [rows_of(adv, g) for g in games]
    # asked again, three times, in another order, with other searches in between; from the
    # Advisor's memory of rankings the first time, searched again (memory emptied) after
    for round_ in range(3):
        for g, want in reversed(list(zip(games, first))):
            if round_:
                adv._ranked.clear()
            other = adv.new_game()
            other.guess(OTHER, feedback_code(OTHER, ANSWERS[len(want) % len(ANSWERS)]))
            adv.suggest(other, 5)
            assert rows_of(adv, g) == want
    # a fresh Advisor, one thread instead of two, and fewer rows asked for
    for threads in (1, 2):
        fresh = Advisor(lex, use_book=False, threads=threads)
        for g, want in zip(games, first):
            g2 = fresh.new_game()
            g2.guess(FIRST, g.rows[0].pattern)
            assert rows_of(fresh, g2) == want
            assert rows_of(fresh, g2, top=2) == want[:2]


def test_same_rows_from_several_threads_at_once(tight_budget):
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    adv = Advisor(lex, use_book=False)
    pats = states(lex, FIRST)[:4]
    want = {}
    for p in pats:
        g = adv.new_game()
        g.guess(FIRST, p)
        want[p] = rows_of(Advisor(lex, use_book=False), g)
    got: list[tuple[int, list]] = []

    def ask(p):
        g = adv.new_game()
        g.guess(FIRST, p)
        got.append((p, rows_of(adv, g)))

    threads = [threading.Thread(target=ask, args=(p,)) for p in pats * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 2 * len(pats)
    assert all(rows == want[p] for p, rows in got)


@pytest.mark.parametrize("goal", ["streak", "average"])
def test_each_goal_gives_the_same_rows_whatever_was_asked_before(tight_budget, goal):
    """The goal is part of the inputs: with a cap of three guesses the guesses here may lose
    (their chance to lose is part of the rows compared), and each goal's rows are the same when
    asked again after the other goal's, on a fresh Advisor, on one thread or two."""
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    other = "average" if goal == "streak" else "streak"
    adv = Advisor(lex, use_book=False, goal=goal)
    pats = states(lex, FIRST)[:4]

    def games(a):
        out = []
        for p in pats:
            g = a.new_game(max_guesses=3)
            g.guess(FIRST, p)
            out.append(g)
        return out

    first = [rows_of(adv, g) for g in games(adv)]
    assert any(lose for rows in first for _, _, lose, _, _ in rows)  # losses are in play
    mixed = Advisor(lex, use_book=False, goal=other)
    for g in games(mixed):
        mixed.suggest(g, 5)
    adv._ranked.clear()
    assert [rows_of(adv, g) for g in reversed(games(adv))] == first[::-1]
    for threads in (1, 2):
        fresh = Advisor(lex, use_book=False, goal=goal, threads=threads)
        assert [rows_of(fresh, g) for g in games(fresh)] == first


# ---------------------------------------------------------------------------------------------
# The levels and the budget


def test_no_budget_left_answers_one_guess_ahead_and_a_roomy_budget_to_the_end(monkeypatch):
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    g = Advisor(lex, use_book=False).new_game()
    g.guess(FIRST, states(lex, FIRST)[0])
    monkeypatch.setattr(advisor_mod, "PLAY_WORK_BUDGET", 1)
    short = Advisor(lex, use_book=False).suggest(g, 3)
    assert [r.lookahead for r in short] == [1, 1, 1] and {r.basis for r in short} == {"estimate"}
    monkeypatch.setattr(advisor_mod, "PLAY_WORK_BUDGET", 10**12)
    full = Advisor(lex, use_book=False).suggest(g, 3)
    assert [r.lookahead for r in full] == [0, 0, 0] and {r.basis for r in full} == {"searched"}


def test_search_to_the_end_is_optimal_where_every_guess_is_searched():
    """With k at least the number of guesses the near-optimal search is exact: its value for
    the suggested guess is the brute-force optimum of the node (tests/naive.py)."""
    words = random_words(26, length=4, alphabet="abcd", seed=2)
    lex = Lexicon.from_lists(words, words, name="tiny")
    adv = Advisor(lex, use_book=False, k=len(words))
    game = adv.new_game()
    game.guess(words[0], feedback_code(words[0], words[5]))
    left = [lex.answers[i] for i in game.candidates.tolist()]
    rows = adv.suggest(game, 1)
    assert rows[0].lookahead == 0
    # optimal_total counts guesses over the node's answers, the suggested one included
    assert rows[0].expected * len(left) == pytest.approx(optimal_total(words, left, 5))


def test_rows_do_not_depend_on_how_many_are_asked_for(tight_budget):
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    for p in states(lex, FIRST)[:3]:
        game = Advisor(lex, use_book=False).new_game()
        game.guess(FIRST, p)
        ten = rows_of(Advisor(lex, use_book=False), game, PLAY_TOP)
        for top in (1, 3):
            assert rows_of(Advisor(lex, use_book=False), game, top) == ten[:top]
        # more than PLAY_TOP rows: the first ten are still the same (a wider search spends the
        # budget otherwise and used to reorder them)
        assert rows_of(Advisor(lex, use_book=False), game, 20)[:PLAY_TOP] == ten


@pytest.mark.official
def test_top_rows_are_the_same_when_more_are_asked_for(official):
    """The state a user found: nyt-3158 after CRANE and PIOUS against BIDED, top 3 vs top 20."""
    from wordlebot.app.wordsets import load_lexicon

    lex = load_lexicon("nyt-3158", data_dir=official)
    game = Advisor(lex).new_game()
    for w in ("crane", "pious"):
        game.guess(w, feedback_code(w, "bided"))
    three = rows_of(Advisor(lex), game, 3)
    assert rows_of(Advisor(lex), game, 20)[:3] == three


# ---------------------------------------------------------------------------------------------
# The pool of big nodes


def test_pool_holds_the_best_guesses_and_the_likeliest_answers(monkeypatch):
    monkeypatch.setattr(advisor_mod, "POOL_GUESSES", 50)
    monkeypatch.setattr(advisor_mod, "POOL_CANDIDATES", 20)
    weights = np.linspace(1.0, 3.0, len(ANSWERS))
    lex = Lexicon.from_lists(GUESSES, ANSWERS, weights, name="w")
    adv = Advisor(lex, use_book=False)
    H = np.arange(lex.n_answers, dtype=np.int32)
    pool = adv.guess_pool(H)
    likeliest = lex.answer_ids[np.argsort(-weights, kind="stable")[:20]]
    assert set(likeliest.tolist()) <= set(pool.tolist())
    assert 50 <= pool.size <= 70 and np.all(np.diff(pool) > 0)
    assert np.array_equal(pool, Advisor(lex, use_book=False).guess_pool(H))


# ---------------------------------------------------------------------------------------------
# compare (the skill score): the player's guess measured as the bot's


@pytest.mark.parametrize("budget", [1, 10**12])
def test_compare_measures_any_guess_as_the_ranking_does(monkeypatch, budget):
    """The value compare gives a guess outside the suggestion rows equals the value the same
    ranking procedure gives it when asked for more rows (same look-ahead, same search), at a
    node big enough (> 100 answers) that the old code took another path for it."""
    monkeypatch.setattr(advisor_mod, "PLAY_WORK_BUDGET", budget)
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    adv = Advisor(lex, use_book=False)
    game = adv.new_game()
    big = max(states(lex, POOR, 1), key=lambda p: sum(feedback_code(POOR, a) == p for a in ANSWERS))
    game.guess(POOR, big)
    assert game.candidates.size > 100
    search = adv.search_for(False, 6)
    ranking = adv.search_pairs(game.candidates, game.row_ids, game.constraints, hard=False, max_guesses=6)
    W = float(search.w[game.candidates].sum())
    search.set_depth(ranking.lookahead or None)
    wide = search.rank(game.candidates, rows=1, top=3 * PLAY_TOP)
    search.set_depth(None)
    # no answer of this node can be lost (six guesses: its values are the guesses alone)
    best_word, best, _ = adv.compare(game, lex.guesses[ranking.pairs[0][0]])
    assert best.lose == 0 and best.expected == pytest.approx(ranking.pairs[0][1] / W)
    outside = [(g, v) for g, v in wide if g not in dict(ranking.pairs)]
    assert outside
    for g, v in outside[:3]:
        _, b, mine = adv.compare(game, lex.guesses[g])
        assert b == best
        assert mine.lose == 0 and mine.expected == pytest.approx(v / W)


def test_playing_the_bots_guess_scores_full_skill():
    from wordlebot.core.game import Row
    from wordlebot.policy.analysis import analyze_game

    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="syn")
    adv = Advisor(lex, use_book=False)
    answer = ANSWERS[17]
    game = adv.new_game()
    while not game.solved:
        w = adv.best(game)
        game.guess(w, feedback_code(w, answer))
    report = analyze_game(adv, [Row(r.guess, r.pattern) for r in game.rows], answer=answer)
    assert all(r.skill == 99 for r in report.rows)
    assert [r.best for r in report.rows] == [r.guess for r in game.rows]


# ---------------------------------------------------------------------------------------------
# The official lists: the states a user found changing (classic, second move, no book)


@pytest.mark.official
@pytest.mark.parametrize("first", ["jumbo", "salet"])
def test_classic_second_moves_are_the_same_when_asked_again(classic, first):
    adv = Advisor(classic, use_book=False)
    replies = {}
    for a in classic.answers:
        replies.setdefault(feedback_code(first, a), []).append(a)
    big = sorted((p for p, w in replies.items() if len(w) >= 60), key=lambda p: -len(replies[p]))[:4]
    assert big and len(replies[big[0]]) > 100  # the JUMBO 110 and SALET 107 states are among them
    games = games_after(adv, first, big)
    want = [rows_of(adv, g) for g in games]
    for _ in range(2):
        for g, w in reversed(list(zip(games, want))):
            adv._ranked.clear()  # searched again, not remembered
            assert rows_of(adv, g) == w
    fresh = Advisor(classic, use_book=False, threads=1)
    for g, w in zip(games, want):
        g2 = fresh.new_game()
        g2.guess(first, g.rows[0].pattern)
        assert rows_of(fresh, g2) == w


@pytest.mark.official
def test_same_rows_in_separate_processes(classic, official, tmp_path):
    """Two fresh processes (the CLI, as a user runs it) and this one agree on a state whose
    search to the end is near the budget."""
    import json
    import os
    import subprocess
    import sys

    first = "jumbo"
    replies = {}
    for a in classic.answers:
        replies.setdefault(feedback_code(first, a), []).append(a)
    p = max(replies, key=lambda q: len(replies[q]) if len(replies[q]) < 200 else 0)
    history = f"{first}:{''.join(str(p // 3**i % 3) for i in range(5))}"
    env = dict(os.environ, WORDLEBOT_DATA=str(official))
    cmd = [
        sys.executable,
        "-m",
        "wordlebot",
        "suggest",
        "--words",
        "classic",
        "--history",
        history,
        "--top",
        "5",
        "--json",
    ]
    runs = [
        json.loads(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout) for _ in range(2)
    ]
    rows = [[(s["word"], s["expected"], s["basis"]) for s in r["suggestions"]] for r in runs]
    adv = Advisor(classic)
    game = adv.new_game()
    game.guess(first, p)
    here = [(r.word, r.expected, r.basis) for r in adv.suggest(game, 5)]
    assert rows[0] == rows[1] == here


@pytest.mark.official
def test_nyt_first_use_with_matrices_built_beside_the_model_gives_the_same_rows(official, tmp_path, monkeypatch):
    """The CLI on an empty cache builds the nyt matrices on a second thread while the answer
    model trains (``matrix.prefetch``); its rows are those of a load that builds everything
    in turn, here, in another empty cache."""
    import datetime as dt
    import json
    import os
    import subprocess
    import sys

    from wordlebot.app.wordsets import load_lexicon
    from wordlebot.core import matrix, paths

    env = dict(os.environ, WORDLEBOT_DATA=str(official), WORDLEBOT_CACHE=str(tmp_path / "cli"))
    cmd = [
        sys.executable,
        "-m",
        "wordlebot",
        "suggest",
        "--words",
        "nyt",
        "--date",
        "2026-05-20",
        "--history",
        "salet:00100",
        "--top",
        "5",
        "--json",
    ]
    out = json.loads(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout)
    cli_rows = [(s["word"], s["expected"], s["basis"]) for s in out["suggestions"]]
    assert len(list((tmp_path / "cli").glob("matrix-*.bin"))) == 2  # both layouts, complete
    assert not [f for f in (tmp_path / "cli").iterdir() if f.name.endswith((".tmp", ".part"))]

    monkeypatch.setenv(paths.CACHE_ENV, str(tmp_path / "here"))
    matrix.clear_memory_cache()
    lex = load_lexicon("nyt", data_dir=official, day=dt.date(2026, 5, 20), build_model=True)
    adv = Advisor(lex)
    game = adv.new_game()
    game.guess("salet", "00100")
    assert [(r.word, r.expected, r.basis) for r in adv.suggest(game, 5)] == cli_rows
