"""Multi-board games (wordlebot.multi): the state, the policy, and the exact optimum of small
cases, which for one board must be the single-board optimum of tests/naive.py."""

import functools
import json
import shutil

import numpy as np
import pytest
from conftest import random_words
from naive import digits, feedback_code, optimal_total

from wordlebot.core.errors import HardModeError, InconsistentFeedbackError, InvalidFeedbackError, InvalidWordError
from wordlebot.core.words import Lexicon
from wordlebot.multi import (
    MultiGame,
    exact_expected_score,
    parse_multi_history,
    policy_expected_score,
    solve_time,
    suggest,
)

WORDS = random_words(120, length=5, alphabet="abcdeorst", seed=31)
LEX = Lexicon.from_lists(WORDS, WORDS[::3], name="mini")


def test_quordle_has_nine_guesses_and_feedback_goes_to_open_boards_only():
    answers = [LEX.answers[i] for i in (1, 5, 9, 13)]
    g = MultiGame(LEX, 4, answers=answers)
    assert g.max_guesses == 9 and g.name == "Quordle"
    first = answers[2]
    row = g.guess(first)
    assert row.patterns == tuple(feedback_code(first, a) for a in answers)
    assert g.solved_at == [None, None, 1, None] and g.active == [0, 1, 3]
    row = g.guess(answers[0])
    assert row.patterns[2] is None  # a solved board takes no more colours
    assert g.solved_at[:3] == [2, None, 1]
    for a in (answers[1], answers[3]):
        g.guess(a)
    assert g.solved and g.score() == 1 + 2 + 3 + 4


def test_a_row_that_breaks_one_board_is_refused_naming_it_and_changes_nothing():
    answers = [LEX.answers[i] for i in (2, 7)]
    g = MultiGame(LEX, 2)
    w = WORDS[0]
    good = [digits(w, a) for a in answers]
    g.guess(w, good)
    before = [g.candidates(b).copy() for b in range(2)]
    w2 = WORDS[4]
    bad = [digits(w2, answers[0]), "22221"]
    with pytest.raises(InconsistentFeedbackError, match="^board 2: "):
        g.guess(w2, bad)
    assert g.guesses_used == 1 and all(np.array_equal(g.candidates(b), before[b]) for b in range(2))
    with pytest.raises(InvalidFeedbackError, match="1 colour rows for 2 boards"):
        g.guess(w2, [digits(w2, answers[0])])
    with pytest.raises(InvalidFeedbackError, match="board 1: give the colours"):
        g.guess(w2, [None, digits(w2, answers[1])])
    with pytest.raises(InvalidWordError, match="not in the mini guess list"):
        g.guess("zzzzz", good)


def test_undo_takes_back_the_last_row_on_every_board_it_reached():
    answers = [LEX.answers[i] for i in (3, 8)]
    g = MultiGame(LEX, 2, answers=answers)
    g.guess(answers[0])
    g.guess(WORDS[10])
    after_one = [g.candidates(b).copy() for b in range(2)]
    g.guess(WORDS[11])
    assert str(g.undo()).startswith(WORDS[11] + ":-/")  # board 1 was solved: '-'
    assert all(np.array_equal(g.candidates(b), after_one[b]) for b in range(2))
    g.undo()
    g.undo()
    assert g.guesses_used == 0 and g.solved_at == [None, None]
    with pytest.raises(InvalidWordError, match="nothing to undo"):
        g.undo()


def test_hard_mode_applies_per_board_and_names_it():
    answers = [LEX.answers[i] for i in (4, 6)]
    g = MultiGame(LEX, 2, hard=True, answers=answers)
    first = next(w for w in WORDS if feedback_code(w, answers[1]) not in (0, 242))
    g.guess(first)
    refused = [w for w in WORDS if g.boards[1].hard_violation(w) and not g.boards[0].hard_violation(w)]
    assert refused  # legal on board 1, not on board 2
    with pytest.raises(HardModeError, match=f"^board 2: {refused[0].upper()} is not allowed: hard mode"):
        g.guess(refused[0])
    assert g.guesses_used == 1


def test_distinct_answers_and_enough_guesses_are_required():
    with pytest.raises(InvalidWordError, match="distinct"):
        MultiGame(LEX, 2, answers=[LEX.answers[0]] * 2)
    with pytest.raises(ValueError, match="cannot all be solved"):
        MultiGame(LEX, 4, max_guesses=3)


def test_solve_time_is_exact_for_one_and_two_candidates_and_grows():
    assert solve_time(1) == 1.0 and solve_time(2) == 1.5
    values = [solve_time(n) for n in range(1, 3000)]
    assert all(b >= a for a, b in zip(values, values[1:]))


def test_board_cost_kernel_against_a_plain_count():
    from wordlebot.core import kernels
    from wordlebot.core.matrix import build_matrix

    m = build_matrix(LEX.guesses, LEX.answers)
    cands = np.array([0, 3, 4, 9, 15, 22, 30, 31], np.int64)
    w = np.linspace(1, 2, cands.size)
    w /= w.sum()
    times = np.array([solve_time(n) for n in range(LEX.n_answers + 1)])
    guesses = np.arange(LEX.n_guesses, dtype=np.int64)
    out = np.empty(guesses.size)
    kernels._board_costs(m, guesses, cands, w, 242, 243, times, out)
    for g in guesses.tolist():
        parts = {}
        for a, wa in zip(cands.tolist(), w.tolist()):
            p = feedback_code(LEX.guesses[g], LEX.answers[a])
            n, mass = parts.get(p, (0, 0.0))
            parts[p] = (n + 1, mass + wa)
        want = 1.0 + sum(mass * solve_time(n) for p, (n, mass) in parts.items() if p != 242)
        assert out[g] == pytest.approx(want, rel=1e-12), LEX.guesses[g]


