"""Post-game analysis in the spirit of the NYT's WordleBot: each guess rated for skill and luck.

For every row: the candidates before and after, the bot's best guess (under the goal it plays
for: advisor.GOALS) and what it leads to, the same for the player's guess: two figures, never
mixed into one, the chance to solve the game (under the day's prior, the bot playing on after
the guess) and the average guesses to finish *when solved* (this guess included; a lost game is
never counted as a number of guesses).

The rule of the scores:

* **skill** rates the choice, not what came of it: 99 x (the player's chance to solve / the
  bot's, at most 1) x exp(-(extra guesses) / 0.5), the extra guesses being how many more the
  player's guess needs on average when solved than the bot's (none when fewer).  A guess as good
  as the bot's is 99; a tenth of a guess more gives 81, half a guess 36; a guess that keeps half
  the bot's chance to solve gives 50.  A guess that could still solve the game is rated at least
  1: 0 is kept for one that gave up every chance the bot had (a winning guess is never 0; a
  long shot that won, WAVER at 0.4 % where CAVER had 92 %, rates low, and its luck says it was
  lucky).
* **luck** ranks the colours that came up among those the guess could have drawn: 99 x the
  chance of an outcome leaving more candidates than this one, ties counted half (the all-green
  row is the luckiest).
* The game's skill is the mean of its rows' (a forced last guess, the only word left, not
  counted) and **a lost game is never 99**: 99 says the game was played as well as it could be,
  and a lost game whose every choice was the bot's is shown as 98 with the note that the bot,
  playing the same way, loses it too.

An answer outside the word set's list leaves the rows after the one that showed it unrated.

Share grids (``Wordle 1,692 4/6*`` with emoji rows, dark, light or high contrast; ``X/6`` for a
loss; ``*`` for hard mode) are parsed and printed here too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import InvalidFeedbackError, InvalidWordError
from ..core.feedback import Pattern, _tile_count, all_green, feedback_unchecked, format_digits, parse_feedback
from ..core.game import Game, Row
from ..core.text import json_number, plural

if TYPE_CHECKING:
    from ..core.words import Lexicon
    from .advisor import Advisor, Prospect

SKILL_SCALE = 0.5  # guesses of regret that cost 1/e of the skill score
LOST_GAME_SKILL = 98  # the most a lost game is rated (see the module's docstring)


@dataclass(frozen=True)
class RowReport:
    index: int  # 1-based
    guess: str
    pattern: Pattern
    candidates_before: int
    candidates_after: int
    best: str  # the bot's guess here
    # average guesses the bot needs from here when it solves, its guess included (None: never)
    best_expected: float | None
    player_expected: float | None  # the same with the player's guess first
    skill: int  # 0-99
    luck: int  # 0-99
    solved: bool
    best_lose: float = 0.0  # the bot's chance of not solving from here (its guess, then its play)
    player_lose: float = 0.0  # the same with the player's guess first
    lookahead: int = 0  # 0: the figures are searched to the end; else estimated past that many guesses

    def to_dict(self) -> dict[str, object]:
        """The row as JSON: the guesses to finish when solved (null: cannot) and the chance to
        lose, the bot's and the player's, apart (never one figure with a penalty in it)."""
        return {
            "index": self.index,
            "guess": self.guess,
            "feedback": format_digits(self.pattern, len(self.guess)),
            "candidates_before": self.candidates_before,
            "candidates_after": self.candidates_after,
            "best": self.best,
            "best_expected": json_number(self.best_expected),
            "player_expected": json_number(self.player_expected),
            "best_lose": json_number(self.best_lose),
            "player_lose": json_number(self.player_lose),
            "estimated": bool(self.lookahead),
            "skill": self.skill,
            "luck": self.luck,
            "solved": self.solved,
        }


@dataclass
class GameReport:
    rows: list[RowReport]  # the rated rows
    answer: str | None
    solved: bool
    hard: bool
    max_guesses: int
    # Rows played after the answer list ran out (an answer outside the word set's list): the
    # bot's figures are averages over the listed answers and none is left, so they are not rated.
    unrated: list[Row] = field(default_factory=list)
    off_list_note: str | None = None

    goal: str = "streak"  # what the bot played for (advisor.GOALS)

    @property
    def skill(self) -> int:
        rated = [r.skill for r in self.rows if not (r.solved and r.candidates_before == 1)]
        mean = round(float(np.mean(rated))) if rated else 99
        return min(mean, LOST_GAME_SKILL) if self.lost else mean

    @property
    def lost(self) -> bool:
        """Every guess played without the answer (not a game still under way)."""
        return not self.solved and len(self.rows) + len(self.unrated) >= self.max_guesses

    @property
    def bot_loses_too(self) -> bool:
        """A lost game every guess of which was as good as the bot's: its own play loses it too."""
        return self.lost and bool(self.rows) and not self.unrated and all(r.skill == 99 for r in self.rows)

    @property
    def luck(self) -> int:
        rated = [r.luck for r in self.rows if r.candidates_before > 1]
        return round(float(np.mean(rated))) if rated else 50

    def to_dict(self) -> dict[str, object]:
        """The analysis as the CLI's ``--json`` and the web API give it."""
        return {
            "summary": self.summary(),
            "skill": self.skill,
            "luck": self.luck,
            "solved": self.solved,
            "lost": self.lost,
            "answer": self.answer,
            "goal": self.goal,
            "rows": [r.to_dict() for r in self.rows],
        }

    def summary(self) -> str:
        if self.unrated:
            played = len(self.rows) + len(self.unrated)
            result = f"solved in {played}" if self.solved else "not solved"
            rated = (
                (
                    f"Skill {self.skill} · Luck {self.luck} over the first {len(self.rows)} "
                    f"row{'s' if len(self.rows) != 1 else ''} · "
                )
                if self.rows
                else ""
            )
            return f"{rated}{result} ({self.off_list_note}: no bot comparison from row {len(self.rows) + 1})"
        result = f"solved in {len(self.rows)}" if self.solved else "not solved"
        if self.bot_loses_too:
            result += " (every guess was as good as the bot's, which loses this game too)"
        return f"Skill {self.skill} · Luck {self.luck} · {result}{self._start()}"

    def _start(self) -> str:
        """What the bot expected from the start: its guesses when solved, its chance to solve."""
        if not self.rows or self.rows[0].best_expected is None:
            return ""
        first = self.rows[0]
        approx = "≈" if first.lookahead else ""
        chance = f", solving {solve_text(first.best_lose)}" if first.best_lose > 0 else ""
        return f" (from the start the bot needs {approx}{first.best_expected:.2f} guesses on average when it solves{chance})"


