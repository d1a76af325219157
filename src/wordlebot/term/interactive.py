"""Terminal sessions: the assistant (``wordlebot assist``) and the game (``wordlebot play``).

They read lines through an ``ask`` function (``input`` by default) so tests can drive them, and
every user mistake is printed as a message and asked again: nothing here raises to the caller
except end of input, which ends the session quietly.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.markup import escape

from ..core.days import GameDay, default_day_note, end_of_game_note
from ..core.errors import InconsistentFeedbackError, WordlebotError
from ..core.game import Game, Refusal, Row
from ..core.share import share_grid
from ..core.words import Lexicon
from ..policy.advisor import DEFAULT_GOAL, Advisor
from ..policy.explain import candidates_line, goal_line, hard_mode_trap, possible_line
from .render import prepare_book, suggestion_table, tiles

Ask = Callable[[str], str]

ASSIST_HELP = """\
At the guess prompt type the word you played, or press Enter to play the suggestion.
At the colours prompt type what the game showed, in any of these forms:
  20110   gy..g   GYBBG   gy--g   🟩🟨⬛⬛⬛   (⬜ light theme, 🟧🟦 high contrast)
  or 'refused' if the game did not take the word: it is not the answer, and the
  next best is suggested (undo takes that back); there, undo drops the word.
Colours that leave no possible word mean a slip in this row or an earlier one:
type this row's colours again, correct an earlier row with edit, or undo.
Commands (at either prompt):
  undo            take back the last row or refusal (at the colours prompt:
                  drop the word typed, back to the guess prompt)
  edit N ROW      replace row N: edit 1 salet:20110 or edit 1 salet 20110
  hard on|off     hard mode (every revealed hint must be used)
  list            the words still possible
  top N           show N suggestions
  new             start a new game
  help            this text
  quit            leave (also q, exit, Ctrl-D)