def test_the_estimate_counts_every_open_board_when_boards_share_candidates():
    """Boards with the same candidates are costed once (at the first move all are): the
    estimate is still every open board's plain count, summed, before and after a row that
    leaves two of three boards the same candidates."""
    from wordlebot.core.matrix import build_matrix
    from wordlebot.multi.policy import _estimate

    m = build_matrix(LEX.guesses, LEX.answers)

    def plain(game, g):
        total = 0.0
        for b in game.active:
            cands = game.candidates(b).tolist()
            w = LEX.prior[cands] / LEX.prior[cands].sum()
            parts = {}
            for a, wa in zip(cands, w.tolist()):
                p = feedback_code(LEX.guesses[g], LEX.answers[a])
                n, mass = parts.get(p, (0, 0.0))
                parts[p] = (n + 1, mass + wa)
            total += 1.0 + sum(mass * solve_time(n) for p, (n, mass) in parts.items() if p != 242)
        return total

    # a word that shows two answers the same colours and a third other ones
    codes = [[feedback_code(gw, aw) for aw in LEX.answers] for gw in LEX.guesses]
    g, a, b, c = next(
        (g, a, b, c)
        for g in range(LEX.n_guesses)
        for a in range(LEX.n_answers)
        for b in range(a + 1, LEX.n_answers)
        for c in range(LEX.n_answers)
        if codes[g][a] == codes[g][b] != codes[g][c] != 242 and codes[g][a] != 242
    )
    game = MultiGame(LEX, 3, answers=[LEX.answers[i] for i in (a, b, c)], matrix=m)
    pool = np.arange(LEX.n_guesses, dtype=np.int64)
    for row in range(2):
        got = _estimate(game, pool, m)
        for word in range(LEX.n_guesses):
            assert got[word] == pytest.approx(plain(game, word), rel=1e-12), (row, LEX.guesses[word])
        game.guess(LEX.guesses[g])
        assert np.array_equal(game.candidates(0), game.candidates(1))
        assert not np.array_equal(game.candidates(0), game.candidates(2))


def test_guesses_to_finish_counts_the_last_solve_and_losses_after_the_cap():
    answers = [LEX.answers[i] for i in (1, 2)]
    g = MultiGame(LEX, 2, answers=answers, max_guesses=3)
    g.guess(answers[1])
    g.guess(answers[0])
    assert (g.score(), g.guesses_to_finish(), g.value("guesses")) == (3, 2, 2)
    lost = MultiGame(LEX, 2, answers=answers, max_guesses=3)
    others = [w for w in LEX.guesses if w not in answers]
    lost.guess(answers[0])
    lost.guess(others[0])
    lost.guess(others[1])
    assert lost.over and (lost.score(), lost.guesses_to_finish()) == (1 + 4, 3 + 1)
    with pytest.raises(ValueError, match="unknown objective 'fewest'.*'score'.*'guesses'"):
        lost.value("fewest")


# --- exact optimum of small cases -------------------------------------------------------------

SMALL_G = random_words(14, length=5, alphabet="abcdeo", seed=5)
SMALL = Lexicon.from_lists(SMALL_G, SMALL_G[::2], name="small")
# A hard little case, typed by hand: eight answers that differ in one letter, and words that test
# several of those letters at once.  The policy is measurably off the optimum here.
ILLS = "bills fills hills kills mills pills tills wills".split()
HELPERS = "climb thumb whelp pluck fight champ blimp".split()
HAND = Lexicon.from_lists(ILLS + HELPERS, ILLS, name="hand")


@pytest.mark.parametrize("lex", [SMALL, HAND], ids=["random", "hand"])
def test_one_board_exact_is_the_single_board_optimum(lex):
    for cap in (6, 3, 2):
        # naive's fail_cost comes on top of the cap's guesses: 1 more makes a lost board cost cap + 1
        opt = optimal_total(list(lex.guesses), list(lex.answers), cap, fail_cost=1)
        assert exact_expected_score(lex, 1, max_guesses=cap) == pytest.approx(opt / lex.n_answers)


def _one_step(objective):
    return lambda game: suggest(game, top=1, objective=objective, search=False)[0].word


@pytest.mark.parametrize(
    "lex,boards,objective,gap",
    [
        (SMALL, 2, "score", 0.0),
        (HAND, 1, "score", 0.0477),
        (HAND, 2, "score", 0.0234),
        (SMALL, 2, "guesses", 0.0),
        (HAND, 2, "guesses", 0.0358),
    ],
    ids=["random-2", "hand-1", "hand-2", "random-2-guesses", "hand-2-guesses"],
)
def test_the_one_step_estimate_never_beats_the_exact_optimum_and_its_gap_is_measured(lex, boards, objective, gap):
    """The exact optimum is a lower bound for every policy; the gaps are the one-step
    estimate's alone (no endgame search), measured (2026-11-24): 0 on the random case; on the
    hand-made one 4.76 % (1 board), 2.33 % (2 boards; 3 boards: 1.02 %, too slow for a test),
    and 3.57 % in guesses to finish (2 boards)."""
    exact = exact_expected_score(lex, boards, objective=objective)
    played = policy_expected_score(lex, boards, _one_step(objective), objective=objective)
    assert played >= exact - 1e-9
    assert played <= exact * (1 + gap) + 1e-9
    assert gap == 0 or played > exact + 1e-9  # the gap is real: the search below has something to mend


# Ten _ILLS answers among 44 words: more words than the search may play beyond the candidates
# (EXTRA_WORDS), so it plays from a subset chosen by the estimate and must still find the optimum.
TEN_ILLS = ILLS + ["gills", "dills"]
WIDE = Lexicon.from_lists(
    TEN_ILLS
    + HELPERS
    + "frump chide swamp gawky knelt dwarf vodka".split()
    + random_words(20, length=5, alphabet="aeiouxyzqj", seed=3),
    TEN_ILLS,
    name="wide",
)


