"""The state of a multi-board game: one candidate set per board, one guess count for all.

Each guess is scored on every board not yet solved; a board is solved when its answer is
guessed, and takes no more feedback.  A board is a single-board ``Game`` (its candidates, its
hard-mode constraints, its undo), so every check of a single game holds per board: a row that
leaves a board with no candidate is refused, and the message names the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.errors import (
    HardModeError,
    InconsistentFeedbackError,
    InvalidFeedbackError,
    InvalidWordError,
    UnsolvableError,
    WordlebotError,
)
from ..core.feedback import Pattern, all_green, format_digits
from ..core.game import Game
from ..core.words import Lexicon, WordId

OBJECTIVES = ("score", "guesses")  # what a player minimises: see MultiGame.value
VARIANTS = {2: "Dordle", 4: "Quordle", 8: "Octordle", 16: "Sedecordle", 32: "Duotrigordle"}
EXTRA_GUESSES = 5  # k boards get k + 5 guesses: 7, 9, 13, 21, 37


@dataclass(frozen=True)
class MultiRow:
    """One guess and the colours it got on each board (None: the board was solved before it)."""

    guess: str
    patterns: tuple[Pattern | None, ...]

    def __str__(self) -> str:
        n = len(self.guess)
        return f"{self.guess}:" + "/".join("-" if p is None else format_digits(p, n) for p in self.patterns)

    def describe(self) -> str:
        """The row in words, for a status line (the boards show its colours): the boards it
        solved and how many are still open after it.  ``JAWED: board 4 solved; every board solved``."""
        green = all_green(len(self.guess))
        played = [b for b, p in enumerate(self.patterns) if p is not None]
        solved = [b + 1 for b in played if self.patterns[b] == green]
        left = len(played) - len(solved)
        if solved:
            names = ", ".join(map(str, solved[:-1])) + (" and " if len(solved) > 1 else "") + str(solved[-1])
            done = f"board{'s' if len(solved) > 1 else ''} {names} solved"
        else:
            done = "no board solved"
        rest = "every board solved" if left == 0 else f"{left} board{'s' if left != 1 else ''} to go"
        return f"{self.guess.upper()}: {done}; {rest}"


class ObjectiveError(WordlebotError, ValueError):
    """An objective other than those in ``OBJECTIVES``."""


def check_objective(objective: str) -> str:
    if objective not in OBJECTIVES:
        raise ObjectiveError(
            f"unknown objective {objective!r}: use 'score' (the sum over boards of the guess that "
            "solved each) or 'guesses' (the guesses to solve them all)"
        )
    return objective


def parse_multi_history(text: str) -> list[tuple[str, list[str | None]]]:
    """``"salet:20110/00000/-/10000,crony:…"`` (as ``MultiRow`` prints itself) -> (guess, colours
    per board) pairs, ``None`` for a solved board's '-'.  Commas, semicolons or new lines
    separate rows; the colours are checked when the rows are played (``MultiGame.replay``)."""
    rows = []
    parts = [p for p in text.replace(";", ",").replace("\n", ",").split(",") if p.strip()]
    for k, part in enumerate(parts, start=1):
        word, sep, colours = part.strip().partition(":")
        if not sep or not colours.strip():
            raise InvalidFeedbackError(
                f"row {k}: {part.strip()!r} is not GUESS:COLOURS/COLOURS/…, "
                "e.g. salet:20110/00000/-/10000 ('-' for a solved board)"
            )
        rows.append((word.strip(), [None if c.strip() == "-" else c.strip() for c in colours.split("/")]))
    return rows


class MultiGame:
    """``boards`` games of Wordle played with the same guesses (Quordle: 4 boards, 9 guesses).

    ``answers`` (play mode): one hidden word per board, distinct; every row's colours are then
    computed.  Otherwise (assist) the colours of each row are given, one per board, ``None`` for
    the boards already solved.
    """

    def __init__(
        self,
        lexicon: Lexicon,
        boards: int = 4,
        *,
        max_guesses: int | None = None,
        hard: bool = False,
        matrix: np.ndarray | None = None,
        answers: Sequence[str] | None = None,
    ) -> None:
        if boards < 1:
            raise ValueError(f"a game needs at least one board, not {boards}")
        self.lexicon = lexicon
        self.max_guesses = boards + EXTRA_GUESSES if max_guesses is None else max_guesses
        if self.max_guesses < boards:
            raise UnsolvableError(
                f"{boards} boards cannot all be solved in {self.max_guesses} guesses; "
                f"allow at least {boards} (the usual is {boards + EXTRA_GUESSES})"
            )
        self.hard = hard
        if answers is not None:
            if len(answers) != boards:
                raise InvalidWordError(f"{boards} boards need {boards} answers, not {len(answers)}")
            ids = [lexicon.id(a) for a in answers]
            if len(set(ids)) != boards:
                raise InvalidWordError("the boards' answers must be distinct words")
        self.boards = [
            Game(
                lexicon,
                hard=hard,
                max_guesses=self.max_guesses,
                matrix=matrix,
                answer=None if answers is None else answers[b],
            )
            for b in range(boards)
        ]
        self._rows: list[MultiRow] = []
        self._green = all_green(lexicon.length)

    @property
    def n_boards(self) -> int:
        return len(self.boards)

    @property
    def name(self) -> str:
        return VARIANTS.get(self.n_boards, f"{self.n_boards} boards")

    @property
    def rows(self) -> list[MultiRow]:
        return list(self._rows)

    @property
    def guesses_used(self) -> int:
        return len(self._rows)

    @property
    def guesses_left(self) -> int:
        return self.max_guesses - len(self._rows)

    @property
    def solved_at(self) -> list[int | None]:
        """For each board, the guess number that solved it (1-based), or None."""
        out: list[int | None] = [None] * self.n_boards
        for t, row in enumerate(self._rows, start=1):
            for b, p in enumerate(row.patterns):
                if p == self._green and out[b] is None:
                    out[b] = t
        return out

    @property
    def active(self) -> list[int]:
        """The boards not solved yet."""
        return [b for b, t in enumerate(self.solved_at) if t is None]

    @property
    def off_list(self) -> list[int]:
        """The open boards whose rows have shown that their answer (play mode: a word of the
        guess list given as an answer) is not in the answer list: no suggestion can aim at it."""
        return [b for b in self.active if self.boards[b].off_list]

    def legal_mask(self) -> np.ndarray:
        """Bool per guess: may it be played now (hard mode: it keeps every open board's hints)."""
        mask: np.ndarray = np.logical_and.reduce([self.boards[b].legal_mask() for b in self.active])
        return mask

    @property
    def stuck(self) -> bool:
        """Hard mode: no open board can be solved any more.  Every word that may still be an
        answer breaks another open board's hints (a green there where it has another letter, a
        letter revealed there that it lacks), and those hints stay until that board is solved:
        so none ever will be.  Rows taken back (undo) are the only way on."""
        if not self.hard or self.over or self.off_list:
            return False  # (an answer off the list may be allowed, and solving it drops its hints)
        allowed = self.legal_mask()
        ids = self.lexicon.answer_ids
        return not any(allowed[ids[self.candidates(b)]].any() for b in self.active)

    def check_guess(self, word: str) -> int:
        """The guess id of ``word`` if every open board may take it now (hard mode: it keeps
        each one's hints); else the error that says why, naming the board, before any colours."""
        gid = self.lexicon.id(word)
        if self.over:
            raise InvalidWordError("the game is over; undo or start a new game")
        for b in self.active:
            try:
                self.boards[b].check_guess(word)
            except (HardModeError, InvalidWordError) as exc:
                raise exc.at(board=b + 1) from None
        return gid

    def off_list_note(self) -> str | None:
        """What a shell says of ``off_list`` boards and of a ``stuck`` game, or None."""
        if self.stuck:
            return (
                "hard mode: every word that can still be an answer breaks another open board's hints, "
                "so no board can be solved any more (undo takes rows back)"
            )
        off = self.off_list
        if not off:
            return None
        named = ", ".join(str(b + 1) for b in off)
        return (
            f"board{'s' if len(off) > 1 else ''} {named}: the answer is not in the {self.lexicon.name} "
            "answer list (the suggestions are for the other boards)"
        )

    @property
    def solved(self) -> bool:
        return not self.active

    @property
    def over(self) -> bool:
        return self.solved or self.guesses_left == 0

    def candidates(self, board: int) -> np.ndarray:
        """Answer ids still possible on ``board`` (0-based)."""
        return self.boards[board].candidates

    def score(self, fail_cost: float | None = None) -> float:
        """The sum over boards of the guess number that solved it; a board not solved costs
        ``fail_cost`` (default: the guess cap plus one)."""
        fail = self.max_guesses + 1 if fail_cost is None else fail_cost
        return float(sum(fail if t is None else t for t in self.solved_at))

    def guesses_to_finish(self) -> int:
        """The guess that solved the last board; a game not finished counts the cap plus one per
        board left open (as if each took one guess more than the cap allows, in turn), so losing
        more boards is worse and any loss is worse than the slowest win."""
        solved = self.solved_at
        lost = sum(1 for t in solved if t is None)
        if lost:
            return self.max_guesses + lost
        return max((t for t in solved if t is not None), default=0)

    def value(self, objective: str = "score") -> float:
        """What the game is worth under ``objective`` (lower is better): ``"score"`` (the sum
        over boards, Quordle's score) or ``"guesses"`` (the guesses to solve them all)."""
        return self.score() if check_objective(objective) == "score" else float(self.guesses_to_finish())

    # --- moves ---------------------------------------------------------------------------------

    def guess(self, word: str, feedback: Sequence[str | Pattern | None] | None = None) -> MultiRow:
        """Play ``word``; ``feedback`` holds the colours of each board (None for a solved board),
        or is left out in play mode.  Checked on every board before anything changes: a row
        refused on one board changes none."""
        gid = self.lexicon.id(word)
        w = self.lexicon.guesses[gid]
        if self.over:
            raise InvalidWordError("the game is over; undo or start a new game")
        active = self.active
        if feedback is None:
            feedback = [None] * self.n_boards
            if any(self.boards[b].answer is None for b in active):
                raise InvalidFeedbackError(f"give the colours {w.upper()} got on each board")
        if len(feedback) != self.n_boards:
            raise InvalidFeedbackError(
                f"{w.upper()}: {len(feedback)} colour rows for {self.n_boards} boards "
                "(one per board; '-' or None for a solved board)"
            )
        applied: list[int] = []
        patterns: list[Pattern | None] = [None] * self.n_boards
        try:
            for b in range(self.n_boards):
                fb = feedback[b]
                if b not in active:
                    if fb is not None and fb != "-" and fb != self._green:
                        raise InvalidFeedbackError(f"board {b + 1} is solved: it shows no colours for {w.upper()}")
                    continue
                if fb == "-":
                    fb = None
                if fb is None and self.boards[b].answer is None:
                    raise InvalidFeedbackError(f"board {b + 1}: give the colours {w.upper()} got there")
                try:
                    row = self.boards[b].guess(w, fb)
                except (InvalidFeedbackError, InconsistentFeedbackError, HardModeError, InvalidWordError) as exc:
                    raise exc.at(board=b + 1) from None
                applied.append(b)
                patterns[b] = row.pattern
        except Exception:
            for b in applied:
                self.boards[b].undo()
            raise
        # Two boards cannot share an answer.  Only one row needs checking: a word that solved a
        # board earlier showed other colours on every board open then, so none of them has it left.
        greens = [b for b in applied if patterns[b] == self._green]
        if len(greens) > 1:
            for b in applied:
                self.boards[b].undo()
            where = ", ".join(str(b + 1) for b in greens)
            raise InconsistentFeedbackError(
                f"{w.upper()} is all green on boards {where}: each board has an "
                "answer of its own (they are distinct words); check the colours"
            )
        played = MultiRow(w, tuple(patterns))
        self._rows.append(played)
        return played

    def replay(self, rows: Sequence[tuple[str, Sequence[str | Pattern | None]]]) -> None:
        """Play ``rows`` (guess, colours per board) in turn; a refusal names the row and the
        board (``row 2: board 3: …``) and leaves the rows before it played."""
        for k, (word, feedback) in enumerate(rows, start=1):
            if self.over:
                raise InvalidWordError(f"row {k}: the game was over after row {k - 1}")
            try:
                self.guess(word, feedback)
            except (InvalidFeedbackError, InconsistentFeedbackError, HardModeError, InvalidWordError) as exc:
                raise exc.at(row=k) from None  # (a board's own message that names the row keeps it)

    def colours_of(self, parts: Sequence[str]) -> list[str | None]:
        """One colour row per board from what a person typed: a row for each open board in
        order, or one for every board ('-' for a solved one)."""
        open_boards = self.active
        if len(parts) == len(open_boards):
            feedback: list[str | None] = [None] * self.n_boards
            for b, p in zip(open_boards, parts):
                feedback[b] = p
            return feedback
        if len(parts) == self.n_boards:
            return [None if p == "-" else p for p in parts]
        raise InvalidFeedbackError(
            f"{len(parts)} colour row{'s' if len(parts) != 1 else ''}: give one for each open board "
            f"({len(open_boards)}), or one for each board ({self.n_boards}, '-' for a solved one)"
        )

    def play(self, gid: WordId, patterns: Sequence[Pattern | None]) -> None:
        """Unchecked fast path for searches and simulations: patterns of the active boards (None
        elsewhere), applied without word, hard-mode or consistency checks beyond the board's own."""
        for b in self.active:
            self.boards[b].play(gid, int(patterns[b] or 0))  # (an active board has its pattern)
        self._rows.append(MultiRow(self.lexicon.guesses[gid], tuple(patterns)))

    def undo(self) -> MultiRow:
        if not self._rows:
            raise InvalidWordError("nothing to undo")
        row = self._rows.pop()
        for b, p in enumerate(row.patterns):
            if p is not None:
                self.boards[b].undo()
        return row
