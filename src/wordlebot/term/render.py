"""Turning library values into terminal output (rich): tables, coloured tiles, progress, the
simulation report.  The plain-text forms every shell shares are in ``core.text``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core.feedback import pattern_to_colours
from ..core.game import Row
from ..core.text import format_chance, format_prob, format_solve, outcome_cell
from ..policy.explain import goal_line
from ..policy.simulate import SimResult
from ..policy.strategies import Ranked

if TYPE_CHECKING:
    from rich.progress import Progress

TILE_STYLES = ("bold white on grey35", "bold black on yellow3", "bold white on green4")
BOOK_MESSAGE = "Computing the opening book for this word list (only the first time)…"


# The column a strategy sorts on is highlighted; only letter-freq has a score of its own.
SORT_COLUMN = {
    "entropy": "bits",
    "approx-entropy": "bits",
    "minimax": "max",
    "most-parts": "parts",
    "expected-size": "left",
    "letter-freq": "letters",
    "search": "avg",
    "exact": "avg",
}


def suggestion_table(
    rows: list[Ranked],
    strategy: str,
    candidates: int,
    title: str | None = None,
    hard: bool = False,
    goal: str | None = None,
) -> Table:
    """Fits 80 columns: word, (tree search) average guesses to finish when solved and, where
    some guess may lose, the chance to solve, the partition figures (bits, expected candidates
    left, largest part, parts), P(answer), can-be-answer and hard-mode-legal flags.  The caption
    says what the figures are and, for the search, which goal it plays for."""
    t = Table(
        title=title or f"{candidates:,} candidate{'s' if candidates != 1 else ''} left",
        title_justify="left",
        header_style="bold",
        pad_edge=False,
        box=box.SIMPLE_HEAD,
    )
    sort_col = SORT_COLUMN.get(strategy, "bits")
    searched = bool(rows) and rows[0].basis != ""
    risky = searched and any(r.lose for r in rows)
    if searched:
        sort_col = "avg"
        lines = [value_basis(rows[0], hard)]
        if risky:
            lines.append("solve: the chance to win with this guess, the bot playing on (blank: certain)")
        if goal:
            lines.append(goal_line(goal))
        t.caption = "\n".join(lines)
        t.caption_justify = "left"
    cols = (
        ["#", "guess"]
        + (["avg"] if searched else [])
        + (["solve"] if risky else [])
        + (["letters"] if strategy == "letter-freq" else [])
        + ["bits", "left", "max", "parts", "P(ans)", "ans?", "hard"]
    )
    for c in cols:
        t.add_column(
            c,
            justify="left" if c == "guess" else "right",
            style="bold cyan" if c == sort_col else ("bold" if c == "guess" else None),
            no_wrap=True,
        )
    for i, r in enumerate(rows, start=1):
        cells = [str(i), r.word.upper()]
        if searched:
            mark = "≈" if r.basis == "estimate" else ""
            cells.append(f"{mark}{r.expected:.3f}" if r.expected is not None else "")
        if risky:
            cells.append(format_solve(r.lose))
        if strategy == "letter-freq":
            cells.append(f"{r.score:.3f}")
        cells += [
            f"{r.bits:.3f}",
            f"{r.expected_left:.2f}",
            str(r.largest),
            str(r.parts),
            format_prob(r.p_answer),
            "yes" if r.can_be_answer else "",
            "yes" if r.hard_legal else "no",
        ]
        t.add_row(*cells)
    return t


def value_basis(row: Ranked, hard: bool = False) -> str:
    """One line saying what the avg column is: proven, searched to the end, or estimated (past
    the look-ahead the estimate does not count hard mode's limits: in hard mode it is optimistic)."""
    if row.basis == "optimal":
        return "avg: guesses to finish when solved, this one included (proven optimal)"
    if row.basis == "estimate":
        ahead = f"{row.lookahead} guess{'es' if row.lookahead != 1 else ''}"
        caveat = "; past it the estimate ignores hard mode's limits, so it is optimistic" if hard else ""
        return f"avg ≈: estimated after searching {ahead} ahead (the full search is too big here){caveat}"
    return "avg: guesses to finish when solved, this one included (searched to the end)"


def tiles(row: Row, compact: bool = False) -> Text:
    """A row as coloured letter tiles (``compact``: one cell per letter, for tables)."""
    out = Text()
    for ch, c in zip(row.guess.upper(), pattern_to_colours(row.pattern, row.length)):
        out.append(ch if compact else f" {ch} ", style=TILE_STYLES[c])
        if not compact:
            out.append(" ")
    return out


def analysis_table(report) -> Table:
    """One row per guess: tiles, candidates, the bot's choice, what it and the player's guess
    lead to (average guesses when solved, and the chance to solve where below 100 %), skill,
    luck; the caption says what the figures are."""
    t = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for c in ("#", "guess", "left", "bot", "bot avg", "your avg", "skill", "luck"):
        t.add_column(c, justify="left" if c in ("guess", "bot") else "right", no_wrap=True)
    for r in report.rows:
        t.add_row(
            str(r.index),
            tiles(Row(r.guess, r.pattern), compact=True),
            f"{r.candidates_before:,}→{r.candidates_after:,}",
            r.best.upper(),
            outcome_cell(r.best_expected, r.best_lose, r.lookahead),
            outcome_cell(r.player_expected, r.player_lose, r.lookahead),
            str(r.skill),
            str(r.luck),
        )
    for i, row in enumerate(report.unrated, start=len(report.rows) + 1):
        t.add_row(str(i), tiles(row, compact=True), "off list", "", "", "", "", "")
    t.caption = ANALYSIS_CAPTION if any(r.best_lose or r.player_lose for r in report.rows) else ANALYSIS_CAPTION_SAFE
    t.caption_justify = "left"
    return t


ANALYSIS_CAPTION_SAFE = "avg: the guesses to finish from that row when solved, that guess included"
ANALYSIS_CAPTION = ANALYSIS_CAPTION_SAFE + "; n%: the chance to solve the game, where below 100 %"


class DownloadBars:
    """A progress bar per downloaded file, as a ``progress_factory``; used as a context manager,
    whose end stops every bar.  A download that fails, or has no announced size, never reaches
    its total: without that stop its bar would stay live, redrawn over whatever comes next (the
    terminal UI) and left on the terminal after it."""

    def __init__(self, console) -> None:
        self.console = console
        self.progress: Progress | None = None

    def __call__(self, name: str):
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        task = None

        def update(done: int, total: int | None) -> None:
            nonlocal task
            if self.progress is None:
                self.progress = Progress(
                    TextColumn("{task.description}"),
                    BarColumn(),
                    DownloadColumn(),
                    TimeRemainingColumn(),
                    console=self.console,
                )
                self.progress.start()
            if task is None:
                task = self.progress.add_task(name, total=None)
            self.progress.update(task, completed=done, total=total)

        return update

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None

    def __enter__(self) -> DownloadBars:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def elapsed_seconds():
    """A progress column: the whole seconds since the task started (``37 s``)."""
    from rich.progress import ProgressColumn

    class Seconds(ProgressColumn):
        def render(self, task) -> Text:
            return Text(f"{int(task.elapsed or 0)} s", style="progress.elapsed")

    return Seconds()


class ElapsedStatus:
    """A spinner line that counts the seconds as it goes (``… 37 s``), for one-off work that
    takes a minute or more: a promise of "a few minutes" alone leaves a player wondering
    whether anything moves.  A context manager; nothing is drawn on a console that is not a
    terminal (a log gets the caller's "done in" line)."""

    def __init__(self, console, text: str) -> None:
        from rich.progress import Progress, SpinnerColumn, TextColumn

        self.progress = Progress(
            SpinnerColumn(), TextColumn("{task.description}"), elapsed_seconds(), console=console, transient=True
        )
        self.text = text

    def __enter__(self) -> ElapsedStatus:
        if self.progress.console.is_terminal:  # (stopped, a Progress ends a log with a blank line)
            self.progress.start()
        self.progress.add_task(self.text, total=None)
        return self

    def __exit__(self, *exc) -> None:
        if self.progress.console.is_terminal:
            self.progress.stop()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Within: the line is off the screen (to print to another console, stdout, which the
        line on stderr would otherwise overwrite), then back, still counting.  (Off a terminal
        nothing is drawn, and stopping would end the log's line with a blank one.)"""
        if not self.progress.console.is_terminal:
            yield
            return
        self.progress.stop()
        try:
            yield
        finally:
            self.progress.start()


def prepare_book(console, advisor, game) -> None:
    """Compute the opening book's part the next suggestion for ``game`` needs now, under a status
    line, when it is not computed yet (seconds, once per word list, rules and reply)."""
    if advisor.needs_book(game):
        with console.status(BOOK_MESSAGE):
            advisor.prepare_book(game)


def print_simulation(console: Console, r: SimResult) -> None:
    say = console.print
    mode = "hard" if r.hard else "normal"
    goal = f" · goal {r.goal}" if r.goal else ""
    say(f"[bold]{r.lexicon}[/] · {r.strategy}{goal} · first {r.first.upper()} · {mode} · guess space {r.guess_space}")
    lost = f" · lost {r.lost:,}" if r.lost else ""
    if r.lost == r.n:
        say(f"games {r.n:,} · solved 0 % · every game lost")
    else:
        say(
            f"games {r.n:,} · solved {r.solved_pct:.2f} %{lost} · total {r.total:,} · average {r.average:.4f}"
            + (" when solved" if r.lost else "")
            + f" · median {r.median:g} · max {r.worst}"
        )
    if np.ptp(r.weights) > 0:  # a prior: what a player meets on its day
        say(
            f"weighted by the prior: chance to lose {format_chance(r.loss_chance)} · expected guesses "
            f"{r.expected:.4f}" + (" when solved" if r.lost else "")
        )
    dist = r.distribution()
    peak = max(dist.values()) or 1
    for k, v in dist.items():
        bar = "█" * max(1 if v else 0, round(40 * v / peak))
        say(f"  {k:>2} {bar} {v:,}")
    fails = r.failures()
    if fails:
        say(f"failures ({len(fails)}): " + ", ".join(w.upper() for w in fails[:15]) + (" …" if len(fails) > 15 else ""))
    say(f"time {r.seconds:.2f} s · {1000 * r.seconds / max(1, r.n):.3f} ms per game · {r.decisions:,} decisions")
