"""Narrow error types.  Each message names the bad input and, where it can, how to fix it.

All of them derive from ``WordlebotError`` so a shell (CLI, UI, web) can turn any user mistake
into a clean message with one ``except``; programming errors stay ordinary exceptions.
"""

from __future__ import annotations


class WordlebotError(Exception):
    """Base of every error that reports a user or data problem rather than a bug."""


class InvalidWordError(WordlebotError, ValueError):
    """A word that is malformed or not in the word list in use."""


class InvalidFeedbackError(WordlebotError, ValueError):
    """Feedback text that cannot be read as a row of colours."""


class InconsistentFeedbackError(WordlebotError, ValueError):
    """Feedback that leaves no possible answer (names the row that broke it)."""

    def __init__(self, message: str, row: int | None = None) -> None:
        super().__init__(message)
        self.row = row


class HardModeError(WordlebotError, ValueError):
    """A guess that hard mode forbids after the rows played so far (says which rule)."""


class WordListError(WordlebotError, ValueError):
    """A word list file that breaks the rules (says which file and line)."""


class DataError(WordlebotError):
    """Missing, corrupt or unreachable data: lists, history, downloads."""


class UnreachableError(DataError):
    """The remote host could not be reached at all (offline, DNS failure, refused)."""


class CacheError(WordlebotError):
    """A cache file that cannot be read or written."""


class InvalidIdError(WordlebotError, ValueError):
    """A word or answer id (or another argument of the index-based API) out of range."""


class InvalidDayError(WordlebotError, ValueError):
    """A day or puzzle number that cannot be played: not a day, before the first Wordle, not
    published yet, or two sources (a date, a share grid) naming different days."""


class UnsolvableError(WordlebotError, ValueError):
    """No strategy finds every answer within the guesses left (a hard guess cap)."""
