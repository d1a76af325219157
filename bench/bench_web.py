"""Load on the web API: `wordlebot web` in its own process on 127.0.0.1, and a load generator
posting mid-game states to /api/suggest over keep-alive connections.

1. Start: seconds until /api/health says the starting set is ready (data present, kernels
   compiled), then the first suggestion (target <= 2 s after ready).
2. Cached: players following the suggestions against answers drawn from the prior (seeded);
   the histories after 1, 2 and 3 rows are asked once (the cold figures, one client), then C
   connections post random ones for D seconds: answers come from the server's cache.
3. Uncached: C connections post states nobody asked before (each state once): players with
   their own openers and second words (drawn from the likeliest answers), against answers drawn
   from the prior, after 1-3 rows; every request is a search.  Meanwhile a probe asks
   /api/health five times a second.  Targets (issue 10; 2 cores, 16 clients, nyt): no error,
   p99 <= 1 s, /api/health p99 <= 50 ms.
Also the server's memory (VmRSS, VmHWM) after each phase.

    python bench/bench_web.py [--words nyt] [--answers 150] [--connections 16] [--seconds 20]
                              [--server-src OTHER_CHECKOUT/src]   # the same load on another version
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

from wordlebot.app.wordsets import load_lexicon
from wordlebot.core.feedback import feedback_unchecked, format_digits

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
        self.writer.write(
            b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (path.encode(), len(body), body)
        )
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


def start_server(
    words: str, cache: int = 4096, src: str | None = None, workers: int | None = None
) -> tuple[subprocess.Popen, int]:
    cmd = [
        sys.executable,
        "-m",
        "wordlebot",
        "--data-dir",
        str(data_dir()),
        "web",
        "--port",
        "0",
        "--words",
        words,
        "--cache",
        str(cache),
    ] + (["--workers", str(workers)] if workers else [])
    env = dict(os.environ)
    if src:  # another checkout's server (its own options: no --prepare there, perhaps)
        env["PYTHONPATH"] = src
    else:
        cmd += ["--prepare", "default"]  # the other sets' preparation would compete with the load
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    m = LINE.search(proc.stdout.readline())
    if not m:
        proc.kill()
        sys.exit("the server did not start")
    return proc, int(m.group(2))


async def get(port: int, path: str) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" % path.encode())
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


async def wait_ready(port: int, words: str, timeout: float = 900) -> tuple[float, float]:
    """(seconds until the set is ready by /api/health, then until its hard-mode book is too);
    a server without the readiness fields counts as ready at once."""
    t0 = time.perf_counter()
    ready = None
    while time.perf_counter() - t0 < timeout:
        status, body = await get(port, "/api/health")
        doc = json.loads(body)
        st = doc.get("sets", {}).get(words)
        if st is None:
            return 0.0, 0.0
        if st["state"] == "failed":
            sys.exit(f"the server could not prepare {words}: {st['error']}")
        if st["state"] == "ready" and ready is None:
            ready = time.perf_counter() - t0
        if st["state"] == "ready" and st["hard_ready"]:
            return ready, time.perf_counter() - t0
        await asyncio.sleep(0.05)
    sys.exit("the server did not get ready")


def memory(proc: subprocess.Popen) -> str:
    try:
        lines = open(f"/proc/{proc.pid}/status").read().splitlines()
    except OSError:
        return "?"
    kb = {k: int(v.split()[0]) for k, v in (ln.split(":", 1) for ln in lines) if k in ("VmRSS", "VmHWM")}
    return f"RSS {kb.get('VmRSS', 0) / 1024:.0f} MB (peak {kb.get('VmHWM', 0) / 1024:.0f} MB)"


async def build_states(port: int, words: str, n_answers: int, seed: int) -> tuple[list[bytes], dict[int, list[float]]]:
    """Play the suggestions against sampled answers; every history after 1-3 rows is a state."""
    async with Http(port) as http:
        status, body = await http.post("/api/suggest", json.dumps({"words": words, "top": 1, "candidates": 0}).encode())
        doc = json.loads(body)
        if status != 200:
            sys.exit(f"first suggestion failed: {doc}")
        lex = load_lexicon(words, data_dir=data_dir(), build_model=True)  # the lists and prior the server reads
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
                rows = rows + [
                    {"guess": guess, "feedback": format_digits(feedback_unchecked(guess, answer), len(guess))}
                ]
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


def fresh_states(words: str, n: int, seed: int) -> list[bytes]:
    """``n`` distinct states no server has seen: openers and later guesses drawn from the 500
    likeliest answers, answers drawn from the prior, 1-3 rows, never solved."""
    lex = load_lexicon(words, data_dir=data_dir(), build_model=True)
    rng = np.random.default_rng(seed + 1000)
    pool = [lex.answers[i] for i in np.argsort(-lex.prior, kind="stable")[:500]]
    green = "2" * lex.length
    seen: set[str] = set()
    out = []
    while len(out) < n:
        answer = lex.answers[rng.choice(lex.n_answers, p=lex.prior)]
        depth = int(rng.integers(1, 4))
        rows = []
        for guess in rng.choice(pool, depth, replace=False):
            fb = format_digits(feedback_unchecked(str(guess), answer), lex.length)
            rows.append({"guess": str(guess), "feedback": fb})
            if fb == green:
                break
        key = json.dumps(rows)
        if rows[-1]["feedback"] == green or key in seen:
            continue
        seen.add(key)
        out.append(json.dumps({"history": rows, "words": words, "top": 10, "candidates": 100}).encode())
    return out


async def load_uncached(port: int, bodies: list[bytes], connections: int):
    """Each state posted once, by whichever connection is free; /api/health probed meanwhile."""
    latencies: list[float] = []
    health: list[float] = []
    errors: dict[int, int] = {}
    it = iter(bodies)
    done = False

    async def worker() -> None:
        async with Http(port) as http:
            for body in it:
                t0 = time.perf_counter()
                try:
                    status, raw = await http.post("/api/suggest", body)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    errors[-1] = errors.get(-1, 0) + 1
                    return
                latencies.append(time.perf_counter() - t0)
                if status != 200 or b'"cached":true' in raw:
                    errors[status] = errors.get(status, 0) + 1

    async def probe() -> None:
        while not done:
            t0 = time.perf_counter()
            await get(port, "/api/health")
            health.append(time.perf_counter() - t0)
            await asyncio.sleep(0.2)

    prober = asyncio.create_task(probe())
    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(connections)))
    wall = time.perf_counter() - t0
    done = True
    await prober
    return np.array(latencies), np.array(health), errors, wall


def run_load(port: int, bodies: list[bytes], args, title: str) -> None:
    lat, errors, cached, wall = asyncio.run(load(port, bodies, args.connections, args.seconds, args.seed))
    n = lat.size
    print(
        f"-- {title}: {args.connections} connections for {wall:.1f} s on {os.cpu_count()} cores; {n:,} requests, "
        f"{cached:,} answered from the cache"
    )
    report("requests per second", n / wall, "req/s", 200, lower_is_better=False)
    report("p50 latency", float(np.median(lat) * 1000), "ms")
    report("p99 latency", float(np.percentile(lat, 99) * 1000), "ms", 200)
    report("errors", errors, "", 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default="nyt")
    ap.add_argument("--answers", type=int, default=150, help="answers played to build the cached states")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--fresh", type=int, default=400, help="uncached states posted (each once)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=None, help="the server's --workers")
    ap.add_argument("--server-src", default=None, help="run the server from this source folder (PYTHONPATH)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    proc, port = start_server(args.words, src=args.server_src, workers=args.workers)
    try:
        started = time.perf_counter() - t0
        ready, hard_ready = asyncio.run(wait_ready(port, args.words))
        t1 = time.perf_counter()
        first = asyncio.run(first_suggestion(port, args.words))
        print(
            f"-- start: listening after {started:.1f} s; {args.words} ready {ready:.1f} s later "
            f"(hard-mode book {hard_ready:.1f} s); {memory(proc)}"
        )
        report("first suggestion after ready", (time.perf_counter() - t1), "s", 2)
        print(f"   (its own request: {first * 1000:.0f} ms)")

        bodies = fresh_states(args.words, args.fresh, args.seed)
        lat, health, errors, wall = asyncio.run(load_uncached(port, bodies, args.connections))
        n = lat.size
        print(
            f"-- uncached: {n} states nobody asked before, {args.connections} connections, {wall:.1f} s on "
            f"{os.cpu_count()} cores; {memory(proc)}"
        )
        report("requests per second", n / wall, "req/s")
        report("p50 latency", float(np.median(lat)), "s")
        report("p99 latency", float(np.percentile(lat, 99)), "s", 1)
        report("max latency", float(lat.max()), "s")
        report("errors (non-200 or cached)", sum(errors.values()), "", 0)
        if errors:
            print(f"   by status: {errors}")
        report("/api/health p50 during the load", float(np.median(health) * 1000), "ms")
        report("/api/health p99 during the load", float(np.percentile(health, 99) * 1000), "ms", 50)

        cached, cold = asyncio.run(build_states(port, args.words, args.answers, args.seed))
        print(
            f"-- cached: {len(cached)} mid-game states of {args.words} from {args.answers} answers; cold (first "
            f"request for a state, one client):"
        )
        for depth, ts in cold.items():
            if ts:
                t = np.array(ts) * 1000
                print(
                    f"   after {depth} row{'s' if depth > 1 else ' '}: {len(t):4d} states  p50 {np.median(t):7.1f} ms  "
                    f"p99 {np.percentile(t, 99):7.1f} ms  max {t.max():7.1f} ms"
                )
        run_load(port, cached, args, "load, server cache on")
        print(f"   {memory(proc)}")
    finally:
        proc.terminate()
        proc.wait(10)


async def first_suggestion(port: int, words: str) -> float:
    async with Http(port) as http:
        t0 = time.perf_counter()
        status, body = await http.post("/api/suggest", json.dumps({"words": words}).encode())
        if status != 200:
            sys.exit(f"the first suggestion failed: {status} {body[:200]!r}")
        return time.perf_counter() - t0


if __name__ == "__main__":
    main()
