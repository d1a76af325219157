"""Game state: the rows played, the words refused, the answers still possible, hard mode, undo
and edit.

Checked entry points take words and feedback text (``game.guess("crane", "gy..g")``); the
unchecked fast path ``Game.play(guess_id, pattern)`` takes a guess index and a pattern code.
A row that would leave no possible answer is refused and the state is left as it was, unless the
game knows its answer (play mode; see ``Game``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

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
    _tile_count,
    all_green,
    check_word,
    feedback_unchecked,
    format_digits,
    parse_feedback,
    pattern_code,
    pattern_to_colours,
)
from .matrix import build_from_codes, pattern_matrix, read_only
from .words import Lexicon, WordId

REFUSED: Pattern = -1  # in the move log: the game refused the word (no colours)

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
    def from_str(cls, text: str, length: int | None = None) -> Row:
        """``"salet:20110"`` (feedback in any accepted format); ``length``: see ``of``."""
        word, sep, fb = text.partition(":")
        if not sep:
            raise InvalidFeedbackError(f"{text.strip()!r} is not GUESS:FEEDBACK, e.g. salet:20110")
        return cls.of(word, fb, length)

    @classmethod
    def of(cls, word: str, feedback: str, length: int | None = None) -> Row:
        """A row from its two parts, checked: a word (of ``length`` letters when given: the
        game's), then colours in any accepted format with a tile for each of its letters."""
        w = check_word(word, length)
        parse_feedback(feedback)  # the colours themselves first: a bad one is named as such
        if _tile_count(feedback) != len(w):  # then say which word the tiles do not fit
            raise InvalidFeedbackError(f"{w!r} has {len(w)} letters but its feedback has {_tile_count(feedback)} tiles")
        return cls(w, parse_feedback(feedback, len(w)))

    def __str__(self) -> str:
        return f"{self.guess}:{self.feedback_digits()}"

    def __repr__(self) -> str:
        return f"Row.from_str({str(self)!r})"


@dataclass(frozen=True)
class Refusal:
    """A word the game refused (not in its list): what ``Game.undo`` returns when it takes one back."""

    word: str


def parse_history(history: str | Iterable[tuple[str, str]], length: int | None = None) -> list[Row]:
    """The rows of a history: ``"salet:20110,crony:00210"`` (commas, semicolons or new lines
    between rows) or (guess, feedback) pairs; ``length``: the game's word length, checked (see
    ``Row.of``).  The one parser of every shell: an error names its row (``row 2: …``, ``.row``).

    >>> parse_history("salet:20110; crony:..y.g")
    [Row.from_str('salet:20110'), Row.from_str('crony:00102')]
    >>> parse_history("salet:20110,crony").pop()
    Traceback (most recent call last):
    ...
    wordlebot.core.errors.InvalidFeedbackError: row 2: 'crony' is not GUESS:FEEDBACK, e.g. salet:20110
    """
    if isinstance(history, str):
        parts = [p for p in history.replace(";", ",").replace("\n", ",").split(",") if p.strip()]
        make = [functools.partial(Row.from_str, p, length) for p in parts]
    else:
        make = [functools.partial(Row.of, w, fb, length) for w, fb in history]
    rows = []
    for k, row in enumerate(make, start=1):
        try:
            rows.append(row())
        except WordlebotError as exc:
            raise exc.at(row=k) from None
    return rows


@dataclass(frozen=True)
class HardConstraints:
    """What hard mode requires of the next guess: letters fixed by greens (-1 = free) and the
    minimum count of each letter (a-z) revealed so far."""

    green_at: np.ndarray  # int8, one per position
    min_count: np.ndarray  # int64, 26

    @classmethod
    def none(cls, length: int) -> HardConstraints:
        return cls(np.full(length, -1, np.int8), np.zeros(26, np.int64))

    def add(self, guess: str, pattern: Pattern) -> HardConstraints:
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
    """A game in progress: the rows played and the words the game refused, against an answer
    from ``lexicon``'s answer list, or against a known ``answer`` (play mode).

    **Unknown answer** (assist: the colours are typed by a person): a row that leaves no word of
    the answer list is refused, since a typo in the colours is far likelier than an answer
    outside the list.

    **Known answer** (play: ``Game(lexicon, answer="guano")``; it must be a guess the player can
    type): every row's colours come from the answer (``guess(word)`` computes them; colours given
    must match them), so the colours are the truth and the game accepts every row, even one that
    leaves no word of the answer list: such a day's answer (GUANO on 2023-03-27 is a classic
    guess but not one of its 2,315 answers) must still be winnable.  From that row on
    ``off_list`` is true and ``candidates`` is empty (nothing from the list is suggested or rated
    any more); ``solved`` and ``over`` work as ever.  The game learns it at that row and not
    before, although it knows the answer: so does the player.

    **Refusals**: ``refuse(word)`` records that the game would not take ``word`` (not in its
    list), so it is not the answer: it leaves the candidates and is not played again in this
    game.  Undo takes back the last action, a refusal or a row.
    """

    def __init__(
        self,
        lexicon: Lexicon,
        *,
        hard: bool = False,
        max_guesses: int = 6,
        matrix: np.ndarray | None = None,
        answer: str | None = None,
    ) -> None:
        self.lexicon = lexicon
        self.hard = hard
        self.max_guesses = max_guesses
        # None: each row's patterns are computed for the candidates left (a command-line game
        # needs no full matrix); the ``matrix`` property builds (or loads) it on demand.
        self._matrix = None if matrix is None else read_only(matrix)
        self._answer = None if answer is None else lexicon.guesses[lexicon.id(answer)]
        # Moves in order: (guess id, pattern) for a row, (guess id, REFUSED) for a refusal.
        self._moves: list[tuple[WordId, Pattern]] = []
        # _cands[k] / _hard[k]: answers possible / hard-mode constraints after k moves; kept for
        # every prefix so undo is free.
        self._cands: list[np.ndarray] = [np.arange(lexicon.n_answers, dtype=np.int32)]
        self._hard: list[HardConstraints] = [HardConstraints.none(lexicon.length)]

    @classmethod
    def from_history(cls, lexicon: Lexicon, history: str | list[Row], **kwargs: Any) -> Game:
        """The game the rows describe (text as ``parse_history`` reads it); a row the game
        refuses is named (``row 2: …``, ``.row``)."""
        game = cls(lexicon, **kwargs)
        rows = parse_history(history, lexicon.length) if isinstance(history, str) else history
        if len(rows) > game.max_guesses:  # (said at once: 10,000 rows are not replayed to find it)
            raise InvalidWordError(
                f"the history has {len(rows)} rows; the game allows {game.max_guesses} "
                f"guess{'es' if game.max_guesses != 1 else ''}"
            )
        for k, row in enumerate(rows, start=1):
            try:
                game.guess(row.guess, row.pattern)
            except WordlebotError as exc:
                raise exc.at(row=k) from None  # (one that names its row already keeps its words)
        return game

    # --- state ---------------------------------------------------------------------------------

    @property
    def matrix(self) -> np.ndarray:
        """The lexicon's guesses x answers pattern matrix (built or loaded on first use)."""
        if self._matrix is None:
            self._matrix = pattern_matrix(self.lexicon)
        return self._matrix

    @property
    def answer(self) -> str | None:
        """The answer, when this game knows it (play mode); else None."""
        return self._answer

    @property
    def rows(self) -> list[Row]:
        return [Row(self.lexicon.guesses[g], p) for g, p in self.row_ids]

    @property
    def row_ids(self) -> list[tuple[WordId, Pattern]]:
        return [(g, p) for g, p in self._moves if p != REFUSED]

    @property
    def refused(self) -> frozenset[WordId]:
        """Guess ids of the words the game refused (see ``refuse``)."""
        return frozenset(g for g, p in self._moves if p == REFUSED)

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
        out: np.ndarray = w / w.sum() if w.size else w
        return out

    @property
    def constraints(self) -> HardConstraints:
        return self._hard[-1]

    @property
    def solved(self) -> bool:
        rows = self.row_ids
        return bool(rows) and rows[-1][1] == all_green(self.lexicon.length)

    @property
    def over(self) -> bool:
        return self.solved or len(self.row_ids) >= self.max_guesses

    @property
    def off_list_row(self) -> int | None:
        """The row (1-based) after which no word of the answer list fitted, or None.  Only a game
        that knows its answer accepts such a row (see the class notes)."""
        k = 0
        for (_, p), cands in zip(self._moves, self._cands[1:]):
            if p != REFUSED:
                k += 1
                if cands.size == 0:
                    return k
        return None

    @property
    def off_list(self) -> bool:
        """True once the rows have shown that the answer is not in the answer list."""
        return self._answer is not None and self.candidates.size == 0

    @property
    def off_list_note(self) -> str | None:
        """What a shell shows instead of candidates and suggestions once ``off_list``."""
        return f"the answer is not in the {self.lexicon.name} answer list" if self.off_list else None

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
        if not self.hard or not self._moves:
            return np.ones(self.lexicon.n_guesses, np.bool_)
        return self._hard[-1].mask(self.lexicon.guess_codes)

    def check_guess(self, word: str) -> WordId:
        """The guess id of ``word`` if it may be played now; else the error that says why not
        (not in the list, refused by the game, hard mode, game already solved)."""
        gid = self.lexicon.id(word)
        w = self.lexicon.guesses[gid]
        if self.solved:
            raise InvalidWordError("the game is already solved; undo or start a new game")
        if len(self.row_ids) >= self.max_guesses:
            raise InvalidWordError(
                f"the game allows {self.max_guesses} guess{'es' if self.max_guesses != 1 else ''} and "
                "all are played; undo or start a new game"
            )
        if gid in self.refused:
            raise InvalidWordError(
                f"{w.upper()} was refused by the game (it is not in the game's word list); undo takes the refusal back"
            )
        reason = self.hard_violation(w)
        if reason:
            raise HardModeError(f"{w.upper()} is not allowed: {reason}")
        return gid

    def guess(self, word: str, feedback: str | Pattern | None = None) -> Row:
        """Play ``word`` with the colours the game showed; checked.  In a game that knows its
        answer the colours may be left out: they are computed."""
        gid = self.lexicon.id(word)
        w = self.lexicon.guesses[gid]
        if feedback is None:
            if self._answer is None:
                raise InvalidFeedbackError(f"give the colours the game showed for {w.upper()}")
            pattern = feedback_unchecked(w, self._answer)
        elif isinstance(feedback, str):
            pattern = parse_feedback(feedback, self.lexicon.length)
        else:
            pattern = pattern_code(feedback, self.lexicon.length)
        self.check_guess(w)
        self._apply(gid, pattern)
        return Row(w, pattern)

    def play(self, gid: WordId, pattern: Pattern) -> None:
        """Unchecked fast path (no word, refusal or hard-mode checks); still refuses an empty
        result when the answer is unknown, and colours the known answer would not give."""
        self._apply(gid, pattern)

    def refuse(self, word: str) -> None:
        """The game refused ``word`` (it is not in the game's list): so it is not the answer.  It
        leaves the candidates and cannot be played in this game; ``undo`` takes it back."""
        try:
            gid = self.lexicon.id(word)
        except InvalidWordError as exc:
            raise InvalidWordError(f"{exc}: only a word of the list can be marked as refused") from None
        w = self.lexicon.guesses[gid]
        if self.solved:
            raise InvalidWordError("the game is already solved; undo or start a new game")
        if gid in self.refused:
            raise InvalidWordError(f"{w.upper()} is already marked as refused")
        played = [k for k, (g, _) in enumerate(self.row_ids, start=1) if g == gid]
        if played:
            raise InvalidWordError(
                f"{w.upper()} was played in row {played[0]}, so the game took it; undo or edit that row first"
            )
        if w == self._answer:
            raise InvalidWordError(f"{w.upper()} is the answer of this game: it cannot be refused")
        cands = self._cands[-1]
        nxt = cands[self.lexicon.answer_ids[cands] != gid]
        if nxt.size == 0 and cands.size:
            raise InconsistentFeedbackError(
                f"{w.upper()} is the only word left: if the game refused it, check the colours of the rows played"
            )
        self._moves.append((gid, REFUSED))
        self._cands.append(nxt)
        self._hard.append(self._hard[-1])

    def _patterns(self, gid: WordId, cands: np.ndarray) -> np.ndarray:
        """Pattern of guess ``gid`` against each answer in ``cands``."""
        if self._matrix is not None:
            row: np.ndarray = self._matrix[gid, cands]
            return row
        lex = self.lexicon
        built: np.ndarray = build_from_codes(lex.guess_codes[gid : gid + 1], lex.answer_codes[cands])[0]
        return built

    def _apply(self, gid: WordId, pattern: Pattern) -> None:
        row = len(self.row_ids) + 1
        w = self.lexicon.guesses[gid]
        if self._answer is not None and feedback_unchecked(w, self._answer) != pattern:
            raise InconsistentFeedbackError(
                f"row {row} ({w.upper()} {format_digits(pattern, self.lexicon.length)}): the answer gives "
                f"{w.upper()} {format_digits(feedback_unchecked(w, self._answer), self.lexicon.length)}",
                row=row,
            )
        cands = self._cands[-1]
        nxt = cands[self._patterns(gid, cands) == pattern] if cands.size else cands
        if nxt.size == 0 and self._answer is None:
            raise InconsistentFeedbackError(self._explain_empty(row, gid, pattern), row=row)
        self._moves.append((gid, pattern))
        self._cands.append(nxt)
        self._hard.append(self._hard[-1].add(w, pattern))

    def _explain_empty(self, row: int, gid: WordId, pattern: Pattern) -> str:
        w = self.lexicon.guesses[gid]
        fb = format_digits(pattern, self.lexicon.length)
        prefix = f"row {row} ({w.upper()} {fb})"
        if not self.lexicon.official or self.lexicon.n_answers < self.lexicon.n_guesses:
            # Would any allowed word fit?  Slow, but only on this error path.
            rows = self.row_ids + [(gid, pattern)]
            g = self.lexicon.guesses
            refused = self.refused
            if any(
                all(feedback_unchecked(g[q], word) == p for q, p in rows)
                for i, word in enumerate(g)
                if i not in refused
            ):
                return (
                    f"{prefix} leaves no word of the {self.lexicon.name} answer list; a word outside "
                    "the list fits, so check the colours or use a larger word set, such as nyt"
                )
        return f"{prefix} leaves no possible word: check the colours of this row and the ones before it"

    def undo(self) -> Row | Refusal:
        """Take back the last action: a row (returned as a Row) or a refusal (a Refusal)."""
        if not self._moves:
            raise InvalidWordError("nothing to undo")
        gid, p = self._moves.pop()
        self._cands.pop()
        self._hard.pop()
        w = self.lexicon.guesses[gid]
        return Refusal(w) if p == REFUSED else Row(w, p)

    def edit(self, index: int, word: str | None = None, feedback: str | Pattern | None = None) -> None:
        """Change row ``index`` (0-based): its word, its colours, or both (in a game that knows
        its answer, a new word gets its own colours).  Later rows and refusals are replayed; if
        any of them no longer fits, nothing changes and the error names the row."""
        rows = self.rows
        if not 0 <= index < len(rows):
            raise InvalidWordError(f"there is no row {index + 1} to edit (the game has {len(rows)})")
        new_word = word if word is not None else rows[index].guess
        if feedback is None and (self._answer is None or word is None):
            feedback = rows[index].pattern
        trial = self._empty()
        k = 0
        for gid, p in self._moves:
            w = self.lexicon.guesses[gid]
            if p == REFUSED:
                try:
                    trial.refuse(w)
                except WordlebotError as exc:
                    raise exc.at(
                        label=f"after that edit of row {index + 1}, the refusal of {w.upper()} no longer fits"
                    ) from None
                continue
            if k == index:
                trial.guess(new_word, feedback)
            else:
                try:
                    trial.guess(w, p)
                except WordlebotError as exc:
                    if k < index:
                        raise
                    raise InconsistentFeedbackError(
                        f"after that edit of row {index + 1}, row {k + 1} ({w.upper()} "
                        f"{format_digits(p, self.lexicon.length)}) no longer fits: {exc}",
                        row=k + 1,
                    ) from None
            k += 1
        self._moves, self._cands, self._hard = trial._moves, trial._cands, trial._hard

    def set_hard(self, on: bool) -> None:
        """Hard mode applies to the guesses that follow; the rows already played are kept."""
        self.hard = on

    def replay(
        self,
        lexicon: Lexicon | None = None,
        *,
        hard: bool | None = None,
        max_guesses: int | None = None,
        answer: str | None | bool = True,
        matrix: np.ndarray | None = None,
    ) -> Game:
        """This game's moves (rows and refusals, in their order) played again in a new game with
        other word lists or rules (``answer``: True keeps this game's; None: unknown).  Checked
        like every move: the first one that does not fit raises its error, which names its row
        (``row 2: CRONY is not allowed: hard mode: the guess must contain E``); this game is
        left as it was."""
        lex = lexicon if lexicon is not None else self.lexicon
        cap = self.max_guesses if max_guesses is None else max_guesses
        rows = self.rows
        if len(rows) > cap:
            raise InvalidWordError(
                f"the game has {len(rows)} rows, more than a cap of {cap} guess{'es' if cap != 1 else ''}"
            )
        if matrix is None and lexicon is None:
            matrix = self._matrix
        trial = Game(
            lex,
            hard=self.hard if hard is None else hard,
            max_guesses=cap,
            matrix=matrix,
            answer=self._answer if answer is True else (answer or None),
        )
        k = 0
        for gid, p in self._moves:
            w = self.lexicon.guesses[gid]
            try:
                if p == REFUSED:
                    trial.refuse(w)
                else:
                    k += 1
                    trial.guess(w, p)
            except WordlebotError as exc:
                if p == REFUSED:
                    raise exc.at(label=f"the refusal of {w.upper()}") from None
                raise exc.at(row=k) from None
        return trial

    def _empty(self) -> Game:
        """A game with the same lists, rules and answer, and no moves."""
        return Game(
            self.lexicon, hard=self.hard, max_guesses=self.max_guesses, matrix=self._matrix, answer=self._answer
        )

    def copy(self) -> Game:
        g = self._empty()
        g._moves, g._cands, g._hard = list(self._moves), list(self._cands), list(self._hard)
        return g