To enter a word that is also a command (4-letter games), prefix it with '=': =list"""

# At the colours prompt: the game did not take the word (an empty line only asks).
REFUSED = ("refused", "refuse")


def _default_ask(prompt: str) -> str:
    return input(prompt)


class AssistSession:
    def __init__(
        self,
        lexicon: Lexicon,
        console: Console,
        *,
        strategy: str = "entropy",
        guess_space: str = "all",
        hard: bool = False,
        top: int = 8,
        ask: Ask | None = None,
        game_day: GameDay | None = None,
        history: list | None = None,
        goal: str = DEFAULT_GOAL,
    ) -> None:
        self.console = console
        self.advisor = Advisor(lexicon, strategy=strategy, guess_space=guess_space, goal=goal)
        self.game = self.advisor.new_game(hard=hard)
        self.top = top
        self.ask = ask or _default_ask
        # the day of the game (its prior, its puzzle number) and the answer history, for the
        # day line at the start and the replay rule at the end (days.py)
        self.game_day = game_day
        self.history = history or []

    @property
    def lexicon(self) -> Lexicon:
        return self.advisor.lexicon

    def say(self, *args, **kwargs) -> None:
        self.console.print(*args, **kwargs)

    def run(self) -> None:
        lex = self.lexicon
        self.say(
            f"[bold]wordlebot assistant[/] · {lex.describe()} · strategy {self.advisor.strategy}"
            + (" · only possible answers" if self.advisor.guess_space == "candidates" else "")
        )
        if self.advisor.searching:
            self.say(goal_line(self.advisor.goal), soft_wrap=True)
        if not lex.official:
            self.say(f"[yellow]{escape(lex.note)}[/]")
        if lex.fallback is not None:
            self.say(f"[bold yellow]{escape(lex.fallback.line)}[/]")
        if self.game_day is not None and lex.day is not None:
            self.say(
                escape(default_day_note(self.game_day, "give --date YYYY-MM-DD") or self.game_day.describe()),
                soft_wrap=True,
            )
        self.say("Type the word you played (Enter = the suggestion), then its colours. 'help' for commands.")
        try:
            while self._turn():
                pass
        except EOFError:
            self.say("")
        self.say("bye")

    # One prompt cycle; returns False to quit.
    def _turn(self) -> bool:
        game = self.game
        if game.solved or game.over:
            return self._after_game()
        best = self._show_suggestions()
        default = f" [{best.upper()}]" if best else ""
        line = self.ask(f"guess {len(game.rows) + 1}{default}: ").strip()
        handled = self._command(line)
        if handled is not None:
            return handled
        word = line[1:] if line.startswith("=") else line
        word = word.lower() or (best or "")
        if not word:
            self.say("[red]type the word you played[/]")
            return True
        try:
            game.check_guess(word)  # not in the list, refused before, or against hard mode
        except WordlebotError as exc:
            self.say(f"[red]{escape(str(exc))}[/]")
            return True
        return self._read_colours(word)

    def _read_colours(self, word: str) -> bool:
        """Ask for ``word``'s colours until they are given, the word is refused or dropped, or a
        command ends the turn.  The commands work here too, so a slip in an earlier row is
        corrected without losing this one; an empty line refuses nothing, it asks."""
        W = word.upper()
        while True:
            line = self.ask(f"colours for {W} ('refused' if the game did not take it): ").strip()
            low = line.lower()
            if line == "":
                self.say(
                    f"[yellow]no colours: type the colours the game showed for {W} (e.g. 20110), "
                    "'refused' if the game did not take the word, or undo to drop it[/]",
                    soft_wrap=True,
                )
                continue
            if low in REFUSED:
                try:
                    self.game.refuse(word)
                except WordlebotError as exc:
                    self.say(f"[red]{escape(str(exc))}[/]")
                    return True
                self.say(
                    f"OK, {W} was refused by the game, so it is not the answer; it will not be "
                    "suggested again in this game ('undo' takes that back)."
                )
                return True
            if low in ("back", "undo"):
                self.say(f"{W} dropped: type the word you played")
                return True
            command = low.split()[0]
            if command in ("edit", "hard", "help", "list", "top", "new", "q", "quit", "exit"):
                handled = self._command(line)
                if handled is False or command in ("new",):
                    return bool(handled)
                try:  # an edit or hard mode may have changed what the word may be
                    self.game.check_guess(word)
                except WordlebotError as exc:
                    self.say(f"[red]{escape(str(exc))}[/]")
                    return True
                continue
            try:
                row = self.game.guess(word, line)
            except InconsistentFeedbackError as exc:
                self.say(f"[red]{escape(str(exc))}[/]")
                earlier = (
                    f", correct an earlier row with edit N word:colours (row 1 is {self.game.rows[0]} now)"
                    if self.game.rows
                    else ""
                )
                self.say(f"[yellow]type {W}'s colours again{escape(earlier)}, or undo to drop {W}[/]", soft_wrap=True)
                continue
            except WordlebotError as exc:
                self.say(f"[red]{escape(str(exc))}[/]")
                continue
            self.say(tiles(row))
            return True

    def _show_suggestions(self) -> str | None:
        """Print the suggestion table; the top suggestion (None when there is none)."""
        game = self.game
        prepare_book(self.console, self.advisor, game)
        rows = self.advisor.suggest(game, self.top)  # never a word the game refused
        n = int(game.candidates.size)
        self.say(suggestion_table(rows, self.advisor.strategy, n, title=candidates_line(game), hard=game.hard))
        if n <= 8:
            self.say(possible_line(game), soft_wrap=True)
        trap = hard_mode_trap(game)
        if trap:
            self.say(f"[yellow]{escape(trap)}[/]", soft_wrap=True)
        return rows[0].word if rows else None

    def _after_game(self) -> bool:
        game = self.game
        if game.solved:
            self.say(f"[bold green]Solved in {len(game.rows)}![/]")
        else:
            self.say(
                "[bold red]Out of guesses.[/] Still possible: "
                + ", ".join(w.upper() for w in game.candidate_words[:20])
            )
        note = end_of_game_note(game, self.game_day, self.history, "use --date {day}")
        if note:
            self.say(f"[yellow]{escape(note)}[/]", soft_wrap=True)
        puzzle = self.game_day.puzzle if self.game_day is not None and self.lexicon.official else None
        self.say(share_grid(game.rows, solved=game.solved, max_guesses=game.max_guesses, hard=game.hard, puzzle=puzzle))
        line = self.ask("Enter = new game, undo = take back the last row, q = quit: ").strip().lower()
        handled = self._command(line or "new")
        return True if handled is None else handled

    def _command(self, line: str) -> bool | None:
        """Run a command; None when ``line`` is not one."""
        words = line.lower().split()
        if not words or line.startswith("="):
            return None
        cmd, args = words[0], words[1:]
        game = self.game
        if cmd in ("q", "quit", "exit"):
            return False
        if cmd == "help":
            self.say(ASSIST_HELP)
            return True
        if cmd == "new":
            self.game = self.advisor.new_game(hard=game.hard, max_guesses=game.max_guesses)
            self.say("new game")
            return True
        if cmd == "undo":
            try:
                move = game.undo()
                if isinstance(move, Refusal):
                    self.say(f"took back the refusal of {move.word.upper()}")
                else:
                    self.say(f"took back {move.guess.upper()} {move.feedback_digits()}")
            except WordlebotError as exc:
                self.say(f"[red]{escape(str(exc))}[/]")
            return True
        if cmd == "list":
            words_left = game.candidate_words
            probs = game.posterior
            order = np.argsort(-probs, kind="stable")
            shown = [
                f"{words_left[i].upper()} {100 * probs[i]:.1f}%" if self.lexicon.weighted else words_left[i].upper()
                for i in order[:200].tolist()
            ]
            more = f" … and {len(words_left) - 200:,} more" if len(words_left) > 200 else ""
            self.say(f"{len(words_left):,} possible: " + ", ".join(shown) + more)
            return True
        if cmd == "top":
            if len(args) == 1 and args[0].isdigit() and 1 <= int(args[0]) <= 100:
                self.top = int(args[0])
            else:
                self.say("[red]usage: top N (1-100)[/]")
            return True
        if cmd == "hard":
            if args == ["on"] or args == ["off"]:
                game.set_hard(args[0] == "on")
                self.say(f"hard mode {args[0]}")
            else:
                self.say(f"[red]usage: hard on|off (now {'on' if game.hard else 'off'})[/]")
            return True
        if cmd == "edit":
            return self._edit(args)
        if len(words) > 1:
            self.say(f"[red]unknown command {escape(repr(cmd))}; type help[/]")
            return True
        return None

    def _edit(self, args: list[str]) -> bool:
        if len(args) == 3 and ":" not in args[1]:
            args = [args[0], f"{args[1]}:{args[2]}"]  # edit 1 salet 20110
        if len(args) != 2 or not args[0].isdigit():
            self.say("[red]usage: edit N WORD:COLOURS (or WORD COLOURS), e.g. edit 1 salet:20110[/]")
            return True
        try:
            row = Row.from_str(args[1])
            self.game.edit(int(args[0]) - 1, row.guess, row.pattern)
        except WordlebotError as exc:
            self.say(f"[red]{escape(str(exc))}[/]")
            return True
        for r in self.game.rows:
            self.say(tiles(r))
        return True


# ---------------------------------------------------------------------------------------------


class PlaySession:
    """``wordlebot play``: a terminal shell over a Game that knows its answer, the same model as
    the TUI's play mode, so word checks, hard mode, the colours and win or loss are decided in one
    place (and a day whose answer is not in the answer list is as winnable as any other)."""

    def __init__(
        self,
        lexicon: Lexicon,
        console: Console,
        answer: str,
        *,
        hard: bool = False,
        max_guesses: int = 6,
        puzzle: int | None = None,
        ask: Ask | None = None,
    ) -> None:
        self.game = Game(lexicon, hard=hard, max_guesses=max_guesses, answer=answer)
        self.console = console
        self.puzzle = puzzle
        self.ask = ask or _default_ask

    def run(self) -> bool:
        """Play until solved, out of rows, or quit; returns True when solved."""
        game = self.game
        say = self.console.print
        say(
            f"[bold]Guess the {game.lexicon.length}-letter word[/] in {game.max_guesses} tries"
            + (" (hard mode)" if game.hard else "")
            + ". 'quit' gives up."
        )
        try:
            while not game.over:
                line = self.ask(f"{len(game.rows) + 1}/{game.max_guesses}: ").strip().lower()
                if line in ("q", "quit", "exit"):
                    break
                if not line:
                    continue
                try:
                    row = game.guess(line)
                except WordlebotError as exc:
                    say(f"[red]{escape(str(exc))}[/]")
                    continue
                say(tiles(row))
        except EOFError:
            pass
        if game.solved:
            say(f"[bold green]Solved in {len(game.rows)}/{game.max_guesses}![/]")
        else:
            say(f"The word was [bold]{(game.answer or '?').upper()}[/].")
        say(share_grid(game.rows, solved=game.solved, max_guesses=game.max_guesses, hard=game.hard, puzzle=self.puzzle))
        return game.solved
