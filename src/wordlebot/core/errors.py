"""Narrow error types.  Each message names the bad input and, where it can, how to fix it.

All of them derive from ``WordlebotError`` so a shell (CLI, UI, web) can turn any user mistake
into a clean message with one ``except``; programming errors stay ordinary exceptions.
"""

from __future__ import annotations

from typing import Self


class WordlebotError(Exception):
    """Base of every error that reports a user or data problem rather than a bug.

    ``row`` and ``board`` (1-based, None when it is about no one row or board) say where the
    problem is, for a shell to point at; the message says it in words.  ``at`` names the place
    of an error met while replaying rows: the same type and attributes, the place in front.

    >>> err = InvalidWordError("'salte' is not in the guess list").at(row=2)
    >>> str(err), err.row, isinstance(err, InvalidWordError)
    ("row 2: 'salte' is not in the guess list", 2, True)
    """

    # (class defaults too: a subclass whose __init__ does not pass them on still has them)
    row: int | None = None
    board: int | None = None

    def __init__(self, message: str = "", *, row: int | None = None, board: int | None = None) -> None:
        super().__init__(message)
        self.row = row
        self.board = board

    def at(self, *, row: int | None = None, board: int | None = None, label: str | None = None) -> Self:
        """A copy said of ``row`` or ``board`` (or of ``label``, a place in words): the place
        goes in front of the message, once (an error that already names its row keeps its
        words), and into the attribute."""
        new = type(self).__new__(type(self))  # (no __init__: a subclass's may take other arguments)
        new.__dict__.update(self.__dict__)
        text = str(self)
        if board is not None and self.board is None:
            new.board = board
            text = f"board {board}: {text}"
        if row is not None and self.row is None:
            new.row = row
            text = f"row {row}: {text}"
        if label is not None:
            text = f"{label}: {text}"
        new.args = (text,)
        return new


class InvalidWordError(WordlebotError, ValueError):
    """A word that is malformed or not in the word list in use."""


class InvalidFeedbackError(WordlebotError, ValueError):
    """Feedback text that cannot be read as a row of colours."""


class InconsistentFeedbackError(WordlebotError, ValueError):
    """Feedback that leaves no possible answer (names the row that broke it)."""

    def __init__(self, message: str = "", row: int | None = None, *, board: int | None = None) -> None:
        super().__init__(message, row=row, board=board)


class HardModeError(WordlebotError, ValueError):
    """A guess that hard mode forbids after the rows played so far (says which rule)."""


class WordListError(WordlebotError, ValueError):
    """A word list file that breaks the rules (says which file and line)."""


class DataError(WordlebotError):
    """Missing, corrupt or unreachable data: lists, history, downloads."""


class UnreachableError(DataError):
    """The remote host could not be reached at all (offline, DNS failure, refused)."""


class HttpError(DataError):
    """The remote host answered with an HTTP error status (``status``: 404, 503, …)."""

    def __init__(self, message: str = "", status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class CacheError(WordlebotError):
    """A cache file that cannot be read or written."""


class InvalidIdError(WordlebotError, ValueError):
    """A word or answer id (or another argument of the index-based API) out of range."""


class InvalidDayError(WordlebotError, ValueError):
    """A day or puzzle number that cannot be played: not a day, before the first Wordle, not
    published yet, or two sources (a date, a share grid) naming different days."""


class UnsolvableError(WordlebotError, ValueError):
    """No strategy finds every answer within the guesses left (a hard guess cap)."""
