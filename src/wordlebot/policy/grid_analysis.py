"""A pasted share grid, analysed with what it and the history say.

A share grid (``Wordle 1,773 4/6`` and its rows of colours) names its puzzle, so its day (whose
prior the bot judges with) and, once that day is over and the history has it, its answer.  What
can be said then depends on what else is known:

- the words played (typed, or the rows of a board whose colours are the grid's): the full
  analysis of the game (``analysis.analyze_game``), each word checked against the grid's
  colours and the answer;
- only the answer: how many allowed words give each row's colours, and how the bot would have
  played that answer with that day's prior;
- neither (today's puzzle, or a history that stops before it): nothing to rate; the error says
  what to give.

The shells (``wordlebot analyze --grid``, the TUI's paste, the web's pasted grid) render a
``GridReport``; none of them holds a rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.days import GameDay
from ..core.errors import InvalidFeedbackError, InvalidWordError
from ..core.feedback import EmojiStyle, Pattern, check_word, feedback_unchecked, format_emoji
from ..core.game import Game, Row
from ..core.text import plural
from .analysis import GameReport, SharedGame, analyze_game, fitting_guesses, parse_share_grid

if TYPE_CHECKING:
    from .advisor import Advisor

BOT_ROWS = 10  # the bot's game for an answer is shown up to this many guesses


@dataclass(frozen=True)
class GridRow:
    index: int  # 1-based
    pattern: Pattern
    fitting: int  # allowed guesses that show these colours against the answer


@dataclass
class GridReport:
    """What a share grid says once its day (and maybe answer and words) are known: ``report``
    (and ``played``) when the words are known, else ``rows`` (the colours, with how many words
    fit each) and ``bot`` (the bot's own game for the answer)."""

    grid: SharedGame
    day: GameDay | None
    answer: str | None
    played: list[Row] = field(default_factory=list)
    report: GameReport | None = None
    rows: list[GridRow] = field(default_factory=list)
    bot: list[Row] = field(default_factory=list)

    @property
    def rated(self) -> bool:
        """The words are known: each one is rated (``report``)."""
        return self.report is not None

    def headline(self, how: str = "give the words to rate each one") -> str:
        """One line: the puzzle, its day, the result, and what is known (``how``: the shell's
        way to give the words)."""
        result = f"solved in {self.grid.score}" if self.grid.solved else "not solved"
        where = f"Wordle #{self.day.puzzle:,} of {self.day.day}" if self.day is not None else "A game"
        if self.rated:
            return f"{where}, {result}."
        return f"{where}, {result}; the words played are not known, so only the colours can be read ({how})."

    def lines(self, style: EmojiStyle = "dark") -> list[str]:
        """The answer-only view in plain words (empty when the words are known: the report is
        the analysis then)."""
        if self.rated or self.answer is None:
            return []
        out = [
            f"row {r.index}: {format_emoji(r.pattern, self.grid.length, style)}  "
            f"{plural(r.fitting, 'allowed word gives', 'allowed words give')} these colours against "
            f"{self.answer.upper()}"
            for r in self.rows
        ]
        out.append(self.bot_line())
        return out

    def bot_line(self) -> str:
        words = " ".join(r.guess.upper() for r in self.bot)
        solved = bool(self.bot) and self.bot[-1].guess == self.answer
        result = f"{plural(len(self.bot), 'guess', 'guesses')}" if solved else "not solved"
        return f"the bot: {words} ({result}, with the same prior)"


_TILES = frozenset("\U0001f7e9\U0001f7e8\u2b1b\u2b1c\U0001f7e7\U0001f7e6")  # 🟩🟨⬛⬜🟧🟦


def looks_like_grid(text: str) -> bool:
    """Whether pasted text is meant as a share grid (``Wordle …`` then tiles), so a shell reads
    it as one, with its errors, instead of as typed keys."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return bool(lines) and lines[0].strip().lower().startswith("wordle") and any(ch in _TILES for ch in text)


def read_grid(text: str) -> SharedGame:
    """``analysis.parse_share_grid``: a pasted grid, or InvalidFeedbackError saying what is wrong."""
    return parse_share_grid(text)


def words_of_rows(grid: SharedGame, rows: list[Row]) -> list[str] | None:
    """The words of a board whose rows show exactly the grid's colours (the player's own game),
    else None."""
    if len(rows) != len(grid.patterns) or any(r.pattern != p for r, p in zip(rows, grid.patterns)):
        return None
    return [r.guess for r in rows]


def analyze_grid(
    advisor: Advisor,
    grid: SharedGame,
    day: GameDay | None,
    *,
    played: list[str] | None = None,
    answer: str | None = None,
    hard: bool | None = None,
) -> GridReport:
    """The grid analysed with ``advisor`` (whose word set carries ``day``'s prior): the full
    analysis when ``played`` (the words, in order) is given, else the answer-only view.  The
    answer is ``answer`` or the day's (from the history); given both, they must agree.  Raises
    InvalidWordError / InvalidFeedbackError saying what does not fit."""
    lex = advisor.lexicon
    known = day.answer if day is not None else None
    if answer is not None:
        answer = check_word(answer, grid.length)
        if day is not None and known is not None and answer != known:
            raise InvalidWordError(
                f"the answer of Wordle #{day.puzzle:,} ({day.day}) was {known.upper()}, not {answer.upper()}"
            )
    answer = answer or known
    hard = grid.hard if hard is None else hard
    played = [w.strip().lower() for w in played or [] if w.strip()]
    if played:
        if len(played) != len(grid.patterns):
            raise InvalidWordError(
                f"{plural(len(played), 'word', 'words')} for {plural(len(grid.patterns), 'grid row', 'grid rows')}: "
                "give one word per row, in the order played"
            )
        for k, w in enumerate(played, start=1):
            try:
                check_word(w, grid.length)
            except InvalidWordError as exc:
                raise exc.at(label=f"word {k}") from None
        rows = [Row(w, p) for w, p in zip(played, grid.patterns)]
        if answer is not None:
            for k, r in enumerate(rows, start=1):
                if feedback_unchecked(r.guess, answer) != r.pattern:
                    shown = Row(r.guess, feedback_unchecked(r.guess, answer)).feedback_digits()
                    raise InvalidFeedbackError(
                        f"row {k}: {r.guess.upper()} against {answer.upper()} shows "
                        f"{shown}, not the grid's {r.feedback_digits()}: check the words"
                    )
        elif grid.solved:
            answer = rows[-1].guess
        report = analyze_game(advisor, rows, answer=answer, hard=hard, max_guesses=grid.max_guesses)
        return GridReport(grid, day, answer, played=rows, report=report)
    if answer is None:
        when = f"Wordle #{day.puzzle:,} ({day.day})" if day is not None else "this grid's puzzle"
        raise InvalidWordError(
            f"the answer of {when} is not in the history (today's puzzle, or the history "
            "stops before it), so only the words played can be rated: give them, in order"
        )
    lex.id(answer)  # a word the game accepts (InvalidWordError names it otherwise)
    fitting = [GridRow(k, p, fitting_guesses(lex, p, answer)) for k, p in enumerate(grid.patterns, start=1)]
    return GridReport(grid, day, answer, rows=fitting, bot=bot_game(advisor, answer, hard=hard))


def bot_game(advisor: Advisor, answer: str, *, hard: bool = False) -> list[Row]:
    """The bot's own game for ``answer`` (its rows), up to BOT_ROWS guesses; the game knows its
    answer, so one outside the word set's answer list is played to the end as in play mode."""
    game = Game(advisor.lexicon, hard=hard, max_guesses=BOT_ROWS, matrix=advisor.matrix, answer=answer)
    while not game.over:
        ranked = advisor.suggest(game, 1)
        if not ranked:  # the answer list ran out (an answer off the list): the bot has no move
            break
        game.guess(ranked[0].word)
    return list(game.rows)
