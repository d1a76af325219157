"""Turning library values into terminal output (rich): tables, coloured tiles, share grids."""

from __future__ import annotations

import datetime as dt

from rich import box
from rich.table import Table
from rich.text import Text

from ..core.data import FIRST_DAY
from ..core.feedback import EmojiStyle, format_emoji, pattern_to_colours
from ..core.game import Row
from ..policy.strategies import Ranked

TILE_STYLES = ("bold white on grey35", "bold black on yellow3", "bold white on green4")
BOOK_MESSAGE = "Computing the opening book for this word list (only the first time)…"


# The column a strategy sorts on is highlighted; only letter-freq has a score of its own.
SORT_COLUMN = {
    "entropy": "bits", "approx-entropy": "bits", "minimax": "max",
    "most-parts": "parts", "expected-size": "left", "letter-freq": "letters",
    "search": "avg", "exact": "avg",
}


def suggestion_table(rows: list[Ranked], strategy: str, candidates: int, title: str | None = None,
                     hard: bool = False, goal: str | None = None) -> Table:
    """Fits 80 columns: word, (tree search) average guesses to finish when solved and, where
    some guess may lose, the chance to solve, the partition figures (bits, expected candidates
    left, largest part, parts), P(answer), can-be-answer and hard-mode-legal flags.  The caption
    says what the figures are and, for the search, which goal it plays for."""
    t = Table(title=title or f"{candidates:,} candidate{'s' if candidates != 1 else ''} left",
              title_justify="left", header_style="bold", pad_edge=False, box=box.SIMPLE_HEAD)
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
    cols = (["#", "guess"] + (["avg"] if searched else []) + (["solve"] if risky else [])
            + (["letters"] if strategy == "letter-freq" else [])
            + ["bits", "left", "max", "parts", "P(ans)", "ans?", "hard"])
    for c in cols:
        t.add_column(c, justify="left" if c == "guess" else "right",
                     style="bold cyan" if c == sort_col else ("bold" if c == "guess" else None),
                     no_wrap=True)
    for i, r in enumerate(rows, start=1):
        cells = [str(i), r.word.upper()]
        if searched:
            mark = "≈" if r.basis == "estimate" else ""
            cells.append(f"{mark}{r.expected:.3f}" if r.expected is not None else "")
        if risky:
            cells.append(format_solve(r.lose))
        if strategy == "letter-freq":
            cells.append(f"{r.score:.3f}")
        cells += [f"{r.bits:.3f}", f"{r.expected_left:.2f}", str(r.largest), str(r.parts),
                  format_prob(r.p_answer), "yes" if r.can_be_answer else "", "yes" if r.hard_legal else "no"]
        t.add_row(*cells)
    return t


def goal_line(goal: str) -> str:
    """Which goal the search plays for, as a caption line."""
    from ..policy.advisor import GOAL_TEXT

    return f"goal: {GOAL_TEXT[goal]}"


def format_solve(lose: float | None) -> str:
    """The chance to solve as a table cell: blank when certain (or not measured), ``>99.9%`` and
    ``<0.1%`` near the ends, ``0%`` for none, else one decimal (``95.2%``)."""
    if not lose:
        return ""
    if lose < 0.0005:
        return ">99.9%"
    if lose >= 1.0:
        return "0%"
    if lose > 0.9995:
        return "<0.1%"
    return f"{100 * (1 - lose):.1f}%"


def format_chance(p: float) -> str:
    """A probability as a player reads it: ``0 %``, ``4.76 %``, ``0.0012 %`` (two significant
    digits below 1 %), ``<0.000001 %`` for less."""
    import math

    if p <= 0:
        return "0 %"
    pct = 100 * p
    if pct >= 1:
        return f"{pct:.2f} %"
    if pct < 1e-6:
        return "<0.000001 %"
    decimals = 1 - math.floor(math.log10(pct))
    return f"{pct:.{decimals}f} %"


def value_basis(row: Ranked, hard: bool = False) -> str:
    """One line saying what the avg column is: proven, searched to the end, or estimated (past
    the look-ahead the estimate does not count hard mode's limits: in hard mode it is optimistic)."""
    if row.basis == "optimal":
        return "avg: guesses to finish when solved, this one included (proven optimal)"
    if row.basis == "estimate":
        ahead = f"{row.lookahead} guess{'es' if row.lookahead != 1 else ''}"
        caveat = ("; past it the estimate ignores hard mode's limits, so it is optimistic" if hard else "")
        return f"avg ≈: estimated after searching {ahead} ahead (the full search is too big here){caveat}"
    return "avg: guesses to finish when solved, this one included (searched to the end)"


