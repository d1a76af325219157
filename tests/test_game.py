import numpy as np
import pytest
from conftest import random_words
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import consistent, feedback_code, hard_mode_legal

from wordlebot.core.errors import HardModeError, InconsistentFeedbackError, InvalidFeedbackError, InvalidWordError
from wordlebot.core.game import Game, HardConstraints, Refusal, Row, parse_history
from wordlebot.core.words import Lexicon

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
    hist = ",".join(
        f"{w}:{''.join(str((feedback_code(w, target) // 3**i) % 3) for i in range(5))}" for w in (WORDS[0], WORDS[9])
    )
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
    # which of the two is off: the word's letters and the tiles are both named
    with pytest.raises(InvalidFeedbackError, match="'salt' has 4 letters but its feedback has 5 tiles"):
        Row.from_str("salt:00000")
    with pytest.raises(InvalidFeedbackError, match="'3' is not a colour"):  # a bad colour is said first
        Row.from_str("salt:00300")
    g.guess(lex.answers[0], "22222")
    assert g.solved and g.over
    with pytest.raises(InvalidWordError, match="already solved"):
        g.guess(WORDS[0], "00000")


def test_classic_list_suggests_a_larger_word_set(classic, classic_matrix):
    g = Game(classic, matrix=classic_matrix)
    # ZYMIC (a valid guess, not an answer): all green can only mean a word outside the answers
    with pytest.raises(InconsistentFeedbackError, match="a word outside the list fits"):
        g.guess("zymic", "22222")


# --- a known answer outside the answer list; refused words ------------------------------------
# Hand-made lists: GUANO is a guess but not an answer.  Colours worked out by hand:
#   SLATE/GUANO 00200 (only the A), PIANO/GUANO 00222 (A N O);
#   SLATE/PIANO 00200, SLATE/ORGAN 00100, SLATE/CRANE 00202: after SLATE 00200 only PIANO fits;
#   PIANO/PIANO is 22222, so after PIANO 00222 no answer fits.
HAND_GUESSES = ["crane", "guano", "organ", "piano", "slate"]
HAND_ANSWERS = ["piano", "organ", "crane"]


@pytest.fixture
def hand():
    return Lexicon.from_lists(HAND_GUESSES, HAND_ANSWERS, [5, 3, 2], name="hand")


def test_a_game_that_knows_its_answer_accepts_an_answer_outside_the_list(hand):
    g = Game(hand, answer="GUANO")
    assert g.answer == "guano"
    assert g.guess("slate") == Row("slate", 2 * 9)  # 00200: the colours come from the answer
    assert g.candidate_words == ["piano"] and not g.off_list and g.off_list_note is None
    g.guess("piano")
    assert g.rows[-1].feedback_digits() == "00222"
    assert g.candidates.size == 0 and g.posterior.size == 0
    assert g.off_list and g.off_list_row == 2
    assert g.off_list_note == "the answer is not in the hand answer list"
    assert not g.solved and not g.over
    g.guess("guano")
    assert g.solved and g.over and len(g.rows) == 3 and g.off_list_row == 2
    # undo goes back to before the list ran out
    g.undo()
    g.undo()
    assert g.candidate_words == ["piano"] and not g.off_list and g.off_list_row is None


def test_the_same_colours_are_refused_when_the_answer_is_unknown(hand):
    g = Game(hand)
    g.guess("slate", "00200")
    with pytest.raises(InconsistentFeedbackError, match="row 2 .*a word outside the list fits"):
        g.guess("piano", "00222")
    assert len(g.rows) == 1 and g.candidate_words == ["piano"]
    with pytest.raises(InvalidFeedbackError, match="give the colours the game showed for PIANO"):
        g.guess("piano")


def test_a_known_answer_is_checked_and_so_are_colours_given_for_it(hand):
    with pytest.raises(InvalidWordError, match="'zzzzz' is not in the hand guess list"):
        Game(hand, answer="zzzzz")
    g = Game(hand, answer="guano")
    with pytest.raises(InconsistentFeedbackError, match="row 1 \\(SLATE 00000\\): the answer gives SLATE 00200"):
        g.guess("slate", "00000")
    assert g.rows == []
    g.guess("slate", "00200")  # the right colours may be given
    # an edit to another word gets that word's colours (CRANE/GUANO: A and N green, 00220)
    g.edit(0, "crane")
    assert g.rows == [Row.from_str("crane:00220")]
    with pytest.raises(InvalidWordError, match="the answer of this game"):
        g.refuse("guano")


def test_hard_mode_in_a_game_that_knows_its_answer(hand):
    g = Game(hand, hard=True, answer="guano")
    g.guess("slate")  # A green in the 3rd place
    with pytest.raises(HardModeError, match="^ORGAN is not allowed: hard mode: the 3rd letter must be A$"):
        g.guess("organ")
    assert len(g.rows) == 1


