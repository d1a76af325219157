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
import logging
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import cache_seal, cache_store
from ..core.cache_formats import BOOK_VERSION
from ..core.cache_seal import read_sealed
from ..core.data import atomic_write_json
from ..core.errors import CacheError, DataError
from ..core.feedback import all_green
from ..core.paths import cache_dir
from .tree_search import INF, TreeSearch

if TYPE_CHECKING:
    from ..core.game import HardConstraints

log = logging.getLogger(__name__)

BOOK_TOP = 10  # rows kept per node: a suggestion shows ten


Row = tuple[str, float, float]  # (guess, value, loss: the weight its strategy loses; see TreeSearch.loss)
# ranks one node (the caller's policy): (search, answers, rows played, constraints, top) -> rows best first
Ranked = tuple[int, float, float]  # a ranker's row: (guess id, value, loss)
Ranker = Callable[["TreeSearch", np.ndarray, int, "HardConstraints | None", int], list[Ranked]]


@dataclass
class Book:
    first: list[Row]  # best first
    # reply pattern to the best first guess -> ranking, for the replies computed so far
    second: dict[int, list[Row]]
    # Guards ``second`` and the book's file: one Book is shared by the Advisors of a web
    # server's threads, each of which may add a reply and save.
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        with self.lock:
            second = dict(self.second)
        return {
            "version": BOOK_VERSION,
            "first": [list(r) for r in self.first],
            "second": {str(p): [list(r) for r in rows] for p, rows in second.items()},
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Book:
        """The book a document holds, its shape checked (rows of a word and two finite numbers,
        replies keyed by pattern codes): ValueError when it is not a book of this version."""
        if not isinstance(doc, dict) or doc.get("version") != BOOK_VERSION:
            raise ValueError("not a book of this version")
        first, second = doc.get("first"), doc.get("second")
        if not isinstance(first, list) or not isinstance(second, dict):
            raise ValueError("no first move or replies")
        return cls(_rows(first), {int(p): _rows(rows) for p, rows in second.items()})


def _rows(rows: object) -> list[Row]:
    """A book's ranking read back: [word, value, loss] rows, the numbers finite."""
    if not isinstance(rows, list):
        raise ValueError("a ranking is not a list")
    out = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 3 or not isinstance(row[0], str):
            raise ValueError(f"{row!r} is not a row of a word, a value and a loss")
        value, loss = float(row[1]), float(row[2])
        if not (math.isfinite(value) and math.isfinite(loss)):
            raise ValueError(f"{row!r} holds a number that is not finite")
        out.append((row[0], value, loss))
    return out


def book_key(search: TreeSearch, tag: str = "") -> str:
    """Names everything a book depends on: lists, weights, search settings and the caller's
    policy (``tag``)."""
    h = hashlib.sha256()
    h.update(search.lexicon.fingerprint.encode())
    h.update(np.ascontiguousarray(search.w).tobytes())
    settings = (
        search.k,
        search.kc,
        search.hard,
        search.max_guesses,
        search.guess_space,
        search.fail_cost,
        BOOK_VERSION,
        tag,
    )
    h.update(repr(settings).encode())
    return h.hexdigest()[:24]


def book_path(search: TreeSearch, tag: str = "") -> Path:
    return cache_dir() / "openings" / f"book-{book_key(search, tag)}.json"


def load_book(search: TreeSearch, tag: str = "", *, touch: bool = True) -> Book | None:
    """The book kept on disk, or None (none yet, or unusable: then set aside with a warning and
    rebuilt).  A book must carry the key of what it was computed for (lists, weights, settings,
    ``tag``) and a checksum (core/cache_seal.py), and name only words of the list: a book copied
    under another's name or edited is never trusted.  ``touch``: mark it used (the size limit
    removes the least recently used files first)."""
    path = book_path(search, tag)
    try:
        doc = read_sealed(path, book_key(search, tag))
        if doc is None:
            return None
        book = Book.from_json(doc)
        lex = search.lexicon
        n_patterns = all_green(lex.length) + 1
        for rows in (book.first, *book.second.values()):
            for word, _, _ in rows:
                if word not in lex:
                    raise ValueError(f"{word!r} is not in the {lex.name} guess list")
        if not book.first and book.second:
            raise ValueError("replies without a first move")
        if any(not 0 <= p < n_patterns for p in book.second):
            raise ValueError("a reply to a pattern that does not exist")
    except (CacheError, ValueError, TypeError, KeyError) as exc:
        cache_seal.set_aside(path, "opening book", exc)
        return None
    if touch:
        cache_store.touch(path)  # most recently used: the last the size limit removes
    return book


def _plain_rank(
    search: TreeSearch, H: np.ndarray, rows: int, constraints: HardConstraints | None, top: int
) -> list[Ranked]:
    return [
        (g, v, search.loss(H, rows, constraints, guess=g, value=v))
        for g, v in search.rank(H, rows=rows, constraints=constraints, top=top)
    ]


def _first_patterns(search: TreeSearch, book: Book) -> np.ndarray:
    """Each answer's pattern against the book's first guess."""
    return np.asarray(search.mt[:, search.lexicon.id(book.first[0][0])])


def _reply_node(search: TreeSearch, book: Book, pattern: int) -> tuple[np.ndarray, HardConstraints | None]:
    """The answers left and the hard-mode constraints after the book's first guess and ``pattern``."""
    lex = search.lexicon
    H = np.flatnonzero(_first_patterns(search, book) == pattern).astype(np.int32)
    cons = None
    if search.hard:
        from ..core.game import HardConstraints

        cons = HardConstraints.none(lex.length).add(book.first[0][0], pattern)
    return H, cons


def build_book(search: TreeSearch, top: int = BOOK_TOP, rank: Ranker = _plain_rank) -> Book:
    """Rank the first guesses (the replies are added by ``book_reply``, each when first needed).
    ``rank(search, H, rows, constraints, top)`` ranks one node (the caller's policy): (guess id,
    value, loss) best first."""
    lex = search.lexicon
    H = np.arange(lex.n_answers, dtype=np.int32)
    cons0 = None
    if search.hard:
        from ..core.game import HardConstraints

        cons0 = HardConstraints.none(lex.length)
    return Book([(lex.guesses[g], v, x) for g, v, x in rank(search, H, 0, cons0, top) if v < INF], {})


def reply_patterns(search: TreeSearch, book: Book) -> list[int]:
    """The patterns an answer can give the book's first guess, all green left out."""
    if not book.first or search.max_guesses < 2:  # with one guess there is no reply to plan
        return []
    green = all_green(search.lexicon.length)
    return [p for p in np.unique(_first_patterns(search, book)).tolist() if p != green]


def book_reply(
    search: TreeSearch,
    book: Book,
    pattern: int,
    *,
    rank: Ranker = _plain_rank,
    tag: str = "",
    top: int = BOOK_TOP,
    save: bool = True,
) -> list[Row] | None:
    """The book's ranking of the reply to ``pattern`` after its first guess: kept in the book,
    else computed now and added (and the book saved, with ``save``).  None when the pattern
    cannot follow the first guess (no answer gives it) or is all green.

    The search runs outside the book's lock (another thread may want another reply meanwhile):
    two threads asking for the same new reply both compute it, and, a reply being a function
    of its node, both get the same rows."""
    with book.lock:
        if pattern in book.second:
            return book.second[pattern]
    if not book.first or search.max_guesses < 2 or pattern == all_green(search.lexicon.length):
        return None
    H, cons = _reply_node(search, book, pattern)
    if H.size == 0:
        return None
    lex = search.lexicon
    rows = [(lex.guesses[g], v, x) for g, v, x in rank(search, H, 1, cons, top) if v < INF]
    with book.lock:
        rows = book.second.setdefault(pattern, rows)
    if save:
        save_book(search, book, tag)
    return rows


def book_all_replies(
    search: TreeSearch, book: Book, *, rank: Ranker = _plain_rank, tag: str = "", stop: Callable[[], bool] | None = None
) -> None:
    """Every reply of the book (a server computes them in the background), saved once at the end;
    ``stop() -> True`` ends it early, the replies computed so far saved."""
    for p in reply_patterns(search, book):
        if stop is not None and stop():
            break
        book_reply(search, book, p, rank=rank, tag=tag, save=False)
    save_book(search, book, tag)


_unsaved: set[Path] = set()  # books a read-only cache folder refused: said once per book
_save_lock = threading.Lock()


def save_book(search: TreeSearch, book: Book, tag: str = "") -> None:
    """Write the book atomically, with the replies another process saved meanwhile (a reply is a
    function of its node, so theirs are as good as ours); a read-only cache folder is warned
    about once, not an error: the book then lives for the session only."""
    path = book_path(search, tag)
    with _save_lock:  # one writer at a time in this process: no older snapshot renamed last
        on_disk = load_book(search, tag, touch=False)  # None when there is none yet
        if on_disk is not None and on_disk.first == book.first:
            with book.lock:
                for p, rows in on_disk.second.items():
                    book.second.setdefault(p, rows)
        # the set and rules are for `wordlebot cache` only (the file name holds the key)
        doc = dict(book.to_json(), words=search.lexicon.name, hard=search.hard, max_guesses=search.max_guesses)
        doc = cache_seal.seal(doc, book_key(search, tag))
        try:
            atomic_write_json(path, doc)
        except DataError as exc:  # a read-only cache folder must not stop play
            if path not in _unsaved:
                _unsaved.add(path)
                log.warning("could not save the opening book: %s", exc)
            return
    cache_store.after_write(path)


def get_book(search: TreeSearch, *, build: bool = True, rank: Ranker = _plain_rank, tag: str = "") -> Book | None:
    """The book from disk, or built (its first move) and saved (atomically) when missing and
    ``build``."""
    book = load_book(search, tag)
    if book is None and build:
        book = build_book(search, rank=rank)
        save_book(search, book, tag)
    return book
