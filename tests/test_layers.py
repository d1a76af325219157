"""The layers of docs/ARCHITECTURE.md, checked over the package's own imports.

Every ``import`` and ``from … import`` of every module counts, those inside functions and under
``TYPE_CHECKING`` too: a lazy import is still a dependency, only a later one.  The graph is read
from the source (``ast``), nothing of the package is imported, so a module that cannot import
(a missing extra) is checked all the same."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "wordlebot"

# From the ground up: each library layer may import itself and the layers it names, no other.
LIBRARY = {
    "core": set(),
    "search": {"core"},
    "policy": {"core", "search"},
    # the answer model reads core alone; its backtest plays real games with the policy
    "answers": {"core", "search", "policy"},
    "multi": {"core", "search", "policy"},
    "app": {"core", "search", "policy", "answers", "multi"},
}
SHELLS = {
    "term": set(),
    "tui": {"term"},  # the TUI shows tiles in the terminal's colours
    "web": set(),
    "bot": set(),
    "cli": {"term", "tui", "web", "bot"},  # the command line starts every other shell
}
# The package's face: the lazy public names (``wordlebot/__init__.py``), ``python -m wordlebot``,
# and the deprecated module names kept for users' imports.
FACE = {"__init__", "__main__", "tree"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    p = SRC / name.replace(".", "/")
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def imports_of(path: Path) -> set[str]:
    """The wordlebot modules ``path`` imports (``from x import y`` counts y when y is a module)."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "wordlebot"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "wordlebot":
                continue
            subs = {f"{target}.{a.name}" for a in node.names if is_module(f"{target}.{a.name}")}
            found |= subs if subs and len(subs) == len(node.names) else subs | {target}
    return found - {me}


GRAPH = {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def part_of(module: str) -> str:
    """The layer or shell of a module: its first package under wordlebot, or the face."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_module_is_in_a_layer_a_shell_or_the_face():
    stray = sorted(m for m in GRAPH if part_of(m) not in LIBRARY | SHELLS and part_of(m) not in FACE)
    assert stray == []


def test_the_graph_is_read_whole():
    # a few edges known from the code, so that a parser that finds nothing fails here
    assert "wordlebot.core.feedback" in GRAPH["wordlebot.core.game"]
    assert "wordlebot.search.kernels" in GRAPH["wordlebot.search.tree_search"]
    assert "wordlebot.core.data" in GRAPH["wordlebot.app.session"]  # (``from ..core import data``)
    assert len(GRAPH) > 80


@pytest.mark.parametrize("layer", sorted(LIBRARY))
def test_a_library_layer_imports_only_the_layers_below_it(layer):
    allowed = LIBRARY[layer] | {layer}
    leaks = sorted(
        f"{m} -> {t}"
        for m, targets in GRAPH.items()
        if part_of(m) == layer
        for t in targets
        if part_of(t) not in allowed
    )
    assert leaks == []


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_a_shell_imports_the_library_and_no_other_shell_but_those_it_starts(shell):
    allowed = set(LIBRARY) | SHELLS[shell] | {shell, "__init__"}
    leaks = sorted(
        f"{m} -> {t}"
        for m, targets in GRAPH.items()
        if part_of(m) == shell
        for t in targets
        if part_of(t) not in allowed
    )
    assert leaks == []


def test_the_face_imports_only_the_library():
    leaks = sorted(
        f"{m} -> {t}"
        for m, targets in GRAPH.items()
        if part_of(m) in FACE - {"__main__"}
        for t in targets
        if part_of(t) not in LIBRARY
    )
    assert leaks == []


def test_no_circles():
    """No module reaches itself through the imports (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH.get(v, ())):
            if w not in GRAPH:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert circles == []
