"""The examples in the package's docstrings run as written: every module of the library whose
source holds one (``>>>``) is run by doctest, so a new example is checked without a list to
keep up to date."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "wordlebot"


def _modules_with_examples() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


MODULES = _modules_with_examples()


def test_the_public_modules_have_examples():
    assert {"wordlebot", "wordlebot.core.feedback", "wordlebot.core.game", "wordlebot.multi"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name, monkeypatch, tmp_path):
    monkeypatch.setenv("WORDLEBOT_CACHE", str(tmp_path))  # an example's matrix is not kept
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
