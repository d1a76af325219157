"""The Lexicon: which words may be guessed, which may be the answer, and how likely each answer is.

Words are identified at the core by ``WordId``: the index in ``Lexicon.guesses``.  Answers are
a subset of the guesses; ``Lexicon.answer_ids[j]`` is the guess index of answer ``j``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .errors import InvalidWordError, WordListError
from .feedback import MAX_LENGTH, MIN_LENGTH, check_word

WordId = int


def encode(words: Sequence[str]) -> np.ndarray:
    """Words as a (n, length) uint8 array of letter numbers, a = 0 … z = 25."""
    if not words:
        return np.zeros((0, 0), np.uint8)
    raw = np.frombuffer("".join(words).encode("ascii"), np.uint8)
    return (raw.reshape(len(words), len(words[0])) - ord("a")).astype(np.uint8)


def list_fingerprint(words: Sequence[str]) -> str:
    """sha256 of the list as one word per line: names the list in cache keys and tree headers."""
    return hashlib.sha256(("\n".join(words) + "\n").encode("ascii")).hexdigest()


def slip_hint(near: Sequence[str]) -> str:
    """``"; did you mean SLATE, SALET or SALTY?"`` for the words of ``Lexicon.near``, or ``""``."""
    names = [x.upper() for x in near]
    if not names:
        return ""
    return f"; did you mean {', '.join(names[:-1]) + ' or ' if len(names) > 1 else ''}{names[-1]}?"


def validate_words(words: Iterable[str], source: str = "word list") -> list[str]:
    """Check a list read from a file or given in code: lower-case a-z, one length, no duplicates.

    Errors name the source and the 1-based line of the first offending entry.
    """
    out: list[str] = []
    seen: dict[str, int] = {}
    length = None
    for lineno, raw in enumerate(words, start=1):
        w = raw.strip()
        if not w:
            raise WordListError(f"{source}, line {lineno}: empty line")
        if not (w.isascii() and w.isalpha() and w.islower()):
            raise WordListError(f"{source}, line {lineno}: {w!r} is not a lower-case a-z word")
        if length is None:
            length = len(w)
            if not MIN_LENGTH <= length <= MAX_LENGTH:
                raise WordListError(
                    f"{source}, line {lineno}: {w!r} has {length} letters; {MIN_LENGTH} to {MAX_LENGTH} are supported"
                )
        elif len(w) != length:
            raise WordListError(
                f"{source}, line {lineno}: {w!r} has {len(w)} letters but the list's words have {length}"
            )
        if w in seen:
            raise WordListError(f"{source}, line {lineno}: {w!r} repeats line {seen[w]}")
        seen[w] = lineno
        out.append(w)
    if not out:
        raise WordListError(f"{source} is empty")
    return out


def read_word_file(path: Path) -> list[str]:
    """Read and validate a one-word-per-line file (a trailing newline is fine; blank lines are not)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise WordListError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        line = text_line_of_offset(path.read_bytes(), exc.start)
        raise WordListError(f"{path}, line {line}: not plain ASCII text") from None
    except OSError as exc:
        raise WordListError(f"{path}: cannot read ({exc.strerror})") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return validate_words(lines, str(path))


def text_line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


FALLBACK_FIX = "wordlebot data fetch"


@dataclass(frozen=True)
class Fallback:
    """Why a Lexicon stands in for the official lists a command asked for (``wanted``):
    ``reason`` in a word or two ("offline", "fetch failed", "not fetched"), ``message`` the whole
    explanation said when it happened (what failed, where the lists were looked for)."""

    wanted: str
    reason: str
    message: str

    @property
    def line(self) -> str:
        """The one line a screen keeps for the whole session: what list is in use, why, and the
        one command that fixes it (76 columns at most, for an 80-column terminal)."""
        return f"wordfreq list, not the official one ({self.reason}): run {FALLBACK_FIX}"


