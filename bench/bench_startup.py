r"""Start-up time of the light commands: each one in a new process, median of 5 (target <= 0.5 s,
issue 11).  The commands that do no search must not pay for Numba, numpy, Textual or FastAPI.

    python bench/bench_startup.py [--repeat 5] [--src OTHER_CHECKOUT/src]

``--src`` times another checkout (put first on PYTHONPATH), e.g. the code before a change:

    git worktree add /tmp/before HEAD && python bench/bench_startup.py --src /tmp/before/src

Install size (not measured here: it installs).  The core install and the full one, each in a
throwaway venv from a copy of the checkout (pip builds in the source folder, leaving build/ there),
site-packages as ``du`` counts it (pip and setuptools included, ~21 MB):

    mkdir -p /tmp/sz/src
    tar -C /work/main --exclude=.venv --exclude=.git --exclude=__pycache__ --exclude='*.egg-info' --exclude=build \
        -cf - . | tar -xf - -C /tmp/sz/src
    python3.11 -m venv /tmp/sz/v-core && /tmp/sz/v-core/bin/pip install -q /tmp/sz/src
    du -sh /tmp/sz/v-core/lib/python3.11/site-packages
    python3.11 -m venv /tmp/sz/v-all && /tmp/sz/v-all/bin/pip install -q '/tmp/sz/src[all]'
    du -sh /tmp/sz/v-all/lib/python3.11/site-packages

Measured (issue 11, Python 3.11, 2 CPUs): before the answer model's own solver, core 611 MB, 27
distributions in pip list (llvmlite 173, scipy 143 with its libraries, numpy 73, wordfreq 58,
scikit-learn 51, numba 35); [all] 944 MB, 72 distributions: the install before the extras.  With
answers/logistic.py (no scipy, no scikit-learn): core 411 MB, 21 distributions (pip 17 and
setuptools 7 included; llvmlite 173, numpy 73, wordfreq 58, numba 35, english-words 17, pygments 10).
In the core install, where numba finds no scipy to load, start-up: --help 0.15 s, feedback 0.16 s,
data status 0.17 s, import wordlebot 0.04 s; a warm classic suggestion 0.65-0.68 s (0.87-0.98 s
in the full development install).  Start-up before / after: --help 0.56 / 0.21 s, feedback 0.58 /
0.22 s, data status 0.71 / 0.23 s, import wordlebot 0.57 / 0.05 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, data_dir, report

TARGET = 0.5
COMMANDS = {
    "wordlebot --help": ["-m", "wordlebot", "--help"],
    "wordlebot feedback salet crane": ["-m", "wordlebot", "feedback", "salet", "crane"],
    "wordlebot data status": ["-m", "wordlebot", "data", "status"],
    'python -c "import wordlebot"': ["-c", "import wordlebot"],
}


def timed(argv: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed:\n{r.stderr.decode()}")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="Runs per command (the median is shown).")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="The checkout's src folder to time.")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(args.src.resolve()), WORDLEBOT_DATA=str(data_dir()))
    where = subprocess.run(
        [sys.executable, "-c", "import importlib.util as u; print(u.find_spec('wordlebot').origin)"],
        env=env,
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"timing {where} ({os.cpu_count()} CPUs); median of {args.repeat}, a new process each", flush=True)
    timed(COMMANDS["wordlebot feedback salet crane"], env)  # a warm-up: byte-code compiled, files cached
    for name, argv in COMMANDS.items():
        runs = [timed(argv, env) for _ in range(args.repeat)]
        report(f"start-up: {name}", statistics.median(runs), "s", TARGET)


if __name__ == "__main__":
    main()
