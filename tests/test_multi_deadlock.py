"""Hard-mode deadlocks in multi-board games (multi/deadlock.py), against the rule applied by hand
(naive.hard_mode_legal) and hand-checked cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import random_words
from naive import feedback_code, hard_mode_legal

from wordlebot.core.errors import WordlebotError
from wordlebot.core.matrix import build_matrix
from wordlebot.core.words import Lexicon
from wordlebot.multi import MultiGame
from wordlebot.multi.deadlock import doomed_share, sample_tuples

WORDS = random_words(150, length=5, alphabet="abcdeorst", seed=7)
LEX = Lexicon.from_lists(WORDS, WORDS[::5], name="mini")
M = np.asarray(build_matrix(LEX.guesses, LEX.answers))
# Bigger lists, where a Dordle starts with 10,000 answer pairs (no endgame search yet)
WORDS12 = random_words(400, length=5, alphabet="abcdeilnorst", seed=3)
LEX12 = Lexicon.from_lists(WORDS12, WORDS12[::4], name="mini12")
M12 = np.asarray(build_matrix(LEX12.guesses, LEX12.answers))


def _naive_doomed(guess: str, rows: list[list[tuple[str, int]]], answers: tuple[str, ...]) -> bool:
    """After ``guess`` against ``answers`` (one per open board, whose rows so far are ``rows``):
    is no unsolved board's answer a guess every unsolved board's rows allow?"""
    now = []
    for board_rows, answer in zip(rows, answers):
        if guess == answer:
            continue  # solved: its rows bind no more
        now.append((board_rows + [(guess, feedback_code(guess, answer))], answer))
    if not now:
        return False
    return not any(all(hard_mode_legal(answer, r) for r, _ in now) for _, answer in now)


@pytest.mark.parametrize("boards", [2, 3])
def test_the_doomed_share_is_the_rule_applied_by_hand(boards):
    """Every guess of the mini lists, after one row on every board and a second on all but the
    solved one, over answer tuples drawn from the candidates: the kernel's share is the share of
    tuples after which no open board's answer keeps every open board's hints (naive)."""
    answers = [LEX.answers[i] for i in (1, 4, 7)[:boards]]
    game = MultiGame(LEX, boards, hard=True, answers=answers, matrix=M)
    game.guess("serot" if "serot" in WORDS else WORDS[40])
    assert not game.over
    samples = sample_tuples(game, game.active, 120)
    rows = {b: [(r.guess, r.patterns[b]) for r in game.rows] for b in game.active}
    got = doomed_share(game, np.arange(LEX.n_guesses), M, samples)
    want = np.array(
        [
            np.mean(
                [
                    _naive_doomed(g, [rows[b] for b in game.active], tuple(LEX.answers[a] for a in tup))
                    for tup in samples
                ]
            )
            for g in LEX.guesses
        ]
    )
    np.testing.assert_array_equal(got, want)
    assert 0 < want.mean() < 1  # both kinds of tuple occur: the comparison says something
    # Told to stop at a count, a guess is counted up to it: the naive count, capped there (the
    # tuples are counted in order, so the cap is reached exactly when the count gets there).
    lost = np.rint(want * len(samples)).astype(np.int64)
    stop_at = np.arange(LEX.n_guesses, dtype=np.int64) % (len(samples) + 2)
    capped = doomed_share(game, np.arange(LEX.n_guesses), M, samples, stop_at)
    np.testing.assert_array_equal(capped, np.minimum(lost, stop_at) / len(samples))
    assert (lost > stop_at).any() and (lost < stop_at).any()


def test_two_greens_in_one_place_or_an_answer_the_other_board_bars_lose_the_game():
    """Hand-checked: CATER and LATER.  LACER shows C yellow on the first board (A, E, R green)
    and L green on the second: CATER lacks L in first place and LATER lacks C, so neither answer
    can ever be played.  CATER solves the first board, and LATER keeps the second's hints."""
    words = ["cater", "later", "lacer", "water", "bland"]
    lex = Lexicon.from_lists(words, ["cater", "later", "water"], name="hand")
    m = np.asarray(build_matrix(lex.guesses, lex.answers))
    game = MultiGame(lex, 2, hard=True, matrix=m)
    pair = np.array([[lex.answers.index("cater"), lex.answers.index("later")]])
    share = dict(zip(words, doomed_share(game, np.arange(lex.n_guesses), m, pair)))
    assert share["lacer"] == 1.0 and share["cater"] == 0.0 and share["later"] == 0.0
    assert share["water"] == 0.0  # _ATER green on both: either answer keeps both boards' hints
    assert share["bland"] == 0.0  # A yellow on both boards: both answers have an A
    # normal mode, or no guess: nothing is charged
    assert not doomed_share(MultiGame(lex, 2, matrix=m), np.arange(5), m, pair).any()


