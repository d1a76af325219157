"""Memory pages for big arrays: numpy advises the kernel to back every large allocation with
transparent huge pages (2 MB).  Where the system grants them on request ("madvise"), a first
touch may wait for the kernel to find and zero a 2 MB page: a fresh search table's first
searches ran 3x slower, and building the nyt pattern matrix and its transpose (2 x 220 MB) took
0.25-1.1 s instead of a steady 0.21-0.28 s (measured in fresh processes, in turn).  Arrays made
inside ``small_pages()`` get ordinary 4 KB pages, as the memory-mapped cache files have anyway.

numpy's advice is one switch for the whole process, so the context counts its users: the switch
stays off while any thread is inside, and is put back by the last one out."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

_set_madvise_hugepage: Callable[[bool], bool] | None
try:
    from numpy._core.multiarray import _set_madvise_hugepage  # type: ignore[attr-defined,no-redef]
except ImportError:  # numpy < 2
    try:
        from numpy.core.multiarray import _set_madvise_hugepage  # type: ignore[no-redef]
    except ImportError:
        _set_madvise_hugepage = None

_lock = threading.Lock()
_users = 0
_saved = True


@contextlib.contextmanager
def small_pages() -> Iterator[None]:
    """Allocate big arrays with 4 KB pages inside this block (any thread's)."""
    global _users, _saved
    if _set_madvise_hugepage is None:
        yield
        return
    with _lock:
        if _users == 0:
            _saved = _set_madvise_hugepage(False)
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0:
                _set_madvise_hugepage(_saved)
