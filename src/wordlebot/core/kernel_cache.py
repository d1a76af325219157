"""Numba's on-disk kernel cache, made safe for two processes compiling at once.

Numba keeps a kernel's compiled specialisations as numbered data files beside an index file that
maps each signature to its file.  Saving one reads the index, takes the first number the index
does not use, writes the index, then the data file, with no lock (read in numba 0.68.1's
``caching.py``; its open issue 4807, "Cache causes Segmentation Faults when generated in
parallel", is this family of races).  Two processes compiling two specialisations of one kernel
at once can take the same number: the index that wins then names the other process's machine
code for its signature, and a later run calls code compiled for other argument types (a crash, or
wrong values).  It happens wherever two wordlebot processes compile at once: ``prepare --kernels``
compiling its 5- and 6-letter halves side by side, the test suite's two workers after a kernel
changed, two games started on a fresh install.

``install`` wraps the cache file's ``save`` in an exclusive ``flock`` and its ``load`` in a
shared one, on one lock file in the cache folder, so an index and the data file it names are
always written together and read together.  Where locks do not exist (no ``fcntl``) or Numba's
cache class has changed shape, nothing is wrapped and ``install`` says so; ``prepare`` then
compiles in one process, as before.  Left as Numba has it: a process killed between writing the
index and the data (a window of milliseconds) leaves the index naming a missing file (compiled
again) or an older source's file of that number, as any crash there always could.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from typing import Any

LOCK_NAME = "wordlebot-kernels.lock"

_installed: bool | None = None


@contextlib.contextmanager
def _locked(folder: str, exclusive: bool) -> Iterator[None]:
    import fcntl

    path = os.path.join(folder, LOCK_NAME)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        try:  # another user's lock file: a lock needs only a descriptor, not write access
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            # a folder Numba can read but not write: Numba saves nothing there either, so there
            # is nothing to keep apart
            yield
            return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        except OSError:
            pass  # a file system without locks (some network mounts): unlocked, as Numba has it
        yield
    finally:
        os.close(fd)  # closing the file releases the lock


def _wrap(method: Callable[..., Any], exclusive: bool) -> Callable[..., Any]:
    @functools.wraps(method)
    def locked(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _locked(self._cache_path, exclusive):
            return method(self, *args, **kwargs)

    locked.__wordlebot_locked__ = True  # type: ignore[attr-defined]
    return locked


def install() -> bool:
    """Lock Numba's cache files for this process (once; later calls return the first answer):
    True if saving and loading a cached kernel now hold the lock."""
    global _installed
    if _installed is None:
        try:
            _installed = _install()
        except Exception:  # whatever Numba has become, the lock must never stop the kernels loading
            _installed = False
    return _installed


def _install() -> bool:
    try:
        import fcntl  # noqa: F401  (POSIX only)

        from numba.core.caching import IndexDataCacheFile
    except ImportError:
        return False
    cls: Any = IndexDataCacheFile
    if not all(callable(getattr(cls, name, None)) for name in ("save", "load")):
        return False
    if getattr(cls.save, "__wordlebot_locked__", False):
        return True
    # the folder is read from the instance: Numba's own __init__ must still set it
    names = getattr(getattr(cls.__init__, "__code__", None), "co_names", ())
    if "_cache_path" not in names:
        return False
    cls.save = _wrap(cls.save, exclusive=True)
    cls.load = _wrap(cls.load, exclusive=False)
    return True
