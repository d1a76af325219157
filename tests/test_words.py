import numpy as np
import pytest

from wordlebot.core.errors import InvalidWordError, WordListError
from wordlebot.core.words import Lexicon, encode, read_word_file


def test_lexicon_indices_and_prior():
    lex = Lexicon.from_lists(["crane", "slate", "trace", "adieu"], ["trace", "crane"], [3, 1])
    assert lex.length == 5 and lex.n_guesses == 4 and lex.n_answers == 2
    assert lex.answer_ids.tolist() == [2, 0]
    assert lex.answer_of_guess.tolist() == [1, -1, 0, -1]
    assert np.allclose(lex.prior, [0.75, 0.25])
    assert lex.id("SLATE") == 1
    assert lex.is_answer("crane") and not lex.is_answer("slate")
    assert encode(["abc", "zyx"]).tolist() == [[0, 1, 2], [25, 24, 23]]


def test_uniform_prior_when_no_weights():
    lex = Lexicon.from_lists(["aaaa", "bbbb"], ["aaaa", "bbbb"])
    assert lex.prior.tolist() == [0.5, 0.5] and not lex.weighted


def test_unknown_word_names_the_list():
    lex = Lexicon.from_lists(["crane", "slate"], ["crane"], name="mini")
    with pytest.raises(InvalidWordError, match="'zzzzz' is not in the mini guess list"):
        lex.id("zzzzz")
    with pytest.raises(InvalidWordError, match="has 4 letters"):
        lex.id("cran")


def test_an_unknown_word_gets_the_words_one_slip_away():
    # Hand-checked: SALTE is SLATE and SALET with two neighbouring letters swapped, and SALTY,
    # SALTS, SAUTE with one letter changed; TALES, an anagram two slips away, is not offered.
    lex = Lexicon.from_lists(
        ["salet", "slate", "salty", "salts", "saute", "tales", "crane"],
        ["salts", "slate", "saute", "salty"],
        [1, 1, 5, 2],
        name="mini",
    )
    # swaps first, the answer (SLATE) before the mere guess (SALET); then the changed letter,
    # likelier answers first (SAUTE 5, SALTY 2, SALTS 1)
    assert lex.near("salte", limit=10) == ["slate", "salet", "saute", "salty", "salts"]
    assert lex.near("SALTE") == ["slate", "salet", "saute"]
    with pytest.raises(
        InvalidWordError,
        match=r"'salte' is not in the mini guess list \(7 words\); "
        r"did you mean SLATE, SALET or SAUTE\?$",
    ):
        lex.id("salte")
    with pytest.raises(InvalidWordError, match=r"'crnae' .*; did you mean CRANE\?$"):
        lex.id("crnae")
    assert lex.near("zzzzz") == [] and lex.near("slate") == [] and lex.near("slat") == []
    with pytest.raises(InvalidWordError, match=r"'zzzzz' is not in the mini guess list \(7 words\)$"):
        lex.id("zzzzz")


@pytest.mark.parametrize(
    "lines,fragment",
    [
        (["crane", "Slate"], "line 2: 'Slate' is not a lower-case a-z word"),
        (["crane", "sl4te"], "line 2"),
        (["crane", "slates"], "line 2: 'slates' has 6 letters but the list's words have 5"),
        (["crane", "slate", "crane"], "line 3: 'crane' repeats line 1"),
        (["crane", ""], "line 2: empty line"),
        (["abc"], "has 3 letters"),
        ([], "is empty"),
    ],
)
def test_validation_names_the_line(lines, fragment):
    with pytest.raises(WordListError) as exc:
        Lexicon.from_lists(lines, ["crane"] if lines else ["x"])
    assert fragment in str(exc.value)


def test_answers_must_be_guesses():
    with pytest.raises(WordListError, match="line 2: 'zebra' is not in guess list"):
        Lexicon.from_lists(["crane", "slate"], ["crane", "zebra"])


def test_weights_must_be_positive():
    with pytest.raises(WordListError, match="weights must be positive"):
        Lexicon.from_lists(["crane", "slate"], ["crane", "slate"], [1.0, 0.0])
    with pytest.raises(WordListError, match="expected 2 answer weights"):
        Lexicon.from_lists(["crane", "slate"], ["crane", "slate"], [1.0])


def test_read_word_file_reports_file_and_line(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("crane\nslate\nCRANE\n")
    with pytest.raises(WordListError, match=r"g.txt, line 3"):
        read_word_file(p)
    p.write_bytes(b"crane\nsl\xe9te\n")
    with pytest.raises(WordListError, match=r"line 2: not plain ASCII"):
        read_word_file(p)
    with pytest.raises(WordListError, match="no such file"):
        read_word_file(tmp_path / "missing.txt")
    p.write_text("crane\nslate\n")
    assert read_word_file(p) == ["crane", "slate"]


def test_fingerprint_depends_on_lists_only():
    a = Lexicon.from_lists(["crane", "slate"], ["crane"])
    b = Lexicon.from_lists(["crane", "slate"], ["crane"], [2.0])
    c = Lexicon.from_lists(["crane", "slate"], ["slate"])
    assert a.fingerprint == b.fingerprint != c.fingerprint
