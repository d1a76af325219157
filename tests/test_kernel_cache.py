"""Numba's on-disk kernel cache with several processes saving at once (core/kernel_cache.py)."""

import os
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
    and, worse, leave keys naming another key's data (seen on this machine 2026-12-02, run with
    ``locked=False``: 367 and 356 of 600 keys lost, 136 and 123 naming another's data); with it
    every key loads its own data."""
    loaded = _race(tmp_path, locked=True)
    wrong = {key: got for key, got in loaded.items() if got != key}
    assert not wrong, f"{len(wrong)} of {len(loaded)} entries lost or naming another's data"


def test_a_load_waits_while_a_save_holds_the_lock(tmp_path):
    """A load reads an index and the data file it names together: while a save holds the lock
    (here, this test holding it as a save would), a load waits; then it reads what was saved."""
    import fcntl
    import threading

    from wordlebot.core import kernel_cache

    assert kernel_cache.install()
    from numba.core.caching import IndexDataCacheFile

    cache = IndexDataCacheFile(str(tmp_path), "kernel", ("source stamp", 1))
    cache.save("key", "data")
    got = []
    fd = os.open(tmp_path / kernel_cache.LOCK_NAME, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        reader = threading.Thread(target=lambda: got.append(cache.load("key")))
        reader.start()
        reader.join(0.5)
        assert reader.is_alive() and got == []  # waiting for the lock
    finally:
        os.close(fd)
    reader.join(10)
    assert got == ["data"]


@pytest.mark.parametrize("module", ["core.kernels", "search.kernels", "answers.clogit", "answers.logistic"])
def test_every_module_of_cached_kernels_takes_the_lock_on_import(module):
    """Each module whose kernels are cached installs the lock when it is imported, before any of
    its kernels can be compiled or loaded (a fresh process importing that module alone)."""
    check = (
        f"import wordlebot.{module}\n"
        "from numba.core.caching import IndexDataCacheFile as f\n"
        "assert getattr(f.save, '__wordlebot_locked__', False) and getattr(f.load, '__wordlebot_locked__', False)\n"
    )
    r = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
