"""Pattern matrix: build 14,855 x 14,855 and 14,855 x 3,158, cache load time, peak RSS.

Each measurement runs in a fresh process so that peak RSS and load time are those of a real
command.  Targets (2 cores): full build <= 2 s, load <= 0.3 s, RSS <= 400 MB.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from common import data_dir, report

CHILD = r"""
import json, sys, time, resource
from pathlib import Path
t0 = time.perf_counter()
from wordlebot.core import matrix as mx
from wordlebot.core.words import Lexicon, read_word_file
t_import = time.perf_counter() - t0
data, answers, mode, folder = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4])
g = read_word_file(data / "nyt/guesses.txt")
a = g if answers == "all" else read_word_file(data / answers)
lex = Lexicon.from_lists(g, a)
out = {"import": t_import}
if mode == "build":
    mx.build_from_codes(lex.guess_codes[:50], lex.answer_codes[:50])  # compile (or load compiled)
    t = time.perf_counter(); m = mx.build_from_codes(lex.guess_codes, lex.answer_codes); out["build"] = time.perf_counter() - t
    t = time.perf_counter(); mx.write_cache(mx.cache_path(lex, folder), m, lex); out["write"] = time.perf_counter() - t
else:
    mx.checksum(__import__("numpy").zeros(8, "uint8"))  # compiled checksum kernel loaded
    t = time.perf_counter(); m = mx.load_cached(mx.cache_path(lex, folder), lex); out["load"] = time.perf_counter() - t
    assert m is not None
    out["sum"] = int(m[::97, ::89].sum())
out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def child(data: Path, answers: str, mode: str, folder: Path) -> dict:
    r = subprocess.run(
        [sys.executable, "-c", CHILD, str(data), answers, mode, str(folder)], capture_output=True, text=True, check=True
    )
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    data = data_dir()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for label, answers in (("14,855 x 14,855", "all"), ("14,855 x 3,158", "nyt/wordlebot-3158.txt")):
            builds = [child(data, answers, "build", folder) for _ in range(3)]
            best = min(b["build"] for b in builds)
            report(f"build {label}", best, "s", 2.0 if answers == "all" else None)
            report(f"write cache {label}", min(b["write"] for b in builds), "s")
            report(
                f"peak RSS while building {label}",
                max(b["rss_mb"] for b in builds),
                "MB",
                400 if answers == "all" else None,
            )
            loads = [child(data, answers, "load", folder) for _ in range(3)]
            report(f"load (mmap + checksum) {label}", min(x["load"] for x in loads), "s", 0.3)
            report(f"peak RSS after load {label}", max(x["rss_mb"] for x in loads), "MB", 400)
    print("reference: the pure-Python build of the best-known Python bot takes about 12 minutes here")


if __name__ == "__main__":
    main()
