#!/usr/bin/env python3
"""Load benchmark for shared tables: N rooms of four WebSocket clients playing Snap! on loopback
against one `cardtable serve` (docs/PERFORMANCE.md).

For each room count (`--rooms 250,2500`) the script starts its own server (a fresh `--data`
directory, the per-address limits lifted: every client is 127.0.0.1), then:

1. **tables**: in each room one client hosts a Snap! table, three join it by its code, and the
   host starts it; the dealing pause (5.2 s) runs on the server's clock before play is measured.
2. **play** for `--seconds`: every client plays like a quick human — it turns its card 0.1–0.3 s
   after it is activated and calls Snap! 0.2–0.5 s after it sees a match (and never otherwise);
   the host deals the next round when one ends. Each action's latency is the time from its
   sending to the moment the *last* of the room's four clients received the update it caused.

It prints the connections held, actions/s, action → last client p50/p95/p99, the server's CPU
per action (utime+stime from /proc) and its resident memory, and the client's own CPU (the
Python clients share the machine's cores with the server). It stops by itself.

    swift build -c release
    python3 scripts/loadtest_tables.py --bin .build/release/cardtable --rooms 250,2500
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loadtest import ROOT, Server, client_cpu_seconds, percentiles, raise_file_limit  # noqa: E402


class Seat:
    """One client at a table: reads every message, plays its seat."""

    def __init__(self, socket, room: Table, rng: random.Random):
        self.socket = socket
        self.room = room
        self.rng = rng
        self.name = None
        self.next_id = 0
        self.pending: dict[int, asyncio.Future] = {}
        self.view = None
        self.version = -1
        self.playing = False
        self.actions = 0
        self.reader = asyncio.create_task(self.read())
        self.thinking = None
        # The room the latest `joined` named, and the token the seat plays as.
        self.joined = None
        self.token = None

    async def read(self):
        try:
            async for text in self.socket:
                message = json.loads(text)
                now = time.perf_counter()
                future = self.pending.pop(message.get("reply"), None)
                if future is not None and not future.done():
                    future.set_result(message)
                if message.get("type") == "joined":
                    self.joined = message["room"]
                if message.get("type") == "update":
                    self.room.received(message["version"], now)
                    if message["version"] >= self.version:
                        self.version = message["version"]
                        self.view = message["view"]
                        if self.playing:
                            self.decide()
        except websockets.ConnectionClosed:
            pass

    async def request(self, message: dict, timeout: float = 60) -> dict:
        self.next_id += 1
        ident = self.next_id
        future = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        await self.socket.send(json.dumps({**message, "id": ident}))
        return await asyncio.wait_for(future, timeout)

    def decide(self):
        """Schedules this seat's next move from its view, like a quick player."""
        view = self.view
        if view is None or self.thinking is not None:
            return
        if view.get("canSnap") and self.match_showing(view):
            delay, action = self.rng.uniform(0.2, 0.5), {"type": "snap"}
        elif view.get("canTurn"):
            delay, action = self.rng.uniform(0.1, 0.3), {"type": "turn"}
        elif view.get("canStartNextRound"):
            delay, action = 0.5, {"type": "nextRound"}
        else:
            return
        self.thinking = asyncio.get_running_loop().call_later(
            delay, lambda: asyncio.ensure_future(self.act(action))
        )

    @staticmethod
    def match_showing(view) -> bool:
        """Whether two open piles show cards of the same rank (RULES §5.3), from the view."""
        ranks = [
            player["openTop"][:-1] for player in view.get("players", []) if player.get("openTop")
        ]
        return len(ranks) != len(set(ranks))

    async def act(self, action: dict):
        self.thinking = None
        if not self.playing:
            return
        sent = time.perf_counter()
        self.next_id += 1
        ident = self.next_id
        future = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        try:
            await self.socket.send(json.dumps({"cmd": "act", "action": action, "id": ident}))
            answer = await asyncio.wait_for(future, 30)
        except (TimeoutError, websockets.ConnectionClosed):
            return
        if answer.get("type") == "update":
            self.actions += 1
            self.room.acted(answer["version"], sent)
        self.decide()

    async def close(self):
        self.playing = False
        if self.thinking is not None:
            self.thinking.cancel()
        await self.socket.close()
        self.reader.cancel()


class Table:
    """One room of four seats; keeps when each action was sent and when each client had it."""

    def __init__(self):
        self.seats: list[Seat] = []
        self.sent: dict[int, float] = {}
        self.arrivals: dict[int, list[float]] = {}

    def acted(self, version: int, sent: float):
        self.sent[version] = sent

    def received(self, version: int, at: float):
        self.arrivals.setdefault(version, []).append(at)

    def latencies(self) -> list[float]:
        """Action → last client, for the actions every seat received."""
        return [
            max(self.arrivals[v]) - sent
            for v, sent in self.sent.items()
            if len(self.arrivals.get(v, [])) >= len(self.seats)
        ]


async def open_seat(
    url: str, room: Table, rng: random.Random, name: str, token: str | None = None
) -> Seat:
    """A seat connected to `url`, as a new player or as the one holding `token`."""
    socket = await websockets.connect(
        url, compression=None, open_timeout=60, max_size=2**22, ping_interval=None
    )
    await asyncio.wait_for(socket.recv(), 60)  # welcome
    seat = Seat(socket, room, rng)
    hello = await seat.request({"cmd": "hello", **({"token": token} if token else {})})
    seat.token = hello["token"]
    await seat.request({"cmd": "settings", "settings": {"name": name}})
    return seat


