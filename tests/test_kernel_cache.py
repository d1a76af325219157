"""Numba's on-disk kernel cache with several processes saving at once (core/kernel_cache.py)."""

import subprocess
import sys
import time

import pytest

pytest.importorskip("fcntl", reason="file locks are POSIX only; elsewhere prepare compiles in one process")

# One process of the race: it says it is ready, waits for the word go, then saves SAVES entries of
# its own into the same cache file as the others, each entry's data being its own key.
SAVER = """
import os, sys, time
from wordlebot.core import kernel_cache
if sys.argv[3] == "locked":
    assert kernel_cache.install()
from numba.core.caching import IndexDataCacheFile

folder, who, saves = sys.argv[1], sys.argv[2], int(sys.argv[4])
cache = IndexDataCacheFile(folder, "kernel", ("source stamp", 1))
open(os.path.join(folder, "ready-" + who), "w").close()
while not os.path.exists(os.path.join(folder, "go")):
    time.sleep(0.001)
for i in range(saves):
    cache.save((who, i), (who, i))
"""


def _race(folder, locked, processes=4, saves=150):
    children = [
        subprocess.Popen(
            [sys.executable, "-c", SAVER, str(folder), f"p{k}", "locked" if locked else "bare", str(saves)]
        )
        for k in range(processes)
    ]
    try:
        deadline = time.monotonic() + 120
        while len(list(folder.glob("ready-*"))) < processes:
            assert time.monotonic() < deadline, "the savers did not start"
            assert all(c.poll() in (None, 0) for c in children), "a saver failed before the race"
            time.sleep(0.01)
        (folder / "go").touch()
        assert [c.wait(timeout=120) for c in children] == [0] * processes
    finally:
        for c in children:
            c.kill()
    from numba.core.caching import IndexDataCacheFile

    cache = IndexDataCacheFile(str(folder), "kernel", ("source stamp", 1))
    # what each key now loads: its own data, another key's (the hazard), or nothing (lost)
    return {(f"p{k}", i): cache.load((f"p{k}", i)) for k in range(processes) for i in range(saves)}


def test_processes_saving_at_once_each_keep_their_own_entries(tmp_path):
    """Without the lock, four processes saving 150 entries each into one cache file lose entries
    and, worse, leave keys naming another key's data (seen on this machine 2026-12-02: 569 of
    600 keys lost or wrong, run with ``locked=False``); with it every key loads its own data."""
    loaded = _race(tmp_path, locked=True)
    wrong = {key: got for key, got in loaded.items() if got != key}
    assert not wrong, f"{len(wrong)} of {len(loaded)} entries lost or naming another's data"


def test_the_kernels_take_the_lock_before_any_is_compiled():
    from numba.core.caching import IndexDataCacheFile

    import wordlebot.core.kernels  # noqa: F401  (installs it on import)

    assert getattr(IndexDataCacheFile.save, "__wordlebot_locked__", False)
    assert getattr(IndexDataCacheFile.load, "__wordlebot_locked__", False)