def test_samples_are_a_function_of_the_state_and_bad_ones_are_refused():
    game = MultiGame(LEX, 2, hard=True, answers=[LEX.answers[2], LEX.answers[9]], matrix=M)
    game.guess(WORDS[11])
    a = sample_tuples(game, game.active)
    again = MultiGame(LEX, 2, hard=True, answers=[LEX.answers[2], LEX.answers[9]], matrix=M)
    again.guess(WORDS[11])
    np.testing.assert_array_equal(a, sample_tuples(again, again.active))
    for j, b in enumerate(game.active):
        assert np.isin(a[:, j], game.candidates(b)).all()
    other = MultiGame(LEX, 2, hard=True, matrix=M)
    other.guess(WORDS[12], [feedback_code(WORDS[12], LEX.answers[2]), feedback_code(WORDS[12], LEX.answers[9])])
    assert not np.array_equal(a, sample_tuples(other, other.active))
    with pytest.raises(WordlebotError, match="one per open board"):
        doomed_share(game, np.arange(3), M, a[:, :1])
    outside = next(i for i in range(LEX.n_answers) if i not in set(game.candidates(game.active[0]).tolist()))
    bad = a.copy()
    bad[0, 0] = outside
    with pytest.raises(WordlebotError, match="not one of its candidates"):
        doomed_share(game, np.arange(3), M, bad)
    with pytest.raises(WordlebotError, match="guess ids"):
        doomed_share(game, np.array([LEX.n_guesses]), M, a)
    with pytest.raises(WordlebotError, match="one count per guess"):
        doomed_share(game, np.arange(3), M, a, np.array([1, 2]))


def test_every_tuple_of_a_small_game_agrees_with_the_rule():
    """All answer pairs of the mini lists after one shared row, as the samples: the same as the
    rule by hand (the sampler plays no part)."""
    game = MultiGame(LEX, 2, hard=True, matrix=M)
    pair = (LEX.answers[3], LEX.answers[8])
    g0 = WORDS[60]
    game.guess(g0, [feedback_code(g0, pair[0]), feedback_code(g0, pair[1])])
    tuples = np.array(list(itertools.product(game.candidates(0), game.candidates(1))), np.int64)
    rows = [[(g0, feedback_code(g0, pair[0]))], [(g0, feedback_code(g0, pair[1]))]]
    got = doomed_share(game, np.arange(LEX.n_guesses), M, tuples)
    want = [np.mean([_naive_doomed(g, rows, (LEX.answers[a], LEX.answers[b])) for a, b in tuples]) for g in LEX.guesses]
    np.testing.assert_array_equal(got, np.array(want))


def test_charging_the_deadlocks_wins_more_hard_mode_games(monkeypatch):
    """Hard-mode Dordle on lists of 400 words over 12 letters (100 answers), 60 seeded games, the
    one-step policy (the endgame search would take minutes here) as shipped against the same
    with the deadlock charge off: off, it played the usual informative guesses and lost both
    boards in 44 games, mean score 13.20; on, 31 and 11.43 when this was written.  Outcomes of
    real games, not the charge itself."""
    from wordlebot.multi import openings, policy
    from wordlebot.multi.simulate import answer_sets, policy_chooser, simulate

    lex, m = LEX12, M12
    sets = answer_sets(lex, 2, 60, 0)
    monkeypatch.setattr(openings, "save_first_move", lambda *a, **k: None)
    monkeypatch.setattr(openings, "load_first_move", lambda *a, **k: None)

    def play(first, later):
        monkeypatch.setattr(policy, "DEADLOCK_WEIGHT_FIRST", first)
        monkeypatch.setattr(policy, "DEADLOCK_WEIGHT", later)
        policy._openings.clear()
        return simulate(lex, 2, policy_chooser(m, search=False), sets, matrix=m, hard=True)

    shipped = (policy.DEADLOCK_WEIGHT_FIRST, policy.DEADLOCK_WEIGHT)
    assert min(shipped) > 0
    off, on = play(0.0, 0.0), play(*shipped)
    both_lost = [sum(s == 16 for s in r.scores) for r in (off, on)]  # 2 boards x (7 guesses + 1)
    assert both_lost[1] <= both_lost[0] - 8, both_lost
    assert on.mean <= off.mean - 1.0, (off.mean, on.mean)


