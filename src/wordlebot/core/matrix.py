"""The pattern matrix: ``M[g, a]`` = pattern of guess ``g`` against answer ``a``, built once by a
Numba kernel and kept in a disk cache that is memory-mapped on load.

Cache file: a 4,096-byte header (magic, then JSON: format version, dtype, shape, the two lists'
sha256, payload checksum) followed by the raw C-order payload padded to 8 bytes.  A file whose
size, header or checksum is wrong is reported and rebuilt.  Files are written to a temporary name
in the same folder and renamed into place, so two processes building at once each publish a
complete file and a reader never sees a half-written one.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import numba
import numpy as np

from . import kernels
from .cache_formats import MATRIX_FORMAT_VERSION, MATRIX_HEADER_BYTES, MATRIX_MAGIC
from .data import atomic_write_parts
from .errors import CacheError
from .pages import small_pages
from .paths import cache_dir as default_cache_dir
from .words import Lexicon, encode, list_fingerprint

log = logging.getLogger(__name__)

FORMAT_VERSION = MATRIX_FORMAT_VERSION
MAGIC = MATRIX_MAGIC
HEADER_BYTES = MATRIX_HEADER_BYTES
LAYOUTS = {False: "guesses x answers", True: "answers x guesses"}

_memo: dict[tuple[str, str, bool], np.ndarray] = {}
_builders: dict[tuple[str, str, bool], threading.Lock] = {}
_prefetching: set[threading.Event] = set()  # the stop signals of the prefetches under way
_memo_lock = threading.Lock()


def pattern_dtype(length: int) -> np.dtype:
    """Smallest unsigned type that holds every pattern of ``length`` letters."""
    n = 3**length
    if n <= 1 << 8:
        return np.dtype(np.uint8)
    if n <= 1 << 16:
        return np.dtype(np.uint16)
    return np.dtype(np.uint32)


def read_only(m: np.ndarray) -> np.ndarray:
    """``m`` itself when it is read-only, else a read-only view of it (no copy).

    Numba compiles a kernel once for each type of argument it is given, and a writable array is
    another type than a read-only one.  The library's own matrices are read-only (see
    ``pattern_matrix``): that is what ``prepare --kernels`` compiles for.  A caller's own matrix
    (sliced from a bigger one, as the backtest does, built by hand, or unpickled) would otherwise
    have every search kernel compiled a second time, about two minutes at its first search.  The
    entry points that take a caller's matrix (TreeSearch, Advisor, Game, partition_stats, the
    multi-board suggest, simulate and doomed_share) pass it through here."""
    if not m.flags.writeable:
        return m
    view = m.view()
    view.flags.writeable = False
    return view


def build_matrix(guesses: list[str] | tuple[str, ...], answers: list[str] | tuple[str, ...]) -> np.ndarray:
    """Pattern matrix of two word lists (checked twin of ``kernels._pattern_matrix``), read-only
    (the type the kernels are compiled for: see ``read_only``)."""
    if not guesses or not answers:
        raise ValueError("both word lists must be non-empty")
    length = len(guesses[0])
    if any(len(w) != length for w in guesses) or any(len(w) != length for w in answers):
        raise ValueError("all words must have the same length")
    g = encode(guesses)
    a = encode(answers)
    if g.max(initial=0) > 25 or a.max(initial=0) > 25:
        raise ValueError("words must be lower-case a-z")
    return read_only(build_from_codes(g, a))


def build_from_codes(guess_codes: np.ndarray, answer_codes: np.ndarray) -> np.ndarray:
    length = guess_codes.shape[1]
    out = np.empty((guess_codes.shape[0], answer_codes.shape[0]), pattern_dtype(length))
    kernels._pattern_matrix(np.ascontiguousarray(guess_codes), np.ascontiguousarray(answer_codes.T), out)
    return out


def checksum(payload: np.ndarray) -> str:
    """Hex checksum of an array's bytes (see ``kernels._checksum64``); reads a memory map without
    copying it."""
    flat = np.ascontiguousarray(payload).reshape(-1).view(np.uint8)
    n8 = flat.size - flat.size % 8
    nchunks = 64
    parts = np.zeros(nchunks, np.uint64)
    if n8:
        kernels._checksum64(flat[:n8].view(np.uint64), nchunks, parts)
    # Combine the chunk hashes and the tail bytes in order, in Python: a few dozen values.
    h = 0
    for v in parts.tolist() + [int.from_bytes(flat[n8:].tobytes(), "little")]:
        h = ((h ^ v) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}-{flat.size}"


def cache_path(lexicon: Lexicon, folder: Path | None = None, transposed: bool = False) -> Path:
    folder = Path(folder) if folder is not None else default_cache_dir()
    tag = "-T" if transposed else ""
    return folder / f"matrix-{lexicon.fingerprint[:20]}{tag}-v{FORMAT_VERSION}.bin"


def pattern_matrix(
    lexicon: Lexicon, *, cache: bool = True, folder: Path | None = None, transposed: bool = False
) -> np.ndarray:
    """The lexicon's guesses x answers pattern matrix (answers x guesses with ``transposed``):
    from memory, the disk cache, or built.  Read-only.  With ``cache=False`` nothing is written.

    Thread-safe: one thread builds a matrix while the others asking for it wait for it (not for
    its file: the array is handed out as soon as it exists, and the builder then writes it).
    """
    m, unsaved = _obtain(lexicon, cache, folder, transposed)
    if unsaved is not None:
        _save(unsaved, m, lexicon, transposed)
    return m


def _obtain(lexicon: Lexicon, cache: bool, folder: Path | None, transposed: bool) -> tuple[np.ndarray, Path | None]:
    """The matrix, and the cache file it is still to be written to (None: nothing to write)."""
    key = (lexicon.fingerprint, str(folder) if cache else "-", transposed)
    with _memo_lock:
        hit = _memo.get(key)
    if hit is not None:
        return hit, None
    if transposed:
        base = pattern_matrix(lexicon, cache=cache, folder=folder)
    with _builder(key):
        with _memo_lock:
            hit = _memo.get(key)
        if hit is not None:
            return hit, None
        path = cache_path(lexicon, folder, transposed) if cache else None
        m = load_cached(path, lexicon, transposed) if path is not None else None
        built = m is None
        if built:
            with small_pages():  # a steady first touch (see pages.py)
                if transposed:
                    m = np.empty((base.shape[1], base.shape[0]), base.dtype)
                    kernels._transpose(np.asarray(base), m)
                else:
                    m = build_from_codes(lexicon.guess_codes, lexicon.answer_codes)
        assert m is not None
        m.setflags(write=False)
        with _memo_lock:
            _memo[key] = m
    return m, path if built and cache else None


def _save(path: Path, m: np.ndarray, lexicon: Lexicon, transposed: bool) -> None:
    try:
        write_cache(path, m, lexicon, transposed)
    except CacheError as exc:
        log.warning("%s; working without a disk cache", exc)


def _builder(key: tuple[str, str, bool]) -> threading.Lock:
    """The lock of one matrix's builder (a lock per matrix: building one never waits for another)."""
    with _memo_lock:
        return _builders.setdefault(key, threading.Lock())