def sentence(text: str) -> str:
    """``text`` ended as a sentence: a full stop unless it ends with one already, or with ? or !
    (a message that ends with "did you mean SLATE or SALTY?" gets no ".")."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!", "…")) else text + "."


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 row``, ``2 rows``, ``1,024 guesses`` (``many``: the plural when not word + s)."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def candidates_line(game) -> str:
    """``840 candidates left``, and on a weighted set, where most listed words are unlikely
    answers, how many are really in play: ``840 candidates left · about 120 likely`` (the
    perplexity of the posterior, ``explain.likely_count``)."""
    from ..policy.explain import about, likely_count

    n = int(game.candidates.size)
    line = f"{plural(n, 'candidate')} left"
    if game.lexicon.weighted and n > 1:
        line += f" · {about(likely_count(game.posterior))} likely"
    return line


def possible_line(game, limit: int = 12) -> str:
    """``possible: SHORE, SNORE, STORE`` likeliest first (with each one's chance on a weighted
    set), ``… (+N)`` past ``limit``."""
    from ..policy.explain import by_likelihood

    shown = by_likelihood(game, limit)
    weighted = game.lexicon.weighted
    words = ", ".join(w.upper() + (f" {format_prob(p) or '<0.01%'}" if weighted else "") for w, p in shown)
    n = int(game.candidates.size)
    return "possible: " + words + (f" … (+{n - len(shown):,})" if n > len(shown) else "")


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
    """One row per guess: tiles, candidates, the bot's choice, what it and the player's guess
    lead to (average guesses when solved, and the chance to solve where below 100 %), skill,
    luck; the caption says what the figures are."""
    t = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for c in ("#", "guess", "left", "bot", "bot avg", "your avg", "skill", "luck"):
        t.add_column(c, justify="left" if c in ("guess", "bot") else "right", no_wrap=True)
    for r in report.rows:
        t.add_row(str(r.index), tiles(Row(r.guess, r.pattern), compact=True), f"{r.candidates_before:,}→{r.candidates_after:,}",
                  r.best.upper(), outcome_cell(r.best_expected, r.best_lose, r.lookahead),
                  outcome_cell(r.player_expected, r.player_lose, r.lookahead), str(r.skill), str(r.luck))
    for i, row in enumerate(report.unrated, start=len(report.rows) + 1):
        t.add_row(str(i), tiles(row, compact=True), "off list", "", "", "", "", "")
    t.caption = ANALYSIS_CAPTION if any(r.best_lose or r.player_lose for r in report.rows) else ANALYSIS_CAPTION_SAFE
    t.caption_justify = "left"
    return t


ANALYSIS_CAPTION_SAFE = "avg: the guesses to finish from that row when solved, that guess included"
ANALYSIS_CAPTION = ANALYSIS_CAPTION_SAFE + "; n%: the chance to solve the game, where below 100 %"


def outcome_cell(expected: float | None, lose: float, lookahead: int = 0, digits: int = 3) -> str:
    """What a guess leads to, in one cell: the guesses when solved (``≈`` for an estimate) and,
    where below 100 %, the chance to solve: ``1.458 95.2%``; ``0%`` for a guess that cannot."""
    if expected is None:
        return "0%"
    text = ("≈" if lookahead else "") + f"{expected:.{digits}f}"
    return f"{text} {format_solve(lose)}" if lose else text


class DownloadBars:
    """A progress bar per downloaded file, as a ``progress_factory``; used as a context manager,
    whose end stops every bar.  A download that fails, or has no announced size, never reaches
    its total: without that stop its bar would stay live, redrawn over whatever comes next (the
    terminal UI) and left on the terminal after it."""

    def __init__(self, console) -> None:
        self.console = console
        self.progress = None

    def __call__(self, name: str):
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        task = None

        def update(done: int, total: int | None) -> None:
            nonlocal task
            if self.progress is None:
                self.progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                                         TimeRemainingColumn(), console=self.console)
                self.progress.start()
            if task is None:
                task = self.progress.add_task(name, total=None)
            self.progress.update(task, completed=done, total=total)

        return update

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None

    def __enter__(self) -> "DownloadBars":
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
    takes a minute or more: a promise of "a minute and a half" alone leaves a player wondering
    whether anything moves.  A context manager; nothing is drawn on a console that is not a
    terminal (a log gets the caller's "done in" line)."""

    def __init__(self, console, text: str) -> None:
        from rich.progress import Progress, SpinnerColumn, TextColumn

        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), elapsed_seconds(),
                                 console=console, transient=True)
        self.text = text

    def __enter__(self) -> "ElapsedStatus":
        self.progress.start()
        self.progress.add_task(self.text, total=None)
        return self

    def __exit__(self, *exc) -> None:
        self.progress.stop()


def prepare_book(console, advisor, game) -> None:
    """Compute the opening book's part the next suggestion for ``game`` needs now, under a status
    line, when it is not computed yet (seconds, once per word list, rules and reply)."""
    if advisor.needs_book(game):
        with console.status(BOOK_MESSAGE):
            advisor.prepare_book(game)
