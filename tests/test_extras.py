"""The lean install: a command whose extra is missing says which one to install, in one line, before
doing any work; and the light commands load neither numpy, Numba nor any extra.

A missing module is simulated (``sys.modules[name] = None`` makes its import fail), not uninstalled."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from wordlebot.cli import cli
from wordlebot.cli import common as cli_common
from wordlebot.core.errors import WordlebotError
from wordlebot.core.extras import EXTRAS, MissingExtraError, require

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def no_loading(monkeypatch):
    """A command that loads a word set before checking its extra fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the word set was loaded before the extra was checked")

    monkeypatch.setattr(cli_common, "load_lexicon", refuse)


def missing(monkeypatch, *modules):
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def test_require_names_the_extra_and_the_missing_module(monkeypatch):
    assert require("tui").__name__ == "textual"
    missing(monkeypatch, "textual")
    with pytest.raises(MissingExtraError) as info:
        require("tui")
    assert str(info.value) == (
        "the terminal UI needs the 'tui' extra (textual is not installed): pip install 'wordlebot[tui]'"
    )
    assert isinstance(info.value, WordlebotError) and isinstance(info.value, ImportError)
    assert info.value.extra == "tui"


def test_require_checks_every_module_of_the_extra(monkeypatch):
    missing(monkeypatch, "uvicorn")
    with pytest.raises(MissingExtraError, match=r"the web app needs the 'web' extra \(uvicorn is not installed\)"):
        require("web")


def test_the_extras_are_the_ones_pyproject_declares():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(extras) == set(EXTRAS) | {"all", "test"}
    assert extras["all"] == [f"wordlebot[{','.join(EXTRAS)}]"]


@pytest.mark.parametrize(
    "args,modules,message",
    [
        (
            ["tui"],
            ["textual"],
            "the terminal UI needs the 'tui' extra (textual is not installed): pip install 'wordlebot[tui]'",
        ),
        (
            ["web", "--port", "0"],
            ["fastapi"],
            "the web app needs the 'web' extra (fastapi is not installed): pip install 'wordlebot[web]'",
        ),
        (
            ["bot", "--demo", "--headless"],
            ["playwright"],
            "the browser bot needs the 'bot' extra (playwright is not installed): pip install 'wordlebot[bot]'",
        ),
        (
            ["openers", "--words", "classic"],
            ["dask.distributed"],
            "the opener sweep needs the 'dask' extra "
            "(dask.distributed is not installed): pip install "
            "'wordlebot[dask]'",
        ),
        (
            ["simulate", "--words", "classic", "--plot", "h.png"],
            ["matplotlib"],
            "plotting needs the 'plots' extra (matplotlib is not installed): pip install 'wordlebot[plots]'",
        ),
    ],
    ids=lambda x: x[0] if isinstance(x, list) and x and x[0][0] != "t" else None,
)
def test_a_command_without_its_extra_says_which_to_install(monkeypatch, no_loading, args, modules, message):
    missing(monkeypatch, *modules)
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 1, r.output
    assert r.stderr == f"Error: {message}\n"
    assert "Traceback" not in r.output and not isinstance(r.exception, ImportError)


def test_the_light_commands_load_no_numpy_numba_or_extra():
    """wordlebot feedback, --help and data status start in a fraction of a second: importing the
    package and its command line loads none of the heavy modules (bench/bench_startup.py times it)."""
    heavy = [
        "numpy",
        "numba",
        "scipy",
        "sklearn",
        "textual",
        "fastapi",
        "uvicorn",
        "playwright",
        "dask",
        "matplotlib",
        "rich.progress",
    ]
    code = f"import sys, wordlebot, wordlebot.cli; print(' '.join(m for m in {heavy!r} if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == ""


def test_the_package_names_still_work_when_loaded_lazily():
    code = """
import wordlebot
import wordlebot.policy.simulate as sim_module  # importing the module leaves the package's name alone
from wordlebot import Advisor, Game, Lexicon, TreeSearch, load_lexicon, simulate
assert callable(simulate) and simulate is sim_module.simulate and wordlebot.simulate is simulate
assert simulate.__module__ == "wordlebot.policy.simulate" and Advisor.__name__ == "Advisor"
assert set(wordlebot.__all__) <= set(dir(wordlebot))
for name in wordlebot.__all__:
    getattr(wordlebot, name)
try:
    wordlebot.nope
except AttributeError as exc:
    assert "nope" in str(exc)
else:
    raise AssertionError("wordlebot.nope")
"""
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_moved_tree_module_still_imports_with_a_deprecation_warning():
    """``wordlebot.tree`` (the README's import before the layout of issue 40) now lives in
    ``wordlebot.search.tree``: the old name still works, and says where to go."""
    code = """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from wordlebot.tree import TreeSummary, paths_of
import wordlebot.search.tree as new
assert paths_of is new.paths_of and TreeSummary is new.TreeSummary
[w] = [w for w in caught if issubclass(w.category, DeprecationWarning)]
assert "wordlebot.search.tree" in str(w.message), w.message
"""
    subprocess.run([sys.executable, "-c", code], check=True)