@pytest.mark.parametrize(
    "lex,boards,objective",
    [
        (SMALL, 2, "score"),
        (HAND, 1, "score"),
        (HAND, 2, "score"),
        (SMALL, 2, "guesses"),
        (HAND, 2, "guesses"),
        (WIDE, 1, "score"),
        (WIDE, 1, "guesses"),
        (WIDE, 2, "score"),
    ],
    ids=["random-2", "hand-1", "hand-2", "random-2-guesses", "hand-2-guesses", "wide-1", "wide-1-guesses", "wide-2"],
)
def test_with_the_endgame_search_the_policy_plays_the_exact_optimum(lex, boards, objective):
    """These games are small enough to be searched from the first guess or soon after: the
    policy's average over every answer tuple is the exact optimum (exact.py, a brute force over
    every word), and so is the value the search gives its first suggestion when the first state
    fits the search's budget (the hand-made board, the random Dordle; the wide lists and the
    hand-made Dordle are searched from their second guess)."""
    from wordlebot.multi import endgame

    assert len(endgame.answer_tuples(MultiGame(lex, boards))[0]) <= endgame.ENDGAME_TUPLES
    if lex is WIDE:
        assert lex.n_guesses - lex.n_answers > endgame.EXTRA_WORDS
    exact = exact_expected_score(lex, boards, objective=objective)
    first = suggest(MultiGame(lex, boards), top=1, objective=objective)[0]
    if lex is not WIDE and boards == 1 or lex is SMALL:
        assert first.searched
    if first.searched:
        assert first.cost == pytest.approx(exact)
    played = policy_expected_score(
        lex, boards, lambda g: suggest(g, top=1, objective=objective)[0].word, objective=objective
    )
    assert played == pytest.approx(exact, abs=1e-9)


def test_the_search_gives_up_past_its_budget_and_the_estimate_ranks():
    from wordlebot.multi import endgame

    def game():  # a state after one guess (the first move's ranking is kept per process)
        g = MultiGame(HAND, 2, answers=["bills", "hills"])
        g.guess("climb")
        return g

    searched = suggest(game(), top=3)
    assert all(r.searched and "searched" in r.why for r in searched)
    old = endgame.NODE_BUDGET
    endgame.NODE_BUDGET = 0  # the first state searched below the root is over it
    try:
        plain = suggest(game(), top=3)
    finally:
        endgame.NODE_BUDGET = old
    assert plain == suggest(game(), top=3, search=False) != searched
    assert not any(r.searched or "searched" in r.why for r in plain)


def test_a_searched_suggestion_is_a_function_of_the_state():
    """The same rows, reached in two games (one replayed from text), give the same ranking."""
    a = MultiGame(HAND, 2, answers=["bills", "hills"])
    a.guess("climb")
    b = MultiGame(HAND, 2)  # assist mode: the colours typed
    b.replay(parse_multi_history("climb:01101/01100"))
    first = suggest(a, top=5)
    assert first[0].searched
    assert suggest(b, top=5) == first == suggest(a, top=5)
    # however many are asked for: the search stops at the last one asked, the tie-break still picks
    c = MultiGame(SMALL, 2, answers=list(SMALL.answers[1:3]))
    c.guess(SMALL.guesses[0])
    for game in (a, c):  # (not first moves: their ranking is kept, so always asked for 10)
        many = suggest(game, top=8)
        assert many[0].searched
        for top in (1, 2, 3):
            assert suggest(game, top=top) == many[:top]


def test_the_policy_plays_a_known_answer_and_only_answers_at_the_end():
    answers = [LEX.answers[i] for i in (1, 2)]
    g = MultiGame(LEX, 2, answers=answers, max_guesses=3)
    g.guess(answers[0])  # board 1 solved; board 2 narrowed
    rows = suggest(g, top=3)
    if g.candidates(1).size == 1:
        assert rows[0].word == answers[1] and "answer is known" in rows[0].why
    g2 = MultiGame(LEX, 2, max_guesses=2)
    rows = suggest(g2, top=5)
    assert all(LEX.is_answer(r.word) for r in rows)  # 2 guesses for 2 boards: answers only
    assert all("can solve board" in r.why for r in rows)


# --- simulation --------------------------------------------------------------------------------


def test_answer_sets_are_seeded_and_distinct():
    from wordlebot.multi.simulate import answer_sets

    a = answer_sets(LEX, 4, 30, seed=7)
    assert a == answer_sets(LEX, 4, 30, seed=7) and a != answer_sets(LEX, 4, 30, seed=8)
    assert all(len(set(s)) == 4 and all(LEX.is_answer(w) for w in s) for s in a)


def test_joint_entropy_baseline_plays_as_the_textbook_sum_of_entropies():
    from naive import entropy_bits

    from wordlebot.core.matrix import build_matrix
    from wordlebot.multi.simulate import joint_entropy_chooser

    m = build_matrix(LEX.guesses, LEX.answers)
    choose = joint_entropy_chooser(m)
    answers = [LEX.answers[i] for i in (0, 11, 25)]
    game = MultiGame(LEX, 3, answers=answers, matrix=m)
    while not game.over:
        word = choose(game)
        cands = [[LEX.answers[i] for i in game.candidates(b).tolist()] for b in game.active]
        if any(len(c) == 1 for c in cands):
            assert word == next(c[0] for c in cands if len(c) == 1)
        else:
            total = {g: sum(entropy_bits(g, c) for c in cands) for g in LEX.guesses}
            best = max(total.values())
            assert word == next(g for g in LEX.guesses if total[g] > best - 1e-9)
        game.guess(word)


