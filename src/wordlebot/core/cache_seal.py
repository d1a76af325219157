"""Cache files that say what they are: a JSON cache file carries the key of its inputs (the
lists, the prior or day, the rules, the goal, the format's version: whatever its writer hashes
into its name) and a checksum of its content, both checked when it is read.

A file copied under another file's name, edited by hand, or cut short then fails to load and is
set aside (renamed to a temporary name the cache's tidying sweeps) and rebuilt, with a warning
that says so: a cache file is never trusted blindly and never fatal.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from .errors import CacheError

log = logging.getLogger(__name__)


def _digest(doc: dict[str, Any]) -> str:
    body = {k: v for k, v in doc.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()


def seal(doc: dict[str, Any], key: str) -> dict[str, Any]:
    """``doc`` with the ``key`` of its inputs and a checksum of the whole."""
    out = dict(doc, key=key)
    out["checksum"] = _digest(out)
    return out


def unseal(doc: object, key: str) -> dict[str, Any]:
    """``doc`` when it is a JSON object sealed for ``key`` whose checksum holds; else CacheError."""
    if not isinstance(doc, dict):
        raise CacheError(f"holds a JSON {type(doc).__name__}, not an object")
    if doc.get("key") != key:
        raise CacheError("was made for other inputs (its key is not this file's)")
    if doc.get("checksum") != _digest(doc):
        raise CacheError("its checksum does not match its content")
    return doc


def read_sealed(path: Path, key: str) -> dict[str, Any] | None:
    """The sealed document at ``path``, None when there is none; CacheError when it is unusable."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CacheError("is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CacheError(f"cannot be read ({exc})") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise CacheError(f"is not JSON ({exc})") from None
    return unseal(doc, key)


def set_aside(path: Path, what: str, reason: object) -> None:
    """Say that the cache file ``path`` (``what``: "opening book", …) is unusable and why, and move
    it out of the way under a temporary name (the cache's tidying removes it later), so it is
    rebuilt; where it cannot be moved (a read-only cache) it is only not used."""
    aside = path.with_name(f".{path.name}.bad.part")
    try:
        path.replace(aside)
        moved = f"; set aside as {aside.name}"
    except OSError:
        moved = ""
    log.warning("the %s %s is unusable: it %s%s; it is made again", what, path, reason, moved)
