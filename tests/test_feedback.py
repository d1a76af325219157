import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import feedback_code, feedback_rows_numpy

fb = importlib.import_module("wordlebot.core.feedback")  # the package also exports the function feedback
from wordlebot.core.errors import InvalidFeedbackError, InvalidWordError  # noqa: E402
from wordlebot.core.feedback import Feedback, all_green, format_digits, format_emoji, format_letters, parse_feedback  # noqa: E402

# The duplicate-letter traps of docs/ARCHITECTURE.md's conventions, written as digits (first letter first).
TRAPS = [
    ("error", "elder", "20002"),
    ("sease", "essay", "11110"),
    ("geese", "those", "00022"),
    ("added", "dread", "11012"),
    ("label", "skill", "10002"),
    ("speed", "abide", "00101"),
    ("speed", "erase", "10110"),
]


@pytest.mark.parametrize("guess,answer,digits", TRAPS)
def test_duplicate_letter_traps(guess, answer, digits):
    code = fb.feedback(guess, answer)
    assert format_digits(code, 5) == digits
    assert code == feedback_code(guess, answer)


def test_pattern_code_weights_first_letter_lowest():
    # first letter green only -> 2 * 3**0; last letter green only -> 2 * 3**4
    assert fb.feedback("axxxx", "ayyyy") == 2
    assert fb.feedback("xxxxa", "yyyya") == 2 * 81
    assert fb.feedback("crane", "crane") == all_green(5) == 242


words = st.integers(4, 11).flatmap(
    lambda n: st.tuples(st.text("abcde", min_size=n, max_size=n), st.text("abcde", min_size=n, max_size=n))
)


@given(words)
@settings(max_examples=600)
def test_feedback_matches_textbook_reference(pair):
    g, a = pair
    assert fb.feedback(g, a) == feedback_code(g, a)


@given(words)
@settings(max_examples=200)
def test_feedback_properties(pair):
    g, a = pair
    n = len(g)
    colours = fb.pattern_to_colours(fb.feedback(g, a), n)
    # greens exactly where letters agree
    assert [c == 2 for c in colours] == [x == y for x, y in zip(g, a)]
    # per letter, greens + yellows = min(count in guess, count in answer)
    for ch in set(g):
        marked = sum(1 for x, c in zip(g, colours) if x == ch and c > 0)
        assert marked == min(g.count(ch), a.count(ch))
    # solved iff equal
    assert (fb.feedback(g, a) == all_green(n)) == (g == a)


@given(words)
@settings(max_examples=200)
def test_print_and_parse_round_trip(pair):
    g, a = pair
    n = len(g)
    code = fb.feedback(g, a)
    for text in (
        format_digits(code, n),
        format_letters(code, n),
        format_letters(code, n).lower(),
        format_emoji(code, n),
        format_emoji(code, n, "light"),
        format_emoji(code, n, "contrast"),
    ):
        assert parse_feedback(text, n) == code


@pytest.mark.parametrize(
    "text",
    [
        "20110",
        "G.YY.",
        "gy..g"[:0] + "g.yy.",
        "GBYYB",
        "g-yy-",
        "gxyyx",
        "GXYYX",
        "🟩⬛🟨🟨⬛",
        "🟩⬜🟨🟨⬜",
        "🟧⬛🟦🟦⬛",
        "🟩️⬛️🟨️🟨️⬛️",
        " 2 0 1 1 0 ",
    ],
)
def test_every_input_format(text):
    assert parse_feedback(text, 5) == fb.colours_to_pattern([2, 0, 1, 1, 0])


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("2011", "has 4 tiles"),
        ("201102", "has 6 tiles"),
        ("20130", "'3' is not a colour"),
        ("gyqqg", "'q' is not a colour"),
        ("", "is empty"),
        ("🟩🟩🟥🟩🟩", "is not a colour"),
    ],
)
def test_bad_feedback_is_explained(text, fragment):
    with pytest.raises(InvalidFeedbackError) as exc:
        parse_feedback(text, 5)
    msg = str(exc.value)
    assert fragment in msg
    assert repr(text) in msg or text == ""


def test_bad_feedback_lists_accepted_formats():
    with pytest.raises(InvalidFeedbackError, match="digits 0/1/2"):
        parse_feedback("abcde", 5)


@pytest.mark.parametrize(
    "guess,answer",
    [("cran", "crane"), ("cr4ne", "crane"), ("", "crane"), ("abc", "abc"), ("abcdefghijkl", "abcdefghijkl")],
)
def test_bad_words_are_refused(guess, answer):
    with pytest.raises(InvalidWordError):
        fb.feedback(guess, answer)


def test_feedback_value_object():
    f = Feedback.from_str("🟩⬛🟨🟨⬛")
    assert f.digits() == "20110" and f.letters() == "G.YY." and f.emoji() == "🟩⬛🟨🟨⬛"
    assert eval(repr(f)) == f
    assert not f.solved and Feedback.of("crane", "crane").solved
    assert Feedback.from_str("2222", 4).length == 4


def test_numpy_reference_agrees_with_textbook():
    rng = np.random.default_rng(3)
    letters = np.array(list("abcdeos"))
    answers = ["".join(rng.choice(letters, 5)) for _ in range(400)]
    codes = np.array([[ord(c) - 97 for c in w] for w in answers])
    for g in ["speed", "eerie", "sooeo", "abcde", "ddddd"]:
        assert feedback_rows_numpy(g, codes).tolist() == [feedback_code(g, a) for a in answers]
