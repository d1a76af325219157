import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import random_words
from naive import consistent, feedback_code, hard_mode_legal
from wordlebot.errors import HardModeError, InconsistentFeedbackError, InvalidFeedbackError, InvalidWordError
from wordlebot.game import Game, HardConstraints, Row, parse_history
from wordlebot.words import Lexicon

WORDS = random_words(400, alphabet="abcdeors", seed=21)


@pytest.fixture(scope="module")
def lex():
    return Lexicon.from_lists(WORDS, WORDS[::2], name="mini")


def test_candidates_follow_the_feedback(lex):
    target = lex.answers[17]
    g = Game(lex)
    rows = []
    for w in (WORDS[3], WORDS[50], WORDS[120]):
        code = feedback_code(w, target)
        g.guess(w, code)
        rows.append((w, code))
        assert g.candidate_words == [a for a in lex.answers if consistent(a, rows)]
    assert target in g.candidate_words


def test_history_string_round_trip(lex):
    target = lex.answers[5]
    hist = ",".join(f"{w}:{''.join(str((feedback_code(w, target) // 3**i) % 3) for i in range(5))}"
                    for w in (WORDS[0], WORDS[9]))
    g = Game.from_history(lex, hist)
    assert g.history() == hist
    assert parse_history(hist + ";\n") == g.rows
    assert eval(repr(g.rows[0])) == g.rows[0]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), st.sampled_from(WORDS), st.sampled_from(WORDS))
def test_hard_mode_rule_matches_reference(played, target, candidate):
    rows = [(w, feedback_code(w, target)) for w in played]
    cons = HardConstraints.none(5)
    for w, code in rows:
        cons = cons.add(w, code)
    want = hard_mode_legal(candidate, rows)
    assert (cons.violation(candidate) is None) == want
    mask = cons.mask(Lexicon.from_lists(WORDS, WORDS).guess_codes)
    assert bool(mask[WORDS.index(candidate)]) == want


def test_hard_mode_refuses_with_the_reason():
    words = ["brace", "cater", "cross", "react", "trace"]
    lex = Lexicon.from_lists(words, words)
    g = Game(lex, hard=True)
    g.guess("trace", feedback_code("trace", "brace"))  # 02222: R A C E green
    with pytest.raises(HardModeError, match="the 3rd letter must be A"):
        g.guess("cross", "00000")
    g2 = Game(lex, hard=True)
    g2.guess("trace", feedback_code("trace", "react"))  # 11221: T R E yellow, A C green
    before = g2.candidate_words
    with pytest.raises(HardModeError, match="hard mode: the guess must contain T"):
        g2.guess("brace", "00000")
    assert g2.candidate_words == before and len(g2.rows) == 1
    g2.set_hard(False)
    assert g2.hard_violation("brace") is None


def test_hard_mode_counts_repeated_letters():
    cons = HardConstraints.none(5).add("eerie", feedback_code("eerie", "there"))  # E E yellow/green
    assert cons.violation("there") is None
    assert cons.violation("tribe") == "hard mode: the guess must contain E 2 times"


def test_gray_letters_may_be_reused_in_hard_mode():
    cons = HardConstraints.none(5).add("crane", feedback_code("crane", "boost"))
    assert cons.violation("crane") is None


def test_inconsistent_feedback_names_the_row_and_changes_nothing(lex):
    target = lex.answers[3]
    g = Game(lex)
    g.guess(WORDS[1], feedback_code(WORDS[1], target))
    before = g.candidates.copy()
    with pytest.raises(InconsistentFeedbackError) as exc:
        g.guess(WORDS[2], "22221")
    assert exc.value.row == 2 and "row 2" in str(exc.value)
    assert len(g.rows) == 1 and np.array_equal(g.candidates, before)


def test_undo_and_edit(lex):
    target = lex.answers[40]
    g = Game(lex)
    for w in (WORDS[7], WORDS[77]):
        g.guess(w, feedback_code(w, target))
    after_one = Game.from_history(lex, [g.rows[0]]).candidates
    row = g.undo()
    assert row.guess == WORDS[77] and np.array_equal(g.candidates, after_one)
    g.guess(WORDS[77], feedback_code(WORDS[77], target))
    # edit row 1 to another word: the rest is replayed against the new first row
    g.edit(0, WORDS[8], feedback_code(WORDS[8], target))
    assert g.rows[0].guess == WORDS[8] and target in g.candidate_words
    # an edit that breaks a later row is refused and nothing changes
    snapshot = (g.history(), g.candidates.copy())
    with pytest.raises(InconsistentFeedbackError, match="after that edit of row 1, row 2 .* no longer fits"):
        g.edit(0, WORDS[8], "22222")
    assert (g.history(), g.candidates.tolist()) == (snapshot[0], snapshot[1].tolist())
    with pytest.raises(InvalidWordError, match="no row 5"):
        g.edit(4, WORDS[1])
    with pytest.raises(InvalidWordError, match="nothing to undo"):
        Game(lex).undo()


def test_checked_entry_points(lex):
    g = Game(lex)
    with pytest.raises(InvalidWordError, match="not in the mini guess list"):
        g.guess("zzzzz", "00000")
    with pytest.raises(InvalidFeedbackError):
        g.guess(WORDS[0], "0000")
    with pytest.raises(InvalidFeedbackError, match="GUESS:FEEDBACK"):
        Row.from_str("crane")
    g.guess(lex.answers[0], "22222")
    assert g.solved and g.over
    with pytest.raises(InvalidWordError, match="already solved"):
        g.guess(WORDS[0], "00000")


def test_classic_list_suggests_a_larger_word_set(classic, classic_matrix):
    g = Game(classic, matrix=classic_matrix)
    # ZYMIC (a valid guess, not an answer): all green can only mean a word outside the answers
    with pytest.raises(InconsistentFeedbackError, match="a word outside the list fits"):
        g.guess("zymic", "22222")
