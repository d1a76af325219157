"""The ``wordlebot`` command: a thin shell over the library.

Each command builds a library object, calls it, and prints.  Every ``WordlebotError`` (a user or
data problem) becomes ``Error: <message>`` on stderr with exit code 1: never a traceback.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import math
import sys
from dataclasses import asdict
from functools import wraps
from pathlib import Path

import click
from rich.markup import escape

from ..core import data, paths
from .common import (DAY, DEFAULT_GOAL, DEFAULT_STRATEGY, DEFAULT_WORDS, GOALS, STRATEGIES, WORD_SETS, _folder,
                         _note, check_cache, err, lexicon_options, out, sigterm_stops)
from ..core.errors import DataError, WordlebotError
from ..core.extras import require
from ..core.feedback import check_word, feedback as compute_feedback, format_digits, format_emoji, format_letters

EXIT_ERROR = 1


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
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of word lists and history (default: $WORDLEBOT_DATA, then the user data folder).")
@click.option("-v", "--verbose", is_flag=True, help="Show more notes.")
@click.version_option(package_name="wordlebot")
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None, verbose: bool) -> None:
    """wordlebot: win Wordle with exact feedback, greedy rankers and tree search."""
    _setup_logging(verbose)
    ctx.ensure_object(dict)
    ctx.obj["data_dir"] = data_dir
    ctx.obj["notes"] = []  # notices of this run for the UI (cli_common.check_cache adds one)


def main() -> None:
    cli(prog_name="wordlebot")


# ---------------------------------------------------------------------------------------------
# Shared options (the word-set options, the day type and the data folder: cli_common.py)


def strategy_options(f):
    f = click.option("--strategy", type=STRATEGIES, default=DEFAULT_STRATEGY, show_default=True,
                     help="search: near-optimal tree search (expected guesses); exact: proven optimal "
                          "(slow on big word sets); or a greedy ranker.")(f)
    f = click.option("--guess-space", type=click.Choice(["all", "candidates"]), default="all", show_default=True,
                     help="Consider every allowed word, or only words that can still be the answer.")(f)
    return f


def goal_option(f=None, *, remembered: bool = False):
    """--goal: what the search plays for (the single-board play policy; advisor.GOALS).
    ``remembered``: the terminal UI's, whose default is the goal saved in its settings."""

    def decorate(f):
        return click.option(
            "--goal", type=click.Choice(GOALS), default=None if remembered else DEFAULT_GOAL,
            show_default=not remembered,
            help="What the search plays for: streak, the smallest chance of losing first, then the fewest "
                 "guesses; average, the fewest guesses on average (a lost game counts as ten more)"
                 + (" (default: the one chosen in the settings, else streak)." if remembered else "."))(f)

    return decorate(f) if f is not None else decorate


def objective_option(f):
    return click.option("--objective", type=click.Choice(["score", "guesses"]), default="score", show_default=True,
                        help="Multi-board games: what the policy minimises; score: the sum over boards of the "
                             "guess that solved each (Quordle's score); guesses: the guesses to solve them "
                             "all.")(f)


def needs(extra: str):
    """Check that ``extra`` is installed before the command loads its word set."""

    def decorate(f):
        @wraps(f)
        def checked(*args, **kwargs):
            require(extra)
            return f(*args, **kwargs)

        return checked

    return decorate


def _needs_plots(ctx, param, value):
    if value is not None:
        require("plots")
    return value


def search_options(f):
    f = click.option("--k", "k", type=click.IntRange(1, 1000), default=12, show_default=True,
                     help="Near-optimal search: guesses searched per node.")(f)
    f = click.option("--memory", type=click.IntRange(64, 1 << 20), default=2048, show_default=True,
                     help="Memory for the search's tables, in MB.")(f)
    return f




# ---------------------------------------------------------------------------------------------
# feedback, suggest


@cli.command("feedback")
@click.argument("guess")
@click.argument("answer")
def feedback_cmd(guess: str, answer: str) -> None:
    """Show the colours GUESS gets when the answer is ANSWER (digits, letters, emoji)."""
    g = check_word(guess)
    a = check_word(answer, len(g))
    code = compute_feedback(g, a)
    n = len(g)
    out.print(f"{format_digits(code, n)}  {format_letters(code, n)}  {format_emoji(code, n)}")


def _rows_of(ctx, param, value):
    """--history parsed as soon as it is read: a mistyped colour or length is reported at once,
    not after the word lists (on a first run, the day's answer model) have been loaded."""
    from ..core.game import parse_history

    return parse_history(value) if value else []


@cli.command()
@click.option("--history", default="", callback=_rows_of,
              help='Rows played so far, e.g. "salet:20110,crony:00210".')
@click.option("--top", type=click.IntRange(1, 1000), default=10, show_default=True, help="How many suggestions.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--hard", is_flag=True, help="Hard mode: only guesses that use every revealed hint.")
@goal_option
@lexicon_options
@strategy_options
def suggest(history: list, top: int, as_json: bool, hard: bool, goal: str, lexicon, strategy: str, guess_space: str,
            game_day) -> None:
    """Suggest the next guesses for a game given as a history (one shot)."""
    from ..policy.advisor import Advisor
    from .common import HOW_REPLAY, day_line, history as answer_history
    from ..core.days import end_of_game_note
    from ..core.game import Game

    advisor = Advisor(lexicon, strategy=strategy, guess_space=guess_space, goal=goal)
    game = Game.from_history(lexicon, history, hard=hard, matrix=advisor.matrix)
    day_doc = {"day": lexicon.day.isoformat() if lexicon.day else None,
               "puzzle": game_day.puzzle if lexicon.day else None,
               "day_source": game_day.source if lexicon.day else None}
    line = day_line(lexicon, game_day)
    if game.solved:
        note = end_of_game_note(game, game_day, answer_history(), HOW_REPLAY)
        if as_json:
            out.print(json.dumps({"history": game.history(), "solved": True, **day_doc, "day_note": note}))
            return
        out.print(f"solved in {len(game.rows)}: {game.rows[-1].guess.upper()}")
        if note:
            out.print(f"[yellow]{escape(note)}[/]", soft_wrap=True)
        return
    from ..term.render import prepare_book

    prepare_book(err, advisor, game)
    rows = advisor.suggest(game, top)
    if as_json:
        doc = {
            "history": game.history(), "words": lexicon.name, **day_doc, "hard": hard, "strategy": strategy,
            "guess_space": guess_space, "goal": goal if advisor.searching else None,
            "candidates": int(game.candidates.size), "candidate_words": game.candidate_words[:100],
            "suggestions": [asdict(r) for r in rows],
        }
        click.echo(json.dumps(doc, indent=1))
        return
    from ..policy.explain import candidates_line, possible_line
    from ..term.render import suggestion_table

    if line:
        out.print(f"[dim]{escape(line)}[/]", soft_wrap=True)
    out.print(suggestion_table(rows, strategy, int(game.candidates.size), title=candidates_line(game),
                               hard=game.hard, goal=goal if advisor.searching else None))
    if game.candidates.size <= 12:
        out.print(possible_line(game), soft_wrap=True)
    from ..policy.explain import hard_mode_trap

    trap = hard_mode_trap(game)
    if trap:
        out.print(f"[yellow]{escape(trap)}[/]", soft_wrap=True)


