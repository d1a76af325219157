"""The opening book: the search's ranking of first guesses, and its answer to every reply to the
best one, computed once per (word lists, weights, settings) and kept on disk, so that the first
and second suggestions of a game are instant.
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



@dataclass
class Book:
    first: list[tuple[str, float]]  # (guess, value) best first
    second: dict[int, list[tuple[str, float]]]  # reply pattern to the best first guess -> ranking

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


def build_book(search: TreeSearch, top: int = 10, rank=_plain_rank, replies: bool = True) -> Book:
    """Rank the first guesses; then, for the best one, rank the replies to every pattern.
    ``rank(search, H, rows, constraints, top)`` ranks one node (the caller's policy)."""
    lex = search.lexicon
    H = np.arange(lex.n_answers, dtype=np.int32)
    cons0 = None
    if search.hard:
        from .game import HardConstraints

        cons0 = HardConstraints.none(lex.length)
    first = [(lex.guesses[g], v) for g, v in rank(search, H, 0, cons0, top) if v < INF]
    second: dict[int, list[tuple[str, float]]] = {}
    if first and replies and search.max_guesses > 1:  # with one guess there is no reply to plan
        g0 = lex.id(first[0][0])
        pats = np.asarray(search.mt[:, g0])
        for p in np.unique(pats).tolist():
            if p == all_green(lex.length):
                continue
            part = H[pats == p]
            cons = cons0.add(lex.guesses[g0], p) if cons0 is not None else None
            second[p] = [(lex.guesses[g], v) for g, v in rank(search, part, 1, cons, top) if v < INF]
    return Book(first, second)


def get_book(search: TreeSearch, *, build: bool = True, rank=_plain_rank, tag: str = "",
             replies: bool = True) -> Book | None:
    """The book from disk, or built and saved (atomically) when missing and ``build``."""
    book = load_book(search, tag)
    if book is None and build:
        book = build_book(search, rank=rank, replies=replies)
        path = book_path(search, tag)
        # the set and rules are for `wordlebot cache` only (the file name holds the key)
        doc = dict(book.to_json(), words=search.lexicon.name, hard=search.hard, max_guesses=search.max_guesses)
        try:
            atomic_write_json(path, doc)
        except DataError as exc:  # a read-only cache folder must not stop play
            log.warning("could not save the opening book: %s", exc)
        else:
            cache_store.after_write(path)
    return book
