"""Load on the web API: `wordlebot web` in its own process on 127.0.0.1, and a load generator
posting mid-game states to /api/suggest over keep-alive connections.

1. States: players following the suggestions against answers drawn from the prior (seeded);
   the histories after 1, 2 and 3 rows.  Building them asks the server for each state once:
   that is the cold figure (a search per request, one client).
2. Load: C connections, each posting a random state of the pool for D seconds.  The states
   were all seen before, as on a real server where players meet the same states again and
   again: answers come from the server's cache and its search tables.
Reports requests/s, p50/p99 latency and errors.  Target (2 cores, server and load generator
together): >= 200 req/s with p99 <= 200 ms and no error.

    python bench/bench_web.py [--words nyt] [--answers 150] [--connections 16] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import time

import numpy as np

from common import data_dir, report
from wordlebot.feedback import _feedback, format_digits
from wordlebot.wordsets import load_lexicon

LINE = re.compile(r"serving (http://127\.0\.0\.1:(\d+)/)")


class Http:
    """A minimal HTTP/1.1 keep-alive client: the load generator shares the two cores with the
    server, so it must cost far less per request than a full client library."""

    def __init__(self, port: int) -> None:
        self.port = port

    async def __aenter__(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        return self

    async def __aexit__(self, *exc):
        self.writer.close()

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        self.writer.write(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n%s" % (path.encode(), len(body), body))
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)


def start_server(words: str, cache: int = 4096) -> tuple[subprocess.Popen, int]:
    cmd = [sys.executable, "-m", "wordlebot", "--data-dir", str(data_dir()), "web", "--port", "0", "--words", words,
           "--cache", str(cache)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    m = LINE.search(proc.stdout.readline())
    if not m:
        proc.kill()
        sys.exit("the server did not start")
    return proc, int(m.group(2))


async def build_states(port: int, words: str, n_answers: int, seed: int) -> tuple[list[bytes], dict[int, list[float]]]:
    """Play the suggestions against sampled answers; every history after 1-3 rows is a state."""
    async with Http(port) as http:
        status, body = await http.post("/api/suggest", json.dumps({"words": words, "top": 1, "candidates": 0}).encode())
        doc = json.loads(body)
        if status != 200:
            sys.exit(f"first suggestion failed: {doc}")
        lex = load_lexicon(words, data_dir=data_dir())  # the same lists the server reads
        picks = np.random.default_rng(seed).choice(lex.n_answers, n_answers, p=lex.prior)
        answers = [lex.answers[i] for i in picks]
        states: dict[str, bytes] = {}
        cold: dict[int, list[float]] = {1: [], 2: [], 3: []}
        for answer in answers:
            rows: list[dict] = []
            for depth in range(4):
                body = json.dumps({"history": rows, "words": words, "top": 10, "candidates": 100}).encode()
                t0 = time.perf_counter()
                status, raw = await http.post("/api/suggest", body)
                dt = time.perf_counter() - t0
                doc = json.loads(raw)
                if status != 200:
                    sys.exit(f"state {rows} failed: {doc}")
                if depth and not doc["cached"]:
                    cold[depth].append(dt)
                if depth:
                    states[json.dumps(rows)] = body
                if doc["solved"] or depth == 3 or not doc["suggestions"]:
                    break
                guess = doc["suggestions"][0]["word"]
                rows = rows + [{"guess": guess, "feedback": format_digits(_feedback(guess, answer), len(guess))}]
        return list(states.values()), cold


async def load(port: int, bodies: list[bytes], connections: int, seconds: float, seed: int):
    latencies: list[float] = []
    errors = 0
    cached = 0
    deadline = time.perf_counter() + seconds

    async def worker(k: int) -> None:
        nonlocal errors, cached
        rng = random.Random(seed + k)
        async with Http(port) as http:
            while time.perf_counter() < deadline:
                body = rng.choice(bodies)
                t0 = time.perf_counter()
                try:
                    status, raw = await http.post("/api/suggest", body)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    errors += 1
                    return
                latencies.append(time.perf_counter() - t0)
                if status != 200:
                    errors += 1
                elif b'"cached":true' in raw:
                    cached += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(k) for k in range(connections)))
    return np.array(latencies), errors, cached, time.perf_counter() - t0


async def warm_all(port: int, bodies: list[bytes]) -> None:
    async with Http(port) as http:
        for body in bodies:
            await http.post("/api/suggest", body)


def run_load(port: int, bodies: list[bytes], args, title: str) -> None:
    lat, errors, cached, wall = asyncio.run(load(port, bodies, args.connections, args.seconds, args.seed))
    n = lat.size
    print(f"-- {title}: {args.connections} connections for {wall:.1f} s on {os.cpu_count()} cores; {n:,} requests, "
          f"{cached:,} answered from the cache")
    report("requests per second", n / wall, "req/s", 200, lower_is_better=False)
    report("p50 latency", float(np.median(lat) * 1000), "ms")
    report("p99 latency", float(np.percentile(lat, 99) * 1000), "ms", 200)
    report("errors", errors, "", 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default="nyt")
    ap.add_argument("--answers", type=int, default=150, help="answers played to build the states")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--uncached", action="store_true",
                    help="also load a server started with --cache 0 (every request searched; tables warm)")
    args = ap.parse_args()
    proc, port = start_server(args.words)
    try:
        bodies, cold = asyncio.run(build_states(port, args.words, args.answers, args.seed))
        print(f"-- {len(bodies)} mid-game states of {args.words} from {args.answers} answers; cold (first request "
              f"for a state, one client):")
        for depth, ts in cold.items():
            if ts:
                t = np.array(ts) * 1000
                print(f"   after {depth} row{'s' if depth > 1 else ' '}: {len(t):4d} states  p50 {np.median(t):7.1f} ms  "
                      f"p99 {np.percentile(t, 99):7.1f} ms  max {t.max():7.1f} ms")
        run_load(port, bodies, args, "load, server cache on")
    finally:
        proc.terminate()
        proc.wait(10)
    if not args.uncached:
        return
    proc, port = start_server(args.words, cache=0)
    try:
        # Each state once first (as above, so the search tables are warm), then the same load.
        asyncio.run(warm_all(port, bodies))
        run_load(port, bodies, args, "load, server cache off (--cache 0)")
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