def solve_text(lose: float) -> str:
    """The chance to solve in words: ``95.2 % of the time``, ``over 99.9 % of the time``."""
    if lose <= 0:
        return "every time"
    if lose < 0.0005:
        return "over 99.9 % of the time"
    return f"{100 * (1 - lose):.1f} % of the time"


def skill_score(bot: Prospect, mine: Prospect) -> int:
    """The skill of a guess (``mine``) where the bot's choice leads to ``bot`` (advisor.Prospect
    each): see the module's docstring."""
    win_bot, win_mine = 1.0 - bot.lose, 1.0 - mine.lose
    keep = 1.0 if win_bot <= 1e-12 else min(1.0, win_mine / win_bot)
    extra = 0.0
    if bot.expected is not None and mine.expected is not None:
        extra = max(0.0, mine.expected - bot.expected)
    if keep >= 1.0 - 1e-9 and extra <= 1e-9:
        return 99
    score = int(round(99 * keep * math.exp(-extra / SKILL_SCALE)))
    return max(1 if win_mine > 1e-12 else 0, min(98, score))


def luck_score(
    matrix: np.ndarray, guess_id: int, candidates: np.ndarray, weights: np.ndarray, pattern: Pattern, green: int
) -> int:
    """Where the outcome ranks among the guess's possible outcomes (99 = the best possible)."""
    pats = np.asarray(matrix[guess_id, candidates]).astype(np.int64)
    w = weights / weights.sum()
    mass: dict[int, float] = {}
    size: dict[int, int] = {}
    for p, x in zip(pats.tolist(), w.tolist()):
        mass[p] = mass.get(p, 0.0) + x
        size[p] = size.get(p, 0) + 1
    left = {p: (0 if p == green else n) for p, n in size.items()}
    mine = left.get(int(pattern), 0)
    worse = sum(m for p, m in mass.items() if left[p] > mine)
    tie = sum(m for p, m in mass.items() if left[p] == mine)
    return max(0, min(99, int(round(99 * (worse + 0.5 * tie)))))


def analyze_game(
    advisor: Advisor, rows: list[Row], *, answer: str | None = None, hard: bool = False, max_guesses: int = 6
) -> GameReport:
    """Rate every row of a played game (``rows`` with their colours).

    With the answer known, the rows are replayed against it first: a row whose colours the
    answer would not give is refused, and when the answer is outside the word set's answer
    list (a playable word the editor chose), the rows from the one that showed it (no listed
    word fitted any more) are reported in ``unrated`` instead of rated."""
    lex = advisor.lexicon
    cap = max(max_guesses, len(rows))
    rated = rows
    truth = None
    if answer is not None:
        ans = answer.strip().lower()
        lex.id(ans)  # an answer is always a word the game accepts: refuse a typo (InvalidWordError)
        for k, r in enumerate(rows, start=1):
            if r.guess in lex and feedback_unchecked(r.guess, ans) != r.pattern:
                raise InvalidFeedbackError(
                    f"row {k}: {r.guess.upper()} against {ans.upper()} shows {Row(r.guess, feedback_unchecked(r.guess, ans)).feedback_digits()}, "
                    f"not {r.feedback_digits()}: check the answer or the colours"
                )
        truth = Game(lex, hard=hard, max_guesses=cap, matrix=advisor.matrix, answer=ans)
        for r in rows:
            truth.guess(r.guess, r.pattern)
        if truth.off_list_row is not None:
            rated = rows[: truth.off_list_row - 1]
    game = Game(lex, hard=hard, max_guesses=cap, matrix=advisor.matrix)
    green = all_green(lex.length)
    reports = []
    for k, row in enumerate(rated, start=1):
        before = int(game.candidates.size)
        H = game.candidates.copy()
        best, bot, mine = advisor.compare(game, row.guess)
        luck = luck_score(game.matrix, lex.id(row.guess), H, lex.prior[H], row.pattern, green)
        game.guess(row.guess, row.pattern)
        reports.append(
            RowReport(
                k,
                row.guess,
                row.pattern,
                before,
                int(game.candidates.size),
                best,
                bot.expected,
                mine.expected,
                skill_score(bot, mine),
                luck,
                row.pattern == green,
                bot.lose,
                mine.lose,
                bot.lookahead,
            )
        )
    if truth is not None and rated is not rows:
        return GameReport(
            reports,
            truth.answer,
            truth.solved,
            hard,
            max_guesses,
            unrated=list(rows[len(rated) :]),
            off_list_note=truth.off_list_note,
            goal=advisor.goal,
        )
    return GameReport(
        reports, answer or (rows[-1].guess if game.solved else None), game.solved, hard, max_guesses, goal=advisor.goal
    )


