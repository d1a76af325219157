"""The web server's memory under many distinct large answers (issue 41): `wordlebot web` in its
own process, then N distinct requests whose answers are large (nyt, `candidates: 1000`, a greedy
strategy so that each is quick: the answer's size, not the search, is measured), posted by four
keep-alive clients; the server's RSS before and after, and its peak.  Before the answer cache was
bounded in bytes, 4,600 such requests took the server from 2,248 to 3,081 MB.

    python bench/bench_web_memory.py [--requests 5000] [--server-src OTHER_CHECKOUT/src]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time

from bench_web import Http, memory, start_server, wait_ready
from common import data_dir

from wordlebot.app.wordsets import load_lexicon
from wordlebot.core.feedback import feedback_unchecked, format_digits


def bodies(n: int, seed: int) -> list[bytes]:
    """``n`` distinct one-row histories (a guess against an answer), each asking for 1,000
    candidates."""
    os.environ.setdefault("WORDLEBOT_DATA", str(data_dir()))
    lex = load_lexicon("classic")  # (the words: any guess and answer of the classic lists is an nyt one)
    rng = random.Random(seed)
    pairs = set()
    while len(pairs) < n:
        pairs.add((rng.choice(lex.guesses), rng.choice(lex.answers)))
    out = []
    for guess, answer in sorted(pairs):
        fb = format_digits(feedback_unchecked(guess, answer), 5)
        doc = {"words": "nyt", "history": [{"guess": guess, "feedback": fb}], "strategy": "entropy"}
        out.append(json.dumps(dict(doc, candidates=1000, top=10)).encode())
    return out


async def post_all(port: int, todo: list[bytes], clients: int = 4) -> dict[int, int]:
    statuses: dict[int, int] = {}
    it = iter(todo)

    async def client():
        async with Http(port) as http:
            for body in it:
                status, _ = await http.post("/api/suggest", body)
                statuses[status] = statuses.get(status, 0) + 1

    await asyncio.gather(*(client() for _ in range(clients)))
    return statuses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--server-src", default=None, help="run the server from this source folder (PYTHONPATH)")
    args = ap.parse_args()
    todo = bodies(args.requests, args.seed)
    proc, port = start_server("nyt", src=args.server_src)
    try:
        asyncio.run(wait_ready(port, "nyt"))
        asyncio.run(post_all(port, todo[:20]))  # (warm: the advisors, the first answers)
        print(f"ready, after 20 requests: {memory(proc)}", flush=True)
        t0 = time.perf_counter()
        done = 0
        for start in range(0, len(todo), 1000):
            chunk = todo[start : start + 1000]
            statuses = asyncio.run(post_all(port, chunk))
            done += len(chunk)
            print(f"after {done:,} distinct requests: {memory(proc)}; statuses {statuses}", flush=True)
        load = os.getloadavg()
        print(f"{done:,} requests in {time.perf_counter() - t0:.0f} s (load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    finally:
        proc.terminate()
        proc.wait(30)


if __name__ == "__main__":
    main()
