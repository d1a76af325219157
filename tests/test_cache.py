"""The cache folder as the user controls it: what `wordlebot cache` shows, clearing, the size
limit (least recently used first, never the file just written), older formats removed."""

from __future__ import annotations

import json
import os
import time

import pytest
from click.testing import CliRunner
from conftest import random_words

from wordlebot.cli.cache import cache
from wordlebot.core import cache_store
from wordlebot.core.cache_formats import BOOK_VERSION, WORDLIST_VERSION
from wordlebot.core.matrix import pattern_matrix
from wordlebot.core.words import Lexicon


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """An empty cache and config folder for this test."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("WORDLEBOT_CACHE", str(cache))
    monkeypatch.setenv("WORDLEBOT_CONFIG", str(tmp_path / "config"))
    monkeypatch.delenv("WORDLEBOT_CACHE_LIMIT", raising=False)
    return cache


def fill(folder, name: str) -> Lexicon:
    """A word set's matrix and its transpose, written by the library itself (its own lists: a
    matrix belongs to the lists, whatever the set's name)."""
    words = random_words(120, alphabet="abcdeilnorst", seed=sum(map(ord, name)))
    lex = Lexicon.from_lists(words, words[::2], name=name)
    pattern_matrix(lex, folder=folder)
    pattern_matrix(lex, folder=folder, transposed=True)
    return lex


def age(path, seconds_ago: float) -> None:
    t = time.time() - seconds_ago
    os.utime(path, (t, t))


@pytest.mark.parametrize(
    "text, n",
    [("500M", 500 << 20), ("2G", 2 << 30), ("750MB", 750 << 20), ("1048576", 1 << 20), ("1.5K", 1536), ("none", None)],
)
def test_sizes(text, n):
    assert cache_store.parse_size(text) == n


@pytest.mark.parametrize("text", ["lots", "-5M", "5T", ""])
def test_bad_sizes_say_how_to_write_one(text):
    with pytest.raises(cache_store.CacheLimitError, match="write it like 500M"):
        cache_store.parse_size(text)


def test_show_names_the_sets_and_clear_one(folder):
    from wordlebot.core.matrix import clear_memory_cache

    clear_memory_cache()
    fill(folder, "alpha")
    fill(folder, "beta")
    files = cache_store.scan(folder)
    assert sorted((f.kind, f.words) for f in files) == [("matrix", "alpha")] * 2 + [("matrix", "beta")] * 2
    out = CliRunner().invoke(cache, []).output
    assert "pattern matrices   alpha" in out and "pattern matrices   beta" in out and "total" in out
    r = CliRunner().invoke(cache, ["clear", "--words", "alpha"])
    assert r.exit_code == 0 and "removed 2 files" in r.output
    assert {f.words for f in cache_store.scan(folder)} == {"beta"}
    r = CliRunner().invoke(cache, ["clear"])
    assert "removed 2 files" in r.output and cache_store.scan(folder) == []
    clear_memory_cache()


def test_the_limit_drops_the_least_recently_used_never_the_new_file(folder):
    books = folder / "openings"
    books.mkdir(parents=True)
    foreign = folder / "someapp" / "important.db"  # a folder shared with another program
    foreign.parent.mkdir()
    foreign.write_bytes(b"x" * 100_000)
    age(foreign, 10_000)
    paths = []
    for i, ago in enumerate((300, 100, 200)):  # the second is the most recently used
        p = books / f"book-{i}.json"
        p.write_text(json.dumps({"version": BOOK_VERSION, "first": [], "second": {}, "pad": "x" * 1000}))
        age(p, ago)
        paths.append(p)
    new = books / "book-new.json"
    new.write_text(json.dumps({"version": BOOK_VERSION, "first": [], "second": {}, "pad": "x" * 1000}))
    age(new, 1000)  # the oldest of all, yet just written: kept
    size = new.stat().st_size
    gone = cache_store.enforce(2 * size + 10, keep=new, folder=folder)
    assert [f.path for f in gone] == [paths[0], paths[2]]  # 300 s, then 200 s ago
    assert sorted(p.name for p in books.iterdir()) == ["book-1.json", "book-new.json"]
    assert foreign.exists()  # not wordlebot's: never listed, never removed
    cache_store.clear(folder=folder)
    assert foreign.exists()


