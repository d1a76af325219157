"""The player's commands: ``feedback``, ``suggest``, ``assist``, ``play`` and ``tui``."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape

from ..core.extras import require
from ..core.feedback import check_word, format_digits, format_emoji, format_letters
from ..core.feedback import feedback as compute_feedback
from .common import (
    DAY,
    DEFAULT_WORDS,
    STRATEGIES,
    WORD_SETS,
    _folder,
    _note,
    check_cache,
    err,
    goal_option,
    lexicon_options,
    objective_option,
    out,
    strategy_options,
)


@click.command("feedback")
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


@click.command()
@click.option("--history", default="", callback=_rows_of, help='Rows played so far, e.g. "salet:20110,crony:00210".')
@click.option("--top", type=click.IntRange(1, 1000), default=10, show_default=True, help="How many suggestions.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--hard", is_flag=True, help="Hard mode: only guesses that use every revealed hint.")
@goal_option
@lexicon_options
@strategy_options
def suggest(
    history: list, top: int, as_json: bool, hard: bool, goal: str, lexicon, strategy: str, guess_space: str, game_day
) -> None:
    """Suggest the next guesses for a game given as a history (one shot)."""
    from ..core.days import end_of_game_note
    from ..core.game import Game
    from ..policy.advisor import Advisor
    from .common import HOW_REPLAY, day_line
    from .common import history as answer_history

    advisor = Advisor(lexicon, strategy=strategy, guess_space=guess_space, goal=goal)
    game = Game.from_history(lexicon, history, hard=hard, matrix=advisor.matrix)
    day_doc = {
        "day": lexicon.day.isoformat() if lexicon.day else None,
        "puzzle": game_day.puzzle if lexicon.day else None,
        "day_source": game_day.source if lexicon.day else None,
    }
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
            "history": game.history(),
            "words": lexicon.name,
            **day_doc,
            "hard": hard,
            "strategy": strategy,
            "guess_space": guess_space,
            "goal": goal if advisor.searching else None,
            "candidates": int(game.candidates.size),
            "candidate_words": game.candidate_words[:100],
            "suggestions": [r.to_dict() for r in rows],
        }
        click.echo(json.dumps(doc, indent=1))
        return
    from ..policy.explain import candidates_line, possible_line
    from ..term.render import suggestion_table

    if line:
        out.print(f"[dim]{escape(line)}[/]", soft_wrap=True)
    out.print(
        suggestion_table(
            rows,
            strategy,
            int(game.candidates.size),
            title=candidates_line(game),
            hard=game.hard,
            goal=goal if advisor.searching else None,
        )
    )
    if game.candidates.size <= 12:
        out.print(possible_line(game), soft_wrap=True)
    from ..policy.explain import hard_mode_trap

    trap = hard_mode_trap(game)
    if trap:
        out.print(f"[yellow]{escape(trap)}[/]", soft_wrap=True)


@click.command()
@click.option("--hard", is_flag=True, help="Start in hard mode (toggle with 'hard on|off').")
@click.option(
    "--top",
    type=click.IntRange(1, 100),
    default=8,
    show_default=True,
    help="Rows in the suggestion table (change with 'top N').",
)
@click.option(
    "--boards",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Multi-board games: 2 Dordle, 4 Quordle, 8 Octordle, 16 Sedecordle (k + 5 guesses); "
    "one line of colours a guess, for all the boards.",
)
@objective_option
@goal_option
@lexicon_options
@strategy_options
def assist(
    hard: bool, top: int, boards: int, objective: str, goal: str, lexicon, strategy: str, guess_space: str, game_day
) -> None:
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

    AssistSession(
        lexicon,
        out,
        strategy=strategy,
        guess_space=guess_space,
        hard=hard,
        top=top,
        game_day=game_day,
        history=history(),
        goal=goal,
    ).run()


@click.command()
@click.option("--answer", default=None, help="Play against this word.")
@click.option("--random", "use_random", is_flag=True, help="A random answer (the default).")
@click.option("--seed", type=int, default=None, help="Seed for --random.")
@click.option("--hard", is_flag=True, help="Hard mode.")
@lexicon_options(
    date_help="Play the NYT answer of that day (from the history; see 'data update'), with the "
    "answer prior of that morning (built from the history before it)."
)
def play(answer: str | None, use_random: bool, day, seed: int | None, hard: bool, lexicon) -> None:
    """Play Wordle in the terminal against a hidden word; ends with a share grid."""
    from ..core.days import pick_answer
    from ..term.interactive import PlaySession

    chosen, puzzle = pick_answer(lexicon, answer=answer, day=day, seed=seed, data_dir=_folder())
    PlaySession(lexicon, out, chosen, hard=hard, puzzle=puzzle).run()


@click.command()
@click.option("--words", "words", type=WORD_SETS, default=None, help="Word set (default: the last one used, else nyt).")
@click.option(
    "--guesses",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File of allowed guesses (instead of --words).",
)
@click.option(
    "--answers",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File of possible answers (must be among the guesses).",
)
@click.option("-k", "--length", type=click.IntRange(4, 11), default=None, help="Word length (other than 5: wordfreq).")
@click.option("--strategy", type=STRATEGIES, default=None, help="How guesses are ranked.")
@click.option("--hard/--no-hard", default=None, help="Hard mode.")
@click.option("--max-guesses", type=click.IntRange(2, 10), default=None, help="Guess cap.")
@click.option("--play", "mode", flag_value="play", default=None, help="Play against a hidden word.")
@click.option("--assist", "mode", flag_value="assist", help="Assist with a game played elsewhere.")
@click.option(
    "--answer",
    default=None,
    help="Play mode: this hidden word (with --boards K: K distinct words separated by commas).",
)
@click.option(
    "--date",
    "day",
    type=DAY,
    default=None,
    help="The day: the answer prior of that morning (from the history before it) and, in play "
    "mode (the default with --date unless --assist), that day's NYT answer.",
)
@click.option(
    "--boards",
    type=click.IntRange(1, 8),
    default=1,
    show_default=True,
    help="Multi-board games (2 Dordle, 4 Quordle, 8 Octordle; k + 5 guesses): the boards side by "
    "side, one line a guess (the word, then each open board's colours; with --play, just the "
    "word, against hidden words).",
)
@objective_option
@goal_option(remembered=True)
def tui(
    words, guesses, answers, length, strategy, hard, max_guesses, mode, answer, day, boards, objective, goal
) -> None:
    """The terminal UI: a board, live suggestions and candidates, settings, game analysis.
    The settings chosen in its dialog are remembered; the options given here apply to this run."""
    require("tui")
    if boards > 1:
        from ..tui.multi import MultiBoardApp

        hidden = [w.strip() for w in answer.split(",")] if answer else None
        if hidden is not None and len(hidden) != boards:
            raise click.UsageError(
                f"--answer with --boards {boards}: give {boards} words separated by commas "
                "(one hidden word per board), or leave --answer out for random ones"
            )
        check_cache()
        from .common import load_lexicon

        lexicon = load_lexicon(
            words or DEFAULT_WORDS,
            data_dir=_folder(),
            length=length or 5,
            guesses=guesses,
            answers=answers,
            notify=_note,
            build_model=True,
            day=day,
        )
        # the app makes its game at once: a word not in the list, or twice, is refused before it starts
        MultiBoardApp(lexicon, boards, hard=bool(hard), play=mode == "play", answers=hidden, objective=objective).run()
        return
    from ..app.session import Session, Settings
    from ..term.render import DownloadBars, prepare_book
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
            saved,
            data_dir=folder,
            day=day,
            answer=answer,
            notify=note,
            load_options={"progress_factory": bars, "build_model": True},
            words=words,
            length=length,
            strategy=strategy,
            hard=hard,
            max_guesses=max_guesses,
            mode=mode,
            goal=goal,
            guesses_file=str(guesses) if guesses else None,
            answers_file=str(answers) if answers else None,
        )
    prepare_book(err, session.advisor, session.game)
    WordlebotApp(session, data_dir=folder, notes=notes).run()