def test_simulate_command_compares_the_policy_with_the_baselines(tmp_path):
    import json

    from click.testing import CliRunner
    from conftest import write_lists

    from wordlebot.cli import cli

    files = write_lists(tmp_path, WORDS, WORDS[::3])
    runs = []
    for n in (1, 2):
        out = tmp_path / f"sim{n}.json"
        r = CliRunner().invoke(
            cli,
            ["simulate", "--boards", "4", "--games", "6", "--seed", "3", "--json", str(out)] + files,
            catch_exceptions=False,
        )
        assert r.exit_code == 0, r.output
        assert "Quordle" in r.output and "policy" in r.output and "joint-entropy" in r.output
        assert "one-step" in r.output and "mean guesses" in r.output and "plays for the score" in r.output
        runs.append(json.loads(out.read_text()))

    def played(run):  # all but the times
        return [{k: v for k, v in res.items() if not k.startswith("move_ms")} for res in run["results"]]

    assert played(runs[0]) == played(runs[1])
    for res in runs[0]["results"]:
        assert res["games"] == 6 and res["max_guesses"] == 9 and len(res["scores"]) == 6
        assert all(10 <= s <= 4 * 10 for s in res["scores"])  # 1+2+3+4 at best, 4 lost boards at worst
        assert 4 <= res["mean_guesses"] <= 9 + 4
    png = tmp_path / "dordle.png"
    r = CliRunner().invoke(
        cli, ["simulate", "--boards", "2", "--games", "3", "--objective", "guesses", "--plot", str(png)] + files
    )
    assert r.exit_code == 0 and "plays for the guesses" in r.output and "plot written to" in r.output, r.output
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") and png.stat().st_size > 5_000
    r = CliRunner().invoke(cli, ["simulate", "--boards", "2", "--objective", "fewest"] + files)
    assert r.exit_code == 2 and "'fewest' is not one of 'score', 'guesses'" in r.output, r.output


def test_simulate_hard_plays_every_chooser_by_the_rule(tmp_path):
    """``simulate --boards --hard`` plays hard mode (it once played normal mode and said nothing):
    every chooser's every guess goes through the game, which refuses a guess a board's hints
    bar (HardModeError would end the run), the table and the JSON say hard mode, and on the
    _ILLS lists, where the rule bites (exact optimum at cap 6: 11.32 hard against 6.14 normal,
    see the brute-force test), every chooser scores worse than in normal mode."""
    import json

    from click.testing import CliRunner
    from conftest import write_lists

    from wordlebot.cli import cli

    files = write_lists(tmp_path, list(HAND.guesses), list(HAND.answers))
    docs = {}
    for mode in ("normal", "hard"):
        out = tmp_path / f"{mode}.json"
        r = CliRunner().invoke(
            cli,
            ["simulate", "--boards", "2", "--games", "30", "--seed", "2", "--json", str(out)]
            + (["--hard"] if mode == "hard" else [])
            + files,
            catch_exceptions=False,
        )
        assert r.exit_code == 0, r.output
        assert ("(hard mode)" in r.output) == (mode == "hard")
        docs[mode] = json.loads(out.read_text())
    assert docs["hard"]["hard"] is True and docs["normal"]["hard"] is False
    normal = {res["chooser"]: res["mean"] for res in docs["normal"]["results"]}
    hard = {res["chooser"]: res["mean"] for res in docs["hard"]["results"]}
    assert set(hard) == set(normal) >= {"policy", "one-step", "joint-entropy"}
    assert all(hard[c] > normal[c] for c in hard), (normal, hard)


def test_assist_session_plays_a_whole_quordle_from_typed_colours():
    """As a person would: Enter takes the suggestion, the colours of the open boards are typed on
    one line; a bad line is refused naming the board and asked again; the game ends solved."""
    import re

    from rich.console import Console

    from wordlebot.term.multi_assist import MultiAssistSession

    answers = [LEX.answers[i] for i in (2, 9, 17, 30)]
    console = Console(record=True, width=100)
    said_bad = []

    def ask(prompt):
        if prompt.startswith("guess"):
            return ""
        m = re.match(r"colours for (\w+) on boards? ([\d ]+): ", prompt)
        if m:
            word, boards = m.group(1).lower(), [int(b) - 1 for b in m.group(2).split()]
            if not said_bad:
                said_bad.append(1)
                return " ".join(["22221"] * len(boards))  # leaves nothing on board 1
            return " ".join(digits(word, answers[b]) for b in boards)
        if prompt.startswith("game over"):
            return "quit"
        raise AssertionError(prompt)

    session = MultiAssistSession(LEX, 4, console, ask=ask)
    session.run()
    text = console.export_text()
    assert "board 1: row 1" in text and "leaves no" in text  # the bad line, named
    assert session.game.solved and "all 4 boards solved" in text
    assert session.game.score() == sum(session.game.solved_at)


@pytest.mark.official
def test_the_policy_does_not_walk_into_the_a_ed_trap(official):
    """A Quordle the policy once lost (nyt-3158, seeded set 9 of simulate's first run): board 1
    was HAZED among a dozen _A_ED words, and guessing them one by one with three guesses left
    could not reach it.  Counting the boards a guess leaves unfinishable near the cap, it wins."""
    from wordlebot.app.wordsets import load_lexicon

    lex = load_lexicon("nyt-3158", data_dir=official)
    game = MultiGame(lex, 4, answers=["hazed", "smell", "stark", "duked"])
    while not game.over:
        game.guess(suggest(game, top=1)[0].word)
    assert game.solved, [str(r) for r in game.rows]