@dataclass(frozen=True, eq=False)
class AnswerGroups:
    """Where a weighted list's prior comes from, for a player: each answer's group and each
    group's share of the prior (the ``nyt`` set's are the answer model's: the unused words of
    each published list, and the past answers; ``answers/odds.py`` makes them)."""

    labels: tuple[str, ...]  # "unused word of the NYT answer list"
    short: tuple[str, ...]  # "NYT list"
    texts: tuple[str, ...]  # "80 % of days draw one of these 554 words"
    share: tuple[float, ...]
    size: tuple[int, ...]
    of_answer: np.ndarray  # group index of each answer

    def to_dict(self) -> list[dict[str, object]]:
        return [
            {"label": a, "short": b, "text": c, "share": d, "words": e}
            for a, b, c, d, e in zip(self.labels, self.short, self.texts, self.share, self.size)
        ]


@dataclass(frozen=True, eq=False)
class Lexicon:
    """Guess list + answer list (+ optional answer weights).

    Build with ``Lexicon.from_lists`` or ``Lexicon.from_files`` (both validate); named sets come
    from ``wordlebot.data.load_lexicon``.  ``weights`` (one per answer, normalised to sum 1) is
    the prior probability of each answer; ``None`` means uniform.  ``day``: the day a prior that
    changes from day to day (the ``nyt`` set's) belongs to; None for a prior that does not.
    ``fallback``: set when these lists stand in for official ones that could not be had.
    """

    guesses: tuple[str, ...]
    answers: tuple[str, ...]
    weights: np.ndarray | None = None
    name: str = "custom"
    official: bool = True
    note: str = ""
    day: dt.date | None = None
    groups: AnswerGroups | None = field(default=None, repr=False)  # where the weights come from
    fallback: Fallback | None = None
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    @classmethod
    def from_lists(
        cls,
        guesses: Iterable[str],
        answers: Iterable[str],
        weights: Sequence[float] | np.ndarray | None = None,
        *,
        name: str = "custom",
        official: bool = True,
        note: str = "",
        day: dt.date | None = None,
        groups: AnswerGroups | None = None,
        guess_source: str = "guess list",
        answer_source: str = "answer list",
    ) -> Lexicon:
        g = validate_words(guesses, guess_source)
        a = validate_words(answers, answer_source)
        if len(a[0]) != len(g[0]):
            raise WordListError(
                f"{answer_source} has {len(a[0])}-letter words but {guess_source} has {len(g[0])}-letter words"
            )
        index = {w: i for i, w in enumerate(g)}
        for lineno, w in enumerate(a, start=1):
            if w not in index:
                raise WordListError(
                    f"{answer_source}, line {lineno}: {w!r} is not in {guess_source} "
                    "(every answer must also be an allowed guess)"
                )
        w_arr = None
        if weights is not None:
            w_arr = np.asarray(weights, dtype=np.float64).copy()
            if w_arr.shape != (len(a),):
                raise WordListError(f"expected {len(a)} answer weights, got {w_arr.shape[0]}")
            bad = np.flatnonzero(~np.isfinite(w_arr) | (w_arr <= 0))
            if bad.size:
                j = int(bad[0])
                raise WordListError(
                    f"answer weight for {a[j]!r} is {w_arr[j]!r}; weights must be positive "
                    "(drop a word from the answer list instead of giving it weight 0)"
                )
            w_arr /= w_arr.sum()
            w_arr.setflags(write=False)
        if groups is not None and np.shape(groups.of_answer) != (len(a),):
            raise WordListError(f"expected the group of each of {len(a)} answers, got {np.shape(groups.of_answer)}")
        return cls(
            tuple(g), tuple(a), w_arr, name=name, official=official, note=note, day=day, groups=groups, _index=index
        )

    @classmethod
    def from_files(
        cls,
        guesses: Path,
        answers: Path,
        weights: Sequence[float] | np.ndarray | None = None,
        **kwargs: Any,
    ) -> Lexicon:
        g = read_word_file(guesses)
        a = read_word_file(answers)
        return cls.from_lists(g, a, weights, guess_source=str(guesses), answer_source=str(answers), **kwargs)

    # --- derived views (computed once) ---------------------------------------------------------

    @property
    def length(self) -> int:
        return len(self.guesses[0])

    @property
    def n_guesses(self) -> int:
        return len(self.guesses)

    @property
    def n_answers(self) -> int:
        return len(self.answers)

    @cached_property
    def answer_ids(self) -> np.ndarray:
        """Guess index of each answer (int32)."""
        ids = np.fromiter((self._index[w] for w in self.answers), np.int32, len(self.answers))
        ids.setflags(write=False)
        return ids

    @cached_property
    def answer_of_guess(self) -> np.ndarray:
        """For each guess, its answer index, or -1 when it cannot be the answer (int32)."""
        out = np.full(self.n_guesses, -1, np.int32)
        out[self.answer_ids] = np.arange(self.n_answers, dtype=np.int32)
        out.setflags(write=False)
        return out

    @cached_property
    def guess_codes(self) -> np.ndarray:
        return encode(self.guesses)

    @cached_property
    def answer_codes(self) -> np.ndarray:
        return encode(self.answers)

    @cached_property
    def answer_letter_counts(self) -> np.ndarray:
        """How many times each letter (0-25) occurs in each answer: answers x 26, int8."""
        counts = np.zeros((self.n_answers, 26), np.int8)
        codes = self.answer_codes
        for i in range(codes.shape[1]):
            np.add.at(counts, (np.arange(self.n_answers), codes[:, i]), 1)
        return counts

    @cached_property
    def prior(self) -> np.ndarray:
        """Answer probabilities (float64, sums to 1); uniform when no weights were given."""
        if self.weights is not None:
            return self.weights
        p = np.full(self.n_answers, 1.0 / self.n_answers)
        p.setflags(write=False)
        return p

    @property
    def weighted(self) -> bool:
        return self.weights is not None

    @cached_property
    def fingerprint(self) -> str:
        """Names the (guesses, answers) pair in cache keys; weights do not change the matrix."""
        return hashlib.sha256((list_fingerprint(self.guesses) + list_fingerprint(self.answers)).encode()).hexdigest()

    # --- checked look-ups ------------------------------------------------------------------------

    def id(self, word: str) -> WordId:
        """Guess index of ``word``; raises ``InvalidWordError`` naming the list when it is not allowed."""
        w = check_word(word, self.length)
        try:
            return self._index[w]
        except KeyError:
            raise InvalidWordError(
                f"{w!r} is not in the {self.name} guess list ({self.n_guesses:,} words){slip_hint(self.near(w))}"
            ) from None

    def near(self, word: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` words of the guess list one slip away from ``word``: two neighbouring
        letters swapped first (the commonest typo), then one letter changed; within each, the
        likelier answers first (possible answers by prior, then the other guesses), then
        alphabetical, so the hint is the same every time.  Empty for a word of the list or of
        another length."""
        w = word.strip().lower()
        if len(w) != self.length or w in self._index or not (w.isascii() and w.isalpha()):
            return []
        swaps = {w[:i] + w[i + 1] + w[i] + w[i + 2 :] for i in range(len(w) - 1)} - {w}
        swapped = [self._index[x] for x in swaps if x in self._index]
        code = encode([w])[0]
        changed = np.flatnonzero((self.guess_codes != code).sum(axis=1) == 1).tolist()
        rank = self.answer_of_guess
        prior = self.prior

        def order(g: int) -> tuple[bool, float, str]:
            a = rank[g]
            return (a < 0, -prior[a] if a >= 0 else 0.0, self.guesses[g])

        ids = sorted(swapped, key=order) + sorted(changed, key=order)
        return [self.guesses[g] for g in ids[:limit]]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.lower() in self._index

    def is_answer(self, word: str) -> bool:
        gid = self._index.get(word.lower(), -1)
        return gid >= 0 and self.answer_of_guess[gid] >= 0

    def describe(self) -> str:
        kind = "" if self.official else " (NOT the official list)"
        weights = ", weighted" if self.weighted else ""
        day = f", prior for {self.day}" if self.day else ""
        return (
            f"{self.name}{kind}: {self.n_guesses:,} guesses, {self.n_answers:,} answers{weights}{day}, "
            f"{self.length} letters"
        )

    def __repr__(self) -> str:
        return f"<Lexicon {self.describe()}>"