def prefetch(lexicon: Lexicon, *, folder: Path | None = None) -> threading.Thread | None:
    """Start loading or building the lexicon's matrices (both layouts) on a background thread,
    and writing their cache files, while the caller does other work: the nyt set's prior takes
    seconds to compute, and its matrices (2 x 220 MB) do not depend on it.  ``pattern_matrix``
    then waits for an array still being built.  The thread is not a daemon: a process waits for
    its files to be written before it exits, so none is left half-written.

    Nothing is started (None) when both are in memory or in the cache folder already, or where
    Numba's parallel kernels cannot run from two threads at once (its fallback threading layer)."""
    keys = [(lexicon.fingerprint, str(folder), t) for t in (False, True)]
    with _memo_lock:
        if all(k in _memo for k in keys):
            return None
    if all(cache_path(lexicon, folder, t).exists() for t in (False, True)):
        return None  # loading them takes tens of ms, on both cores when the caller asks
    if not kernels.parallel_threadsafe():
        return None

    stop = threading.Event()

    def work() -> None:
        # One core: the caller's work (the model's training) keeps the other.  Numba's thread
        # count is per calling thread, so the caller's own kernels still use both.
        numba.set_num_threads(1)
        try:
            # both arrays first (the caller waits for them), then their files; each step only
            # if nobody called the work off (a step is half a second at most)
            made = []
            for t in (False, True):
                if stop.is_set():
                    return
                made.append((t, *_obtain(lexicon, True, folder, t)))
            for t, m, unsaved in made:
                if unsaved is not None and not stop.is_set():
                    _save(unsaved, m, lexicon, t)
        except Exception as exc:  # the caller's own request builds it again and reports
            log.debug("prefetching the pattern matrices failed: %s", exc)
        finally:
            with _memo_lock:
                _prefetching.discard(stop)

    with _memo_lock:
        _prefetching.add(stop)
    thread = threading.Thread(target=work, name="wordlebot-matrix-prefetch")
    thread.start()
    return thread


