"""A multi-board game's first move, kept on disk: every game starts from the same state, and
ranking it (all boards full, every guess scanned) is the dearest move of a game, 160–520 ms; a
new process then reads it back in a millisecond instead.

One file per word set, prior, boards, rules and objective, in the cache folder beside the
single-board opening books (``openings/book-multi-*.json``, listed by ``wordlebot cache`` as a
book).  A file that cannot be read, or does not hold what its name says, is ranked again and
rewritten; a cache folder that cannot be written to only means the ranking lives for the process.
"""

from __future__ import annotations

import hashlib
import logging
import math
from pathlib import Path

from ..core import cache_seal, cache_store
from ..core.cache_formats import BOOK_VERSION
from ..core.cache_seal import read_sealed
from ..core.data import atomic_write_json
from ..core.errors import CacheError, DataError
from ..core.paths import cache_dir
from .game import MultiGame

log = logging.getLogger(__name__)

# Bumped whenever the policy's code may change its first move (the estimate, its rules, the
# tie-break): a file of an older policy is then a different file, never read.  The policy's and
# the search's constants are in the key as well (``settings``, which the policy passes in: this
# module stores rows and knows nothing of how they are ranked, so the policy can import it).
POLICY_VERSION = (
    3  # 3: hard mode weighs each guess against the answer tuples it would leave unwinnable (multi/deadlock.py)
)
_unsaved: set[Path] = set()

# A first-move row as kept: word, cost, the boards it solves, why, searched (``MultiSuggestion``'s fields).
Row = tuple[str, float, tuple[int, ...], str, bool]


def _key(game: MultiGame, objective: str, search: bool, settings: tuple[object, ...]) -> str:
    """Names everything a first move depends on: lists, prior, boards, rules, objective, the
    policy's version and constants."""
    lex = game.lexicon
    h = hashlib.sha256()
    h.update(lex.fingerprint.encode())
    h.update(lex.prior.tobytes())
    h.update(
        repr(
            (game.n_boards, game.hard, game.max_guesses, objective, search, POLICY_VERSION, BOOK_VERSION, settings)
        ).encode()
    )
    return h.hexdigest()


def first_move_path(game: MultiGame, objective: str, search: bool, settings: tuple[object, ...]) -> Path:
    return cache_dir() / "openings" / f"book-multi-{_key(game, objective, search, settings)[:24]}.json"


def load_first_move(game: MultiGame, objective: str, search: bool, settings: tuple[object, ...]) -> list[Row] | None:
    """The first move's ranking kept on disk (rows of ``MultiSuggestion``'s fields), or None
    (none yet, or unusable: set aside with a warning and ranked again).  The file must carry the
    key of its inputs and a checksum (core/cache_seal.py) and hold rows of words of the list."""
    path = first_move_path(game, objective, search, settings)
    try:
        doc = read_sealed(path, _key(game, objective, search, settings))
        if doc is None:
            return None
        if doc.get("version") != BOOK_VERSION or doc.get("boards") != game.n_boards:
            raise ValueError("not this game's file")
        rows: list[Row] = [_row(row, game) for row in doc["rows"]]
        if not rows:
            raise ValueError("no rows")
    except (CacheError, ValueError, KeyError, TypeError) as exc:
        cache_seal.set_aside(path, "multi-board first move", exc)
        return None
    cache_store.touch(path)
    return rows


def _row(row: object, game: MultiGame) -> Row:
    """A kept row read back, its every field checked."""
    if not isinstance(row, list) or len(row) != 5:
        raise ValueError(f"{row!r} is not a row")
    word, cost, solves, why, searched = row
    if not isinstance(word, str) or word not in game.lexicon:
        raise ValueError(f"{word!r} is not in the {game.lexicon.name} guess list")
    if isinstance(cost, bool) or not isinstance(cost, (int, float)) or math.isnan(cost):
        raise ValueError(f"{cost!r} is not a cost")
    if not isinstance(solves, list) or any(
        isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= game.n_boards for b in solves
    ):
        raise ValueError(f"{solves!r} are not boards")
    if not isinstance(why, str) or not isinstance(searched, bool):
        raise ValueError(f"{row!r} is not a row")
    return (word, float(cost), tuple(solves), why, searched)


def save_first_move(
    game: MultiGame, objective: str, search: bool, settings: tuple[object, ...], rows: list[Row]
) -> None:
    """Write the ranking atomically; a cache folder that cannot be written to is warned about once."""
    path = first_move_path(game, objective, search, settings)
    doc = {
        "version": BOOK_VERSION,
        "kind": "multi-board first move",
        "words": game.lexicon.name,
        "boards": game.n_boards,
        "hard": game.hard,
        "max_guesses": game.max_guesses,
        "objective": objective,
        "rows": [[w, c, list(solves), why, searched] for w, c, solves, why, searched in rows],
    }
    doc = cache_seal.seal(doc, _key(game, objective, search, settings))
    try:
        atomic_write_json(path, doc)
    except DataError as exc:
        if path not in _unsaved:
            _unsaved.add(path)
            log.warning("could not keep the multi-board first move: %s", exc)
        return
    cache_store.after_write(path)
