"""wordlebot prepare: the one-off work done ahead of play is the work play would do."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from wordlebot.cli import cli


def run(args):
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_prepare_kernels_plays_the_made_up_games_and_writes_no_cache(monkeypatch, tmp_path):
    cache = tmp_path / "cache"
    monkeypatch.setenv("WORDLEBOT_CACHE", str(cache))
    r = run(["prepare", "--kernels"])
    assert r.exit_code == 0, r.output
    assert "[1/2] compiling the solver's kernels: done in" in r.output
    assert "[2/2] compiling the answer model's kernels: done in" in r.output
    # the made-up list's matrices went to a throwaway folder, not the user's cache
    assert not cache.exists() or not any(cache.rglob("*"))


def test_each_step_counts_its_seconds_as_it_goes(monkeypatch):
    """Issue 39: the compile line promised "a minute and a half" and showed nothing move.  Each
    step's line now counts the seconds while it runs (on a terminal; the "done in" line after)."""
    from types import SimpleNamespace

    from wordlebot.app import prepare
    from wordlebot.term import render

    assert render.elapsed_seconds().render(SimpleNamespace(elapsed=37.9)).plain == "37 s"
    assert render.elapsed_seconds().render(SimpleNamespace(elapsed=None)).plain == "0 s"
    shown = []

    class Recorder:
        def __init__(self, console, text):
            shown.append(text)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

    monkeypatch.setattr(render, "ElapsedStatus", Recorder)
    monkeypatch.setattr(prepare, "kernel_steps", lambda: [prepare.Step("compiling x", "a while, once", lambda: None)])
    r = run(["prepare", "--kernels"])
    assert r.exit_code == 0 and shown == ["[1/1] compiling x (a while, once)…"]
    assert "[1/1] compiling x: done in" in r.output


def test_made_up_words_are_distinct_and_of_the_length():
    from wordlebot.app.prepare import _made_up_words

    for length in (5, 6):
        words = _made_up_words(120, length)
        assert len(set(words)) == 120 and {len(w) for w in words} == {length}


class _SideProcess:
    """A stand-in for the second process: records its command, and when it was waited for."""

    def __init__(self, args, played, **kwargs):
        self.args, self.played, self.kwargs = args, played, kwargs
        self.returncode = None

    def poll(self):
        return self.returncode

    def wait(self, timeout=None):
        self.played.append("waited")
        self.returncode = 0
        return 0


def test_the_six_letter_case_is_compiled_beside_and_then_played_here(monkeypatch):
    """With two cores the 6-letter case runs in a second process while this one plays the
    5-letter cases; this one waits for it, then plays it too (it loads what the other compiled,
    and would compile what the other did not save), so every case is played here whatever the
    other did."""
    from wordlebot.app import prepare

    played, started = [], []
    monkeypatch.setattr(prepare, "_second_process_useful", lambda: True)
    monkeypatch.setattr(prepare, "play_case", lambda length, weighted: played.append((length, weighted)))
    monkeypatch.setattr(
        subprocess, "Popen", lambda args, **kw: started.append(_SideProcess(args, played, **kw)) or started[-1]
    )
    prepare._play_small_games()
    assert played == [(5, False), (5, True), "waited", (6, False)]
    src = str(Path(prepare.__file__).resolve().parents[2])
    assert len(started) == 1 and started[0].args[1:3] == ["-P", "-c"] and started[0].args[-3:] == [src, "6", "False"]
    # one core (or no lock, or no JIT), or no second process could be started: the same cases
    for useful, popen_fails in ((False, False), (True, True)):
        played.clear()
        monkeypatch.setattr(prepare, "_second_process_useful", lambda: useful)
        if popen_fails:
            monkeypatch.setattr(subprocess, "Popen", lambda args, **kw: (_ for _ in ()).throw(OSError(11, "EAGAIN")))
        prepare._play_small_games()
        assert played == [(5, False), (5, True), (6, False)] and len(started) == 1


def test_the_second_process_plays_this_source_whatever_else_is_on_its_path(tmp_path):
    """The second process imports the package from this process's folder, not a stray
    ``wordlebot`` in the folder it starts in or earlier on PYTHONPATH (another checkout): the
    same source, so it fills the same cache entries.  It plays the 6-letter case for real."""
    from wordlebot.app import prepare

    for folder in (tmp_path / "here", tmp_path / "elsewhere"):
        (folder / "wordlebot").mkdir(parents=True)
        (folder / "wordlebot" / "__init__.py").write_text("raise SystemExit('a stray wordlebot was imported')\n")
    src = str(Path(prepare.__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "elsewhere"))
    args = [sys.executable, "-P", "-c", prepare.SECOND_PROCESS, src, "6", "False"]
    r = subprocess.run(args, cwd=tmp_path / "here", env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]


