"""The offline wordfreq fallback leaves proper nouns out, and says so."""

import pytest

from wordlebot.app.wordsets import WordSieve, wordfreq_lexicon


def test_sieve_rules_on_hand_made_sources():
    lemmas = {"crane", "china"}.__contains__
    sieve = WordSieve(lower={"among", "china"}, capitalised={"aaron", "china", "paris"}, lemmas=lemmas)
    assert [w for w in ("crane", "among", "china", "aaron", "paris", "emoji") if sieve.common(w)] == [
        "crane",
        "among",
        "china",
    ]
    # a proper noun: capitalised only, and not a common word (China the country, china the plates)
    assert [w for w in ("crane", "china", "aaron", "paris", "emoji") if sieve.proper(w)] == ["aaron", "paris"]
    bare = WordSieve(None, None, lemmas)  # without the dictionary: only lemminflect's lexicon
    assert bare.common("crane") and not bare.common("among") and not bare.proper("aaron")
    assert "install english-words" in bare.source


def test_the_fallback_list_has_no_names():
    lex = wordfreq_lexicon(5)
    for name in ("aaron", "abdul", "accra", "paris", "james"):
        assert name not in lex.answers, name
    for word in ("crane", "wreck", "sugar", "apple"):
        assert word in lex.answers, word
    assert "names and words no dictionary lists left out" in lex.note and "AARON" in lex.note
    assert "dunlop" not in wordfreq_lexicon(6).answers


def test_the_dictionary_keeps_function_words_and_filters_guesses():
    pytest.importorskip("english_words")
    lex = wordfreq_lexicon(5)
    for word in ("among", "every", "eight", "fifty"):
        assert word in lex.answers, word
    for name in ("aaron", "james", "alice"):  # listed capitalised only in Webster's Second
        assert name not in lex.guesses, name


def test_sieve_needs_two_dictionaries_for_an_answer_and_one_for_a_guess():
    """Hand-made sources: a word only Webster's Second lists in lower case is an answer when the
    second dictionary has it too and Webster's does not also list it capitalised; a guess must be
    listed somewhere, or be an inflection of a listed word that is not a name."""
    sieve = WordSieve(
        lower={"among", "abbas", "allan", "trunk"},
        capitalised={"allan", "aaron"},
        lemmas={"crane"}.__contains__,
        second={"among", "trunk", "aaron"},
        stems=lambda w: {"trunks": ["trunk"], "aarons": ["aaron"], "amocos": ["amoco"]}.get(w, []),
    )
    words = ("crane", "among", "abbas", "allan", "trunk", "aaron", "alwyn", "amoco", "trunks", "aarons", "amocos")
    assert [w for w in words if sieve.common(w)] == ["crane", "among", "trunk"]
    assert [w for w in words if sieve.guessable(w)] == ["crane", "among", "abbas", "allan", "trunk", "trunks"]


def test_the_names_a_player_met_offline_are_gone():
    """Issue 39: the offline list offered ABBAS, ALAMO and ALLAN as answers (Webster's Second
    lists a rare lower-case sense of each; ALLAN capitalised too) and ALWYN and AMOCO as guesses
    (no dictionary lists them at all)."""
    pytest.importorskip("english_words")
    lex = wordfreq_lexicon(5)
    for name in ("abbas", "alamo", "allan", "alwyn", "amoco", "obama"):
        assert name not in lex.answers, name
    for name in ("alwyn", "amoco", "obama", "aaron"):
        assert name not in lex.guesses, name
    for word in ("among", "every", "three", "crane", "trunk", "becks"):
        assert word in lex.guesses, word
    for word in ("among", "every", "three", "crane"):
        assert word in lex.answers, word


def test_the_lists_are_kept_in_the_cache_and_read_back(monkeypatch, tmp_path, caplog):
    """Built once (seconds: wordfreq's whole list sieved), then read from the cache folder; a
    damaged file is built again, with a note, never used."""
    import json

    from wordlebot.app import wordsets

    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    wordsets._wordfreq_lists.cache_clear()
    built = wordsets._wordfreq_lists(4)
    files = list((tmp_path / "wordlists").glob("wordfreq-4-*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["answers"] == list(built[1])

    def refuse(length):
        raise AssertionError("built again")

    wordsets._wordfreq_lists.cache_clear()
    monkeypatch.setattr(wordsets, "_build_wordfreq_lists", refuse)
    assert wordsets._wordfreq_lists(4) == built  # read, not built

    files[0].write_text('{"version": 1, "length": 4, "guesses": ["ab')  # cut short
    monkeypatch.undo()
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    wordsets._wordfreq_lists.cache_clear()
    assert wordsets._wordfreq_lists(4) == built
    assert "unusable" in caplog.text
    assert json.loads(files[0].read_text())["guesses"] == list(built[0])  # replaced by a good one
    # issue 41: an edit that keeps it valid (a word dropped from the answers) is not trusted either
    doc = json.loads(files[0].read_text())
    files[0].write_text(json.dumps(dict(doc, answers=doc["answers"][1:])))
    caplog.clear()
    wordsets._wordfreq_lists.cache_clear()
    assert wordsets._wordfreq_lists(4) == built
    assert "checksum" in caplog.text
    wordsets._wordfreq_lists.cache_clear()
