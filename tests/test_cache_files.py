"""Issue 41: every cache file says what it is.  A book (single or multi-board) that is malformed,
edited, or another set's copied under this set's name is set aside with a warning and made
again: never trusted, never fatal, never blamed on the player."""

import json
import logging

import pytest
from click.testing import CliRunner
from conftest import random_words, write_lists

from wordlebot.cli import cli
from wordlebot.core import cache_seal
from wordlebot.core.errors import CacheError
from wordlebot.core.words import Lexicon
from wordlebot.multi import MultiGame, policy
from wordlebot.multi import openings as multi_openings
from wordlebot.policy.advisor import Advisor
from wordlebot.search.openings import load_book

GUESSES = random_words(120, length=5, alphabet="abcdeorst", seed=31)
ANSWERS = GUESSES[::3]
# another set: the same guesses, other answers (its book ranks other words first)
OTHER_ANSWERS = GUESSES[1::3]


@pytest.fixture
def cache(monkeypatch, tmp_path):
    folder = tmp_path / "cache"
    monkeypatch.setenv("WORDLEBOT_CACHE", str(folder))
    return folder


def _first_words(lex: Lexicon) -> list[str]:
    a = Advisor(lex)
    return [r.word for r in a.suggest(a.new_game(), 5)]


def test_a_book_is_sealed_with_its_key_and_checksum(cache):
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    a = Advisor(lex)
    a.suggest(a.new_game(), 3)
    doc = json.loads(a.book_file().read_text())
    assert a.book_file().name == f"book-{doc['key']}.json"  # the key is what the name says
    assert cache_seal.unseal(doc, doc["key"]) == doc
    with pytest.raises(CacheError, match="checksum"):
        cache_seal.unseal(dict(doc, first=doc["first"][1:]), doc["key"])
    with pytest.raises(CacheError, match="other inputs"):
        cache_seal.unseal(doc, "0" * 64)


def _bad_books(lex, other):
    """Contents for the book of ``lex``, each unusable: (label, text)."""
    a, b = Advisor(lex), Advisor(other)
    a.suggest(a.new_game(), 3)
    b.suggest(b.new_game(), 3)
    good = json.loads(a.book_file().read_text())
    theirs = b.book_file().read_text()
    edited = dict(good, first=[])  # an edit that keeps the key but not the checksum
    nan = dict(good, first=[[good["first"][0][0], "NaN", 0.0]] + good["first"][1:])
    resealed_nan = cache_seal.seal({k: v for k, v in nan.items() if k not in ("key", "checksum")}, good["key"])
    return [
        ("a list", "[]"),
        ("null", "null"),
        ("not json", "{"),
        ("replies a list", json.dumps(dict(good, second=[]))),
        ("first emptied", json.dumps(edited)),
        ("a NaN value", json.dumps(nan)),
        ("a NaN value, sealed again", json.dumps(resealed_nan)),
        ("another set's book", theirs),
    ]


@pytest.mark.parametrize("case", range(8))
def test_an_unusable_book_is_set_aside_and_rebuilt(cache, caplog, case):
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    other = Lexicon.from_lists(GUESSES, OTHER_ANSWERS, name="other")
    clean = _first_words(lex)  # on a clean cache
    label, text = _bad_books(lex, other)[case]
    path = Advisor(lex).book_file()
    path.write_text(text)
    with caplog.at_level(logging.WARNING):
        assert _first_words(lex) == clean, label
    assert "opening book" in caplog.text and "is unusable" in caplog.text, label
    assert (path.parent / f".{path.name}.bad.part").exists()
    # made again, sealed: the next run reads it without a word
    caplog.clear()
    a = Advisor(lex)
    assert load_book(a.search_for(False, 6), tag=a._policy_tag()) is not None
    assert _first_words(lex) == clean and "unusable" not in caplog.text


def test_a_book_that_is_a_folder_is_not_fatal(cache, caplog):
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    clean = _first_words(lex)
    path = Advisor(lex).book_file()
    path.unlink()
    path.mkdir()
    with caplog.at_level(logging.WARNING):
        assert _first_words(lex) == clean
    assert "is a folder" in caplog.text


@pytest.mark.parametrize("text", ["[]", "null", '{"version": 3, "first": [], "second": []}'])
def test_the_cli_survives_a_malformed_book(cache, tmp_path, text):
    """Issue 41: `echo '[]' > book-….json; wordlebot suggest` was an AttributeError traceback
    on every run."""
    files = write_lists(tmp_path, GUESSES, ANSWERS)
    run = CliRunner().invoke
    first = run(cli, ["suggest", "--top", "3", "--json"] + files, catch_exceptions=False)
    assert first.exit_code == 0, first.output
    (book,) = (cache / "openings").glob("book-*.json")
    book.write_text(text)
    again = run(cli, ["suggest", "--top", "3", "--json"] + files, catch_exceptions=False)
    assert again.exit_code == 0 and "Traceback" not in again.output
    assert json.loads(again.output[again.output.index("{") :])["suggestions"] == json.loads(first.output)["suggestions"]


