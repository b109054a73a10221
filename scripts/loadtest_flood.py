#!/usr/bin/env python3
"""Flood benchmark: many addresses, each within its own limits, against one player
(docs/PERFORMANCE.md "A flood from many addresses").

`--addresses` source addresses (127.0.0.2 …) hold `--connections` WebSockets each and send
legal 60 KB messages of arrays nested 60 deep (slow to read) without waiting for answers,
reconnecting whenever the server closes them, for `--seconds`; the flooders run in a process
of their own. Meanwhile a canary on 127.0.0.1 plays at a person's pace (a `state` every 50 ms)
and times each round trip; then it goes on for 2 s after the flood. Each `--budget` given
(seconds a second, or `none`) is one server, run one after the other in the same invocation so
that the figures compare on the same machine.

    swift build -c release
    python3 scripts/loadtest_flood.py --bin .build/release/cardtable --budget 0.25,none
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import pathlib
import statistics
import sys
import tempfile
import time

import websockets

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "e2e"))
from test_limits import nested_message  # noqa: E402

from server import Server  # noqa: E402

WEB = pathlib.Path(__file__).resolve().parent.parent / "web"


def flood(url, addresses, connections, stop_at, sent):
    """The flooders: every connection sends until closed, then connects again."""

    async def one(source):
        message = nested_message()
        while time.time() < stop_at:
            try:
                async with websockets.connect(
                    url, max_size=None, open_timeout=10, close_timeout=0.1, local_addr=(source, 0)
                ) as socket_:
                    await socket_.recv()
                    drain = asyncio.create_task(socket_.wait_closed())
                    while time.time() < stop_at:
                        left = max(0.01, stop_at - time.time())
                        await asyncio.wait_for(socket_.send(message), left)
                        sent.value += 1
                    drain.cancel()
                    socket_.transport.abort()
            except (TimeoutError, OSError, websockets.WebSocketException):
                continue

    async def every():
        await asyncio.gather(
            *(one(f"127.0.0.{2 + a}") for a in range(addresses) for _ in range(connections))
        )

    asyncio.run(every())


async def canary(url, seconds):
    """Round trips (ms) of a player's `state`, one every 50 ms, for `seconds`."""
    times = []
    async with websockets.connect(url, open_timeout=10) as socket_:
        await socket_.recv()
        await socket_.send(json.dumps({"cmd": "new", "game": "memory", "seed": 1}))
        while json.loads(await socket_.recv())["type"] != "update":
            pass
        end = time.monotonic() + seconds
        number = 0
        while time.monotonic() < end:
            number += 1
            start = time.monotonic()
            await socket_.send(json.dumps({"cmd": "state", "id": number}))
            while json.loads(await asyncio.wait_for(socket_.recv(), 60)).get("reply") != number:
                pass
            times.append((time.monotonic() - start) * 1000)
            await asyncio.sleep(0.05)
    return sorted(times)


def figures(times):
    return (
        f"p50 {statistics.median(times):6.1f}  p95 {times[int(len(times) * 0.95)]:6.1f}"
        f"  max {times[-1]:6.1f} ms"
    )


def run(binary, budget, args):
    with tempfile.TemporaryDirectory(prefix="cardtable-flood-") as folder:
        server = Server(
            binary, WEB, pathlib.Path(folder) / "data", "--handling-budget", budget, limits=()
        )
        url = server.start().replace("http://", "ws://") + "ws"
        sent = multiprocessing.Value("i", 0)
        stop_at = time.time() + 1 + args.seconds
        flooders = multiprocessing.Process(
            target=flood, args=(url, args.addresses, args.connections, stop_at, sent)
        )
        flooders.start()
        time.sleep(1)
        during = asyncio.run(canary(url, args.seconds - 0.5))
        while time.time() < stop_at:
            time.sleep(0.05)
        after = asyncio.run(canary(url, 2))
        flooders.join(30)
        server.stop()
        print(
            f"budget {budget:>5}: {sent.value:7d} floods sent | canary during: {figures(during)}"
            f" | after: {figures(after)}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--budget", default="0.25,none")
    parser.add_argument("--addresses", type=int, default=16)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8)
    args = parser.parse_args()
    for budget in args.budget.split(","):
        run(args.bin, budget, args)


if __name__ == "__main__":
    main()