# ---------------------------------------------------------------------------------------------
# interactive: assist, play


@cli.command()
@click.option("--hard", is_flag=True, help="Start in hard mode (toggle with 'hard on|off').")
@click.option("--top", type=click.IntRange(1, 100), default=8, show_default=True,
              help="Rows in the suggestion table (change with 'top N').")
@click.option("--boards", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Multi-board games: 2 Dordle, 4 Quordle, 8 Octordle, 16 Sedecordle (k + 5 guesses); "
                   "one line of colours a guess, for all the boards.")
@objective_option
@goal_option
@lexicon_options
@strategy_options
def assist(hard: bool, top: int, boards: int, objective: str, goal: str, lexicon, strategy: str, guess_space: str,
           game_day) -> None:
    """Interactive assistant: play the real game elsewhere, type what it showed, get the next guess."""
    from .common import day_line, history

    line = day_line(lexicon, game_day)
    if boards > 1:
        from ..term.multi_assist import MultiAssistSession

        if line:
            out.print(f"[dim]{escape(line)}[/]", soft_wrap=True)
        MultiAssistSession(lexicon, boards, out, hard=hard, top=min(top, 5), objective=objective).run()
        return
    from ..term.interactive import AssistSession

    AssistSession(lexicon, out, strategy=strategy, guess_space=guess_space, hard=hard, top=top,
                  game_day=game_day, history=history(), goal=goal).run()


@cli.command()
@click.option("--answer", default=None, help="Play against this word.")
@click.option("--random", "use_random", is_flag=True, help="A random answer (the default).")
@click.option("--seed", type=int, default=None, help="Seed for --random.")
@click.option("--hard", is_flag=True, help="Hard mode.")
@lexicon_options(date_help="Play the NYT answer of that day (from the history; see 'data update'), with the "
                           "answer prior of that morning (built from the history before it).")
def play(answer: str | None, use_random: bool, day, seed: int | None, hard: bool, lexicon) -> None:
    """Play Wordle in the terminal against a hidden word; ends with a share grid."""
    from ..core.days import pick_answer
    from ..term.interactive import PlaySession

    chosen, puzzle = pick_answer(lexicon, answer=answer, day=day, seed=seed,
                                 data_dir=_folder())
    PlaySession(lexicon, out, chosen, hard=hard, puzzle=puzzle).run()


@cli.command()
@click.option("--words", "words", type=WORD_SETS, default=None,
              help="Word set (default: the last one used, else nyt).")
@click.option("--guesses", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="File of allowed guesses (instead of --words).")
@click.option("--answers", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="File of possible answers (must be among the guesses).")
@click.option("-k", "--length", type=click.IntRange(4, 11), default=None, help="Word length (other than 5: wordfreq).")
@click.option("--strategy", type=STRATEGIES, default=None, help="How guesses are ranked.")
@click.option("--hard/--no-hard", default=None, help="Hard mode.")
@click.option("--max-guesses", type=click.IntRange(2, 10), default=None, help="Guess cap.")
@click.option("--play", "mode", flag_value="play", default=None, help="Play against a hidden word.")
@click.option("--assist", "mode", flag_value="assist", help="Assist with a game played elsewhere.")
@click.option("--answer", default=None,
              help="Play mode: this hidden word (with --boards K: K distinct words separated by commas).")
@click.option("--date", "day", type=DAY, default=None,
              help="The day: the answer prior of that morning (from the history before it) and, in play "
                   "mode (the default with --date unless --assist), that day's NYT answer.")
@click.option("--boards", type=click.IntRange(1, 8), default=1, show_default=True,
              help="Multi-board games (2 Dordle, 4 Quordle, 8 Octordle; k + 5 guesses): the boards side by "
                   "side, one line a guess (the word, then each open board's colours; with --play, just the "
                   "word, against hidden words).")