def cancel_prefetches() -> None:
    """Call off the work of every prefetch under way after its current step (Ctrl-C: the
    process should end now, not after two matrices are built and written).  A file is written
    whole or not at all, so nothing is left half-written."""
    with _memo_lock:
        for stop in _prefetching:
            stop.set()


def transposed(lexicon: Lexicon, **kwargs: Any) -> np.ndarray:
    """answers x guesses: one answer's patterns against every guess, contiguous."""
    return pattern_matrix(lexicon, transposed=True, **kwargs)


def clear_memory_cache() -> None:
    with _memo_lock:
        _memo.clear()


def _header(m: np.ndarray, lexicon: Lexicon, digest: str, transposed: bool) -> bytes:
    meta = {
        "version": FORMAT_VERSION,
        "layout": LAYOUTS[transposed],
        "dtype": m.dtype.name,
        "shape": list(m.shape),
        "guesses_sha256": list_fingerprint(lexicon.guesses),
        "answers_sha256": list_fingerprint(lexicon.answers),
        "checksum": digest,
        "words": lexicon.name,  # for `wordlebot cache` (not checked: the fingerprints are)
    }
    raw = MAGIC + json.dumps(meta).encode()
    if len(raw) > HEADER_BYTES:
        raise CacheError("matrix cache header too large")  # cannot happen with the fields above
    return raw.ljust(HEADER_BYTES, b" ")


def write_cache(path: Path, m: np.ndarray, lexicon: Lexicon, transposed: bool = False) -> None:
    """Write atomically: temp file in the same folder, then rename.

    No fsync: the header's checksum is verified at every load, so a file the system lost part
    of in a crash is found, reported and rebuilt, never used; and syncing the two nyt matrices
    (440 MB) cost 1.1-1.4 s of a first suggestion."""
    digest = checksum(m)
    header = _header(m, lexicon, digest, transposed)
    payload = np.ascontiguousarray(m).reshape(-1).view(np.uint8)
    pad = (-payload.size) % 8
    atomic_write_parts(
        path, (header, payload.data, b"\0" * pad), sync=False, what="the matrix cache ", error=CacheError
    )
    from . import cache_store

    cache_store.after_write(path)


def load_cached(path: Path, lexicon: Lexicon, transposed: bool = False) -> np.ndarray | None:
    """The cached matrix, memory-mapped, or None when absent.  A broken file is reported (it is
    replaced by the caller's rebuild); it never produces a wrong matrix."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("cannot read the matrix cache %s (%s); rebuilding", path, exc.strerror)
        return None
    try:
        m = _load_checked(path, size, lexicon, transposed)
    except (CacheError, OSError) as exc:  # (OSError: a folder where the file should be, …)
        from .cache_seal import set_aside

        # set aside, so that the rebuild can be written where it was (a folder is not replaced)
        set_aside(path, "matrix cache", exc.strerror if isinstance(exc, OSError) else exc)
        return None
    from . import cache_store

    cache_store.touch(path)  # most recently used: the last the size limit removes
    return m


def _load_checked(path: Path, size: int, lexicon: Lexicon, transposed: bool) -> np.ndarray:
    if size < HEADER_BYTES:
        raise CacheError(f"truncated: {size} bytes, shorter than its header")
    with open(path, "rb") as f:
        head = f.read(HEADER_BYTES)
    if not head.startswith(MAGIC):
        raise CacheError("not a wordlebot matrix file")
    try:
        meta = json.loads(head[len(MAGIC) :].decode().strip())
        dtype = np.dtype(meta["dtype"])
        shape = tuple(int(x) for x in meta["shape"])
        version = meta["version"]
        digest = meta["checksum"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise CacheError("header is corrupt") from None
    if version != FORMAT_VERSION:
        raise CacheError(f"format version {version}, expected {FORMAT_VERSION}")
    expected_shape = (lexicon.n_guesses, lexicon.n_answers)
    if transposed:
        expected_shape = expected_shape[::-1]
    if (
        meta.get("layout") != LAYOUTS[transposed]
        or shape != expected_shape
        or dtype != pattern_dtype(lexicon.length)
        or meta.get("guesses_sha256") != list_fingerprint(lexicon.guesses)
        or meta.get("answers_sha256") != list_fingerprint(lexicon.answers)
    ):
        raise CacheError("made for other word lists")
    nbytes = shape[0] * shape[1] * dtype.itemsize
    if size != HEADER_BYTES + nbytes + (-nbytes) % 8:
        raise CacheError(f"truncated or padded: {size} bytes, expected {HEADER_BYTES + nbytes + (-nbytes) % 8}")
    m = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_BYTES, shape=shape)
    if checksum(m) != digest:
        raise CacheError("checksum mismatch (the file is damaged)")
    return m
