"""``wordlebot analyze``: rate a played game, from its rows or its share grid."""

from __future__ import annotations

import json

import click
from rich.markup import escape

from ..core.feedback import EmojiStyle, check_word, format_digits
from .common import err, goal_option, lexicon_options, out


@click.command()
@click.option("--history", default=None, help='The rows played, e.g. "salet:20110,crony:00210".')
@click.option(
    "--answer",
    default=None,
    help="The answer (checked against the colours; default: a solved game's last word, or the "
    "answer of the grid's puzzle in the history).",
)
@click.option("--grid", default=None, help="A pasted share grid (use --grid-file - to read it from stdin).")
@click.option(
    "--grid-file",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help="Read the share grid from this file ('-' for standard input).",
)
@click.option("--played", default=None, help="With a grid: the words played, comma separated.")
@click.option("--hard", is_flag=True, default=None, help="Hard mode (a grid's '*' says so too).")
@click.option(
    "--style",
    type=click.Choice(["dark", "light", "contrast", "all"]),
    default="dark",
    show_default=True,
    help="Share-grid colours to print.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@goal_option
@lexicon_options(
    lazy=True,
    date_help="The day the game was played (default: the share grid's puzzle "
    "number, else today): the bot judges with that morning's answer prior.",
)
def analyze(history, answer, grid, grid_file, played, hard, style, as_json, goal, lexicons, day) -> None:
    """Rate a played game: each guess's skill and luck against the bot's best; share grids.

    A share grid names its puzzle, so its day and, once the history has it, its answer: the grid
    alone is enough to see how many words fit each row and how the bot would have played."""
    from ..core.days import replay_note
    from ..core.game import parse_history
    from ..core.share import share_grid
    from ..policy import analysis as an
    from ..policy.advisor import Advisor
    from ..policy.grid_analysis import analyze_grid
    from .common import HOW_REPLAY, resolve_game_day
    from .common import history as answer_history

    if grid_file is not None:
        grid = grid_file.read()
    shared = None
    if grid:
        shared = an.parse_share_grid(grid)
        hard = shared.hard if hard is None else hard
    elif not history:
        raise click.UsageError(
            "give --history (with --answer) or --grid (with --played, or alone when the history has the grid's answer)"
        )
    game_day = resolve_game_day(day, shared.puzzle if shared is not None else None)
    # the share text carries the puzzle number of a day that was named (by --date or the grid)
    puzzle = game_day.puzzle if game_day.chosen else None
    lexicon = lexicons.load(game_day.day)
    if answer is not None:
        answer = check_word(answer, lexicon.length)
    if not as_json:
        out.print(f"[dim]{escape(lexicon.describe())}[/]", soft_wrap=True)
    hard = bool(hard)
    advisor = Advisor(lexicon, goal=goal)
    if shared is not None:
        if not played and answer is None and game_day.answer is None:
            why = (
                f"the history does not have the answer of Wordle #{game_day.puzzle:,} ({game_day.day})"
                if game_day.chosen
                else "the grid has no puzzle number (nor --date) to look its answer up by"
            )
            raise click.UsageError(f"with --grid, give --played (the words) or --answer: {why}")
        with err.status("analysing…"):
            rep = analyze_grid(
                advisor, shared, game_day, played=played.split(",") if played else None, answer=answer, hard=hard
            )
        if not rep.rated:
            _print_grid_report(rep, lexicon, style, as_json)
            return
        rows, report = rep.played, rep.report
        assert report is not None  # (a rated grid has its report)
    else:
        rows = parse_history(history)
        with err.status("analysing…"):
            report = an.analyze_game(advisor, rows, answer=answer, hard=hard)
    note = None
    if lexicon.day is not None and report.answer is not None:
        note = replay_note([report.answer], game_day, answer_history(), HOW_REPLAY)
    styles: list[EmojiStyle] = ["dark", "light", "contrast"] if style == "all" else [style]  # (click checked it)
    grids = {s: share_grid(rows, solved=report.solved, hard=hard, puzzle=puzzle, style=s) for s in styles}
    if as_json:
        doc = {
            **report.to_dict(),
            "words": lexicon.name,
            "day": lexicon.day.isoformat() if lexicon.day else None,
            "puzzle": game_day.puzzle if lexicon.day or game_day.chosen else None,
            "day_note": note,
            "share": grids,
        }
        click.echo(json.dumps(doc, indent=1))
        return
    from ..policy.explain import goal_line
    from ..term.render import analysis_table

    out.print(analysis_table(report))
    out.print(f"[bold]{escape(report.summary())}[/]")
    out.print(f"[dim]{escape(goal_line(goal))}[/]", soft_wrap=True)
    from ..core.game import Game
    from ..policy.explain import review_rows

    rated = Game.from_history(
        lexicon, rows[: len(report.rows)], hard=hard, matrix=advisor.matrix, max_guesses=max(6, len(rows))
    )
    for line in review_rows(advisor, rated, report):  # each guess in plain words
        out.print(escape(line), soft_wrap=False)
    if note:
        out.print(f"[yellow]{escape(note)}[/]", soft_wrap=True)
    for s, text in grids.items():
        out.print(f"\n{text}")


def _print_grid_report(rep, lexicon, style: str, as_json: bool) -> None:
    """A grid whose words are not known: how many words fit each row, the bot's own game."""
    if as_json:
        click.echo(
            json.dumps(
                {
                    "summary": rep.headline(),
                    "solved": rep.grid.solved,
                    "answer": rep.answer,
                    "words": lexicon.name,
                    "day": rep.day.day.isoformat() if rep.day else None,
                    "puzzle": rep.day.puzzle if rep.day else None,
                    "rows": [
                        {"pattern": format_digits(r.pattern, rep.grid.length), "fitting": r.fitting} for r in rep.rows
                    ],
                    "bot": [r.guess for r in rep.bot],
                },
                indent=1,
            )
        )
        return
    out.print(escape(rep.headline("--played a,b,c rates each one")), soft_wrap=True)
    for line in rep.lines(style if style != "all" else "dark"):
        out.print(f"  {escape(line)}", soft_wrap=True)
