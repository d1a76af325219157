"""The cache folder as the user sees it: what is in it (by kind and word set, size, last use),
clearing it, and a size limit kept by dropping the least recently used files.

What lives there (``paths.cache_dir()``): pattern matrices (``matrix-*.bin``, the big ones, each a
word set's guesses x answers or its transpose), opening books (``openings/book-*.json``; the
multi-board first moves are ``openings/book-multi-*.json``, books too), answer
models (``models/``), the wordfreq sets' lists (``wordlists/``) and the exact first-word totals
found so far (``openers/exact-*.json``, app/opener_rating.py).  Everything can be computed
again, so any file may go; a file in use by a running process is safe to remove (it keeps its
open copy).  Files record their word set where they can (matrix headers and books written since
this module; older ones show "?").

The limit (``wordlebot cache limit 1G``, kept in the config folder, or ``$WORDLEBOT_CACHE_LIMIT``)
is applied after each write (``after_write``): least recently used first (loading a file marks it
used), never the file just written.  Files of an older format and leftover temporary files are
removed at the same time.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import WordlebotError
from .paths import cache_dir, config_dir

LIMIT_ENV = "WORDLEBOT_CACHE_LIMIT"
LIMIT_FILE = "cache.json"
DEFAULT_LIMIT = 2 << 30  # every named set with its books and models takes about 1 GB
TEMP_AGE = 3600.0  # seconds after which a temporary file is a leftover of a crashed write
# A temporary file names its writer's pid: once that process is gone (and the file is this old,
# in case the folder is shared with another machine's processes) it is a leftover, swept at the
# next write instead of an hour later (a killed matrix writer leaves up to 178 MB).
TEMP_GRACE = 120.0
_WRITER = re.compile(r"\.(\d+)\.[a-z0-9_]+\.(?:part|tmp)$")
KINDS = ("matrix", "book", "model", "list", "rating")
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "G": 1 << 30, "GB": 1 << 30}


class CacheLimitError(WordlebotError, ValueError):
    pass


@dataclass(frozen=True)
class CacheFile:
    path: Path
    kind: str  # matrix, book, model, temporary, other
    words: str  # the word set, "?" when the file does not say
    size: int  # bytes
    used: float  # time of last use (mtime: loading a file touches it)
    current: bool  # False: an older format or a leftover, removed by ``tidy``


# The files wordlebot writes there (and their temporaries): nothing else is listed or removed, in
# case the folder is shared with other programs (WORDLEBOT_CACHE=~/.cache).
OWN = (
    "matrix-*.bin",
    "matrix-*.bin.*.tmp",  # (the temporaries of versions before 0.1's atomic_write_parts)
    ".matrix-*.bin.*.part",
    "openings/book-*.json",
    "openings/.book-*.part",
    "models/answer-model-*.json",
    "models/.answer-model-*.part",
    "models/days/answer-model-*.json",
    "models/days/.answer-model-*.part",
    "models/word-facts-*.json",
    "models/.word-facts-*.part",
    "wordlists/wordfreq-*.json",
    "wordlists/.wordfreq-*.part",
    "openers/exact-*.json",
    "openers/.exact-*.part",
)


def scan(folder: Path | None = None) -> list[CacheFile]:
    """wordlebot's files in the cache folder, most recently used first."""
    root = Path(folder or cache_dir())
    out: list[CacheFile] = []
    if not root.is_dir():
        return out
    for p in sorted({p for pattern in OWN for p in root.glob(pattern)}):
        try:
            st = p.stat()
        except OSError:
            continue
        if not p.is_file():
            continue
        kind, words, current = _describe(p)
        if kind == "temporary":
            age = time.time() - st.st_mtime
            writer = _WRITER.search(p.name)
            if writer is not None and age >= TEMP_GRACE and not _alive(int(writer.group(1))):
                current = False
            else:
                current = age < TEMP_AGE
        out.append(CacheFile(p, kind, words, st.st_size, st.st_mtime, current))
    out.sort(key=lambda f: -f.used)
    return out


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def link_read_only(source: Path, into: Path) -> int:
    """Link the current files of the cache folder ``source`` (which cannot be written) into the
    folder ``into`` that this run writes to, so the run reads them instead of computing them
    again; what the run computes is written to ``into``.  The number of files linked."""
    n = 0
    for f in scan(source):
        if f.kind == "temporary" or not f.current:
            continue
        target = Path(into) / f.path.relative_to(source)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(f.path)
            n += 1
        except OSError:
            continue
    return n