async def make_table(url: str, rng: random.Random) -> Table:
    table = Table()
    names = ["North", "East", "South", "West"]
    host = await open_seat(url, table, rng, names[0])
    hosted = await host.request({"cmd": "host", "game": "snap"})
    code = hosted["code"]
    table.seats.append(host)
    for name in names[1:]:
        seat = await open_seat(url, table, rng, name)
        await seat.request({"cmd": "join", "code": code})
        table.seats.append(seat)
    return table


async def set_up(make, url: str, rooms: int, rng: random.Random, batch: int) -> list[Table]:
    """`rooms` tables made by `make(url, rng)`, `batch` at once."""
    tables: list[Table] = []
    for first in range(0, rooms, batch):
        tables += await asyncio.gather(
            *(make(url, random.Random(rng.random())) for _ in range(min(batch, rooms - first)))
        )
    return tables


async def start_and_play(tables: list[Table], seconds: float, measure):
    """Starts every table, waits out the dealing pause, then lets everyone play for `seconds`;
    returns the elapsed time, the actions taken, every action → last client latency, and what
    `measure()` read before and after."""
    for table in tables:
        for seat in table.seats:
            seat.playing = True
    # NB: the host's start answers with its update: everyone is then dealt and waiting.
    started = await asyncio.gather(*(table.seats[0].request({"cmd": "start"}) for table in tables))
    refused = [answer for answer in started if answer.get("type") != "update"]
    if refused:
        raise RuntimeError(f"{len(refused)} tables did not start: {refused[0]}")
    for table in tables:
        for seat in table.seats:
            seat.decide()
    # NB: the measured play begins after the dealing pause (5.2 s on the server's clock).
    await asyncio.sleep(5.5)
    for table in tables:
        table.sent.clear()
    for seat in (seat for table in tables for seat in table.seats):
        seat.actions = 0
    before = (time.perf_counter(), measure())
    await asyncio.sleep(seconds)
    after = (time.perf_counter(), measure())
    for table in tables:
        for seat in table.seats:
            seat.playing = False
    actions = sum(seat.actions for table in tables for seat in table.seats)
    latencies = [value for table in tables for value in table.latencies()]
    return after[0] - before[0], actions, latencies, before[1], after[1]


async def run(binary: str, web_root: str, rooms: int, args, commit: str) -> dict:
    server = Server(binary, web_root, ("--commit", commit) if commit else ())
    rng = random.Random(args.seed)
    result: dict = {"rooms": rooms, "clients": 4 * rooms, "commit": commit}
    try:
        idle_rss = server.rss_mib()
        started = time.perf_counter()
        tables = await set_up(make_table, server.ws_url, rooms, rng, args.batch)
        result["setup_seconds"] = round(time.perf_counter() - started, 2)
        result["connections"] = server.connections()
        elapsed, actions, latencies, before, after = await start_and_play(
            tables, args.seconds, lambda: (server.cpu_seconds(), client_cpu_seconds())
        )
        result.update(
            {
                "seconds": round(elapsed, 2),
                "actions": actions,
                "actions_per_s": round(actions / elapsed, 1),
                "action_to_last_client_ms": percentiles(latencies),
                "server_cpu_s": round(after[0] - before[0], 2),
                "server_cpu_us_per_action": round((after[0] - before[0]) / actions * 1e6, 1)
                if actions
                else None,
                "client_cpu_s": round(after[1] - before[1], 2),
                "server_rss_mib": round(server.rss_mib(), 1),
                "idle_rss_mib": round(idle_rss, 1),
            }
        )
        await asyncio.gather(*(seat.close() for table in tables for seat in table.seats))
    finally:
        server.stop()
    result["server_exit_status"] = server.process.returncode
    return result


def report(result: dict) -> str:
    latency = result["action_to_last_client_ms"]
    return "\n".join(
        [
            f"== {result['rooms']} rooms of four ({result['clients']} clients)"
            + (f", --commit {result['commit']}" if result["commit"] else "")
            + " ==",
            f"tables hosted, joined and started in {result['setup_seconds']} s; "
            f"connections held {result['connections']}",
            f"play {result['seconds']} s: {result['actions']} actions, "
            f"{result['actions_per_s']} actions/s",
            f"action → last client: p50 {latency.get('p50')} ms, p95 {latency.get('p95')} ms, "
            f"p99 {latency.get('p99')} ms, max {latency.get('max')} ms (n {latency.get('n')})",
            f"server CPU {result['server_cpu_s']} s ({result['server_cpu_us_per_action']} µs per "
            f"action, its broadcast to four included); client CPU {result['client_cpu_s']} s",
            f"server RSS {result['idle_rss_mib']} MiB idle → {result['server_rss_mib']} MiB; "
            f"exit status {result['server_exit_status']}",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "cardtable"))
    parser.add_argument("--web", default=os.path.join(ROOT, "web"))
    parser.add_argument("--rooms", default="250", help="comma-separated room counts")
    parser.add_argument("--seconds", type=float, default=20.0, help="play phase length")
    parser.add_argument("--batch", type=int, default=50, help="tables set up at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--commit",
        default="",
        help="comma-separated `serve --commit` modes to run one after the other (turn,each)",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    counts = [int(part) for part in args.rooms.split(",") if part]
    # NB: four sockets a room in this process, and four in the server (a process of its own,
    # which inherits the raised limit).
    raise_file_limit(4 * max(counts) + 100)
    print(
        f"cardtable: {args.bin}; {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.2f} at start",
        flush=True,
    )
    results = []
    for count in counts:
        for commit in args.commit.split(","):
            result = asyncio.run(run(args.bin, args.web, count, args, commit))
            results.append(result)
            print(report(result), flush=True)
    if args.json:
        with open(args.json, "w") as file:
            json.dump(results, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
