"""The multi-board assistant on a terminal (``wordlebot assist --boards 4``): suggestions for a
Dordle, Quordle, Octordle… played elsewhere, one line of colours per guess for all the boards.

Lines are read through an ``ask`` function (``input`` by default) so tests can drive it; every
user mistake is printed and asked again; nothing raises to the caller except end of input,
which ends the session quietly.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from ..core.errors import WordlebotError
from ..core.feedback import check_word
from ..core.words import Lexicon
from ..multi.game import MultiGame, check_objective
from ..multi.policy import suggest
from ..policy.explain import by_likelihood

Ask = Callable[[str], str]

HELP = """\
At the guess prompt type the word you played, or press Enter to play the suggestion.
At the colours prompt type what the game showed on each board, left to right, separated by
spaces: 20110 gy..g 🟩🟨⬛⬛⬛ … in any form the one-board assistant takes; '-' for a board
already solved (or leave those out: the colours then go to the open boards in order).
Commands: undo (take back the last guess), help, quit."""


class MultiAssistSession:
    def __init__(
        self,
        lexicon: Lexicon,
        boards: int,
        console: Console,
        *,
        hard: bool = False,
        top: int = 5,
        max_guesses: int | None = None,
        ask: Ask | None = None,
        objective: str = "score",
    ) -> None:
        self.game = MultiGame(lexicon, boards, hard=hard, max_guesses=max_guesses)
        self.objective = check_objective(objective)
        self.console = console
        self.top = top
        self.ask = ask or input

    def say(self, text: str = "", **kw) -> None:
        self.console.print(text, **kw)

    def run(self) -> None:
        g = self.game
        self.say(
            f"{g.name}: {g.n_boards} boards, {g.max_guesses} guesses, {g.lexicon.describe()}. "
            "Type 'help' for the commands.",
            soft_wrap=True,
        )
        try:
            while True:
                if g.over:
                    self._the_end()
                    line = self.ask("game over: 'undo' or 'quit': ").strip().lower()
                    if line == "undo":
                        g.undo()
                        continue
                    return
                if not self._turn():
                    return
        except EOFError:
            return

    def _turn(self) -> bool:
        g = self.game
        rows = suggest(g, self.top, objective=self.objective)
        self._show(rows)
        best = rows[0].word if rows else ""
        line = self.ask(
            f"guess {g.guesses_used + 1} of {g.max_guesses}" + (f" (Enter: {best.upper()}): " if best else ": ")
        ).strip()
        if not line and not best:
            self.say("[red]there is no suggestion to take: type the word you played (or undo, help, q)[/]")
            return True
        word = line.lower() or best
        if word in ("q", "quit", "exit"):
            return False
        if word == "help":
            self.say(HELP)
            return True
        if word == "undo":
            try:
                self.say(f"took back {g.undo()}")
            except WordlebotError as exc:
                self.say(f"[red]{escape(str(exc))}[/]")
            return True
        try:
            word = check_word(word, g.lexicon.length)
            g.check_guess(word)  # the word first: hard mode may refuse it before any colours
        except WordlebotError as exc:
            self.say(f"[red]{escape(str(exc))}[/]")
            return True
        while True:
            open_boards = g.active
            names = " ".join(str(b + 1) for b in open_boards)
            line = self.ask(f"colours for {word.upper()} on board{'s' if len(open_boards) > 1 else ''} {names}: ")
            parts = line.split()
            if not parts:
                continue
            if parts[0].lower() in ("back", "undo"):
                return True
            if parts[0].lower() in ("q", "quit", "exit"):
                return False
            try:
                row = g.guess(word, g.colours_of(parts))
            except WordlebotError as exc:
                self.say(f"[red]{escape(str(exc))}[/]")
                continue
            self.say(str(row))
            return True

    def _show(self, rows) -> None:
        g = self.game
        solved = g.solved_at
        for b in range(g.n_boards):
            if solved[b] is not None:
                self.say(f"  board {b + 1}: solved in {solved[b]}")
                continue
            n = int(g.candidates(b).size)
            likeliest = by_likelihood(g.boards[b], 6)  # list order where all are alike
            shown = " ".join(w.upper() for w, _ in likeliest) + (" …" if n > 6 else "")
            self.say(f"  board {b + 1}: {n:,} left  {shown}")
        for i, r in enumerate(rows, start=1):
            self.say(f"  {i}. {r.word.upper()}  {r.cost:.2f}  {escape(r.why)}")
        note = g.off_list_note()  # a hard-mode game stuck for good
        if note:
            self.say(f"  [yellow]{escape(note)}[/]")

    def _the_end(self) -> None:
        g = self.game
        lost = [b + 1 for b in g.active]
        if lost:
            self.say(
                f"out of guesses: board{'s' if len(lost) > 1 else ''} {', '.join(map(str, lost))} "
                f"not solved; score {g.score():g}"
            )
        else:
            self.say(
                f"all {g.n_boards} boards solved in {g.guesses_used}: score {g.score():g} "
                f"(boards solved at {', '.join(map(str, g.solved_at))})"
            )