@objective_option
@goal_option(remembered=True)
def tui(words, guesses, answers, length, strategy, hard, max_guesses, mode, answer, day, boards, objective,
        goal) -> None:
    """The terminal UI: a board, live suggestions and candidates, settings, game analysis.
    The settings chosen in its dialog are remembered; the options given here apply to this run."""
    require("tui")
    if boards > 1:
        from ..tui.multi import MultiBoardApp

        hidden = [w.strip() for w in answer.split(",")] if answer else None
        if hidden is not None and len(hidden) != boards:
            raise click.UsageError(f"--answer with --boards {boards}: give {boards} words separated by commas "
                                   "(one hidden word per board), or leave --answer out for random ones")
        check_cache()
        from .common import load_lexicon

        lexicon = load_lexicon(words or DEFAULT_WORDS, data_dir=_folder(), length=length or 5,
                               guesses=guesses, answers=answers, notify=_note, build_model=True, day=day)
        # the app makes its game at once: a word not in the list, or twice, is refused before it starts
        MultiBoardApp(lexicon, boards, hard=bool(hard), play=mode == "play", answers=hidden,
                      objective=objective).run()
        return
    from ..term.render import DownloadBars, prepare_book
    from ..app.session import Session, Settings
    from ..tui import WordlebotApp

    check_cache()
    notes = list(click.get_current_context().find_root().obj.get("notes", []))

    def note(message: str) -> None:
        notes.append(message)
        _note(message)

    saved, problems = Settings.read()
    for p in problems:
        note(p)
    folder = _folder()
    with DownloadBars(err) as bars:
        session = Session.start(
            saved, data_dir=folder, day=day, answer=answer, notify=note,
            load_options={"progress_factory": bars, "build_model": True},
            words=words, length=length, strategy=strategy, hard=hard, max_guesses=max_guesses, mode=mode, goal=goal,
            guesses_file=str(guesses) if guesses else None, answers_file=str(answers) if answers else None)
    prepare_book(err, session.advisor, session.game)
    WordlebotApp(session, data_dir=folder, notes=notes).run()


# ---------------------------------------------------------------------------------------------
# simulate


@cli.command()
@click.option("--first", default=None, help="Opening guess (default: the strategy's own choice).")
@click.option("--hard", is_flag=True, help="Hard mode.")
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N answers.")
@click.option("--max-guesses", type=click.IntRange(1, 20), default=6, show_default=True,
              help="A game needing more guesses counts as lost.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None, callback=_needs_plots,
              help="Write a histogram PNG here (needs the 'plots' extra).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the summary and every game's guesses as JSON here.")
@click.option("--boards", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Multi-board games (2 Dordle, 4 Quordle, 8 Octordle, …): the policy and the baselines "
                   "on the same seeded random answer sets.")
@click.option("--games", type=click.IntRange(1), default=200, show_default=True,
              help="With --boards: how many games.")
@click.option("--seed", type=int, default=0, show_default=True, help="With --boards: the answer sets' seed.")
@objective_option
@goal_option
@lexicon_options
@strategy_options
@search_options
def simulate(first, hard, limit, max_guesses, plot, json_path, boards, games, seed, objective, goal, lexicon,
             strategy, guess_space, k, memory) -> None:
    """Play every answer of the word set with a strategy and report the statistics; with
    --boards, play multi-board games with the policy and the baselines."""
    import numpy as np

    if boards > 1:
        given = click.get_current_context().get_parameter_source("max_guesses") != click.core.ParameterSource.DEFAULT
        _simulate_multi(lexicon, boards, games, seed, max_guesses if given else None, json_path, objective, plot,
                        bool(hard))
        return

    from ..core.matrix import pattern_matrix
    from ..policy.simulate import advisor_chooser, greedy_chooser, search_chooser, simulate as run

    matrix = pattern_matrix(lexicon)
    first_id = lexicon.id(first) if first else None
    targets = np.arange(min(limit, lexicon.n_answers) if limit else lexicon.n_answers, dtype=np.int32)
    if strategy == "exact":
        from ..policy.advisor import FAIL_COSTS
        from ..search.tree_search import TreeSearch

        search = TreeSearch(lexicon, k=None, hard=hard, max_guesses=max_guesses,
                            weights="prior" if lexicon.weighted else None, guess_space=guess_space,
                            memory_mb=memory, fail_cost=FAIL_COSTS[goal])
        chooser = search_chooser(search)
    elif strategy == "search":
        from ..policy.advisor import Advisor
        from ..term.render import prepare_book

        advisor = Advisor(lexicon, strategy="search", guess_space=guess_space, matrix=matrix, k=k, goal=goal)
        prepare_book(err, advisor, advisor.new_game(hard=hard, max_guesses=max_guesses))
        chooser = advisor_chooser(advisor, hard=hard, max_guesses=max_guesses)
    else:
        chooser = greedy_chooser(lexicon, matrix, strategy, hard=hard, guess_space=guess_space)
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("simulating"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} games"),
                  TimeRemainingColumn(), console=err, transient=True) as prog:
        task = prog.add_task("games", total=int(targets.size))
        result = run(lexicon, matrix, chooser, targets=targets, first=first_id, hard=hard,
                     max_guesses=max_guesses, strategy_name=strategy, guess_space=guess_space,
                     progress=lambda n: prog.advance(task, n), goal=goal if strategy in ("search", "exact") else "")
    from ..term.render import print_simulation

    print_simulation(out, result)
    if plot:
        result.plot(plot)
        out.print(f"plot written to {plot}")
    if json_path:
        result.to_json(json_path)
        out.print(f"JSON written to {json_path}")


def _simulate_multi(lexicon, boards: int, games: int, seed: int, max_guesses: int | None, json_path,
                    objective: str, plot_path, hard: bool) -> None:
    from rich.progress import BarColumn, Progress, TextColumn
    from rich.table import Table

    from ..core.matrix import pattern_matrix
    from ..multi import VARIANTS
    from ..multi.simulate import answer_sets, choosers, simulate as run

    matrix = pattern_matrix(lexicon)
    sets = answer_sets(lexicon, boards, games, seed)
    results = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                  console=err, transient=True) as prog:
        for name, chooser in choosers(lexicon, matrix, objective).items():
            task = prog.add_task(name, total=games)
            results.append(run(lexicon, boards, chooser, sets, name=name, max_guesses=max_guesses, matrix=matrix,
                               hard=hard, progress=lambda n, task=task: prog.advance(task, n)))
    cap = results[0].max_guesses
    table = Table(title=f"{VARIANTS.get(boards, f'{boards} boards')} on {lexicon.name}"
                        f"{' (hard mode)' if hard else ''}: {games:,} games, {cap} guesses, seed {seed}")
    for col in ("chooser", "mean score", "mean guesses", "games lost", "per move (median / max)"):
        table.add_column(col, justify="left" if col == "chooser" else "right")
    for r in results:
        med, worst = r.move_ms()
        table.add_row(r.chooser, f"{r.mean:.3f}", f"{r.mean_finished:.3f}", f"{100 * r.failure_rate:.1f} %",
                      f"{med:.0f} / {worst:.0f} ms")
    out.print(table)
    out.print(f"The policy plays for the {objective}; one-step: the policy without its endgame search. "
              "score: the sum over boards of the guess that solved each (a board not solved counts "
              f"{cap + 1}); guesses: those that solved them all (a lost game counts {cap} and one per board "
              "left).", soft_wrap=True)
    if plot_path:
        from ..multi.simulate import plot

        plot(results, plot_path, title=table.title)
        out.print(f"plot written to {plot_path}")
    if json_path:
        from ..core.data import atomic_write

        doc = {"words": lexicon.name, "boards": boards, "hard": hard, "games": games, "seed": seed,
               "objective": objective, "results": [r.to_dict() for r in results]}
        atomic_write(Path(json_path), json.dumps(doc, indent=1).encode())
        out.print(f"JSON written to {json_path}")