def test_one_word_cannot_be_the_answer_of_two_boards():
    """The boards' answers are distinct words: a guess all green on two boards is refused and
    changes nothing; green again after it solved another board is refused by that board."""
    w, a2, a3 = LEX.answers[0], LEX.answers[5], LEX.answers[9]
    g = MultiGame(LEX, 3)
    with pytest.raises(InconsistentFeedbackError, match=f"^{w.upper()} is all green on boards 1, 3"):
        g.guess(w, ["22222", digits(w, a2), "22222"])
    assert g.guesses_used == 0 and all(g.candidates(b).size == len(LEX.answers) for b in range(3))
    g.guess(w, ["22222", digits(w, a2), digits(w, a3)])
    other = WORDS[4]
    g.guess(other, [None, digits(other, a2), digits(other, a3)])
    with pytest.raises(InconsistentFeedbackError, match="^board 2: row 3 .* leaves no possible word"):
        g.guess(w, [None, "22222", digits(w, a3)])  # its first colours there already ruled it out
    assert g.guesses_used == 2


def test_rows_are_replayed_from_text_and_a_refusal_names_row_and_board():
    answers = [LEX.answers[i] for i in (4, 10)]
    w1, w2 = WORDS[1], WORDS[2]
    text = f"{w1}:{digits(w1, answers[0])}/{digits(w1, answers[1])}, {w2}:{digits(w2, answers[0])}/-"
    rows = parse_multi_history(text)
    assert rows == [(w1, [digits(w1, answers[0]), digits(w1, answers[1])]), (w2, [digits(w2, answers[0]), None])]
    g = MultiGame(LEX, 2)
    with pytest.raises(InvalidFeedbackError, match="^row 2: board 2: give the colours"):
        g.replay(rows)
    assert g.guesses_used == 1  # the rows before the refused one stay played
    g = MultiGame(LEX, 2)
    g.replay([rows[0], (w2, [digits(w2, answers[0]), digits(w2, answers[1])])])
    assert [str(r) for r in g.rows] == [text.split(", ")[0], f"{w2}:{digits(w2, answers[0])}/{digits(w2, answers[1])}"]
    with pytest.raises(InvalidFeedbackError, match=r"^row 1: 'salet' is not GUESS:COLOURS"):
        parse_multi_history("salet")