def test_older_formats_and_leftovers_are_removed(folder):
    folder.mkdir(parents=True)
    (folder / "matrix-abc-v1.bin").write_bytes(b"WBPMATRX old")
    book = folder / "openings" / "book-old.json"
    book.parent.mkdir()
    book.write_text(json.dumps({"version": 0}))
    leftover = folder / "matrix-x.bin.123.tmp"
    leftover.write_bytes(b"half")
    age(leftover, 2 * cache_store.TEMP_AGE)
    part = folder / ".matrix-z.bin.789.part"  # today's temporaries (core/data.atomic_write_parts)
    part.write_bytes(b"half")
    age(part, 2 * cache_store.TEMP_AGE)
    fresh = folder / "matrix-y.bin.456.tmp"  # another process may be writing it now
    fresh.write_bytes(b"half")
    gone = {f.path.name for f in cache_store.tidy(folder)}
    assert gone == {"matrix-abc-v1.bin", "book-old.json", "matrix-x.bin.123.tmp", ".matrix-z.bin.789.part"}
    assert fresh.exists()


def test_limit_command_saves_and_applies_it(folder):
    fill(folder, "gamma")
    r = CliRunner().invoke(cache, ["limit", "1K"])
    assert r.exit_code == 0 and "limit 1.0 KB" in r.output and "removed 2 files" in r.output
    assert cache_store.limit() == 1024
    assert "limit 1.0 KB" in CliRunner().invoke(cache, ["limit"]).output
    r = CliRunner().invoke(cache, ["limit", "lots"])
    assert r.exit_code != 0 and "write it like 500M" in r.output and "Traceback" not in r.output
    CliRunner().invoke(cache, ["limit", "none"])
    assert cache_store.limit() is None


def test_writes_keep_the_folder_within_the_limit(folder, monkeypatch):
    """The library's own writes apply the limit: the older set's matrices go, the new ones stay."""
    from wordlebot.core.matrix import clear_memory_cache

    clear_memory_cache()
    fill(folder, "old")
    for f in cache_store.scan(folder):
        age(f.path, 500)
    one = max(f.size for f in cache_store.scan(folder))
    monkeypatch.setenv("WORDLEBOT_CACHE_LIMIT", str(2 * one + 100))
    fill(folder, "new")
    assert {f.words for f in cache_store.scan(folder)} == {"new"}
    clear_memory_cache()


def test_looking_at_the_cache_loads_no_numpy(folder):
    """`wordlebot cache` starts as fast as `feedback`: the formats come from a light module."""
    import subprocess
    import sys

    code = (
        "import sys; from wordlebot.core import cache_store; cache_store.scan(); "
        "print('numpy' in sys.modules, 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_an_unwritable_cache_folder_is_said(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("WORDLEBOT_CACHE", str(blocker / "cache"))
    out = CliRunner().invoke(cache, []).output
    assert "it cannot be written" in out and "set WORDLEBOT_CACHE to a writable folder" in out and "empty" in out


def test_word_lists_are_listed_and_cleared_by_kind(folder):
    """The wordfreq sets' lists are the cache's fourth kind: shown, cleared with --kind list, and
    an older format removed."""
    (folder / "wordlists").mkdir(parents=True, exist_ok=True)
    (folder / "wordlists" / "wordfreq-6-aaaa.json").write_text(
        json.dumps(
            {"version": WORDLIST_VERSION, "words": "wordfreq-6", "length": 6, "guesses": [], "answers": [], "note": ""}
        )
    )
    (folder / "wordlists" / "wordfreq-6-bbbb.json").write_text(json.dumps({"version": 0, "words": "wordfreq-6"}))
    files = cache_store.scan(folder)
    assert sorted((f.kind, f.words, f.current) for f in files) == [
        ("list", "wordfreq-6", False),
        ("list", "wordfreq-6", True),
    ]
    assert "word lists         wordfreq-6" in CliRunner().invoke(cache, []).output
    r = CliRunner().invoke(cache, ["clear", "--kind", "list"])
    assert r.exit_code == 0 and "removed 2 files" in r.output and cache_store.scan(folder) == []