def test_an_interrupted_prepare_stops_its_second_process(monkeypatch):
    """Ctrl+C (or an error) in the 5-letter cases ends the second process too, not left compiling."""
    import signal

    from wordlebot.app import prepare

    started = []
    real_popen = subprocess.Popen

    def popen(args, **kwargs):
        started.append(real_popen(args, **kwargs))
        return started[-1]

    def interrupted(length, weighted):
        raise KeyboardInterrupt

    monkeypatch.setattr(prepare, "_second_process_useful", lambda: True)
    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.setattr(prepare, "play_case", interrupted)
    with pytest.raises(KeyboardInterrupt):
        prepare._play_small_games()
    assert len(started) == 1 and started[0].returncode == -signal.SIGKILL  # killed and reaped


@pytest.mark.official
def test_prepare_leaves_the_book_a_suggestion_then_reads(official, monkeypatch, tmp_path):
    """After `prepare --words classic` the first suggestion reads the book prepared: SALET, 7,920
    guesses over the 2,315 answers (the published optimum, which the search finds)."""
    import wordlebot.core.matrix as matrix

    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))
    monkeypatch.setattr(matrix, "_memo", {})  # as a new process: an earlier test's classic matrices not at hand
    r = run(["--data-dir", str(official), "prepare", "--words", "classic"])
    assert r.exit_code == 0, r.output
    assert "classic: opening book: done in" in r.output
    books = list((tmp_path / "openings").glob("book-*.json"))
    assert len(books) == 1
    first = json.loads(books[0].read_text())["first"][0]
    assert first[0] == "salet" and first[1] == pytest.approx(7920)
    assert len(list(tmp_path.glob("matrix-*.bin"))) == 2  # guesses x answers and its transpose
    made = books[0].read_bytes()
    import wordlebot.search.openings as openings

    def refuse(*args, **kwargs):
        raise AssertionError("the book was built again")

    monkeypatch.setattr(openings, "build_book", refuse)
    r = run(["--data-dir", str(official), "suggest", "--words", "classic", "--json", "--top", "1"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    row = doc["suggestions"][0]
    assert row["word"] == "salet" and row["expected"] == pytest.approx(7920 / 2315)
    assert list((tmp_path / "openings").glob("book-*.json")) == books
    assert books[0].read_bytes() == made  # read (and marked used), not made again


def test_prepare_refuses_an_unknown_word_set():
    r = run(["prepare", "--words", "klingon"])
    assert r.exit_code != 0 and "klingon" in r.output


def test_prepare_stops_when_the_cache_cannot_keep_its_work(monkeypatch, tmp_path):
    """Preparing into a cache folder that cannot be written would compute for nothing: a clear
    error that says how to fix it, before any work."""
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("WORDLEBOT_CACHE", str(blocked / "cache"))
    r = CliRunner().invoke(cli, ["prepare", "--words", "classic"])
    assert r.exit_code == 1
    assert "WORDLEBOT_CACHE" in r.output and "Traceback" not in r.output


def test_a_callers_own_matrix_reaches_the_kernels_read_only(monkeypatch):
    """The kernels are compiled for read-only matrices (the library's own are: memory-mapped or
    sealed after building).  A matrix the caller made (sliced, as the backtest slices its days'
    lists, built by hand, or unpickled) is writable: every entry point hands the kernels a
    read-only view of it, no copy, and leaves the caller's array as it was."""
    from wordlebot.app.prepare import _made_up_words
    from wordlebot.core.game import Game
    from wordlebot.core.matrix import build_matrix, pattern_matrix, read_only, transposed
    from wordlebot.core.words import Lexicon
    from wordlebot.policy.advisor import Advisor
    from wordlebot.search.tree_search import TreeSearch

    words = _made_up_words(60)
    lex = Lexicon.from_lists(words, words[::3], name="caller's own", official=False)
    m, mt = pattern_matrix(lex, cache=False).copy(), transposed(lex, cache=False).copy()
    assert m.flags.writeable and mt.flags.writeable
    search = TreeSearch(lex, k=None, threads=1, matrix=m, matrix_t=mt)
    adv = Advisor(lex, matrix=m, matrix_t=mt, use_book=False)
    search_t = adv.search_for(False, 6).S.mt
    handed = [(search.S.mt, mt), (search._rows, m), (adv.matrix, m), (adv.matrix_t, mt), (search_t, mt)]
    for view, own in [*handed, (Game(lex, matrix=m).matrix, m)]:
        assert not view.flags.writeable and np.shares_memory(view, own) and np.array_equal(view, own)
    assert m.flags.writeable and mt.flags.writeable  # the caller's arrays untouched
    assert not build_matrix(words, words[::3]).flags.writeable
    frozen = read_only(m)
    assert read_only(frozen) is frozen
    with pytest.raises(ValueError, match="matrix_t must be answers x guesses, 20 x 60"):
        TreeSearch(lex, k=None, matrix_t=m)
    # the rankers' and the multi-board policy's kernels, called with the caller's matrix
    from wordlebot.core import kernels
    from wordlebot.multi import MultiGame
    from wordlebot.multi import suggest as suggest_multi
    from wordlebot.policy.strategies import partition_stats

    seen = []  # whether each call's matrix was writable

    def recording(kernel):
        def call(mat, *rest):
            seen.append(mat.flags.writeable)
            return kernel(mat, *rest)

        return call

    for name in ("_partition_stats", "_board_costs"):
        monkeypatch.setattr(kernels, name, recording(getattr(kernels, name)))
    partition_stats(m, np.arange(lex.n_guesses), np.arange(lex.n_answers))
    suggest_multi(MultiGame(lex, 2, matrix=m), 3, matrix=m, search=False)
    assert len(seen) >= 2 and not any(seen)


@pytest.mark.skipif(bool(os.environ.get("NUMBA_DISABLE_JIT")), reason="counts compiled kernels")
def test_a_callers_own_matrix_needs_no_kernel_compiled_again():
    """A search over the library's matrix, then the same search over a writable copy of it (a
    caller's own): one specialisation of the search's kernels serves both (before, the copy had
    every search kernel compiled again: about two minutes at the backtest's first day).  In a
    fresh process, so that no other test's calls are counted."""
    script = """
import numpy as np
from wordlebot.app.prepare import _made_up_words
from wordlebot.core.matrix import pattern_matrix, transposed
from wordlebot.core.words import Lexicon
from wordlebot.search import kernels as sk
from wordlebot.search.tree_search import TreeSearch

words = _made_up_words(60)
lex = Lexicon.from_lists(words, words[::3], name="caller's own", official=False)
own = TreeSearch(lex, k=None, threads=1).tree().value
m, mt = pattern_matrix(lex, cache=False).copy(), transposed(lex, cache=False).copy()
theirs = TreeSearch(lex, k=None, threads=1, matrix=m, matrix_t=mt).tree().value
print(own, theirs, len(sk._node.signatures))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    own, theirs, node_kinds = done.stdout.split()
    assert own == theirs and node_kinds == "1"


@pytest.mark.parametrize("module", ["core", "search"])
def test_no_kernel_passes_another_a_constant(module):
    """Numba compiles a kernel called from another one for the types of the call's arguments,
    and types a constant written in the call as that constant (``Literal[int](0)``, not int64)
    and an argument left out as its default: each such call compiles the callee, and whatever it
    calls, once more (``prepare --kernels`` compiled 129 specialisations, 103 once the search's
    calls passed typed values: 466 -> 403 s).  Read from the source: every call of one compiled
    kernel from another (except those inlined into the caller) names all its arguments, none of
    them a constant."""
    import ast
    import importlib

    source = importlib.import_module(f"wordlebot.{module}.kernels").__file__
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    kernels = {}  # name -> how many parameters, for the kernels compiled on their own
    for fn in tree.body:
        for d in getattr(fn, "decorator_list", []):
            if isinstance(d, ast.Call) and getattr(d.func, "id", None) == "njit":
                if not any(k.arg == "inline" for k in d.keywords):
                    kernels[fn.name] = len(fn.args.args)

    def constant(a):
        return isinstance(a, ast.Constant) or (isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant))

    calls = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.decorator_list:
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and getattr(call.func, "id", None) in kernels:
                    calls.append(call)
                    given = [*call.args, *(k.value for k in call.keywords)]
                    assert not any(constant(a) for a in given), f"{fn.name}: {ast.unparse(call)}"
                    named = len(call.args) + len(call.keywords)
                    assert named == kernels[call.func.id], f"{fn.name} leaves out arguments: {ast.unparse(call)}"
    assert len(calls) >= (5 if module == "core" else 50)
