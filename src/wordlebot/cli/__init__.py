"""The ``wordlebot`` command: a thin shell over the library.

This module is the group (its options, logging, the error handling) and registers the commands
of the modules beside it: play.py (feedback, suggest, assist, play, tui), analyze.py,
solver.py (simulate, tree, verify-tree, openers), answers.py, data.py (data, prepare), cache.py
and web.py (web, bot, last); common.py holds what they share.

Each command builds a library object, calls it, and prints.  Every ``WordlebotError`` (a user
or data problem) becomes ``Error: <message>`` on stderr with exit code 1: never a traceback.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import click
from rich.markup import escape

from ..core.errors import WordlebotError
from .common import EXIT_ERROR, err


class _NoteHandler(logging.Handler):
    """Library warnings (a rebuilt cache, a fallback word list) shown as plain notes."""

    def emit(self, record: logging.LogRecord) -> None:
        err.print(f"[yellow]note:[/] {escape(record.getMessage())}", soft_wrap=True)


def _setup_logging(verbose: bool) -> None:
    root = logging.getLogger("wordlebot")
    root.handlers[:] = [_NoteHandler()]
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    root.propagate = False


class WordlebotGroup(click.Group):
    """Turns library errors into a clean message and exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except WordlebotError as exc:
            err.print(f"[bold red]Error:[/] {escape(str(exc))}", soft_wrap=True)
            ctx.exit(EXIT_ERROR)
        except KeyboardInterrupt:
            err.print("interrupted")
            matrix = sys.modules.get("wordlebot.core.matrix")  # (not imported just to be told)
            if matrix is not None:
                matrix.cancel_prefetches()  # else the process would wait for them to finish
            ctx.exit(130)


@click.group(cls=WordlebotGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of word lists and history (default: $WORDLEBOT_DATA, then the user data folder).",
)
@click.option("-v", "--verbose", is_flag=True, help="Show more notes.")
@click.version_option(package_name="wordlebot")
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None, verbose: bool) -> None:
    """wordlebot: win Wordle with exact feedback, greedy rankers and tree search."""
    _setup_logging(verbose)
    ctx.ensure_object(dict)
    ctx.obj["data_dir"] = data_dir
    ctx.obj["notes"] = []  # notices of this run for the UI (common.check_cache adds one)


def main() -> None:
    cli(prog_name="wordlebot")


# The commands, one module per group.  They import the shared pieces from common.py, never this
# module, so importing them here is no cycle; their modules import only click and the light core
# at the top (the library comes in when a command runs), so registering them costs nothing at
# start-up.
from .analyze import analyze  # noqa: E402
from .answers import answers_group  # noqa: E402
from .cache import cache  # noqa: E402
from .data import data_group, prepare  # noqa: E402
from .play import assist, feedback_cmd, play, suggest, tui  # noqa: E402
from .solver import openers, simulate, tree_cmd, verify_tree  # noqa: E402
from .web import bot, last, web  # noqa: E402

for _command in (
    feedback_cmd,
    suggest,
    assist,
    play,
    tui,
    analyze,
    simulate,
    tree_cmd,
    verify_tree,
    openers,
    answers_group,
    prepare,
    data_group,
    cache,
    web,
    bot,
    last,
):
    cli.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