def test_hard_mode_suggestions_learn_something_and_say_what_they_risk(tmp_path, monkeypatch):
    """Every hard-mode suggestion before the endgame search (first and second move) splits a
    board's candidates or can be an answer (checked with the textbook feedback), and its why
    gives the share of the sampled pairs after which no board could be solved, as the rule by
    hand counts it."""
    from wordlebot.multi import policy, suggest

    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    monkeypatch.setattr(policy, "_openings", {})
    game = MultiGame(LEX12, 2, hard=True, answers=[LEX12.answers[5], LEX12.answers[17]], matrix=M12)
    risky = 0
    for move in range(2):
        samples = sample_tuples(game, game.active)
        rows = [[(r.guess, r.patterns[b]) for r in game.rows] for b in game.active]
        ranked = suggest(game, top=8, matrix=M12)
        assert len(ranked) == 8
        for s in ranked:
            assert not s.searched
            splits = [
                len({feedback_code(s.word, LEX12.answers[a]) for a in game.candidates(b)}) > 1
                or s.word in {LEX12.answers[a] for a in game.candidates(b)}
                for b in game.active
            ]
            assert any(splits), s
            share = np.mean([_naive_doomed(s.word, rows, tuple(LEX12.answers[a] for a in t)) for t in samples])
            if share > 0:
                risky += 1
                assert s.why.endswith(f"; hard mode: loses every board in {share:.0%} of likely cases"), s
            else:
                assert "loses every board" not in s.why
        game.guess(ranked[0].word)
        assert not game.over and not game.stuck
    assert risky  # (the texts were checked, not only their absence)


def test_the_readme_figures_for_classic_dordle(official):
    """README: SALET loses about 60 % of classic Dordle pairs at once in hard mode, ZOPPO about
    10 % (300 seeded pairs of distinct answers, uniform, the rule by hand), the kernel agrees pair
    by pair, and the policy opens with ZOPPO, saying its share of likely (prior-weighted) pairs."""
    import random

    from wordlebot.app.wordsets import load_lexicon
    from wordlebot.core.matrix import pattern_matrix
    from wordlebot.multi import suggest

    lex = load_lexicon("classic", data_dir=official)
    m = pattern_matrix(lex)
    rng = random.Random(0)
    pairs = [tuple(rng.sample(range(lex.n_answers), 2)) for _ in range(300)]
    game = MultiGame(lex, 2, hard=True, matrix=m)
    for word, want in (("salet", 0.60), ("zoppo", 0.10)):
        by_hand = np.mean([_naive_doomed(word, [[], []], (lex.answers[a], lex.answers[b])) for a, b in pairs])
        assert by_hand == pytest.approx(want, abs=0.025), word
        assert doomed_share(game, np.array([lex.id(word)]), m, np.array(pairs))[0] == by_hand
    top = suggest(game, top=1, matrix=m)[0]
    assert top.word == "zoppo" and top.why.endswith("; hard mode: loses every board in 5% of likely cases")


def test_hard_mode_suggestions_are_the_same_from_threads_and_in_another_process():
    """The tuples are drawn from a generator seeded by the state: four threads asking at once,
    and a fresh Python process, rank the same words with the same costs and the same whys."""
    import json
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from wordlebot.multi import suggest

    def state():
        game = MultiGame(LEX12, 2, hard=True, answers=[LEX12.answers[8], LEX12.answers[30]], matrix=M12)
        game.guess(WORDS12[45])
        return game

    def ranked(game):
        return [[s.word, round(s.cost, 12), s.why] for s in suggest(game, top=5, matrix=M12, search=False)]

    here = ranked(state())
    assert any("loses every board" in why for _, _, why in here)
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda _: ranked(state()), range(8))) == [here] * 8
    code = f"""
import json, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_multi_deadlock import MultiGame, LEX12, M12, WORDS12
from wordlebot.multi import suggest
game = MultiGame(LEX12, 2, hard=True, answers=[LEX12.answers[8], LEX12.answers[30]], matrix=M12)
game.guess(WORDS12[45])
print(json.dumps([[s.word, round(s.cost, 12), s.why] for s in suggest(game, top=5, matrix=M12, search=False)]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == here