def test_searched_suggestions_are_the_same_from_threads_at_once_and_in_another_process():
    """The endgame search's budget counts states, not time: four threads asking at once, and a
    fresh Python process, rank the same words with the same costs."""
    import json
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    def states():
        out = []
        for answers, first in (
            (["bills", "hills"], "climb"),
            (["mills", "tills"], "whelp"),
            (["kills", "wills"], "thumb"),
        ):
            g = MultiGame(HAND, 2, answers=answers)
            if first:
                g.guess(first)
            out.append(g)
        return out

    def ranked(game):
        return [(r.word, round(r.cost, 12), r.searched) for r in suggest(game, top=4, objective="guesses")]

    here = [ranked(g) for g in states()]
    assert all(rows[0][2] for rows in here)
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert list(pool.map(ranked, states() * 2)) == here * 2
    code = f"""
import json, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_multi import HAND, MultiGame, suggest
out = []
for answers, first in (["bills", "hills"], "climb"), (["mills", "tills"], "whelp"), (["kills", "wills"], "thumb"):
    g = MultiGame(HAND, 2, answers=answers)
    if first:
        g.guess(first)
    out.append([(r.word, round(r.cost, 12), r.searched) for r in suggest(g, top=4, objective="guesses")])
print(json.dumps(out))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) == [[list(r) for r in rows] for rows in here]


def test_endgame_split_kernel_against_a_plain_grouping():
    """One state of the endgame search, every word: its parts (the tuples showing the same
    colours on every open board), their probabilities, and the floor of each, counted by hand."""
    from wordlebot.core import kernels
    from wordlebot.core.matrix import build_matrix
    from wordlebot.multi import endgame

    m = build_matrix(LEX.guesses, LEX.answers)
    cands = [np.array([0, 3, 4, 9]), np.array([1, 5, 6]), np.array([2, 7, 8, 11, 12])]
    tuples = np.array([t for t in __import__("itertools").product(*cands) if len(set(t)) == 3], np.int64)
    weights = np.linspace(1, 3, len(tuples))
    weights /= weights.sum()
    words = np.arange(LEX.n_guesses, dtype=np.int64)
    colours = np.ascontiguousarray(m[words][:, tuples])
    answer_of = LEX.answer_of_guess[words].astype(np.int64)
    ids = np.arange(1, len(tuples), 2)  # a state: every other tuple
    open_boards = np.array([0, 2], np.int64)  # board 2 solved before
    t, cap = 4, 8
    solver = endgame._Solver(
        colours, weights, 242, cap, by_guesses=False, n_patterns=243, tuples=tuples, answer_of_word=answer_of
    )
    floors = np.array([solver.bound(k, t + 1) for k in range(3)])
    later = np.array([solver.bound(k, t + 2) for k in range(3)])
    assert list(floors) == [0, 6, 6 + 7] and list(later) == [0, 7, 7 + 8]
    out = kernels.EndgameSplit.empty(words.size, ids.size)
    boards = kernels.EndgameBoards(colours, weights, tuples, answer_of, 242, 243, int(tuples.max()) + 1, False)
    kernels._endgame_split(boards, kernels.EndgameState(ids, open_boards, float(t + 1), floors, later, True), out)
    order, first, count, lo, hi = out.order, out.first, out.count, out.lo, out.hi
    mass, floor, left, settled, lower = out.mass, out.floor, out.left, out.settled, out.lower
    for k in range(words.size):
        groups = {}
        for i, row in enumerate(ids.tolist()):
            groups.setdefault(tuple(digits(LEX.guesses[k], LEX.answers[tuples[row, b]]) for b in (0, 2)), []).append(i)
        got = {frozenset(order[k, lo[p] : hi[p]].tolist()): p for p in range(first[k], first[k] + count[k])}
        assert set(got) == {frozenset(g) for g in groups.values()}
        want_lower = 0.0
        for key, members in groups.items():
            p = got[frozenset(members)]
            rows = ids[members]
            part_mass = weights[rows].sum()
            n_green = sum(c == "22222" for c in key)
            n_left = 2 - n_green
            chance = {}
            for row in rows.tolist():
                for b in (0, 2):
                    a = tuples[row, b]
                    if LEX.answers[a] != LEX.guesses[k]:
                        chance[a] = chance.get(a, 0.0) + weights[row]
            lucky = min(1.0, max(chance.values(), default=0.0) / part_mass)
            want = (t + 1) * n_green + (lucky * floors[n_left] + (1 - lucky) * later[n_left] if n_left else 0.0)
            assert mass[p] == pytest.approx(part_mass) and floor[p] == pytest.approx(want)
            assert left[p] == n_left and settled[p] == (n_left == 0 or len(members) == 1)
            want_lower += part_mass * want
        useless = len(groups) == 1 and "22222" not in next(iter(groups))
        assert lower[k] == (np.inf if useless else pytest.approx(want_lower / weights[ids].sum()))


def test_the_first_move_is_kept_on_disk_and_a_bad_file_is_ranked_again(tmp_path, monkeypatch, caplog):
    """A new process reads the first move's ranking instead of computing it; a corrupt or foreign
    file is ranked again and rewritten; a folder that cannot be written to changes nothing."""
    from wordlebot.multi import openings, policy

    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    monkeypatch.setattr(policy, "_openings", {})
    game = MultiGame(LEX, 3)
    first = suggest(game, top=5)

    def path_of(g, objective="score"):  # the policy's constants are part of the key (read at the call)
        return openings.first_move_path(g, objective, True, policy._book_settings())

    path = path_of(game)
    assert path.parent == tmp_path / "openings" and path.name.startswith("book-multi-")
    doc = json.loads(path.read_text())
    assert doc["boards"] == 3 and len(doc["rows"]) == policy.OPENING_ROWS

    def refuse(*args):
        raise AssertionError("ranked again")

    monkeypatch.setattr(policy, "_openings", {})  # as a new process
    with monkeypatch.context() as m:
        m.setattr(policy, "_rank", refuse)
        assert suggest(game, top=5) == first
        assert suggest(MultiGame(LEX, 3), top=policy.OPENING_ROWS)[:5] == first
    assert path_of(game, "guesses") != path  # each objective its own file
    assert path_of(MultiGame(LEX, 3, hard=True)) != path
    with monkeypatch.context() as m:  # a tuning constant changed: another file (one once did not)
        m.setattr(policy, "DEADLOCK_WEIGHT", policy.DEADLOCK_WEIGHT * 2)
        assert path_of(game) != path

    for bad in (
        "{not json",
        json.dumps({"version": 1, "boards": 3, "rows": [["zzzzz", 1.0, [], "", False]]}),
        json.dumps({"version": 1, "boards": 2, "rows": doc["rows"]}),
        "[]",
    ):
        path.write_text(bad)
        monkeypatch.setattr(policy, "_openings", {})
        with caplog.at_level("WARNING"):
            assert suggest(game, top=5) == first
        assert "is unusable" in caplog.text and json.loads(path.read_text()) == doc
        caplog.clear()

    from wordlebot.core import cache_store

    assert [(f.kind, f.words, f.current) for f in cache_store.scan(tmp_path) if f.path == path] == [
        ("book", "mini", True)
    ]
    # the bad files were set aside (issue 41), under a temporary name the cache's tidying sweeps
    assert (tmp_path / "openings" / f".{path.name}.bad.part").exists()
    shutil.rmtree(tmp_path / "openings")
    (tmp_path / "openings").write_text("a file where the folder should be")  # (root ignores modes)
    monkeypatch.setattr(policy, "_openings", {})
    with caplog.at_level("WARNING"):
        assert suggest(game, top=5) == first
    assert "could not keep the multi-board first move" in caplog.text


@pytest.mark.parametrize("lex,boards", [(SMALL, 2), (HAND, 2), (WIDE, 2)], ids=["random", "hand", "wide"])
def test_the_exact_value_of_the_search_without_limits_is_the_brute_force_optimum(lex, boards):
    """``endgame.exact_value`` (every word, no budget: bench/bench_multi_exact.py measures the
    policy with it on reduced real lists) against exact.py's brute force."""
    from wordlebot.core.matrix import build_matrix
    from wordlebot.multi.endgame import exact_value

    m = np.asarray(build_matrix(lex.guesses, lex.answers))
    for objective in ("score", "guesses"):
        want = exact_expected_score(lex, boards, objective=objective)
        assert exact_value(MultiGame(lex, boards, matrix=m), m, objective) == pytest.approx(want, abs=1e-9)
    with pytest.raises(ValueError, match="hard mode"):
        exact_value(MultiGame(lex, boards, hard=True, matrix=m), m)
    with pytest.raises(ValueError, match="too big"):
        exact_value(MultiGame(lex, boards, matrix=m), m, max_tuples=3)


@pytest.mark.official
def test_the_first_suggestion_does_not_depend_on_how_many_are_asked_for(official):
    """A classic Dordle state whose search fits the budget for the best word alone but not for
    five (found by review: asked for 5 rows, the policy once fell back to the estimate and played
    HINGS where asked for 1 it played DEATH; simulate asks for 1, the shells for 5)."""
    from wordlebot.app.wordsets import load_lexicon

    lex = load_lexicon("classic", data_dir=official)
    g = MultiGame(lex, 2, answers=["meaty", "stint"])
    g.guess("roate")
    first = suggest(g, 1)[0]
    assert first.searched
    for top in (2, 3, 5, 10, 20):
        rows = suggest(g, top)
        assert rows[0] == first and all(r.searched for r in rows) and len(rows) <= top


