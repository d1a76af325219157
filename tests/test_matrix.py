import logging
import multiprocessing as mp
import os
import threading

import numpy as np
import pytest
from conftest import random_words
from naive import feedback_code, feedback_rows_numpy

from wordlebot.core import matrix as mx
from wordlebot.core.words import Lexicon, read_word_file


@pytest.mark.parametrize("length", [4, 5, 6, 8, 11])
def test_kernel_matches_reference_every_length(length):
    g = random_words(60, length, alphabet="abcdeo", seed=length)
    a = random_words(45, length, alphabet="abcdeo", seed=length + 100)
    m = mx.build_matrix(g, a)
    assert m.dtype == mx.pattern_dtype(length)
    expected = np.array([[feedback_code(x, y) for y in a] for x in g])
    assert (m.astype(np.int64) == expected).all()


def test_dtype_fits_every_pattern():
    assert mx.pattern_dtype(5) == np.uint8
    assert mx.pattern_dtype(10) == np.uint16
    assert mx.pattern_dtype(11) == np.uint32


def _lex(n=200, seed=0):
    words = random_words(n, seed=seed)
    return Lexicon.from_lists(words, words[::2], name="t")


def test_cache_round_trip_is_memory_mapped(tmp_path):
    lex = _lex()
    mx.clear_memory_cache()
    m1 = mx.pattern_matrix(lex, folder=tmp_path)
    path = mx.cache_path(lex, tmp_path)
    assert path.exists()
    mx.clear_memory_cache()
    m2 = mx.pattern_matrix(lex, folder=tmp_path)
    assert isinstance(m2, np.memmap)
    assert (np.asarray(m1) == np.asarray(m2)).all()
    assert not m2.flags.writeable


@pytest.mark.parametrize("damage", ["truncate", "flip", "header", "empty", "other-lists"])
def test_damaged_cache_is_detected_and_rebuilt(tmp_path, caplog, damage):
    lex = _lex()
    mx.clear_memory_cache()
    good = np.array(mx.pattern_matrix(lex, folder=tmp_path))
    path = mx.cache_path(lex, tmp_path)
    raw = bytearray(path.read_bytes())
    if damage == "truncate":
        raw = raw[: len(raw) - 100]
    elif damage == "flip":
        raw[mx.HEADER_BYTES + 1234] ^= 0x01
    elif damage == "header":
        raw[20:40] = b"#" * 20
    elif damage == "empty":
        raw = bytearray()
    elif damage == "other-lists":
        other = _lex(seed=5)
        mx.write_cache(path, mx.build_matrix(other.guesses, other.answers), other)
        raw = bytearray(path.read_bytes())
    path.write_bytes(bytes(raw))
    mx.clear_memory_cache()
    with caplog.at_level(logging.WARNING, logger="wordlebot"):
        again = mx.pattern_matrix(lex, folder=tmp_path)
    assert (np.asarray(again) == good).all()
    assert "unusable" in caplog.text
    # and the rebuilt file is good again
    mx.clear_memory_cache()
    assert mx.load_cached(path, lex) is not None


def test_a_folder_where_the_matrix_should_be_is_set_aside(tmp_path, caplog):
    """Issue 41: a matrix path that is a folder was a traceback on every run."""
    lex = _lex()
    mx.clear_memory_cache()
    good = np.array(mx.pattern_matrix(lex, folder=tmp_path))
    path = mx.cache_path(lex, tmp_path)
    path.unlink()
    path.mkdir()
    (path / "x").write_bytes(b"\0" * (mx.HEADER_BYTES + 10))
    mx.clear_memory_cache()
    with caplog.at_level(logging.WARNING, logger="wordlebot"):
        again = mx.pattern_matrix(lex, folder=tmp_path)
    assert (np.asarray(again) == good).all() and "is unusable" in caplog.text
    mx.clear_memory_cache()
    assert path.is_file() and mx.load_cached(path, lex) is not None  # written where it was


def _build_in_child(folder, seed, q):
    lex = _lex(400, seed)
    m = mx.pattern_matrix(lex, folder=folder)
    q.put(int(np.asarray(m, dtype=np.int64).sum()))


def test_concurrent_builders_leave_a_good_file(tmp_path):
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_build_in_child, args=(tmp_path, 7, q)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    sums = {q.get() for _ in procs}
    assert len(sums) == 1
    lex = _lex(400, 7)
    mx.clear_memory_cache()
    assert mx.load_cached(mx.cache_path(lex, tmp_path), lex) is not None
    assert not [f for f in os.listdir(tmp_path) if f.endswith((".tmp", ".part"))]


def test_unwritable_cache_folder_still_works(tmp_path, caplog):
    lex = _lex()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    mx.clear_memory_cache()
    with caplog.at_level(logging.WARNING, logger="wordlebot"):
        m = mx.pattern_matrix(lex, folder=blocker / "sub")
    assert m.shape == (lex.n_guesses, lex.n_answers)
    assert "without a disk cache" in caplog.text