# ---------------------------------------------------------------------------------------------
# tree search: tree, verify-tree, openers


@cli.command("tree")
@click.option("--first", default=None, help="Opening guess (default: the search's own best).")
@click.option("--hard", is_flag=True, help="Hard mode (the exact NYT rule).")
@click.option("--max-guesses", type=click.IntRange(2, 10), default=6, show_default=True,
              help="Guess cap: every answer must be found within it.")
@click.option("--exact", is_flag=True, help="Search every guess at every node: a proven optimal tree.")
@click.option("--prior", "use_prior", is_flag=True,
              help="Minimise expected guesses under the word set's answer prior (default: the total over answers).")
@click.option("--fail-cost", type=click.FloatRange(1), default=None,
              help="Allow unfound answers at this cost each instead of requiring all within the cap.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the tree in the paths format (one line per answer) here.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the tree as nested JSON here.")
@click.option("--threads", type=click.IntRange(1, 64), default=2, show_default=True, help="Threads to search on.")
@lexicon_options
@search_options
def tree_cmd(first, hard, max_guesses, exact, use_prior, fail_cost, out_path, json_path, threads, lexicon, k,
             memory) -> None:
    """Build the whole strategy as a decision tree; print total, average, max and distribution."""
    import time

    from ..search import tree as tr
    from ..search.tree_search import TreeSearch

    if use_prior and not lexicon.weighted:
        raise click.UsageError(f"the {lexicon.name} word set has no prior; drop --prior")
    search = TreeSearch(lexicon, k=None if exact else k, hard=hard, max_guesses=max_guesses,
                        weights="prior" if use_prior else None, memory_mb=memory, threads=threads,
                        fail_cost=fail_cost)
    first_id = lexicon.id(first) if first else None
    t0 = time.perf_counter()
    with err.status("searching…"):
        try:
            node = search.tree(first_id)
        except ValueError as exc:
            raise click.ClickException(f"{exc} (allow failures with --fail-cost, or raise --max-guesses)")
    seconds = time.perf_counter() - t0
    paths = tr.paths_of(lexicon, node)
    summary = tr.TreeSummary.of(paths)
    first_word = lexicon.guesses[node.guess]
    kind = "exact" if exact else f"near-optimal k={k}"
    _print_tree_summary(lexicon, summary, first_word, hard, kind, seconds,
                        node.value if use_prior else None)
    meta = tr.header(lexicon, summary, words=lexicon.name, hard=hard, max_guesses=max_guesses, search=kind,
                     first=first_word, weighted_value=node.value if use_prior else None)
    if out_path:
        tr.write_paths(out_path, paths, meta)
        out.print(f"paths written to {out_path}")
    if json_path:
        tr.write_json(json_path, {"meta": meta, "tree": tr.tree_json(lexicon, node)})
        out.print(f"JSON written to {json_path}")


def _print_tree_summary(lexicon, summary, first_word, hard, kind, seconds, expected) -> None:
    mode = "hard" if hard else "normal"
    out.print(f"[bold]{lexicon.name}[/] · {mode} · {kind} · first {first_word.upper()}")
    line = (f"total {summary.total:,} · average {summary.average:.4f} · max {summary.max} · "
            f"distribution {summary.distribution_text()}")
    if expected is not None:
        line += f" · expected guesses (prior) {expected:.4f}"
    out.print(line + f" · {seconds:.2f} s", soft_wrap=True)


@cli.command("verify-tree")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--hard", is_flag=True, default=None, help="Check hard-mode legality (default: as the file's header says).")
@click.option("--max-guesses", type=click.IntRange(1, 20), default=None,
              help="Guess cap to check (default: as the file's header says, else 6).")
@lexicon_options
def verify_tree(file, hard, max_guesses, lexicon) -> None:
    """Replay every answer through a tree file and check consistency, legality and totals."""
    from ..search import tree as tr

    meta, rows = tr.read_paths(file)
    rep = tr.verify_paths(lexicon, meta, rows, hard=hard, max_guesses=max_guesses)
    s = rep.summary
    if rep.ok:
        out.print(f"[green]OK[/] {file}: {s.games:,} answers · total {s.total:,} · average {s.average:.4f} · "
                  f"max {s.max} · distribution {s.distribution_text()}")
        return
    for p in rep.problems:
        err.print(f"[red]problem:[/] {escape(p)}", soft_wrap=True)
    err.print(f"[bold red]Error:[/] {file} failed verification ({len(rep.problems)} problem(s) shown)")
    sys.exit(EXIT_ERROR)


OPENERS_LOG_SECONDS = 600.0  # openers: how often a line says how far it got when stderr is a log


@cli.command()
@click.option("--exact", is_flag=True, help="Exact search, and prove which first word is best.")
@click.option("--top", type=click.IntRange(1, 100000), default=10, show_default=True, help="How many to show.")
@click.option("--candidates", type=click.IntRange(1), default=None,
              help="Evaluate only the N most promising first words (default: 100; all with --exact).")
@click.option("--hard", is_flag=True, help="Hard mode.")
@click.option("--max-guesses", type=click.IntRange(2, 10), default=6, show_default=True, help="Guess cap.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler to run on (default: a LocalCluster on this machine).")
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True,
              help="Threads of the LocalCluster (one worker process: its threads share one table).")