@pytest.mark.parametrize("objective", ["score", "guesses"])
def test_the_exact_value_counts_lost_boards_with_the_penalty(objective):
    """Caps so tight that boards are lost: the search's value against exact.py's brute force
    with a lost board costing the cap plus one plus ``LOSS_PENALTY`` (score), or the cap plus
    one per lost board plus ``LOSS_PENALTY`` (guesses: exact.py counts the cap and the boards
    left, the penalty added here per game that is lost)."""
    from wordlebot.core.matrix import build_matrix
    from wordlebot.multi.endgame import LOSS_PENALTY, exact_value

    m = np.asarray(build_matrix(HAND.guesses, HAND.answers))
    for boards, cap in ((1, 2), (2, 3), (2, 4)):
        game = MultiGame(HAND, boards, max_guesses=cap, matrix=m)
        got = exact_value(game, m, objective)
        if objective == "score":
            want = exact_expected_score(HAND, boards, max_guesses=cap, fail_cost=cap + 1 + LOSS_PENALTY)
        else:
            want = _exact_guesses_with_penalty(HAND, boards, cap, LOSS_PENALTY)
        assert got == pytest.approx(want, abs=1e-9), (boards, cap)
        # boards are lost at these caps even in the best play: the penalty is counted
        assert got > exact_expected_score(HAND, boards, max_guesses=cap, objective=objective) + 1
    # and at a roomy cap the penalty never counts: the plain optimum
    assert exact_value(MultiGame(HAND, 1, matrix=m), m, objective) == pytest.approx(
        exact_expected_score(HAND, 1, objective=objective)
    )


def _exact_guesses_with_penalty(lex, boards, cap, penalty):
    """Every strategy, brute force (tuples of distinct answers, uniform): the expected guesses to
    finish, a lost game counting the cap, one per open board, and ``penalty``."""
    import itertools

    tuples = list(itertools.permutations(range(lex.n_answers), boards))
    green = 242

    @functools.cache
    def value(state, solved, t):
        open_boards = [b for b in range(boards) if not solved[b]]
        if t == cap:
            return (cap + len(open_boards) + penalty) * len(state)
        best = float("inf")
        for g in range(lex.n_guesses):
            parts = {}
            for tup in state:
                key = tuple(feedback_code(lex.guesses[g], lex.answers[tup[b]]) for b in open_boards)
                parts.setdefault(key, []).append(tup)
            if len(parts) == 1 and green not in next(iter(parts)):
                continue
            total = 0.0
            for key, part in parts.items():
                now = list(solved)
                for b, p in zip(open_boards, key):
                    now[b] = now[b] or p == green
                total += (t + 1) * len(part) if all(now) else value(tuple(part), tuple(now), t + 1)
            best = min(best, total)
        return best

    return value(tuple(tuples), (False,) * boards, 0) / len(tuples)


def _hard_brute_force(lex, boards, cap, penalty):
    """Every strategy in hard mode, brute force over every word (tuples of distinct answers,
    uniform; score objective, a lost board costing the cap plus one plus ``penalty``): a guess
    must keep the hints every open board has shown (naive.hard_mode_legal, board by board: a
    board solved takes no more rows and sets no more rules).  Where no word is allowed, or none
    does anything, the open boards are lost."""
    import itertools

    from naive import hard_mode_legal

    tuples = list(itertools.permutations(range(lex.n_answers), boards))
    green = 3**lex.length - 1
    fail = cap + 1 + penalty

    @functools.cache
    def value(state, solved, t, rows):
        open_boards = [b for b in range(boards) if not solved[b]]
        if not open_boards:
            return 0.0
        lost = fail * len(open_boards) * len(state)
        if t == cap:
            return lost
        best = float("inf")
        for g in lex.guesses:
            if not all(hard_mode_legal(g, list(rows[b])) for b in open_boards):
                continue
            parts = {}
            for tup in state:
                parts.setdefault(tuple(feedback_code(g, lex.answers[tup[b]]) for b in open_boards), []).append(tup)
            if len(parts) == 1 and green not in next(iter(parts)):
                continue
            total = 0.0
            for key, part in parts.items():
                now, more = list(solved), list(rows)
                for b, p in zip(open_boards, key):
                    if p == green:
                        now[b] = True
                        total += (t + 1) * len(part)
                    else:
                        more[b] = rows[b] + ((g, p),)
                total += value(tuple(part), tuple(now), t + 1, tuple(more))
                if total >= best:
                    break
            best = min(best, total)
        return lost if best == float("inf") else best

    return value(tuple(tuples), (False,) * boards, 0, ((),) * boards) / len(tuples)


# (the brute force takes 0.2 s, 1.6 s and 8.4 s for these; a Dordle at cap 7, 150 s)
@pytest.mark.parametrize("boards,cap", [(1, 4), (2, 4), (2, 5)])
def test_the_hard_mode_search_is_the_brute_force_optimum(boards, cap):
    """The endgame search in hard mode with every word in its pool and no budget: its value is
    the optimum of a brute force over every word that follows the rule on every open board.
    On the _ILLS Dordle the rule bites: a green first letter on one board bars the other
    board's answer while the first is open, and the helpers are barred once a board shows
    -ILLS.  (A first version valued a known pair of answers as two more guesses without
    asking whether the rule allowed them: 9.57 against the brute force's 15.43 at cap 4.)"""
    import math

    from wordlebot.core.matrix import build_matrix
    from wordlebot.multi import endgame

    m = np.asarray(build_matrix(HAND.guesses, HAND.answers))
    game = MultiGame(HAND, boards, max_guesses=cap, matrix=m, hard=True)
    ranked = endgame.search(
        game,
        m,
        "score",
        lambda words: np.zeros(words.size),
        top=1,
        limit=5_000,
        extra_words=HAND.n_guesses,
        budget=math.inf,
    )
    want = _hard_brute_force(HAND, boards, cap, endgame.LOSS_PENALTY)
    assert min(v for _, v in ranked) == pytest.approx(want, abs=1e-9)
    # on two boards hard mode costs (15.43 against 8.29 in normal mode at cap 4); on one, nothing
    normal = endgame.exact_value(MultiGame(HAND, boards, max_guesses=cap, matrix=m), m)
    assert want > normal + 1 if boards == 2 else want == pytest.approx(normal)


