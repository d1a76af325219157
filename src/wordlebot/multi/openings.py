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
import json
import logging
from pathlib import Path

from ..core import cache_store
from ..core.cache_formats import BOOK_VERSION
from ..core.data import atomic_write_json
from ..core.errors import DataError
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


def first_move_path(game: MultiGame, objective: str, search: bool, settings: tuple[object, ...]) -> Path:
    lex = game.lexicon
    h = hashlib.sha256()
    h.update(lex.fingerprint.encode())
    h.update(lex.prior.tobytes())
    h.update(
        repr(
            (game.n_boards, game.hard, game.max_guesses, objective, search, POLICY_VERSION, BOOK_VERSION, settings)
        ).encode()
    )
    return cache_dir() / "openings" / f"book-multi-{h.hexdigest()[:24]}.json"


def load_first_move(game: MultiGame, objective: str, search: bool, settings: tuple[object, ...]) -> list[Row] | None:
    """The first move's ranking kept on disk (rows of ``MultiSuggestion``'s fields), or None
    (none yet, or unusable: it is ranked again)."""
    path = first_move_path(game, objective, search, settings)
    try:
        doc = json.loads(path.read_text())
        if doc.get("version") != BOOK_VERSION or doc.get("boards") != game.n_boards:
            raise ValueError("not this game's file")
        rows: list[Row] = [
            (str(w), float(c), tuple(int(b) for b in solves), str(why), bool(searched))
            for w, c, solves, why, searched in doc["rows"]
        ]
        if not rows or any(r[0] not in game.lexicon for r in rows):
            raise ValueError("words not in the list")
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("multi-board first move %s is unusable (%s); it is ranked again", path, exc)
        return None
    cache_store.touch(path)
    return rows


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
    try:
        atomic_write_json(path, doc)
    except DataError as exc:
        if path not in _unsaved:
            _unsaved.add(path)
            log.warning("could not keep the multi-board first move: %s", exc)
        return
    cache_store.after_write(path)