def test_whole_official_matrix_against_reference(official, session_cache):
    """Every pair of the 14,855 guesses x the 3,158 WordleBot answers, against the numpy
    rendering of the textbook rule (itself checked against the plain one in test_feedback)."""
    guesses = read_word_file(official / "nyt/guesses.txt")
    answers = read_word_file(official / "nyt/wordlebot-3158.txt")
    lex = Lexicon.from_lists(guesses, answers)
    m = mx.pattern_matrix(lex, folder=session_cache)
    codes = lex.answer_codes.astype(np.int64)
    for gi, g in enumerate(guesses):
        row = feedback_rows_numpy(g, codes)
        if not np.array_equal(row, m[gi]):
            bad = int(np.flatnonzero(row != m[gi])[0])
            pytest.fail(f"{g} vs {answers[bad]}: kernel {m[gi, bad]}, reference {row[bad]}")


def test_prefetch_builds_both_layouts_in_the_background(tmp_path, monkeypatch):
    """The caller gets the arrays a plain build gives (checked against the textbook rule), and
    both files are complete, loadable and without leftovers once the thread has ended."""
    lex = _lex(300, seed=11)
    mx.clear_memory_cache()
    thread = mx.prefetch(lex, folder=tmp_path)
    if thread is None:
        pytest.skip(
            "no prefetch thread here: the kernels run as plain Python, or Numba's threading layer "
            "cannot run parallel kernels from two threads"
        )
    m = mx.pattern_matrix(lex, folder=tmp_path)
    mt = mx.pattern_matrix(lex, folder=tmp_path, transposed=True)
    thread.join(120)
    assert not thread.is_alive()
    codes = lex.answer_codes.astype(np.int64)
    expected = np.array([feedback_rows_numpy(g, codes) for g in lex.guesses])
    assert np.array_equal(m, expected) and np.array_equal(mt, expected.T)
    mx.clear_memory_cache()
    for transposed, want in ((False, expected), (True, expected.T)):
        loaded = mx.load_cached(mx.cache_path(lex, tmp_path, transposed), lex, transposed)
        assert loaded is not None and np.array_equal(loaded, want)
    assert not [f for f in os.listdir(tmp_path) if f.endswith((".tmp", ".part"))]
    # nothing to do once both files exist (loading them is the caller's, on both cores)
    assert mx.prefetch(lex, folder=tmp_path) is None


def test_one_builder_per_matrix_whoever_asks(tmp_path, monkeypatch):
    """Threads asking at once (a prefetch and the caller, a web server's workers) wait for one
    build, and all get that one array."""
    lex = _lex(300, seed=12)
    mx.clear_memory_cache()
    builds = []
    real = mx.build_from_codes

    def counted(*args):
        builds.append(1)
        return real(*args)

    monkeypatch.setattr(mx, "build_from_codes", counted)
    got = []
    start = threading.Barrier(6)

    def ask(t):
        start.wait()
        got.append(mx.pattern_matrix(lex, folder=tmp_path, transposed=t))

    threads = [threading.Thread(target=ask, args=(i % 2 == 1,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(builds) == 1
    plain = [a for a in got if a.shape == (lex.n_guesses, lex.n_answers)]
    assert len(plain) == 3 and all(a is plain[0] for a in plain)
    flipped = [a for a in got if a is not plain[0]]
    assert len(flipped) == 3 and all(a is flipped[0] for a in flipped)
    assert np.array_equal(flipped[0], plain[0].T)


def test_small_pages_hold_while_any_thread_is_inside():
    from wordlebot.core import pages

    if pages._set_madvise_hugepage is None:
        pytest.skip("this numpy has no huge-page switch")
    before = pages._set_madvise_hugepage(True)  # a known state: advice on
    try:
        inside, leave = threading.Event(), threading.Event()

        def other():
            with pages.small_pages():
                inside.set()
                leave.wait(10)

        t = threading.Thread(target=other)
        t.start()
        inside.wait(10)
        with pages.small_pages():
            assert pages._set_madvise_hugepage(False) is False  # off (and left off)
        # the other thread is still inside: still off
        assert pages._set_madvise_hugepage(False) is False
        leave.set()
        t.join(10)
        # the last one out put it back
        assert pages._set_madvise_hugepage(True) is True
    finally:
        pages._set_madvise_hugepage(before)


def test_a_cancelled_prefetch_stops_after_its_step_and_writes_nothing(tmp_path, monkeypatch):
    """Ctrl-C calls the prefetches off (the cli package): the thread finishes the step it is in (here the
    first build, held until the cancel), then neither transposes nor writes."""
    lex = _lex(300, seed=13)
    mx.clear_memory_cache()
    inside, release = threading.Event(), threading.Event()
    real = mx.build_from_codes

    def held(*args):
        inside.set()
        release.wait(30)
        return real(*args)

    monkeypatch.setattr(mx, "build_from_codes", held)
    thread = mx.prefetch(lex, folder=tmp_path)
    if thread is None:
        pytest.skip(
            "no prefetch thread here: the kernels run as plain Python, or Numba's threading layer "
            "cannot run parallel kernels from two threads"
        )
    assert inside.wait(30)
    mx.cancel_prefetches()
    release.set()
    thread.join(30)
    assert not thread.is_alive()
    assert list(tmp_path.iterdir()) == []  # no file, whole or partial
    with mx._memo_lock:
        assert (lex.fingerprint, str(tmp_path), True) not in mx._memo  # no transpose either
    # and asking again builds what is missing, as usual
    monkeypatch.setattr(mx, "build_from_codes", real)
    assert np.array_equal(
        mx.pattern_matrix(lex, folder=tmp_path, transposed=True), mx.pattern_matrix(lex, folder=tmp_path).T
    )