def test_hard_mode_suggestions_are_searched_and_follow_the_rule_on_every_board():
    """A hard-mode Dordle after rows that set rules on both boards: the suggestions come from the
    search, and each is a word both boards' rules allow (the game takes it)."""
    game = MultiGame(HAND, 2, answers=["bills", "hills"], hard=True)
    game.guess("climb")
    ranked = suggest(game, top=5)
    assert ranked and all(r.searched for r in ranked)
    for r in ranked:
        trial = MultiGame(HAND, 2, answers=["bills", "hills"], hard=True)
        trial.guess("climb")
        trial.guess(r.word)  # raises HardModeError if a board's rule refuses it
    while not game.over:
        game.guess(suggest(game, top=1)[0].word)
    assert game.solved


def test_a_board_whose_answer_is_off_the_list_is_named_and_the_others_are_played_for():
    """Play mode with a word of the guess list as a board's answer (as a single game allows):
    once the rows show it is not in the answer list, the board is named (``off_list``), the
    suggestions aim at the other boards, and with every open board off the list there are none
    (the policy once kept replaying a word that could no longer narrow anything)."""
    extra = "zills"  # a guess, not an answer
    lex = Lexicon.from_lists(list(HAND.guesses) + [extra], list(HAND.answers), name="hand+")
    game = MultiGame(lex, 2, answers=[extra, "kills"])
    for word in ("thumb", "fight", "whelp"):
        game.guess(word)
        assert game.off_list == [] and suggest(game, top=1)  # some -ILLS word still fits board 1
    game.guess("pluck")  # now every first letter of the -ILLS answers is grey on board 1
    assert game.off_list == [0] and "board 1: the answer is not in the hand+ answer list" in game.off_list_note()
    assert game.candidates(1).tolist() == [lex.answers.index("kills")]
    assert suggest(game, top=1)[0].word == "kills"  # the known answer of the other board
    game.guess("kills")
    assert game.active == [0] and suggest(game, top=3) == []
    assert MultiGame(HAND, 2).off_list_note() is None


def test_a_hard_mode_game_where_no_board_can_be_solved_says_so_and_undo_frees_it():
    """BILLS and HILLS in hard mode after THUMB: board 1 showed a yellow B, board 2 a yellow H,
    so every guess must hold both letters, and neither answer does: no board can ever be
    solved.  The game says so (``stuck``), the policy suggests nothing (it once replayed THUMB
    to the cap), the simulation plays it out, lost, and undo frees it."""
    from wordlebot.multi.simulate import policy_chooser

    game = MultiGame(HAND, 2, answers=["bills", "hills"], hard=True)
    game.guess("thumb")
    assert [game.candidates(b).tolist() for b in (0, 1)] == [[ILLS.index("bills")], [ILLS.index("hills")]]
    for word in ("bills", "hills"):
        with pytest.raises(HardModeError):
            game.guess(word)
    assert game.stuck and suggest(game, top=3) == []
    assert "no board can be solved any more" in game.off_list_note()
    chooser = policy_chooser(np.asarray(game.boards[0].matrix))
    while not game.over:
        game.guess(chooser(game))
    assert game.active == [0, 1] and not game.stuck  # lost: over, so no longer "stuck"
    game = MultiGame(HAND, 2, answers=["bills", "hills"], hard=True)
    game.guess("thumb")
    game.undo()
    assert not game.stuck and suggest(game, top=1)
    normal = MultiGame(HAND, 2, answers=["bills", "hills"])
    normal.guess("thumb")
    assert not normal.stuck and suggest(normal, top=1)[0].word in ("bills", "hills")


def test_assist_in_hard_mode_refuses_a_barred_word_before_its_colours_and_says_when_stuck():
    """The assist session in hard mode, BILLS and HILLS: a word a board's hints bar is refused at
    once, naming the board (not after a line of colours); THUMB's colours leave the game stuck,
    which is said, and Enter with no suggestion to take asks for a word instead of failing."""
    from rich.console import Console

    from wordlebot.term.multi_assist import MultiAssistSession

    console = Console(record=True, width=120)
    script = iter(["thumb", "00001 01000", "", "bills", "undo", "q"])  # THUMB's colours on BILLS, HILLS
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return next(script)

    session = MultiAssistSession(HAND, 2, console, ask=ask, hard=True)
    session.run()
    text = " ".join(console.export_text().split())
    assert "no board can be solved any more" in text
    assert "there is no suggestion to take: type the word you played" in text
    assert "board 2: BILLS is not allowed: hard mode: the guess must contain H" in text
    # BILLS was refused at the guess prompt: no colours were asked for it
    assert not any(p.startswith("colours for BILLS") for p in prompts)
    assert "took back thumb" in text and session.game.rows == []


def test_check_guess_names_the_board_whose_hints_bar_the_word():
    game = MultiGame(HAND, 2, answers=["bills", "hills"], hard=True)
    assert game.check_guess("thumb") == HAND.id("thumb")
    game.guess("thumb")
    with pytest.raises(HardModeError, match="^board 2: BILLS is not allowed: hard mode: the guess must contain H"):
        game.check_guess("bills")
    with pytest.raises(InvalidWordError, match="not in the hand guess list"):
        game.check_guess("zzzzz")
    normal = MultiGame(HAND, 2, answers=["bills", "hills"])
    normal.guess("thumb")
    assert normal.check_guess("bills") == HAND.id("bills")
