"""The opening book: the search's ranking of first guesses, and its answer to the replies to the
best one, computed once per (word lists, weights, settings) and kept on disk, so that the first
and second suggestions of a game are instant.

The first move is computed when the book is made; each reply when it is first needed, then kept
in the same file.  A reply is a function of its node alone (searched to the end, no budget), so
when it is computed changes nothing but the time the first suggestion takes: on the classic
lists the 148 replies to SALET were a quarter of the book's cost (~2 s), paid by every first
suggestion on an empty cache for the sake of the one reply a game uses.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import cache_store
from .cache_formats import BOOK_VERSION
from .data import atomic_write_json
from .errors import DataError
from .feedback import all_green
from .paths import cache_dir
from .search import INF, TreeSearch

log = logging.getLogger(__name__)

BOOK_TOP = 10  # rows kept per node: a suggestion shows ten


@dataclass
class Book:
    first: list[tuple[str, float]]  # (guess, value) best first
    # reply pattern to the best first guess -> ranking, for the replies computed so far
    second: dict[int, list[tuple[str, float]]]

    def to_json(self) -> dict:
        return {
            "version": BOOK_VERSION,
            "first": [[w, v] for w, v in self.first],
            "second": {str(p): [[w, v] for w, v in rows] for p, rows in self.second.items()},
        }

    @classmethod
    def from_json(cls, doc: dict) -> "Book":
        if doc.get("version") != BOOK_VERSION:
            raise ValueError("old version")
        return cls([(w, float(v)) for w, v in doc["first"]],
                   {int(p): [(w, float(v)) for w, v in rows] for p, rows in doc["second"].items()})


def book_key(search: TreeSearch, tag: str = "") -> str:
    """Names everything a book depends on: lists, weights, search settings and the caller's
    policy (``tag``)."""
    h = hashlib.sha256()
    h.update(search.lexicon.fingerprint.encode())
    h.update(np.ascontiguousarray(search.w).tobytes())
    settings = (search.k, search.kc, search.hard, search.max_guesses, search.guess_space,
                float(search.S[9][1]), BOOK_VERSION, tag)
    h.update(repr(settings).encode())
    return h.hexdigest()[:24]


def book_path(search: TreeSearch, tag: str = "") -> Path:
    return cache_dir() / "openings" / f"book-{book_key(search, tag)}.json"


def load_book(search: TreeSearch, tag: str = "") -> Book | None:
    path = book_path(search, tag)
    try:
        book = Book.from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("opening book %s is unusable (%s); it will be rebuilt", path, exc)
        return None
    cache_store.touch(path)  # most recently used: the last the size limit removes
    return book


def _plain_rank(search, H, rows, constraints, top):
    return search.rank(H, rows=rows, constraints=constraints, top=top)


def _reply_node(search: TreeSearch, book: Book, pattern: int):
    """The answers left and the hard-mode constraints after the book's first guess and ``pattern``."""
    lex = search.lexicon
    g0 = lex.id(book.first[0][0])
    H = np.flatnonzero(np.asarray(search.mt[:, g0]) == pattern).astype(np.int32)
    cons = None
    if search.hard:
        from .game import HardConstraints

        cons = HardConstraints.none(lex.length).add(lex.guesses[g0], pattern)
    return H, cons


def build_book(search: TreeSearch, top: int = BOOK_TOP, rank=_plain_rank, replies: bool = True) -> Book:
    """Rank the first guesses; with ``replies``, also rank the replies to every pattern of the
    best one (``book_reply`` computes them one at a time, when needed).
    ``rank(search, H, rows, constraints, top)`` ranks one node (the caller's policy)."""
    lex = search.lexicon
    H = np.arange(lex.n_answers, dtype=np.int32)
    cons0 = None
    if search.hard:
        from .game import HardConstraints

        cons0 = HardConstraints.none(lex.length)
    book = Book([(lex.guesses[g], v) for g, v in rank(search, H, 0, cons0, top) if v < INF], {})
    if book.first and replies and search.max_guesses > 1:  # with one guess there is no reply to plan
        pats = np.unique(np.asarray(search.mt[:, lex.id(book.first[0][0])])).tolist()
        for p in pats:
            if p != all_green(lex.length):
                _rank_reply(search, book, p, rank, top)
    return book


def _rank_reply(search, book, pattern, rank, top):
    H, cons = _reply_node(search, book, pattern)
    lex = search.lexicon
    book.second[pattern] = [(lex.guesses[g], v) for g, v in rank(search, H, 1, cons, top) if v < INF]
    return book.second[pattern]


def book_reply(search: TreeSearch, book: Book, pattern: int, *, rank=_plain_rank, tag: str = "",
               top: int = BOOK_TOP) -> list[tuple[str, float]] | None:
    """The book's ranking of the reply to ``pattern`` after its first guess: kept in the book,
    else computed now and the book saved with it.  None when the pattern cannot follow the
    first guess (no answer gives it) or is all green."""
    if pattern in book.second:
        return book.second[pattern]
    if not book.first or search.max_guesses < 2 or pattern == all_green(search.lexicon.length):
        return None
    H, _ = _reply_node(search, book, pattern)
    if H.size == 0:
        return None
    rows = _rank_reply(search, book, pattern, rank, top)
    save_book(search, book, tag)
    return rows


def save_book(search: TreeSearch, book: Book, tag: str = "") -> None:
    """Write the book atomically (a read-only cache folder is warned about, not an error: the
    book then lives for the session only)."""
    path = book_path(search, tag)
    # the set and rules are for `wordlebot cache` only (the file name holds the key)
    doc = dict(book.to_json(), words=search.lexicon.name, hard=search.hard, max_guesses=search.max_guesses)
    try:
        atomic_write_json(path, doc)
    except DataError as exc:  # a read-only cache folder must not stop play
        log.warning("could not save the opening book: %s", exc)
    else:
        cache_store.after_write(path)


def get_book(search: TreeSearch, *, build: bool = True, rank=_plain_rank, tag: str = "",
             replies: bool = False) -> Book | None:
    """The book from disk, or built (first move; every reply too with ``replies``) and saved
    (atomically) when missing and ``build``."""
    book = load_book(search, tag)
    if book is None and build:
        book = build_book(search, rank=rank, replies=replies)
        save_book(search, book, tag)
    return book