# --- the multi-board first move -----------------------------------------------------------------


def test_a_multi_board_first_move_of_another_set_is_not_trusted(cache, caplog):
    policy._openings.clear()  # (kept in the process by other tests: this one reads the disk)
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    other = Lexicon.from_lists(GUESSES, OTHER_ANSWERS, name="other")
    mine = [s.word for s in policy.suggest(MultiGame(lex, 2), 5)]
    theirs = [s.word for s in policy.suggest(MultiGame(other, 2), 5)]
    assert mine != theirs  # (else the copy below proves nothing)
    settings = policy._book_settings()
    path = multi_openings.first_move_path(MultiGame(lex, 2), "score", True, settings)
    other_path = multi_openings.first_move_path(MultiGame(other, 2), "score", True, settings)
    path.write_text(other_path.read_text())
    policy._openings.clear()  # a new process
    with caplog.at_level(logging.WARNING):
        assert [s.word for s in policy.suggest(MultiGame(lex, 2), 5)] == mine
    assert "multi-board first move" in caplog.text and "other inputs" in caplog.text


@pytest.mark.parametrize("text", ["[]", "null", '{"rows": 5}'])
def test_a_malformed_multi_board_first_move_is_ranked_again(cache, caplog, text):
    policy._openings.clear()
    lex = Lexicon.from_lists(GUESSES, ANSWERS, name="mini")
    mine = [s.word for s in policy.suggest(MultiGame(lex, 2), 5)]
    path = multi_openings.first_move_path(MultiGame(lex, 2), "score", True, policy._book_settings())
    path.write_text(text)
    policy._openings.clear()
    with caplog.at_level(logging.WARNING):
        assert [s.word for s in policy.suggest(MultiGame(lex, 2), 5)] == mine
    assert "unusable" in caplog.text


# --- a read-only cache, and leftovers of killed writers ------------------------------------------


def test_a_read_only_cache_is_read(cache, tmp_path, monkeypatch):
    """Issue 41: a cache folder that cannot be written was ignored: every run computed its
    matrices and books again in a temporary folder.  (The tests run as root, whom modes do not
    stop: the folder is declared unwritable.)"""
    from wordlebot.core import paths
    from wordlebot.search import openings

    files = write_lists(tmp_path, GUESSES, ANSWERS)
    run = CliRunner().invoke
    first = run(cli, ["suggest", "--top", "3", "--json"] + files, catch_exceptions=False)
    assert first.exit_code == 0
    monkeypatch.setattr(paths, "cache_problem", lambda: f"{cache}: Read-only file system")

    def no_build(*args, **kwargs):
        raise AssertionError("the book was computed again")

    monkeypatch.setattr(openings, "build_book", no_build)
    again = run(cli, ["suggest", "--top", "3", "--json"] + files, catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert "cannot be written" in again.output and "reads the" in again.output
    doc = json.loads(again.output[again.output.index("{") :])
    assert doc["suggestions"] == json.loads(first.output)["suggestions"]


def test_clearing_a_read_only_cache_says_why_nothing_was_removed(cache, tmp_path, monkeypatch):
    from wordlebot.core import cache_store, paths

    files = write_lists(tmp_path, GUESSES, ANSWERS)
    run = CliRunner().invoke
    assert run(cli, ["suggest", "--top", "3"] + files).exit_code == 0
    monkeypatch.setattr(paths, "cache_problem", lambda: f"{cache}: Read-only file system")
    monkeypatch.setattr(cache_store, "_unlink", lambda p: False)  # what EROFS does
    r = run(cli, ["cache", "clear"])
    assert r.exit_code == 1 and "removed 0 files" in r.output
    assert "could not be removed (the cache folder cannot be written" in r.output and "Read-only" in r.output


def test_a_leftover_of_a_killed_writer_is_swept_at_once(cache):
    """Issue 41: the temporary files of killed writers (up to 178 MB) stayed for an hour.  A
    temporary file names its writer: once that process is gone it is swept at the next write."""
    import os
    import subprocess
    import sys
    import time

    from wordlebot.core import cache_store

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    books = cache / "openings"
    books.mkdir(parents=True)
    leftover = books / f".book-abc.json.{dead.pid}.k3j_x9q2.part"
    mine = books / f".book-def.json.{os.getpid()}.a8b7c6d5.part"
    recent = books / f".book-ghi.json.{dead.pid}.zz11yy22.part"
    for p in (leftover, mine, recent):
        p.write_bytes(b"x" * 100)
    old = time.time() - 2 * cache_store.TEMP_GRACE
    for p in (leftover, mine):
        os.utime(p, (old, old))
    swept = {f.path.name for f in cache_store.enforce(None)}
    # the dead writer's old file goes; a live writer's and a just-written one (the grace for a
    # writer on another machine sharing the folder) stay
    assert swept == {leftover.name}
    assert mine.exists() and recent.exists()
