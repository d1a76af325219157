r"""First use (issue 11 "fast first use"): the time to a suggestion when nothing is cached yet.
Each figure is a new process, ``python -m wordlebot suggest ...`` with $WORDLEBOT_CACHE pointing
at a fresh empty folder (the matrices, opening books and answer models are kept there), median of
--repeat runs, each with its own fresh folder.  The Numba kernels are compiled first (the Numba
cache in the source tree's __pycache__ is warm): every command is run once, untimed, before the
figures.  The nyt set's prior depends on the day: nyt runs pass ``--date 2026-05-20``.

    python bench/bench_first_use.py [--repeat 3] [--src OTHER_CHECKOUT/src] [--no-compile] [--only SUBSTRING]

``--src`` times another checkout (put first on PYTHONPATH), e.g. the code before a change:

    git worktree add /tmp/before HEAD && python bench/bench_first_use.py --src /tmp/before/src

The figures (targets from the issue):

* first suggestion, empty cache: classic, nyt (<= 4 s); classic --hard, nyt --hard, --length 4,
  --length 6 (the wordfreq lists) (<= 10 s);
* the move after one row (``--history salet:00000``, 221 classic answers left): in the cache the
  first suggestion left (the usual flow), and on an empty cache; classic and nyt (<= 4 s).  On
  classic, salet is the book's opener, so the reply comes from the opening book (searched to the
  end the first time a game reaches it, then kept in the book); the nyt book holds the first move
  only, so its reply is searched in play;
* warm: the first suggestion and the move after one row again, in a cache that has everything
  (<= 1 s);
* cold compile: a warm $WORDLEBOT_CACHE but an empty Numba cache ($NUMBA_CACHE_DIR set to a fresh
  folder: Numba then neither finds nor writes __pycache__; the kernels it writes there are
  counted), and the compile share (cold compile minus warm): the classic first suggestion (it
  reads the book: three small kernels) and the nyt move after salet:00000 (searched in play: the
  search kernels).  Once only (slow); ``--no-compile`` skips it.

``--only SUBSTRING`` runs the figures whose name contains it (``--only classic``, ``--only warm``).

Measured (issue 11, Python 3.11, 2 CPUs), before (fb63c4c, machine busy: shared with other work,
load average 3.8 at the start, 4.0 at the end), median of 3: first suggestion, empty cache:
classic 24.4 s, nyt 23.5 s, classic --hard 12.6 s, nyt --hard 19.5 s, --length 4 66.7 s, --length
6 24.1 s; after salet:00000 in the first move's cache: classic 2.0 s, nyt 2.5 s; on an empty cache:
classic 25.0 s, nyt 21.9 s; warm: first suggestion classic 2.2 s, nyt 2.3 s, classic --hard 1.7 s,
nyt --hard 2.0 s, --length 4 3.3 s, --length 6 3.8 s, after salet:00000 classic 2.2 s, nyt 2.8 s;
cold compile (once): classic first suggestion 11.4 s (compile 9.2 s, 3 kernels), nyt after
salet:00000 55.9 s (compile 53.1 s, 20 kernels).  The warm-up (every command once) took 244 s.

After (issue 11, 2026-11-23; the machine shared, its hypervisor stealing up to 40 % of the CPU),
median of 3: first suggestion, empty cache: classic 7.8-9.0 s, nyt 10.0-10.6 s, classic --hard 4.5
s, nyt --hard 9.7-11.0 s, --length 4 2.9 s (21.8 s before its first move was booked one guess
ahead), --length 6 3.9 s; after salet:00000 in the first move's cache: classic 1.6 s, nyt 1.6 s; on
an empty cache: classic 8.0-8.8 s, nyt 9.4-9.9 s; warm (this development install, where Numba loads
scipy): classic 1.2-1.4 s, nyt 1.4-1.5 s, --length 4 0.9 s once its lists were cached (2.5 s
before); in the core install (no scipy) a warm classic suggestion takes 0.65-0.68 s.  Set-up
compile (`wordlebot prepare --kernels`, empty Numba cache) 70 s on a clean clone (104 s with the
CPU stolen), after which the first moves compiled 0 kernels (62 at set-up).  Side by side, a new
process each, before/after in turn, 5 pairs: classic first suggestion 12.7 -> 9.6 s (ratio 0.76,
CPU 17.4 -> 14.9 s), nyt 17.8 -> 10.1 s (ratio 0.57, CPU 17.3 -> 12.0 s, peak memory 778 -> 723
MiB); then big nodes' scans read guess by guess: nyt 10.0 -> 8.4 s (ratio 0.85, 5 pairs).

After the search rework (issue 13, 2026-11-23): classic 3.1 s, nyt 6.7 s, the move after
salet:00000 on an empty cache classic 3.7 s, nyt 5.9 s.

Then (2026-11-24) the nyt matrices built on a second thread while the answer model trains
(``matrix.prefetch``), on 4 KB pages: side by side with the code before, a new process each, in
turn (7 and 5 pairs), nyt first suggestion 5.12 -> 3.89 s (ratio 0.73; CPU 6.3 -> 5.7 s), the
move after salet:00000 on an empty cache 5.30 -> 4.10 s (ratio 0.79).  This script, a quiet
machine, median of 3: first suggestion, empty cache: classic 2.87 s, nyt 3.71 s, classic --hard
2.16 s, nyt --hard 3.70 s, --length 4 1.80 s, --length 6 2.42 s; after salet:00000 in the first
move's cache: classic 1.05 s, nyt 1.05 s; on an empty cache: classic 2.89 s, nyt 3.39 s; warm:
classic 0.91 s, nyt 0.97 s, after salet:00000 classic 0.86 s, nyt 1.09 s (in this development
install Numba's start imports SciPy, 0.17 s a process, which the core install does not have).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, data_dir, report

DATE = "2026-05-20"  # the nyt prior is the one of this morning, so that runs are comparable
ROW = "salet:00000"  # the move after one row: salet, all grey (a sizeable node)
TARGET_FIRST = 4.0  # classic and nyt: the opening move and the move after one row
TARGET_OTHER = 10.0  # other lengths and hard mode
TARGET_WARM = 1.0
# (name, suggest arguments, target of the first suggestion, also time the move after one row)
SETS = [
    ("classic", ["--words", "classic"], TARGET_FIRST, True),
    ("nyt", ["--words", "nyt", "--date", DATE], TARGET_FIRST, True),
    ("classic --hard", ["--words", "classic", "--hard"], TARGET_OTHER, False),
    ("nyt --hard", ["--words", "nyt", "--date", DATE, "--hard"], TARGET_OTHER, False),
    ("--length 4", ["--length", "4"], TARGET_OTHER, False),
    ("--length 6", ["--length", "6"], TARGET_OTHER, False),
]
# Cold compile: (set, its command: the first suggestion or the move after one row).  The classic
# first move reads the book (three small kernels); the nyt reply is searched (the search kernels).
COLD = {"classic": "first", "nyt": "row"}


def names(label: str) -> dict[str, str]:
    return {
        "first": f"first suggestion, empty cache: {label}",
        "row": f"after {ROW}, first move's cache: {label}",
        "row_empty": f"after {ROW}, empty cache: {label}",
        "warm": f"warm: first suggestion: {label}",
        "warm_row": f"warm: after {ROW}: {label}",
        "cold": f"cold compile: {label}" + (f" after {ROW}" if COLD.get(label) == "row" else ""),
        "share": f"compile share: {label}" + (f" after {ROW}" if COLD.get(label) == "row" else ""),
    }


def timed(args: list[str], env: dict, cache: str, **extra: str) -> float:
    argv = [sys.executable, "-m", "wordlebot", "suggest", *args]
    t0 = time.perf_counter()
    r = subprocess.run(
        argv, env=dict(env, WORDLEBOT_CACHE=cache, **extra), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    seconds = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(argv[1:])} failed (exit {r.returncode}):\n{r.stderr.decode()}")
    return seconds


def setup_compile(env: dict, fresh) -> None:
    """`wordlebot prepare --kernels` on an empty Numba cache (what `make` runs when it sets up),
    then the classic first move and the nyt move after a row on that cache: no kernel should be
    left to compile at first use.  Skipped for a checkout without the command."""
    numba_dir = fresh()
    env = dict(env, NUMBA_CACHE_DIR=numba_dir, WORDLEBOT_CACHE=fresh())
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "wordlebot", "prepare", "--kernels"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if r.returncode != 0:
        print(f"  (no set-up compile: {r.stderr.decode().strip().splitlines()[-1]})", flush=True)
        return
    report("set-up compile: wordlebot prepare --kernels, empty Numba cache", time.perf_counter() - t0, "s")
    before = sum(1 for _ in Path(numba_dir).rglob("*.nbc"))
    for args in (["--words", "classic"], ["--words", "nyt", "--date", DATE, "--history", ROW]):
        timed(args, env, fresh(), NUMBA_CACHE_DIR=numba_dir)
    after = sum(1 for _ in Path(numba_dir).rglob("*.nbc"))
    print(
        f"  then the classic first move and the nyt move after {ROW}: {after - before} kernels compiled "
        f"at first use ({before} at set-up)",
        flush=True,
    )


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--repeat", type=int, default=3, help="Runs per figure, each with a fresh cache (the median is shown)."
    )
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="The checkout's src folder to time.")
    ap.add_argument("--no-compile", action="store_true", help="Skip the cold-compile figures (slow).")
    ap.add_argument("--only", default="", help="Run the figures whose name contains this.")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(args.src.resolve()), WORDLEBOT_DATA=str(data_dir()))
    env.pop("WORDLEBOT_CACHE", None)
    env.pop("NUMBA_CACHE_DIR", None)
    where = subprocess.run(
        [sys.executable, "-c", "import importlib.util as u; print(u.find_spec('wordlebot').origin)"],
        env=env,
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"timing {where} ({os.cpu_count()} CPUs, {load()}); median of {args.repeat}, a new process each", flush=True)

    def wanted(label: str, key: str) -> bool:
        return args.only in names(label)[key]

    plan = []  # (label, argv, target, keys wanted)
    for label, argv, target, row in SETS:
        keys = {
            k
            for k in (("first", "row", "row_empty", "warm", "warm_row") if row else ("first", "warm"))
            if wanted(label, k)
        }
        if label in COLD and not args.no_compile and (wanted(label, "cold") or wanted(label, "share")):
            keys |= {"cold", "share"}
        if keys:
            plan.append((label, argv, target, keys))
    if not plan:
        sys.exit(f"no figure matches --only {args.only!r}")

    results: dict[str, tuple[float, str, float | None]] = {}  # name -> (value, unit, target)
    with tempfile.TemporaryDirectory(prefix="bench-first-use-") as tmp:
        serial = iter(range(1_000_000))

        def fresh() -> str:
            d = Path(tmp) / f"c{next(serial)}"
            d.mkdir()
            return str(d)

        # Warm-up: every command once (building from an empty cache, then the move after a row in
        # the same cache), untimed, so that the Numba kernels the figures use are compiled.
        t0 = time.perf_counter()
        for label, argv, _, keys in plan:
            cache = fresh()
            timed(argv, env, cache)
            if keys & {"row", "row_empty", "warm_row"} or COLD.get(label) == "row" and "cold" in keys:
                timed([*argv, "--history", ROW], env, cache)
        print(f"warm-up (kernels compiled, every command once): {time.perf_counter() - t0:.1f} s", flush=True)

        runs: dict[str, list[float]] = {}
        warm_cache: dict[str, str] = {}
        for _ in range(args.repeat):
            for label, argv, target, keys in plan:
                n = names(label)
                if keys & {"first", "row", "warm", "warm_row", "cold", "share"}:
                    cache = warm_cache[label] = fresh()
                    runs.setdefault(n["first"], []).append(timed(argv, env, cache))
                    if keys & {"row", "warm_row"} or COLD.get(label) == "row" and "cold" in keys:
                        runs.setdefault(n["row"], []).append(timed([*argv, "--history", ROW], env, cache))
                    runs.setdefault(n["warm"], []).append(timed(argv, env, cache))
                    if "warm_row" in keys or COLD.get(label) == "row" and "cold" in keys:
                        runs.setdefault(n["warm_row"], []).append(timed([*argv, "--history", ROW], env, cache))
                if "row_empty" in keys:
                    runs.setdefault(n["row_empty"], []).append(timed([*argv, "--history", ROW], env, fresh()))
        for label, argv, target, keys in plan:
            n = names(label)
            figures = [
                ("first", target),
                ("row", TARGET_FIRST),
                ("row_empty", TARGET_FIRST),
                ("warm", TARGET_WARM),
                ("warm_row", TARGET_WARM),
            ]
            for key, tgt in figures:
                if key in keys:
                    results[n[key]] = (statistics.median(runs[n[key]]), "s", tgt)
                    report(n[key], *results[n[key]])

        for label, argv, target, keys in plan:
            if "cold" not in keys:
                continue
            n = names(label)
            numba_dir = fresh()
            row = COLD[label] == "row"
            cold = timed([*argv, "--history", ROW] if row else argv, env, warm_cache[label], NUMBA_CACHE_DIR=numba_dir)
            written = sum(1 for p in Path(numba_dir).rglob("*.nbi"))
            warm = statistics.median(runs[n["warm_row" if row else "warm"]])
            results[n["cold"]] = (cold, "s", None)
            results[n["share"]] = (cold - warm, "s", None)
            report(n["cold"], cold, "s")
            report(n["share"], cold - warm, "s")
            print(
                f"  (the empty Numba cache got {written} kernels: {'recompiled' if written else 'NOT recompiled?'})",
                flush=True,
            )

        if not args.no_compile and args.only in "set-up compile":
            setup_compile(env, fresh)

    print(
        f"\nsummary (median of {args.repeat}, {load()}; targets: first suggestion and the move after a row "
        f"{TARGET_FIRST:g} s for classic and nyt, {TARGET_OTHER:g} s otherwise; warm {TARGET_WARM:g} s)"
    )
    cols = [
        ("first", "first"),
        ("row", "row, 1st cache"),
        ("row_empty", "row, empty"),
        ("warm", "warm"),
        ("warm_row", "warm row"),
        ("cold", "cold compile"),
        ("share", "compile"),
    ]
    print(f"{'':<16}" + "".join(f"{title:>16}" for _, title in cols))
    for label, *_ in plan:
        n = names(label)
        cells = []
        for key, _ in cols:
            r = results.get(n[key])
            if r is None:
                cells.append(f"{'-':>16}")
            else:
                value, _, tgt = r
                mark = "" if tgt is None else (" ok" if value <= tgt else " MISS")
                cells.append(f"{value:>9.2f} s{mark:<5}")
        print(f"{label:<16}" + "".join(cells))


if __name__ == "__main__":
    main()
