"""Game state: the rows played, the answers still possible, hard mode, undo and edit.

Checked entry points take words and feedback text (``game.guess("crane", "gy..g")``); the
unchecked fast path ``Game.play(guess_id, pattern)`` takes a guess index and a pattern code.
A row that would leave no possible answer is refused and the state is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import kernels
from .errors import (
    HardModeError,
    InconsistentFeedbackError,
    InvalidFeedbackError,
    InvalidWordError,
    WordlebotError,
)
from .feedback import (
    GRAY,
    GREEN,
    Pattern,
    _feedback,
    all_green,
    format_digits,
    parse_feedback,
    pattern_to_colours,
)
from .matrix import pattern_matrix
from .words import Lexicon, WordId

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


@dataclass(frozen=True)
class Row:
    """One played row: the guess and the colours it got."""

    guess: str
    pattern: Pattern

    @property
    def length(self) -> int:
        return len(self.guess)

    def feedback_digits(self) -> str:
        return format_digits(self.pattern, len(self.guess))

    @classmethod
    def from_str(cls, text: str) -> "Row":
        """``"salet:20110"`` (feedback in any accepted format)."""
        word, sep, fb = text.partition(":")
        if not sep:
            raise InvalidFeedbackError(
                f"{text.strip()!r}: a row is GUESS:FEEDBACK, e.g. salet:20110"
            )
        word = word.strip().lower()
        return cls(word, parse_feedback(fb, len(word)))

    def __str__(self) -> str:
        return f"{self.guess}:{self.feedback_digits()}"

    def __repr__(self) -> str:
        return f"Row.from_str({str(self)!r})"


def parse_history(text: str) -> list[Row]:
    """``"salet:20110,crony:00210"`` -> rows.  Commas, semicolons or new lines separate rows."""
    parts = [p for p in text.replace(";", ",").replace("\n", ",").split(",") if p.strip()]
    return [Row.from_str(p) for p in parts]


@dataclass(frozen=True)
class HardConstraints:
    """What hard mode requires of the next guess: letters fixed by greens (-1 = free) and the
    minimum count of each letter (a-z) revealed so far."""

    green_at: np.ndarray  # int8, one per position
    min_count: np.ndarray  # int64, 26

    @classmethod
    def none(cls, length: int) -> "HardConstraints":
        return cls(np.full(length, -1, np.int8), np.zeros(26, np.int64))

    def add(self, guess: str, pattern: Pattern) -> "HardConstraints":
        """NYT rule: greens stay in place; each letter revealed (yellow or green) in a row must be
        used at least as often as it was revealed in that row.  Gray letters may be reused."""
        colours = pattern_to_colours(pattern, len(guess))
        green = self.green_at.copy()
        need = self.min_count.copy()
        row_count = np.zeros(26, np.int64)
        for i, (ch, c) in enumerate(zip(guess, colours)):
            x = ord(ch) - 97
            if c == GREEN:
                green[i] = x
            if c != GRAY:
                row_count[x] += 1
        return HardConstraints(green, np.maximum(need, row_count))

    def violation(self, word: str) -> str | None:
        """Why hard mode refuses ``word``, or None when it is legal."""
        for i, x in enumerate(self.green_at.tolist()):
            if x >= 0 and ord(word[i]) - 97 != x:
                return f"hard mode: the {ordinal(i + 1)} letter must be {chr(x + 97).upper()}"
        for x in range(26):
            need = int(self.min_count[x])
            have = word.count(chr(x + 97))
            if have < need:
                letter = chr(x + 97).upper()
                times = "" if need == 1 else f" {need} times"
                return f"hard mode: the guess must contain {letter}{times}"
        return None

    def mask(self, guess_codes: np.ndarray) -> np.ndarray:
        """Which guesses are legal (bool per guess): checked twin of ``kernels._hard_mode_mask``."""
        out = np.empty(guess_codes.shape[0], np.bool_)
        kernels._hard_mode_mask(guess_codes, self.green_at, self.min_count, out)
        return out


class Game:
    """A game in progress against an unknown answer from ``lexicon``."""

    def __init__(self, lexicon: Lexicon, *, hard: bool = False, max_guesses: int = 6,
                 matrix: np.ndarray | None = None) -> None:
        self.lexicon = lexicon
        self.hard = hard
        self.max_guesses = max_guesses
        self.matrix = matrix if matrix is not None else pattern_matrix(lexicon)
        self._rows: list[tuple[WordId, Pattern]] = []
        # _cands[k] = answers possible after k rows; kept for every prefix so undo is free.
        self._cands: list[np.ndarray] = [np.arange(lexicon.n_answers, dtype=np.int32)]
        self._hard: list[HardConstraints] = [HardConstraints.none(lexicon.length)]

    @classmethod
    def from_history(cls, lexicon: Lexicon, history: str | list[Row], **kwargs) -> "Game":
        game = cls(lexicon, **kwargs)
        rows = parse_history(history) if isinstance(history, str) else history
        for row in rows:
            game.guess(row.guess, row.pattern)
        return game

    # --- state ---------------------------------------------------------------------------------

    @property
    def rows(self) -> list[Row]:
        return [Row(self.lexicon.guesses[g], p) for g, p in self._rows]

    @property
    def row_ids(self) -> list[tuple[WordId, Pattern]]:
        return list(self._rows)

    @property
    def candidates(self) -> np.ndarray:
        """Answer indices still possible (int32, ascending)."""
        return self._cands[-1]

    @property
    def candidate_words(self) -> list[str]:
        a = self.lexicon.answers
        return [a[j] for j in self.candidates.tolist()]

    @property
    def posterior(self) -> np.ndarray:
        """Probability of each remaining candidate (the prior restricted and renormalised)."""
        w = self.lexicon.prior[self.candidates]
        return w / w.sum()

    @property
    def constraints(self) -> HardConstraints:
        return self._hard[-1]

    @property
    def solved(self) -> bool:
        return bool(self._rows) and self._rows[-1][1] == all_green(self.lexicon.length)

    @property
    def over(self) -> bool:
        return self.solved or len(self._rows) >= self.max_guesses

    def history(self) -> str:
        return ",".join(str(r) for r in self.rows)

    # --- moves ---------------------------------------------------------------------------------

    def hard_violation(self, word: str) -> str | None:
        """Why hard mode (if on) refuses ``word`` now, or None."""
        if not self.hard:
            return None
        return self._hard[-1].violation(word)

    def legal_mask(self) -> np.ndarray:
        """Bool per guess: may it be played now (everything, unless hard mode restricts)."""
        if not self.hard or not self._rows:
            return np.ones(self.lexicon.n_guesses, np.bool_)
        return self._hard[-1].mask(self.lexicon.guess_codes)

    def guess(self, word: str, feedback: str | Pattern) -> Row:
        """Play ``word`` with the colours the game showed; checked."""
        gid = self.lexicon.id(word)
        w = self.lexicon.guesses[gid]
        if isinstance(feedback, str):
            pattern = parse_feedback(feedback, self.lexicon.length)
        else:
            pattern = int(feedback)
            pattern_to_colours(pattern, self.lexicon.length)
        if self.solved:
            raise InvalidWordError("the game is already solved; undo or start a new game")
        reason = self.hard_violation(w)
        if reason:
            raise HardModeError(f"{w!r} is not allowed: {reason}")
        self._apply(gid, pattern)
        return Row(w, pattern)

    def play(self, gid: WordId, pattern: Pattern) -> None:
        """Unchecked fast path (no word or hard-mode checks); still refuses an empty result."""
        self._apply(gid, pattern)

    def _apply(self, gid: WordId, pattern: Pattern) -> None:
        cands = self._cands[-1]
        nxt = cands[self.matrix[gid, cands] == pattern]
        if nxt.size == 0:
            raise InconsistentFeedbackError(
                self._explain_empty(len(self._rows) + 1, gid, pattern), row=len(self._rows) + 1
            )
        w = self.lexicon.guesses[gid]
        self._rows.append((gid, pattern))
        self._cands.append(nxt)
        self._hard.append(self._hard[-1].add(w, pattern))

    def _explain_empty(self, row: int, gid: WordId, pattern: Pattern) -> str:
        w = self.lexicon.guesses[gid]
        fb = format_digits(pattern, self.lexicon.length)
        prefix = f"row {row} ({w.upper()} {fb})"
        if not self.lexicon.official or self.lexicon.n_answers < self.lexicon.n_guesses:
            # Would any allowed word fit?  Slow, but only on this error path.
            rows = self._rows + [(gid, pattern)]
            g = self.lexicon.guesses
            if any(all(_feedback(g[q], word) == p for q, p in rows) for word in g):
                return (f"{prefix} leaves no word of the {self.lexicon.name} answer list; a word outside "
                        "the list fits, so check the colours or use a larger word set (--words nyt)")
        return f"{prefix} leaves no possible word: check the colours of this row and the ones before it"

    def undo(self) -> Row:
        if not self._rows:
            raise InvalidWordError("nothing to undo")
        gid, p = self._rows.pop()
        self._cands.pop()
        self._hard.pop()
        return Row(self.lexicon.guesses[gid], p)

    def edit(self, index: int, word: str | None = None, feedback: str | Pattern | None = None) -> None:
        """Change row ``index`` (0-based): its word, its colours, or both.  Later rows are replayed;
        if any of them no longer fits, nothing changes and the error names the row."""
        if not 0 <= index < len(self._rows):
            raise InvalidWordError(f"there is no row {index + 1} to edit (the game has {len(self._rows)})")
        old = self.rows
        new_word = word if word is not None else old[index].guess
        new_fb = feedback if feedback is not None else old[index].pattern
        trial = Game(self.lexicon, hard=self.hard, max_guesses=self.max_guesses, matrix=self.matrix)
        for k, row in enumerate(old):
            if k == index:
                trial.guess(new_word, new_fb)
                continue
            try:
                trial.guess(row.guess, row.pattern)
            except WordlebotError as exc:
                if k < index:
                    raise
                raise InconsistentFeedbackError(
                    f"after that edit of row {index + 1}, row {k + 1} ({row.guess.upper()} "
                    f"{row.feedback_digits()}) no longer fits: {exc}", row=k + 1) from None
        self._rows, self._cands, self._hard = trial._rows, trial._cands, trial._hard

    def set_hard(self, on: bool) -> None:
        """Hard mode applies to the guesses that follow; the rows already played are kept."""
        self.hard = on

    def copy(self) -> "Game":
        g = Game(self.lexicon, hard=self.hard, max_guesses=self.max_guesses, matrix=self.matrix)
        g._rows, g._cands, g._hard = list(self._rows), list(self._cands), list(self._hard)
        return g
