"""Turning library values into terminal output (rich): tables, coloured tiles, share grids."""

from __future__ import annotations

import datetime as dt

from rich import box
from rich.table import Table
from rich.text import Text

from .data import FIRST_DAY
from .feedback import EmojiStyle, format_emoji, pattern_to_colours
from .game import Row
from .strategies import Ranked

TILE_STYLES = ("bold white on grey35", "bold black on yellow3", "bold white on green4")
BOOK_MESSAGE = "Computing the opening book for this word list (only the first time)…"


# The column a strategy sorts on is highlighted; only letter-freq has a score of its own.
SORT_COLUMN = {
    "entropy": "bits", "approx-entropy": "bits", "minimax": "max",
    "most-parts": "parts", "expected-size": "left", "letter-freq": "letters",
    "search": "avg", "exact": "avg",
}


def suggestion_table(rows: list[Ranked], strategy: str, candidates: int, title: str | None = None) -> Table:
    """Fits 80 columns: word, (tree search) average guesses to finish from here, the partition
    figures (bits, expected candidates left, largest part, parts), P(answer), can-be-answer and
    hard-mode-legal flags."""
    t = Table(title=title or f"{candidates:,} candidate{'s' if candidates != 1 else ''} left",
              title_justify="left", header_style="bold", pad_edge=False, box=box.SIMPLE_HEAD)
    sort_col = SORT_COLUMN.get(strategy, "bits")
    searched = bool(rows) and rows[0].expected is not None
    if searched:
        sort_col = "avg"
        t.caption = value_basis(rows[0])
        t.caption_justify = "left"
    cols = ["#", "guess"] + (["avg"] if searched else []) + (["letters"] if strategy == "letter-freq" else []) + [
        "bits", "left", "max", "parts", "P(ans)", "ans?", "hard"]
    for c in cols:
        t.add_column(c, justify="left" if c == "guess" else "right",
                     style="bold cyan" if c == sort_col else ("bold" if c == "guess" else None),
                     no_wrap=True)
    for i, r in enumerate(rows, start=1):
        cells = [str(i), r.word.upper()]
        if searched:
            mark = "≈" if r.basis == "estimate" else ""
            cells.append(f"{mark}{r.expected:.3f}" if r.expected is not None else "")
        if strategy == "letter-freq":
            cells.append(f"{r.score:.3f}")
        cells += [f"{r.bits:.3f}", f"{r.expected_left:.2f}", str(r.largest), str(r.parts),
                  format_prob(r.p_answer), "yes" if r.can_be_answer else "", "yes" if r.hard_legal else "no"]
        t.add_row(*cells)
    return t


def value_basis(row: Ranked) -> str:
    """One line saying what the avg column is: proven, searched to the end, or estimated."""
    if row.basis == "optimal":
        return "avg: average guesses to finish, this one included (proven optimal)"
    if row.basis == "estimate":
        ahead = f"{row.lookahead} guess{'es' if row.lookahead != 1 else ''}"
        return f"avg ≈: estimated after searching {ahead} ahead (the full search is too big here)"
    return "avg: average guesses to finish, this one included (searched to the end)"


def format_prob(p: float) -> str:
    if p <= 0:
        return ""
    if p >= 1e-4:
        return f"{100 * p:.2f}%"
    return "<0.01%"


def tiles(row: Row, compact: bool = False) -> Text:
    """A row as coloured letter tiles (``compact``: one cell per letter, for tables)."""
    out = Text()
    for ch, c in zip(row.guess.upper(), pattern_to_colours(row.pattern, row.length)):
        out.append(ch if compact else f" {ch} ", style=TILE_STYLES[c])
        if not compact:
            out.append(" ")
    return out


def puzzle_number(day: dt.date) -> int:
    return (day - FIRST_DAY).days


def share_grid(rows: list[Row], *, solved: bool, max_guesses: int = 6, hard: bool = False,
               puzzle: int | None = None, style: EmojiStyle = "dark") -> str:
    """The text the game's share button copies: ``Wordle 1,234 4/6*`` and the emoji rows."""
    score = str(len(rows)) if solved else "X"
    number = f" {puzzle:,}" if puzzle is not None else ""
    head = f"Wordle{number} {score}/{max_guesses}{'*' if hard else ''}"
    body = "\n".join(format_emoji(r.pattern, r.length, style) for r in rows)
    return f"{head}\n\n{body}"


def analysis_table(report) -> Table:
    """One row per guess: tiles, candidates, the bot's choice, average guesses, skill, luck."""
    t = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for c in ("#", "guess", "left", "bot", "bot avg", "your avg", "skill", "luck"):
        t.add_column(c, justify="left" if c in ("guess", "bot") else "right", no_wrap=True)
    for r in report.rows:
        t.add_row(str(r.index), tiles(Row(r.guess, r.pattern), compact=True), f"{r.candidates_before:,}→{r.candidates_after:,}",
                  r.best.upper(), f"{r.best_expected:.3f}", f"{r.player_expected:.3f}", str(r.skill), str(r.luck))
    for i, row in enumerate(report.unrated, start=len(report.rows) + 1):
        t.add_row(str(i), tiles(row, compact=True), "off list", "", "", "", "", "")
    return t


def prepare_book(console, advisor, game) -> None:
    """Compute the opening book now, under a status line, when the next suggestion for ``game``
    would have to (seconds to a minute, once per word list and rules); else do nothing."""
    if advisor.needs_book(game):
        with console.status(BOOK_MESSAGE):
            advisor.book(game.hard, game.max_guesses)
