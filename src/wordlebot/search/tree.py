"""Decision trees: export as paths (one line per answer) or nested JSON, read back, verify.

Paths format (the README's "Decision trees"): each line is the guesses played for one answer, space separated, the
last being the answer.  ``#`` lines carry metadata as ``# key: value``: the word lists and their
sha256, mode, guess cap, total, average, max.  The file is checked independently of the search
by ``verify_paths``: every answer is replayed with the plain feedback function.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import WordlebotError
from ..core.feedback import all_green, feedback_unchecked, format_digits
from ..core.game import HardConstraints
from ..core.words import Lexicon, list_fingerprint
from .tree_search import Node


class TreeFileError(WordlebotError, ValueError):
    """A tree file that cannot be read (says which line)."""


def paths_of(lexicon: Lexicon, node: Node) -> dict[str, list[str]]:
    """Answer -> guesses played, for every answer under ``node``."""
    out: dict[str, list[str]] = {}

    def walk(n: Node, prefix: list[str]) -> None:
        word = lexicon.guesses[n.guess]
        here = prefix + [word]
        for j in n.answers.tolist():
            ans = lexicon.answers[j]
            if ans == word:  # all green: found
                out[ans] = here
        for child in n.children.values():
            walk(child, here)

    walk(node, [])
    return out


@dataclass
class TreeSummary:
    total: int
    games: int
    max: int
    distribution: dict[int, int]

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0

    @classmethod
    def of(cls, paths: dict[str, list[str]]) -> TreeSummary:
        lengths = [len(p) for p in paths.values()]
        return cls(sum(lengths), len(lengths), max(lengths, default=0), dict(sorted(Counter(lengths).items())))

    def distribution_text(self) -> str:
        return " ".join(f"{k}:{v}" for k, v in self.distribution.items())


def header(
    lexicon: Lexicon,
    summary: TreeSummary,
    *,
    words: str,
    hard: bool,
    max_guesses: int,
    search: str,
    first: str,
    weighted_value: float | None = None,
) -> dict[str, str]:
    meta = {
        "format": "wordlebot paths 1",
        "words": words,
        "guesses": f"{lexicon.n_guesses} sha256 {list_fingerprint(lexicon.guesses)}",
        "answers": f"{lexicon.n_answers} sha256 {list_fingerprint(lexicon.answers)}",
        "mode": "hard" if hard else "normal",
        "max-guesses": str(max_guesses),
        "search": search,
        "first": first,
        "total": str(summary.total),
        "average": f"{summary.average:.6f}",
        "max": str(summary.max),
        "distribution": summary.distribution_text(),
    }
    if weighted_value is not None:
        meta["expected-guesses"] = f"{weighted_value:.6f}"
    return meta


def write_paths(path: Path, paths: dict[str, list[str]], meta: dict[str, str]) -> None:
    from ..core.data import atomic_write

    lines = ["# wordlebot decision tree: one line per answer, the guesses played, the answer last"]
    lines += [f"# {k}: {v}" for k, v in meta.items()]
    lines += [" ".join(paths[a]) for a in sorted(paths)]
    atomic_write(Path(path), ("\n".join(lines) + "\n").encode("ascii"))


History = tuple[tuple[str, int], ...]  # the (guess, pattern) rows played so far


def tree_json(lexicon: Lexicon, node: Node) -> dict[str, Any]:
    """Nested form for the interfaces: {guess, answers, value, children: {digits: subtree}}."""

    def conv(n: Node) -> dict[str, Any]:
        return {
            "guess": lexicon.guesses[n.guess],
            "answers": int(n.answers.size),
            "value": n.value,
            "children": {format_digits(p, lexicon.length): conv(c) for p, c in sorted(n.children.items())},
        }

    return conv(node)


def write_json(path: Path, doc: dict[str, Any]) -> None:
    from ..core.data import atomic_write_json

    atomic_write_json(path, doc, indent=1)


def read_paths(path: Path) -> tuple[dict[str, str], list[tuple[int, list[str]]]]:
    """(metadata, [(line number, guesses)]) from a paths file."""
    try:
        text = Path(path).read_text(encoding="ascii")
    except FileNotFoundError:
        raise TreeFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TreeFileError(f"{path}: cannot read ({exc})") from None
    meta: dict[str, str] = {}
    rows: list[tuple[int, list[str]]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep:
                meta[key.strip()] = value.strip()
            continue
        words = line.split()
        if any(not (w.isascii() and w.isalpha() and w.islower()) for w in words):
            raise TreeFileError(f"{path}, line {lineno}: expected lower-case words separated by spaces")
        rows.append((lineno, words))
    if not rows:
        raise TreeFileError(f"{path}: no paths in the file")
    return meta, rows


@dataclass
class VerifyReport:
    problems: list[str] = field(default_factory=list)
    summary: TreeSummary | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_paths(
    lexicon: Lexicon,
    meta: dict[str, str],
    rows: list[tuple[int, list[str]]],
    *,
    hard: bool | None = None,
    max_guesses: int | None = None,
    limit: int = 20,
) -> VerifyReport:
    """Replay every answer with the plain feedback function and check: each answer of the
    lexicon exactly once; every guess allowed; the path ends at its answer and not before; the
    same history always leads to the same next guess; hard-mode legality; the guess cap; and
    the totals the header states."""
    rep = VerifyReport()

    def problem(msg: str) -> None:
        if len(rep.problems) < limit:
            rep.problems.append(msg)
        elif len(rep.problems) == limit:
            rep.problems.append("… (more problems not shown)")

    if hard is None:
        hard = meta.get("mode") == "hard"
    if max_guesses is None:
        max_guesses = int(meta["max-guesses"]) if meta.get("max-guesses", "").isdigit() else 6
    for key, listed in (("guesses", lexicon.guesses), ("answers", lexicon.answers)):
        stated = meta.get(key, "")
        if stated and not stated.endswith(list_fingerprint(listed)):
            problem(f"header: the {key} list differs from the {lexicon.name} {key} (sha256 mismatch)")
    green = all_green(lexicon.length)
    answers = set(lexicon.answers)
    seen: dict[str, int] = {}
    next_guess: dict[History, tuple[str, int]] = {}
    paths: dict[str, list[str]] = {}
    for lineno, words in rows:
        ans = words[-1]
        if ans not in answers:
            problem(f"line {lineno}: {ans!r} is not an answer of the {lexicon.name} list")
            continue
        if ans in seen:
            problem(f"line {lineno}: {ans!r} already has a path (line {seen[ans]})")
            continue
        seen[ans] = lineno
        history: History = ()
        cons = HardConstraints.none(lexicon.length)
        for i, g in enumerate(words):
            if g not in lexicon:
                problem(f"line {lineno}: {g!r} is not an allowed guess")
                break
            prev = next_guess.setdefault(history, (g, lineno))
            if prev[0] != g:
                problem(
                    f"line {lineno}: after {_show(history, lexicon.length)} the tree plays {g!r} here "
                    f"but {prev[0]!r} on line {prev[1]} (inconsistent strategy)"
                )
                break
            if hard:
                reason = cons.violation(g)
                if reason:
                    problem(f"line {lineno}: {g!r} breaks hard mode after {_show(history, lexicon.length)}: {reason}")
                    break
            p = feedback_unchecked(g, ans)
            if p == green and i < len(words) - 1:
                problem(f"line {lineno}: {ans!r} is found at guess {i + 1} but the path goes on")
                break
            cons = cons.add(g, p)
            history = history + ((g, p),)
        else:
            if len(words) > max_guesses:
                problem(f"line {lineno}: {ans!r} takes {len(words)} guesses, over the cap of {max_guesses}")
            paths[ans] = words
    missing = sorted(answers - set(seen))
    if missing:
        problem(f"{len(missing)} answers have no path, e.g. {', '.join(missing[:5])}")
    rep.summary = TreeSummary.of(paths)
    if not rep.problems:
        for key, value in (
            ("total", str(rep.summary.total)),
            ("max", str(rep.summary.max)),
            ("average", f"{rep.summary.average:.6f}"),
        ):
            if key in meta and meta[key] != value:
                problem(f"header says {key} {meta[key]} but the paths give {value}")
    return rep


def _show(history: History, length: int) -> str:
    if not history:
        return "the start"
    return ",".join(f"{g}:{format_digits(p, length)}" for g, p in history)