def test_refusing_a_candidate_removes_it_from_candidates_and_posterior(hand):
    g = Game(hand)
    assert g.refused == frozenset()
    g.refuse("Piano")
    assert g.refused == frozenset({hand.id("piano")})
    assert dict(zip(g.candidate_words, g.posterior.round(12).tolist())) == {"organ": 0.6, "crane": 0.4}
    with pytest.raises(InvalidWordError, match="PIANO was refused by the game"):
        g.guess("piano", "22222")
    with pytest.raises(InvalidWordError, match="PIANO was refused by the game"):
        g.check_guess("piano")
    with pytest.raises(InvalidWordError, match="already marked as refused"):
        g.refuse("piano")
    # undo takes the refusal back
    assert g.undo() == Refusal("piano")
    assert g.refused == frozenset() and sorted(g.candidate_words) == ["crane", "organ", "piano"]
    assert dict(zip(g.candidate_words, g.posterior.round(12).tolist())) == {"piano": 0.5, "organ": 0.3, "crane": 0.2}


def test_refusing_a_word_that_is_not_an_answer_keeps_the_candidates(hand):
    g = Game(hand)
    g.refuse("guano")
    assert g.refused == frozenset({hand.id("guano")}) and g.candidates.size == 3


def test_refusing_a_word_outside_the_guess_list_is_an_error(hand):
    g = Game(hand)
    with pytest.raises(
        InvalidWordError,
        match="'zzzzz' is not in the hand guess list .*only a word of the list can be marked as refused",
    ):
        g.refuse("zzzzz")
    assert g.refused == frozenset() and g.candidates.size == 3


def test_undo_takes_back_the_last_action_row_or_refusal(hand):
    g = Game(hand)
    g.refuse("organ")
    g.guess("crane", "00220")  # CRANE/PIANO: A N green; ORGAN is refused, CRANE would be 22222
    assert g.candidate_words == ["piano"]
    with pytest.raises(InvalidWordError, match="CRANE was played in row 1"):
        g.refuse("crane")
    copy = g.copy()
    assert g.undo() == Row.from_str("crane:00220")
    assert g.refused == frozenset({hand.id("organ")}) and sorted(g.candidate_words) == ["crane", "piano"]
    assert g.undo() == Refusal("organ")
    assert g.refused == frozenset() and g.candidates.size == 3
    # the copy kept its own moves
    assert copy.refused == frozenset({hand.id("organ")}) and copy.candidate_words == ["piano"]


def test_edit_replays_refusals(hand):
    g = Game(hand)
    g.guess("crane", "00220")
    g.refuse("organ")
    g.edit(0, "slate", "00200")  # SLATE/PIANO 00200: still only PIANO
    assert g.rows == [Row.from_str("slate:00200")] and g.refused == frozenset({hand.id("organ")})
    assert g.candidate_words == ["piano"]
    # SLATE 00100 leaves only ORGAN, which the game refused: the edit is refused, nothing changes
    with pytest.raises(
        InconsistentFeedbackError, match="after that edit of row 1, the refusal of ORGAN no longer fits"
    ):
        g.edit(0, "slate", "00100")
    assert g.rows == [Row.from_str("slate:00200")] and g.candidate_words == ["piano"]
    assert len(g.refused) == 1


def test_refusing_the_last_candidate_is_inconsistent(hand):
    g = Game(hand)
    g.guess("slate", "00200")
    with pytest.raises(InconsistentFeedbackError, match="PIANO is the only word left"):
        g.refuse("piano")
    assert g.refused == frozenset() and g.candidate_words == ["piano"]


def test_classic_guano_day_is_winnable(classic, classic_matrix):
    # 2023-03-27: GUANO, a classic guess but not one of its 2,315 answers.  SALET/GUANO: only the
    # A, in another place (01000), which many answers fit; GUANO itself then fits none.
    g = Game(classic, matrix=classic_matrix, answer="guano")
    g.guess("salet")
    assert g.rows[0].feedback_digits() == "01000" and g.candidates.size > 0
    assert "guano" not in classic.answers
    g.guess("guano")
    assert g.solved and g.off_list_row == 2
    assert g.off_list_note == "the answer is not in the classic answer list"


def test_the_game_enforces_its_guess_cap(hand):
    """Issue 41: ``Game(lex, max_guesses=1)`` took a second row; a history longer than the cap
    is refused at once, however long, with the error the web API gives."""
    g = Game(hand, max_guesses=1)
    g.guess("slate", "00100")  # ORGAN or (none other): not solved
    assert g.over and not g.solved
    with pytest.raises(InvalidWordError, match="allows 1 guess and all are played"):
        g.guess("organ", "22222")
    assert len(g.rows) == 1
    g.undo()
    g.guess("organ", "22222")  # undo gives the guess back
    # SLATE 00200 is 2 * 3**2 = 18 (only the A green), a row the game accepts again and again
    with pytest.raises(InvalidWordError, match="has 10000 rows; the game allows 6 guesses"):
        Game.from_history(hand, [Row("slate", 18)] * 10_000)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 1.9, True, False, [0, 0], {"a": 1}, 242.0, None, object()])
def test_feedback_of_the_wrong_type_is_an_invalid_feedback_error(hand, bad):
    """Issue 41: NaN, inf, a list or a dict leaked ValueError/OverflowError/TypeError, and 1.9
    or True were read as a code.  (None means "compute it", refused when the answer is unknown.)"""
    g = Game(hand)
    with pytest.raises(InvalidFeedbackError):
        g.guess("slate", bad)
    assert g.rows == []


def test_a_numpy_integer_is_a_pattern_code(hand):
    g = Game(hand)
    g.guess("slate", np.int64(18))
    assert g.rows[0].pattern == 18 and g.candidate_words == ["piano"]