# ---------------------------------------------------------------------------------------------
# Share grids


_HEADER = re.compile(r"wordle\s+#?\s*([\d][\d,.\s\u202f]*)?\s*([1-9]|x)\s*/\s*(\d+)\s*(\*)?", re.I)


@dataclass
class SharedGame:
    puzzle: int | None
    solved: bool
    score: int | None  # guesses used when solved
    max_guesses: int
    hard: bool
    patterns: list[Pattern]
    length: int


def parse_share_grid(text: str) -> SharedGame:
    """Read a pasted share grid.  Raises InvalidFeedbackError saying what does not fit."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise InvalidFeedbackError("the share grid is empty; paste the text the game's share button copies")
    m = _HEADER.search(lines[0])
    if not m:
        raise InvalidFeedbackError(
            f"{lines[0]!r} is not a share-grid header; expected something like 'Wordle 1,692 4/6*'"
        )
    number = m.group(1)
    puzzle = int(re.sub(r"\D", "", number)) if number and re.sub(r"\D", "", number) else None
    solved = m.group(2).lower() != "x"
    max_guesses = int(m.group(3))
    # Rows may also come on one line, separated by spaces (a grid pasted into a one-line field
    # or typed on a command line): a row of tiles never holds a space.
    rows_text = lines[0][m.end() :].split() + [part for line in lines[1:] for part in line.split()]
    patterns = []
    length: int | None = None
    for line in rows_text:
        p = parse_feedback(line)
        n = _tile_count(line)
        if length is None:
            length = n
        elif n != length:
            raise InvalidFeedbackError(f"grid row {line!r} has {n} tiles, the others {length}")
        patterns.append(p)
    if not patterns or length is None:
        raise InvalidFeedbackError("the share grid has no rows of tiles")
    score = int(m.group(2)) if solved else None
    if score is not None and score != len(patterns):
        raise InvalidFeedbackError(
            f"the header says {plural(score, 'guess', 'guesses')} but the grid has {plural(len(patterns), 'row')}"
        )
    if not solved and len(patterns) != max_guesses:
        raise InvalidFeedbackError(f"a lost game has {max_guesses} rows; the grid has {len(patterns)}")
    green = all_green(length)
    if solved and patterns[-1] != green:
        raise InvalidFeedbackError("the last row of a solved game must be all green")
    if any(p == green for p in patterns[:-1]) or (not solved and patterns[-1] == green):
        raise InvalidFeedbackError("an all-green row can only be the last row of a solved game")
    return SharedGame(puzzle, solved, score, max_guesses, bool(m.group(4)), patterns, length)


def rows_from_grid(grid: SharedGame, guesses: list[str] | None = None, answer: str | None = None) -> list[Row]:
    """The rows of a shared game: from the guesses (checked against the colours when the answer
    is known); without guesses, only a solved game's last row is known (the answer)."""
    if guesses:
        if len(guesses) != len(grid.patterns):
            raise InvalidWordError(
                f"{plural(len(guesses), 'guess', 'guesses')} for {plural(len(grid.patterns), 'grid row')}"
            )
        rows = [Row(g.strip().lower(), p) for g, p in zip(guesses, grid.patterns)]
        if answer:
            for k, r in enumerate(rows, start=1):
                if feedback_unchecked(r.guess, answer.lower()) != r.pattern:
                    raise InvalidFeedbackError(
                        f"row {k}: {r.guess.upper()} does not give those colours for {answer.upper()}"
                    )
        return rows
    raise InvalidWordError(
        "a grid alone does not say which words were played: give them "
        "(--played), or the answer to see what could have been played"
    )


def fitting_guesses(lexicon: Lexicon, pattern: Pattern, answer: str) -> int:
    """How many allowed guesses show ``pattern`` against ``answer``."""
    return sum(1 for g in lexicon.guesses if feedback_unchecked(g, answer) == pattern)
