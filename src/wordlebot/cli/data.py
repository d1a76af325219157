"""The data commands: ``data fetch|update|status`` and ``prepare`` (the one-off work, now)."""

from __future__ import annotations

import datetime as dt
import sys

import click
from rich.markup import escape

from ..core import clock, data, paths
from .common import DAY, DEFAULT_WORDS, EXIT_ERROR, WORD_SETS, _folder, _note, err, out


@click.command()
@click.option(
    "--kernels", "kernels_only", is_flag=True, help="Only compile the kernels (what `make` does when it sets up)."
)
@click.option(
    "--words",
    "words",
    type=WORD_SETS,
    multiple=True,
    help=f"Word set to prepare (repeatable; default {DEFAULT_WORDS}).",
)
@click.option("--hard", is_flag=True, help="Also the hard-mode opening book.")
@click.option("--date", "day", type=DAY, default=None, help="The day whose prior and book to prepare (default today).")
def prepare(kernels_only: bool, words: tuple[str, ...], hard: bool, day) -> None:
    """Do the one-off work now: compile the kernels, then build a word set's pattern matrices,
    answer model and opening book (otherwise the first suggestion does it)."""
    import time

    from ..app.prepare import kernel_steps, set_steps

    steps = kernel_steps()
    if not kernels_only:
        problem = paths.cache_problem()
        if problem is not None:  # the work would be kept nowhere
            err.print(
                f"[bold red]Error:[/] the cache folder cannot be written ({escape(problem)}), so nothing "
                f"prepared would be kept; set {paths.CACHE_ENV} to a writable folder",
                soft_wrap=True,
            )
            sys.exit(EXIT_ERROR)
        for name in words or (DEFAULT_WORDS,):
            steps += set_steps(name, data_dir=_folder(), day=day, hard=hard, notify=_note)
    from ..term.render import ElapsedStatus

    for i, step in enumerate(steps, 1):
        t0 = time.perf_counter()
        with ElapsedStatus(err, f"[{i}/{len(steps)}] {step.label} ({step.about})…"):
            step.run()
        err.print(f"[{i}/{len(steps)}] {step.label}: done in {time.perf_counter() - t0:.1f} s")


@click.group("data")
def data_group() -> None:
    """Word lists and the NYT answer history: fetch, update, status."""


@data_group.command("fetch")
@click.option("--force", is_flag=True, help="Download again even when a file is present and verified.")
@click.option(
    "--source", default=None, metavar="URL", help=f"Raw file host (default {data.RAW_BASE}, or ${data.RAW_BASE_ENV})."
)
@click.option("--timeout", type=float, default=20.0, show_default=True, help="Seconds per request.")
def data_fetch(force: bool, source: str | None, timeout: float) -> None:
    """Download the official word lists (sha256-pinned) and the answer history."""
    folder = _folder()
    out.print(f"data folder: {folder}")
    from ..term.render import DownloadBars

    with DownloadBars(err) as bars:
        results = data.fetch(folder, base=source, timeout=timeout, force=force, progress_factory=bars)
    bad = 0
    for r in results:
        mark = "[green]ok[/]  " if r.ok else "[red]FAIL[/]"
        out.print(f"{mark} {r.path}: {escape(r.message)}", soft_wrap=True)
        bad += not r.ok
    if bad:
        err.print(f"[bold red]Error:[/] {bad} file{'s' if bad > 1 else ''} could not be fetched (see above)")
        sys.exit(EXIT_ERROR)
    err.print(
        "next: 'wordlebot prepare' does the one-off work now (the default set's matrices, answer model "
        "and opening book) instead of at the first suggestion",
        soft_wrap=True,
    )


@data_group.command("update")
@click.option(
    "--endpoint",
    default=None,
    metavar="URL",
    help=f"NYT daily endpoint base (default {data.NYT_BASE}, or ${data.NYT_BASE_ENV}).",
)
@click.option(
    "--until",
    type=DAY,
    default=None,
    help="Last day to fetch (default yesterday; the answer of today or later is stored, not shown).",
)
@click.option("--delay", type=float, default=1.0, show_default=True, help="Seconds between requests (be polite).")
@click.option("--timeout", type=float, default=15.0, show_default=True, help="Seconds per request.")
def data_update(endpoint: str | None, until, delay: float, timeout: float) -> None:
    """Add the missing days of the NYT answer history, one request per day (resumable)."""
    folder = _folder()
    today = clock.today()
    report = data.update_history(
        folder,
        base=endpoint,
        until=until or today - dt.timedelta(days=1),
        delay=delay,
        timeout=timeout,
        on_day=lambda e: out.print(f"  {data.shown_entry(e, today)}", soft_wrap=True),
    )
    out.print(
        f"added {len(report.added)} day{'s' if len(report.added) != 1 else ''}; "
        f"history ends {report.last}; {report.stopped}",
        soft_wrap=True,
    )
    if not report.ok:
        sys.exit(EXIT_ERROR)


@data_group.command("status")
def data_status() -> None:
    """What is in the data folder: files, checksums, how old the history is."""
    folder = _folder()
    out.print(f"data folder: {folder}")
    for s in data.status(folder):
        mark = "[green]ok[/]  " if s.ok else ("[yellow]old[/] " if s.present else "[red]--[/]  ")
        out.print(f"{mark} {s.path:26} {escape(s.detail)}", soft_wrap=True)