@click.option("--keep", type=click.IntRange(1), default=None,
              help="Exact totals of the N best first words, a proven lower bound for every other "
                   "(default: 1 with --exact, --top otherwise).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Journal every evaluated word (word, total, exact, seconds) as CSV here, as results "
                   "arrive; rewritten ranked (exact totals first) when it completes.  Until then the "
                   "seed's totals are kept beside it (FILE.seed), for --resume.")
@click.option("--resume", is_flag=True,
              help="Go on with the sweep journaled at --out (same lists and options): its words are not "
                   "evaluated again (in hard mode, but those refuted against a provisional bound that "
                   "proved too low); a stop (Ctrl+C) loses only the words being searched then.")
@needs("dask")
@lexicon_options
@search_options
def openers(exact, top, candidates, hard, max_guesses, scheduler, workers, keep, out_path, resume, lexicon, k,
            memory) -> None:
    """Rank first words by tree search on Dask; with --exact, prove the best one.  A long sweep
    (an opener proof takes an hour or more) can be stopped and resumed: --out FILE --resume."""
    import time

    from ..app.opener_journal import Journal
    from ..app.opener_sweep import SweepSpec, first_word_order, sweep
    from ..search.tree_search import INF
    from ..core.words import list_fingerprint

    if lexicon.weighted:
        raise click.UsageError("openers ranks by total guesses over an answer list; use --words classic, "
                               "nyt-2309 or nyt-3158 (or --guesses/--answers)")
    params = click.get_current_context().params
    spec = SweepSpec(words=params["words"], length=params["length"], data_dir=str(_folder()),
                     guesses=_resolved(params["guesses"]), answers=_resolved(params["answers"]),
                     hard=hard, max_guesses=max_guesses, k=None if exact else k, memory_mb=memory)
    if resume and out_path is None:
        raise click.UsageError("--resume goes on with the journal named by --out")
    keep = keep or (1 if exact else top)
    journal = None
    if out_path is not None:
        journal = Journal.start(out_path, {
            "guesses": list_fingerprint(lexicon.guesses)[:16], "answers": list_fingerprint(lexicon.answers)[:16],
            "hard": hard, "max_guesses": max_guesses, "search": "exact" if exact else f"k={k}", "keep": keep,
            "margin": 0.5}, resume=resume)
    words = first_word_order(spec)
    if candidates or not exact:
        words = words[: candidates or 100]
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    if journal is not None and journal.rows:
        err.print(f"resuming {out_path}: {journal.state().describe()}", soft_wrap=True)
    with Progress(TextColumn("first words"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                  TextColumn("best {task.fields[best]}"), TimeRemainingColumn(), console=err, transient=True) as prog:
        done = {} if journal is None else {w: (v, e) for w, (v, e, _) in journal.rows.items()}
        state = {"best": None if journal is None else journal.state().best}

        def shown(best):
            return f"{best[0].upper()} {best[1]:g}" if best else "…"

        # resumed: the journal's best and count from the start
        task = prog.add_task("sweep", total=len(words), best=shown(state["best"]),
                             completed=sum(w in done for w in words))

        counted = set(done)
        logged = [time.monotonic()]

        def seen(word, value, is_exact):
            if is_exact and (state["best"] is None or value < state["best"][1]):
                state["best"] = (word, value)
                prog.update(task, best=shown(state["best"]))
            if word not in counted:  # a word refuted against a provisional bound may come again
                counted.add(word)
                prog.advance(task)
            if not err.is_terminal and time.monotonic() - logged[0] >= OPENERS_LOG_SECONDS:
                logged[0] = time.monotonic()  # a log has no progress bar: a line now and then
                err.print(f"{time.strftime('%H:%M:%S')} {prog.tasks[0].completed:,}/{len(words):,} first "
                          f"words, best {shown(state['best'])}")

        kept = {} if journal is None else dict(on_batch=journal.add, on_seed=journal.add_seed,
                                               estimates=journal.estimates(), on_estimates=journal.keep_estimates)
        try:
            with sigterm_stops():
                result = sweep(spec, words, scheduler=scheduler, workers=workers, keep=keep, done=done,
                               on_result=seen, **kept)
        except KeyboardInterrupt:
            if journal is not None:  # said in words: a background run's log shows no progress bar
                prog.stop()
                err.print(f"stopped: {journal.state().describe()} kept in {out_path}; the same command "
                          "with --resume goes on" if journal.rows else
                          f"stopped before any first word was journaled in {out_path}; the same command "
                          "with --resume starts it again", soft_wrap=True)
            raise
    ranking = result.ranking()
    kind = "exact" if exact else f"near-optimal k={k}"
    earlier = f"; {len(done):,} from the journal" if done else ""
    out.print(f"[bold]{lexicon.name}[/] · {'hard' if hard else 'normal'} · {kind} · "
                      f"{len(words):,} first words in {result.seconds:.1f} s "
                      f"({result.cpu_seconds:.1f} CPU-s on {'the scheduler at ' + scheduler if scheduler else f'{workers} threads'}"
                      f"{earlier})")
    for i, (w, v, e) in enumerate(ranking[:top], start=1):
        shown = f"{v:g}" if e else (f"cannot win within {max_guesses} guesses" if v >= INF else f">= {v:g}")
        out.print(f"{i:>4}  {w.upper()}  {shown}")
    best = result.best
    if exact and best:
        worse = sum(1 for w, (v, e) in result.values.items() if w != best[0] and (not e or v > best[1]))
        out.print(f"proven: {best[0].upper()} = {best[1]:g} is optimal; {worse:,} other first words "
                          f"cannot do better")
    if journal is not None:
        best_note = f", best {best[0]} {best[1]:g}" if best else ""
        journal.finish(f"{len(words):,} first words{best_note}, {journal.cpu_seconds():.1f} CPU-s in all")
        out.print(f"written to {out_path}")


def _resolved(path: Path | None) -> str | None:
    """A file option as an absolute path (the sweep's workers may run in another folder)."""
    return str(Path(path).resolve()) if path is not None else None


# ---------------------------------------------------------------------------------------------
# analyze


@cli.command()
@click.option("--history", default=None, help='The rows played, e.g. "salet:20110,crony:00210".')
@click.option("--answer", default=None,
              help="The answer (checked against the colours; default: a solved game's last word, or the "
                   "answer of the grid's puzzle in the history).")
@click.option("--grid", default=None, help="A pasted share grid (use --grid-file - to read it from stdin).")
@click.option("--grid-file", type=click.File("r", encoding="utf-8"), default=None,
              help="Read the share grid from this file ('-' for standard input).")
@click.option("--played", default=None, help="With a grid: the words played, comma separated.")
@click.option("--hard", is_flag=True, default=None, help="Hard mode (a grid's '*' says so too).")
@click.option("--style", type=click.Choice(["dark", "light", "contrast", "all"]), default="dark",
              show_default=True, help="Share-grid colours to print.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@goal_option
@lexicon_options(lazy=True, date_help="The day the game was played (default: the share grid's puzzle "
                                      "number, else today): the bot judges with that morning's answer prior.")
def analyze(history, answer, grid, grid_file, played, hard, style, as_json, goal, lexicons, day) -> None:
    """Rate a played game: each guess's skill and luck against the bot's best; share grids.

    A share grid names its puzzle, so its day and, once the history has it, its answer: the grid
    alone is enough to see how many words fit each row and how the bot would have played."""
    from ..core.share import share_grid
    from ..policy import analysis as an
    from ..policy.advisor import Advisor
    from .common import HOW_REPLAY, history as answer_history, resolve_game_day
    from ..core.days import replay_note
    from ..core.game import parse_history
    from ..policy.grid_analysis import analyze_grid

    if grid_file is not None:
        grid = grid_file.read()
    shared = None
    if grid:
        shared = an.parse_share_grid(grid)
        hard = shared.hard if hard is None else hard
    elif not history:
        raise click.UsageError("give --history (with --answer) or --grid (with --played, or alone when the "
                               "history has the grid's answer)")
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
            why = (f"the history does not have the answer of Wordle #{game_day.puzzle:,} ({game_day.day})"
                   if game_day.chosen else "the grid has no puzzle number (nor --date) to look its answer up by")
            raise click.UsageError(f"with --grid, give --played (the words) or --answer: {why}")
        with err.status("analysing…"):
            rep = analyze_grid(advisor, shared, game_day, played=played.split(",") if played else None,
                               answer=answer, hard=hard)
        if not rep.rated:
            _print_grid_report(rep, lexicon, style, as_json)
            return
        rows, report = rep.played, rep.report
    else:
        rows = parse_history(history)
        with err.status("analysing…"):
            report = an.analyze_game(advisor, rows, answer=answer, hard=hard)
    note = None
    if lexicon.day is not None and report.answer is not None:
        note = replay_note([report.answer], game_day, answer_history(), HOW_REPLAY)
    styles = ["dark", "light", "contrast"] if style == "all" else [style]
    grids = {s: share_grid(rows, solved=report.solved, hard=hard, puzzle=puzzle, style=s) for s in styles}
    if as_json:
        doc = {"summary": report.summary(), "skill": report.skill, "luck": report.luck, "solved": report.solved,
               "answer": report.answer, "words": lexicon.name,
               "day": lexicon.day.isoformat() if lexicon.day else None, "goal": goal,
               "puzzle": game_day.puzzle if lexicon.day or game_day.chosen else None, "day_note": note,
               "rows": [{"guess": r.guess, "pattern": format_digits(r.pattern, lexicon.length),
                         "candidates_before": r.candidates_before, "candidates_after": r.candidates_after,
                         "best": r.best, "best_expected": r.best_expected, "player_expected": r.player_expected,
                         "best_lose": r.best_lose, "player_lose": r.player_lose,
                         "skill": r.skill, "luck": r.luck} for r in report.rows],
               "share": grids}
        click.echo(json.dumps(doc, indent=1))
        return
    from ..policy.explain import goal_line
    from ..term.render import analysis_table

    out.print(analysis_table(report))
    out.print(f"[bold]{escape(report.summary())}[/]")
    out.print(f"[dim]{escape(goal_line(goal))}[/]", soft_wrap=True)
    from ..policy.explain import review_rows
    from ..core.game import Game

    rated = Game.from_history(lexicon, rows[:len(report.rows)], hard=hard, matrix=advisor.matrix,
                              max_guesses=max(6, len(rows)))
    for line in review_rows(advisor, rated, report):  # each guess in plain words
        out.print(escape(line), soft_wrap=False)
    if note:
        out.print(f"[yellow]{escape(note)}[/]", soft_wrap=True)
    for s, text in grids.items():
        out.print(f"\n{text}")


def _print_grid_report(rep, lexicon, style: str, as_json: bool) -> None:
    """A grid whose words are not known: how many words fit each row, the bot's own game."""
    if as_json:
        click.echo(json.dumps({
            "summary": rep.headline(), "solved": rep.grid.solved, "answer": rep.answer, "words": lexicon.name,
            "day": rep.day.day.isoformat() if rep.day else None, "puzzle": rep.day.puzzle if rep.day else None,
            "rows": [{"pattern": format_digits(r.pattern, rep.grid.length), "fitting": r.fitting} for r in rep.rows],
            "bot": [r.guess for r in rep.bot]}, indent=1))
        return
    out.print(escape(rep.headline("--played a,b,c rates each one")), soft_wrap=True)
    for line in rep.lines(style if style != "all" else "dark"):
        out.print(f"  {escape(line)}", soft_wrap=True)


# ---------------------------------------------------------------------------------------------
# answers: the answer model


@cli.group("answers")
def answers_group() -> None:
    """The answer model: how likely each valid word is to be the day's answer."""


def _nyt_words_and_folder():
    from ..core.words import read_word_file

    folder = _folder()
    f = folder / "nyt/guesses.txt"
    if not f.is_file():
        raise DataError(f"the answer model needs the NYT lists; none in {folder} (wordlebot data fetch)")
    return read_word_file(f), folder


@answers_group.command("build")
@click.option("--until", type=DAY, default=None,
              help="Fit on the history up to this day only (default: yesterday, the history before today).")
def answers_build(until) -> None:
    """Fit the answer model on the word lists and the NYT history, and keep it for the next day."""
    from ..answers.daily import build_day_model
    from ..answers.editor import FRESH_DAY, FRESH_LETTERS, FRESH_STATIC, REPEAT_FEATURES

    words, folder = _nyt_words_and_folder()
    until = until or dt.date.today() - dt.timedelta(days=1)
    with err.status("fitting the answer model…"):
        model, path = build_day_model(folder, words, until)
    m = model.meta
    out.print(f"fitted on the history to {model.trained_until}: {m['fresh_choices']:,} fresh answers since "
              f"{m['trained_from']}, {m['repeat_choices']:,} repeats; {'converged' if m['converged'] else 'NOT converged'} "
              f"in {m['newton_steps']} Newton steps, {m['seconds']:.2f} s", soft_wrap=True)
    out.print("fresh words (log-odds per unit): " + ", ".join(
        f"{k} {model.fresh[k]:+.2f}" for k in FRESH_STATIC + FRESH_DAY + FRESH_LETTERS), soft_wrap=True)
    out.print("repeats: " + ", ".join(f"{k} {model.repeat[k]:+.2f}" for k in REPEAT_FEATURES), soft_wrap=True)
    out.print(f"saved to {path}")


def _day_prior(day: dt.date | None):
    """The prior of ``day`` (default today) from the answer model, fitted if need be."""
    from ..answers.daily import prior_for_day

    words, folder = _nyt_words_and_folder()
    prior = prior_for_day(folder, words, day, build=True, notify=_note)
    if prior.model is None:
        raise DataError(f"no answer model for {prior.day}: {prior.description}")
    err.print(f"[dim]{escape(prior.description)}[/]", soft_wrap=True)
    return prior


ANSWERS_DATE_HELP = "The day (default today): its prior, from the history before it."


@answers_group.command("show")
@click.argument("words", nargs=-1, required=True)
@click.option("--date", "day", type=DAY, default=None, help=ANSWERS_DATE_HELP)
def answers_show(words, day) -> None:
    """Probability of each WORD being the day's answer, and why."""
    from ..answers.odds import word_odds
    from ..policy.explain import rank_text, tie_ranks
    from ..core.words import Lexicon, slip_hint
    from ..answers.prior import answer_weights

    prior = _day_prior(day)
    model, p, on = prior.model, prior.weights, prior.day
    index = {w: i for i, w in enumerate(model.words)}
    first, last = tie_ranks(p)
    last_used = {e.word: e.date for e in prior.history}
    lexicon = None  # for the words one slip away from a word not in the list, the day's likeliest first
    for raw in words:
        w = check_word(raw, 5)
        if w not in index:
            lexicon = lexicon or Lexicon.from_lists(model.words, model.words, answer_weights(p))
            err.print(f"[red]{escape(w.upper() + ': not a valid guess' + slip_hint(lexicon.near(w)))}[/]")
            continue
        i = index[w]
        odds = word_odds(model, prior.parts, w)
        used = f" · last an answer on {last_used[w]}" if w in last_used else ""
        out.print(f"[bold]{w.upper()}[/]  P(answer on {on}) = {p[i]:.3g}  ({rank_text(int(first[i]), int(last[i]), len(p))})"
                  f"{used}", soft_wrap=True)
        out.print(f"    {escape(odds.text())}", soft_wrap=True)
        for what, factor in odds.factors:
            out.print(f"    x{factor:.2f}  {escape(what)}", soft_wrap=True)


@answers_group.command("list")
@click.option("--threshold", type=float, default=None, help="Only words with at least this probability.")
@click.option("--top", type=click.IntRange(1), default=50, show_default=True, help="How many to show.")
@click.option("--date", "day", type=DAY, default=None, help=ANSWERS_DATE_HELP)
def answers_list(threshold, top, day) -> None:
    """The likeliest answers for a day (default today), and each group's share of it."""
    import numpy as np

    from ..answers.odds import group_index, groups
    from ..policy.explain import tie_ranks

    prior = _day_prior(day)
    model, p = prior.model, prior.weights
    for g in groups(model, prior.parts):
        out.print(f"  {g.label}: {g.text()}", soft_wrap=True)
    order = np.argsort(-p, kind="stable")
    if threshold is not None:
        order = order[p[order] >= threshold]
        out.print(f"{order.size:,} words with P >= {threshold:g} (mass {p[order].sum():.3f})")
    first, last = tie_ranks(p)
    member = group_index(prior.parts, model.facts)
    labels = [g.short for g in groups(model, prior.parts)]
    shown = order[:top].tolist()
    width = max((len(f"{first[i]:,}-{last[i]:,}") for i in shown), default=4)
    out.print(f"{'rank':>{width}}  word   P(answer)  group")
    for i in shown:
        rank = f"{first[i]:,}" if first[i] == last[i] else f"{first[i]:,}-{last[i]:,}"
        out.print(f"{rank:>{width}}  {model.words[i].upper()}  {p[i]:9.3g}  {labels[member[i]]}")
    ties: dict[tuple[int, int], list[int]] = {}
    for i in shown:
        if first[i] != last[i]:
            ties.setdefault((int(first[i]), int(last[i])), []).append(i)
    for (a, b), members in ties.items():
        cut = f"; {len(members):,} of them shown" if b - a + 1 > len(members) else ""
        out.print(f"ranks {a:,}-{b:,}: {b - a + 1:,} words tie at {p[members[0]]:.3g} (equally likely, listed "
                  f"in word-list order{cut})", soft_wrap=True)


@answers_group.command("evaluate")
@click.option("--window", type=click.IntRange(10, 1000), default=120, show_default=True,
              help="Days at the end of the history to score, each with the history before it.")
@click.option("--play/--no-play", default=True, show_default=True,
              help="Also play every day of the window with each method (minutes).")
@click.option("--plot", "plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write a calibration plot (PNG; extra 'plots').")
@goal_option
def answers_evaluate(window, play, plot, goal) -> None:
    """Time-split backtest of the answer model beside its baselines: log-loss, ranks, recall,
    calibration by group, and real play with the same search."""
    from rich.progress import BarColumn, Progress, TextColumn

    from ..answers import backtest, store

    if plot is not None:
        require("plots", feature="answers evaluate --plot")
    words, folder = _nyt_words_and_folder()
    data = store.training_data(folder, words)
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  console=err, transient=True) as prog:
        tasks: dict = {}

        def progress(method, done):
            if method not in tasks:
                tasks[method] = prog.add_task(method, total=min(window, len(data.history)))
            prog.update(tasks[method], completed=done)

        reports, priors = backtest.ranking_backtest(data, window, progress=progress)
        r0 = reports[0]
        out.print(f"[bold]ranking[/], {r0.days} days {r0.window[0]} … {r0.window[1]}, each scored with the history "
                  f"before it (uniform over all {len(words):,} words: log-loss {math.log(len(words)):.3f})", soft_wrap=True)
        out.print(f"  {'prior':<8} {'log-loss':>8} {'mean rank':>9} {'median':>7}  recall in the top "
                  + " / ".join(f"{k:,}" for k in backtest.TOP_K))
        for r in reports:
            out.print(f"  {r.method:<8} {r.log_loss:8.3f} {r.mean_rank:9,.1f} {r.median_rank:7,.1f}  "
                      + " / ".join(f"{r.recall[k]:.1%}" for k in backtest.TOP_K)
                      + f"  ({escape(r.note)}, {r.seconds:.0f} s)", soft_wrap=True)
        out.print("  calibration, the mass each prior gave a group summed over the days, beside the days its answer came from it:")
        for j, g in enumerate(backtest.CALIBRATION_GROUPS):
            out.print(f"    {g:<28} happened {reports[0].calibration[j].observed:>4}  predicted "
                      + "  ".join(f"{r.method} {r.calibration[j].predicted:6.1f}" for r in reports), soft_wrap=True)
        if plot is not None:
            from ..answers.plots import calibration_plot

            calibration_plot(reports, priors, data, plot)
            out.print(f"calibration plot written to {plot}")
        if not play:
            return
        plays = backtest.play_backtest(data, priors, window=window, progress=progress, goal=goal)
    out.print(f"[bold]real play[/], {r0.days} days, the same search for every method, goal {goal}")
    for r in plays:
        dist = " ".join(f"{k}:{v}" for k, v in r.distribution().items())
        out.print(f"  {r.name:<15} average {r.average:.4f} · failures {r.failures} "
                  f"(unreachable {len(r.unreachable)}) · {dist} · {r.seconds:.0f} s", soft_wrap=True)


# ---------------------------------------------------------------------------------------------
# prepare


@cli.command()
@click.option("--kernels", "kernels_only", is_flag=True,
              help="Only compile the kernels (what `make` does when it sets up).")
@click.option("--words", "words", type=WORD_SETS, multiple=True,
              help=f"Word set to prepare (repeatable; default {DEFAULT_WORDS}).")
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
            err.print(f"[bold red]Error:[/] the cache folder cannot be written ({escape(problem)}), so nothing "
                      f"prepared would be kept; set {paths.CACHE_ENV} to a writable folder", soft_wrap=True)
            sys.exit(EXIT_ERROR)
        for name in words or (DEFAULT_WORDS,):
            steps += set_steps(name, data_dir=_folder(), day=day, hard=hard, notify=_note)
    from ..term.render import ElapsedStatus

    for i, step in enumerate(steps, 1):
        t0 = time.perf_counter()
        with ElapsedStatus(err, f"[{i}/{len(steps)}] {step.label} ({step.about})…"):
            step.run()
        err.print(f"[{i}/{len(steps)}] {step.label}: done in {time.perf_counter() - t0:.1f} s")


# ---------------------------------------------------------------------------------------------
# data


@cli.group("data")
def data_group() -> None:
    """Word lists and the NYT answer history: fetch, update, status."""


@data_group.command("fetch")
@click.option("--force", is_flag=True, help="Download again even when a file is present and verified.")
@click.option("--source", default=None, metavar="URL",
              help=f"Raw file host (default {data.RAW_BASE}, or ${data.RAW_BASE_ENV}).")
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
    err.print("next: 'wordlebot prepare' does the one-off work now (the default set's matrices, answer model "
              "and opening book) instead of at the first suggestion", soft_wrap=True)


@data_group.command("update")
@click.option("--endpoint", default=None, metavar="URL",
              help=f"NYT daily endpoint base (default {data.NYT_BASE}, or ${data.NYT_BASE_ENV}).")
@click.option("--until", type=DAY, default=None,
              help="Last day to fetch (default yesterday; the answer of today or later is stored, not shown).")
@click.option("--delay", type=float, default=1.0, show_default=True, help="Seconds between requests (be polite).")
@click.option("--timeout", type=float, default=15.0, show_default=True, help="Seconds per request.")
def data_update(endpoint: str | None, until, delay: float, timeout: float) -> None:
    """Add the missing days of the NYT answer history, one request per day (resumable)."""
    folder = _folder()
    today = dt.date.today()
    report = data.update_history(folder, base=endpoint, until=until or today - dt.timedelta(days=1), delay=delay,
                                 timeout=timeout, on_day=lambda e: out.print(f"  {data.shown_entry(e, today)}", soft_wrap=True))
    out.print(f"added {len(report.added)} day{'s' if len(report.added) != 1 else ''}; "
              f"history ends {report.last}; {report.stopped}", soft_wrap=True)
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


# ---------------------------------------------------------------------------------------------
# The commands defined in their own modules.  They import the shared pieces from cli_common.py,
# never this module, so importing them here is no cycle; their modules import only click at the
# top, so registering them costs nothing at start-up.

from .cache import cache  # noqa: E402
from .web import bot, last, web  # noqa: E402

for _command in (web, bot, last, cache):
    cli.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