def _describe(p: Path) -> tuple[str, str, bool]:
    from .cache_formats import (
        ANSWER_MODEL_VERSION,
        BOOK_VERSION,
        MATRIX_FORMAT_VERSION,
        MATRIX_HEADER_BYTES,
        MATRIX_MAGIC,
        RATING_STORE_VERSION,
        WORD_FACTS_VERSION,
        WORDLIST_VERSION,
    )

    name = p.name
    if name.endswith((".tmp", ".part")):
        return "temporary", "?", True
    if name.startswith("matrix-") and name.endswith(".bin"):
        m = re.search(r"-v(\d+)\.bin$", name)
        current = m is not None and int(m.group(1)) == MATRIX_FORMAT_VERSION
        words = "?"
        try:
            with open(p, "rb") as f:
                head = f.read(MATRIX_HEADER_BYTES)
            if head.startswith(MATRIX_MAGIC):
                words = json.loads(head[len(MATRIX_MAGIC) :].decode().strip()).get("words", "?")
        except (OSError, ValueError, UnicodeDecodeError):
            current = False
        return "matrix", words, current
    if name.startswith("book-") and name.endswith(".json"):
        return _json_file(p, "book", BOOK_VERSION)
    if name.startswith("wordfreq-") and name.endswith(".json"):
        return _json_file(p, "list", WORDLIST_VERSION)
    if name.startswith("answer-model-") and name.endswith(".json"):
        return _json_file(p, "model", ANSWER_MODEL_VERSION)  # the answer models serve the NYT sets
    if name.startswith("word-facts-") and name.endswith(".json"):
        return _json_file(p, "model", WORD_FACTS_VERSION)
    if name.startswith("exact-") and name.endswith(".json"):
        return _json_file(p, "rating", RATING_STORE_VERSION)
    return "other", "?", True


def _json_file(p: Path, kind: str, version: int) -> tuple[str, str, bool]:
    """A JSON file that names its word set and format version (books, word lists)."""
    try:
        doc = json.loads(p.read_text())
        return kind, str(doc.get("words", "?")), doc.get("version") == version
    except (OSError, ValueError, AttributeError):  # AttributeError: a JSON list, not an object
        return kind, "?", False


def clear(*, kind: str | None = None, words: str | None = None, folder: Path | None = None) -> list[CacheFile]:
    """Remove the cached files (of one ``kind`` and/or word set only); the files removed."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}")  # the CLI offers KINDS only
    gone = []
    for f in scan(folder):
        if (kind is None or f.kind == kind) and (words is None or f.words == words):
            if _unlink(f.path):
                gone.append(f)
    return gone


def tidy(folder: Path | None = None) -> list[CacheFile]:
    """Remove files of an older format and leftover temporary files."""
    return [f for f in scan(folder) if not f.current and _unlink(f.path)]


def enforce(limit: int | None, *, keep: Path | None = None, folder: Path | None = None) -> list[CacheFile]:
    """Bring the folder under ``limit`` bytes (None: no limit): older-format files first, then the
    least recently used; ``keep`` is never removed."""
    files = scan(folder)
    gone = [f for f in files if not f.current and _unlink(f.path)]
    if limit is None:
        return gone
    files = [f for f in files if f.current and (keep is None or f.path != Path(keep))]
    total = sum(f.size for f in files) + (_size(keep) if keep else 0)
    for f in sorted(files, key=lambda f: f.used):  # least recently used first
        if total <= limit:
            break
        if _unlink(f.path):
            total -= f.size
            gone.append(f)
    return gone


def after_write(path: Path) -> None:
    """Called by the writers of cached files: keep the folder within the user's limit.  Never
    raises (a cache that cannot be tidied must not stop play)."""
    try:
        enforce(limit(), keep=path)
    except (OSError, WordlebotError):
        pass


def touch(path: Path) -> None:
    """Mark a cached file as used now (for the least-recently-used order)."""
    try:
        os.utime(path)
    except OSError:
        pass


# --- the limit ----------------------------------------------------------------------------------


def parse_size(text: str) -> int | None:
    """``500M``, ``2G``, ``750MB``, ``1048576`` -> bytes; ``none`` -> None (no limit)."""
    t = text.strip().upper()
    if t in ("NONE", "OFF", "UNLIMITED"):
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMG]?B?)", t)
    if not m or m.group(2) not in _UNITS:
        raise CacheLimitError(f"{text!r} is not a size; write it like 500M, 2G or none")
    return int(float(m.group(1)) * _UNITS[m.group(2)])


def human(n: int | None) -> str:
    if n is None:
        return "none"
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def limit() -> int | None:
    """The limit in bytes: $WORDLEBOT_CACHE_LIMIT, else the saved one, else DEFAULT_LIMIT."""
    env = os.environ.get(LIMIT_ENV)
    if env:
        return parse_size(env)
    try:
        doc = json.loads((config_dir() / LIMIT_FILE).read_text())
        value = doc["limit"]
        if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
            return value
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return DEFAULT_LIMIT


def set_limit(value: int | None) -> Path:
    """Save the limit (None: no limit); the file it is kept in."""
    from .data import atomic_write_json

    if value is not None and value <= 0:
        raise CacheLimitError("the limit must be a positive size, or none")
    path = config_dir() / LIMIT_FILE
    atomic_write_json(path, {"limit": value})
    return path


def _size(p: Path | None) -> int:
    try:
        return p.stat().st_size if p else 0
    except OSError:
        return 0


def _unlink(p: Path) -> bool:
    try:
        p.unlink()
        return True
    except OSError:  # gone already, or not ours to remove
        return False
