"""Run every benchmark script in turn (make bench)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = [
    "bench_startup.py",
    "bench_matrix.py",
    "bench_greedy.py",
    "bench_search.py",
    "bench_peer.py",
    "bench_answers.py",
    "bench_web.py",
    "bench_first_use.py",
    "bench_multi_exact.py",
]

if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    only = sys.argv[1:]
    for name in SCRIPTS:
        if only and not any(o in name for o in only):
            continue
        print(f"== {name}", flush=True)
        sys.argv = [str(HERE / name)]  # each script with its defaults (the arguments here pick scripts)
        runpy.run_path(str(HERE / name), run_name="__main__")
