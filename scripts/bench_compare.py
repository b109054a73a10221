#!/usr/bin/env python3
"""Compares two `cardtable` builds side by side in one run: the engine benchmarks, the engine
console on the golden stream (Tests/GameWireTests/Golden), and a WebSocket server's CPU per
`state` message, measured on the server process, with the same Python clients for both.

The machine is shared: each figure is the median of several runs that alternate old and new.

    git worktree add /tmp/old <commit> && (cd /tmp/old && swift build -c release)
    swift build -c release
    python3 scripts/bench_compare.py --old /tmp/old/.build/release/cardtable \\
        --new .build/release/cardtable
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loadtest import Server  # noqa: E402


def bench_lines(binary: str, name: str) -> list[str]:
    result = subprocess.run([binary, "bench", name], capture_output=True, text=True, timeout=900)
    return [line for line in result.stdout.splitlines() if not line.startswith("==")]


def figures(line: str) -> tuple[str, float, str]:
    """(label, the first number after the colon, its unit) of a benchmark line; the unit is
    part of the label, so that two lines of one benchmark stay apart."""
    label, rest = line.split(":", 1)
    number = re.search(r"([\d,]+(?:\.\d+)?) ([^\s,(]+)", rest)
    unit = number.group(2)
    return f"{label.strip()} ({unit})", float(number.group(1).replace(",", "")), unit


def engine_stream() -> bytes:
    path = os.path.join(ROOT, "Tests", "GameWireTests", "Golden", "engine.jsonl.gz")
    with gzip.open(path, "rt", encoding="utf-8") as file:
        return "".join(json.loads(line)["in"] + "\n" for line in file).encode()


def console_lines_per_second(binary: str, stream: bytes, lines: int) -> float:
    start = time.perf_counter()
    subprocess.run([binary, "engine"], input=stream, stdout=subprocess.DEVNULL, check=True)
    return lines / (time.perf_counter() - start)


def cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def state_round_trips(url: str, clients: int, rounds: int, pid: int) -> float:
    import websockets

    sockets = [
        await websockets.connect(url, compression=None, max_size=2**24) for _ in range(clients)
    ]
    for index, socket in enumerate(sockets):
        await socket.recv()
        await socket.send(json.dumps({"cmd": "new", "game": "memory", "seed": index}))
        await socket.recv()
    before = cpu_seconds(pid)
    for _ in range(rounds):
        for socket in sockets:
            await socket.send('{"cmd":"state"}')
        for socket in sockets:
            await socket.recv()
    used = cpu_seconds(pid) - before
    for socket in sockets:
        await socket.close()
    return used * 1e6 / (clients * rounds)


def server_cpu_per_state(binary: str, clients: int, rounds: int) -> float:
    web = tempfile.mkdtemp()
    pathlib.Path(web, "index.html").write_text("<!doctype html>")
    # NB: the load tests' server: a data folder of its own, limits loose enough for many
    # clients from one address.
    server = Server(binary, web)
    try:
        return asyncio.run(state_round_trips(server.ws_url, clients, rounds, server.process.pid))
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    builds = {"old": args.old, "new": args.new}

    print("== engine benchmarks (median of runs, old and new alternating)")
    for name in ["memory", "matchismo", "set", "snap"]:
        results: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
        units: dict[str, str] = {}
        for _ in range(args.runs):
            for build, binary in builds.items():
                for line in bench_lines(binary, name):
                    label, value, unit = figures(line)
                    results[build].setdefault(label, []).append(value)
                    units[label] = unit
        for label in results["new"]:
            new = statistics.median(results["new"][label])
            if label in results["old"]:
                old = statistics.median(results["old"][label])
                print(
                    f"{label}: old {old:,.1f} {units[label]}, new {new:,.1f}, ratio {new / old:.2f}×"
                )
            else:
                print(f"{label}: new {new:,.1f} {units[label]} (no old figure)")

    print("== engine console on the golden stream (lines/s)")
    stream = engine_stream()
    lines = stream.count(b"\n")
    speeds: dict[str, list[float]] = {"old": [], "new": []}
    for _ in range(args.runs * 2):
        for build, binary in builds.items():
            speeds[build].append(console_lines_per_second(binary, stream, lines))
    old, new = statistics.median(speeds["old"]), statistics.median(speeds["new"])
    print(
        f"console: old {old:,.0f} lines/s, new {new:,.0f} lines/s, ratio {new / old:.2f}× ({lines} lines)"
    )

    print("== server CPU per state message (100 clients, Python on the same machine)")
    cost: dict[str, list[float]] = {"old": [], "new": []}
    for _ in range(args.runs):
        for build, binary in builds.items():
            cost[build].append(server_cpu_per_state(binary, 100, 30))
    old, new = statistics.median(cost["old"]), statistics.median(cost["new"])
    print(
        f"server: old {old:.1f} µs, new {new:.1f} µs per state message, ratio {old / new:.2f}× less"
    )


if __name__ == "__main__":
    main()
