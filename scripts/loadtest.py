#!/usr/bin/env python3
"""Load benchmark for `cardtable serve`: many WebSocket clients on loopback (docs/PERFORMANCE.md).

For each client count N (`--clients 100,1000`) the script starts its own
`cardtable serve --port 0 --web web`, and then runs four phases, each bounded in time:

1. **connect** – opens N WebSocket connections to `/ws` (in batches) and waits for every
   `welcome`; `GET /api/health` must then count N rooms ("connections held").
2. **games** – every client plays `--games` complete Memory games perfectly: it asks a
   `cardtable engine` subprocess for the referee's board of its seed, deals the same game with
   `{"cmd":"new","game":"memory","seed":S}`, flips each pair and waits for the server's
   `removed` push (the 1 s timer runs in real time) before the next pair; later games are
   `restart`s. Round-trip latency is measured per flip (send → the update carrying its `reply`).
3. **throughput** – every client sends `{"cmd":"state","id":k}` in a closed loop for
   `--seconds`, never faster than `--rate` messages/s (under the server's limit of 30/s, burst
   60), and measures each round trip.
4. **rate limit** – one extra client sends `--burst` messages back to back; the script counts
   how many the server answered and how many it refused with `too-fast`.

Per phase it reports messages/s, round-trip p50/p95/p99, the server's resident memory (VmRSS
from /proc/<pid>/status) and CPU seconds (utime+stime from /proc/<pid>/stat), and the CPU the
client itself used, because on a small machine the Python client shares the cores with the
server. After the clients close, the room count must fall back to 0.

    swift build -c release
    python3 scripts/loadtest.py --bin .build/release/cardtable --clients 100,1000

The process raises its own open-file limit (RLIMIT_NOFILE) to the hard limit for the sockets;
the server inherits it. Everything listens on 127.0.0.1 only; the server is stopped with
SIGTERM at the end (or killed if it does not stop).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LISTENING = re.compile(r"CardTable listening on (http://[^/]+/)")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------------------------
# The server and its figures


class Server:
    """A `cardtable serve --port 0` process on 127.0.0.1 and its /proc figures."""

    def __init__(self, binary: str, web_root: str, extra: tuple[str, ...] = ()):
        arguments = [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--web", web_root]
        arguments += extra
        # NB: a server that keeps its games gets a fresh data directory, removed at the end.
        self.data = None
        usage = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True).stdout
        if "--data" in usage and "--in-memory" not in extra:
            self.data = tempfile.TemporaryDirectory(prefix="cardtable-load-")
            arguments += ["--data", self.data.name]
        if "--connections-per-address" in usage:
            # NB: every client of the benchmark comes from 127.0.0.1.
            arguments += [
                "--connections-per-address",
                "1000000",
                "--rooms-per-minute",
                "1e9",
                "--messages-per-address",
                "1e9",
            ]
        self.process = subprocess.Popen(
            arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        lines = []
        for line in self.process.stdout:
            lines.append(line)
            match = LISTENING.search(line)
            if match:
                break
        else:
            self.stop()
            raise RuntimeError(f"serve did not start: {lines!r} {self.process.stderr.read()!r}")
        self.base = match.group(1)
        self.ws_url = self.base.replace("http://", "ws://") + "ws"

    def rss_mib(self) -> float:
        """Resident memory in MiB (VmRSS)."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def cpu_seconds(self) -> float:
        """User plus system CPU seconds of the server so far."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        # fields[0] is field 3 (state); utime and stime are fields 14 and 15.
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def threads(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
        return 0

    def health(self) -> dict:
        with urllib.request.urlopen(self.base + "api/health", timeout=10) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.data is not None:
            self.data.cleanup()
            self.data = None

    def connections(self) -> int:
        """The clients the server holds (a server before rooms counted one room each)."""
        health = self.health()
        return health.get("clients", health["rooms"])


def client_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def memory_boards(binary: str, seeds: list[int]) -> dict[int, list[str]]:
    """The referee's Memory board (card texts by position) of every seed, from the engine."""
    lines = "".join(
        json.dumps({"cmd": "new", "game": "memory", "seed": seed}) + "\n" for seed in seeds
    )
    output = subprocess.run(
        [binary, "engine"], input=lines, capture_output=True, text=True, timeout=120, check=True
    ).stdout.splitlines()
    boards = {}
    for seed, line in zip(seeds, output):
        state = json.loads(line)["state"]
        boards[seed] = [position["card"] for position in state["board"]]
    return boards


def pairs_of(board: list[str]) -> list[tuple[int, int]]:
    """The positions of each pair of equal cards, in board order."""
    first: dict[str, int] = {}
    pairs = []
    for index, card in enumerate(board):
        if card in first:
            pairs.append((first.pop(card), index))
        else:
            first[card] = index
    return pairs


def percentiles(samples: list[float]) -> dict:
    """p50/p95/p99/max of round trips in milliseconds."""
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)

    def at(fraction):
        return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 2)

    return {
        "n": len(ordered),
        "p50": at(0.50),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1] * 1000, 2),
        "mean": round(statistics.fmean(ordered) * 1000, 2),
    }


# --------------------------------------------------------------------------------------------
# A client


class Client:
    """One WebSocket connection: a reader task files every server message by its `reply`."""

    def __init__(self, socket):
        self.socket = socket
        self.pending: dict[int, asyncio.Future] = {}
        self.pushes: asyncio.Queue = asyncio.Queue()
        self.next_id = 0
        self.received = 0
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        try:
            async for text in self.socket:
                self.received += 1
                message = json.loads(text)
                future = self.pending.pop(message.get("reply"), None)
                if future is not None and not future.done():
                    future.set_result(message)
                else:
                    self.pushes.put_nowait(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))

    async def request(self, message: dict, timeout: float) -> tuple[dict, float]:
        """Sends a message with a fresh `id`; returns the answer and its round trip."""
        self.next_id += 1
        ident = self.next_id
        future = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        started = time.perf_counter()
        await self.socket.send(json.dumps({**message, "id": ident}))
        answer = await asyncio.wait_for(future, timeout)
        return answer, time.perf_counter() - started

    async def push(self, wanted: str, timeout: float) -> dict:
        """Waits for an unasked update whose events include one of type `wanted`."""
        deadline = time.monotonic() + timeout
        while True:
            message = await asyncio.wait_for(self.pushes.get(), deadline - time.monotonic())
            if any(event.get("type") == wanted for event in message.get("events", [])):
                return message

    async def close(self):
        await self.socket.close()
        self.reader.cancel()


async def connect(url: str, count: int, batch: int, timeout: float) -> list[Client]:
    """Opens `count` connections, `batch` at a time, each waiting for its welcome."""

    async def one():
        socket = await websockets.connect(
            url, compression=None, open_timeout=timeout, max_size=2**22, ping_interval=None
        )
        welcome = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        assert welcome["type"] == "welcome", welcome
        return Client(socket)

    clients: list[Client] = []
    for start in range(0, count, batch):
        clients += await asyncio.gather(*(one() for _ in range(min(batch, count - start))))
    return clients


async def play_memory(
    client: Client, seed: int, board: list[str], games: int, latencies: list[float], timeout: float
) -> int:
    """Plays `games` perfect Memory games (the first `new`, then `restart`s); returns flips."""
    flips = 0
    if games == 0:
        # No games to play: deal one anyway, so the throughput phase asks for a real view.
        answer, _ = await client.request({"cmd": "new", "game": "memory", "seed": seed}, timeout)
        assert answer["type"] == "update", answer
        return 0
    for game in range(games):
        command = (
            {"cmd": "new", "game": "memory", "seed": seed} if game == 0 else {"cmd": "restart"}
        )
        answer, _ = await client.request(command, timeout)
        assert answer["type"] == "update", answer
        for first, second in pairs_of(board):
            for card in (first, second):
                answer, elapsed = await client.request(
                    {"cmd": "act", "action": {"type": "flip", "card": card}}, timeout
                )
                assert answer["type"] == "update", answer
                face = next(e["face"] for e in answer["events"] if e["type"] == "flipped")
                assert face == board[card], (seed, card, face, board[card])
                latencies.append(elapsed)
                flips += 1
            await client.push("removed", timeout)
        state, _ = await client.request({"cmd": "state"}, timeout)
        assert state["view"]["over"], state["view"]
    return flips


async def state_loop(
    client: Client, until: float, rate: float, latencies: list[float], timeout: float
) -> int:
    """Closed-loop `state` requests, at most `rate` per second, until `until`; returns count."""
    interval = 1.0 / rate
    sent = 0
    next_send = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= until:
            return sent
        if next_send > now:
            await asyncio.sleep(next_send - now)
        next_send = max(next_send + interval, time.monotonic())
        answer, elapsed = await client.request({"cmd": "state"}, timeout)
        assert answer["type"] == "update", answer
        latencies.append(elapsed)
        sent += 1


async def burst(url: str, count: int, timeout: float) -> dict:
    """Sends `count` messages back to back on one connection; counts answers and refusals.

    A connection that goes on sending far over its limit is closed by the server (1008): the
    probe then says so, with what it had sent and heard until then."""
    answered = refused = other = sent = 0
    closed = None
    async with websockets.connect(url, compression=None, ping_interval=None) as socket:
        await asyncio.wait_for(socket.recv(), timeout)
        started = time.perf_counter()
        try:
            for index in range(count):
                await socket.send(json.dumps({"cmd": "state", "id": index}))
                sent += 1
            while answered + refused + other < count:
                message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
                if message.get("type") == "error" and message["error"]["code"] == "too-fast":
                    refused += 1
                elif message.get("type") == "error" and message["error"]["code"] == "no-game":
                    answered += 1
                else:
                    other += 1
        except websockets.ConnectionClosed as error:
            closed = error.rcvd.code if error.rcvd else "without a close frame"
        elapsed = time.perf_counter() - started
    return {
        "sent": sent,
        "answered": answered,
        "refused_too_fast": refused,
        "other": other,
        "closed": closed,
        "seconds": round(elapsed, 3),
    }


# --------------------------------------------------------------------------------------------
# One run


def snapshot(server: Server) -> tuple[float, float, float]:
    return time.perf_counter(), server.cpu_seconds(), client_cpu_seconds()


def phase_figures(server: Server, before, messages: int, latencies: list[float]) -> dict:
    wall, server_cpu, client_cpu = snapshot(server)
    elapsed = wall - before[0]
    return {
        "seconds": round(elapsed, 2),
        "messages": messages,
        "messages_per_s": round(messages / elapsed, 1) if elapsed > 0 else None,
        "rtt_ms": percentiles(latencies),
        "server_cpu_s": round(server_cpu - before[1], 2),
        "server_cpu_us_per_msg": round((server_cpu - before[1]) / messages * 1e6, 1)
        if messages
        else None,
        "client_cpu_s": round(client_cpu - before[2], 2),
        "server_rss_mib": round(server.rss_mib(), 1),
    }


async def run(binary: str, web_root: str, count: int, store: str, args) -> dict:
    """All phases for one client count against a fresh server keeping its games in `store`
    (`sqlite`: a fresh data directory; `memory`: `serve --in-memory`, nothing kept)."""
    seeds = [1000 + index for index in range(count)]
    boards = memory_boards(binary, seeds)
    server = Server(binary, web_root, ("--in-memory",) if store == "memory" else ())
    result: dict = {"clients": count, "store": store}
    try:
        result["idle"] = {"server_rss_mib": round(server.rss_mib(), 1), "threads": server.threads()}

        before = snapshot(server)
        clients = await asyncio.wait_for(
            connect(server.ws_url, count, args.batch, args.timeout), args.phase_limit
        )
        held = server.connections()
        result["connect"] = phase_figures(server, before, count, [])
        result["connect"]["held"] = held
        result["connect"]["threads"] = server.threads()

        before = snapshot(server)
        latencies: list[float] = []
        flips = await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_memory(client, seed, boards[seed], args.games, latencies, args.timeout)
                    for client, seed in zip(clients, seeds)
                )
            ),
            args.phase_limit,
        )
        received = sum(client.received for client in clients)
        result["games"] = phase_figures(server, before, sum(flips), latencies)
        result["games"]["games_completed"] = count * args.games
        result["games"]["messages_received"] = received

        before = snapshot(server)
        latencies = []
        until = time.monotonic() + args.seconds
        sent = await asyncio.wait_for(
            asyncio.gather(
                *(
                    state_loop(client, until, args.rate, latencies, args.timeout)
                    for client in clients
                )
            ),
            args.seconds + args.phase_limit,
        )
        result["throughput"] = phase_figures(server, before, sum(sent), latencies)
        result["throughput"]["requested_per_s"] = count * args.rate

        result["rate_limit"] = await asyncio.wait_for(
            burst(server.ws_url, args.burst, args.timeout), args.phase_limit
        )

        await asyncio.gather(*(client.close() for client in clients))
        deadline = time.monotonic() + 10
        rooms = server.health()["rooms"]
        while rooms > 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            rooms = server.health()["rooms"]
        result["after_close"] = {
            "rooms": rooms,
            "server_rss_mib": round(server.rss_mib(), 1),
            "server_cpu_s_total": round(server.cpu_seconds(), 2),
        }
    finally:
        server.stop()
    result["server_exit_status"] = server.process.returncode
    return result


def report(result: dict) -> str:
    """A readable block of figures for one run."""
    lines = [f"== {result['clients']} clients, store {result['store']} =="]
    idle = result["idle"]
    lines.append(f"idle server: RSS {idle['server_rss_mib']} MiB, {idle['threads']} threads")
    for name in ("connect", "games", "throughput"):
        phase = result[name]
        rtt = phase["rtt_ms"]
        latency = (
            f"rtt p50 {rtt['p50']} ms, p95 {rtt['p95']} ms, p99 {rtt['p99']} ms, "
            f"max {rtt['max']} ms"
            if rtt.get("n")
            else ""
        )
        lines.append(
            f"{name:10} {phase['seconds']:7.2f} s  {phase['messages']:7} msgs  "
            f"{phase['messages_per_s']:8} msg/s  {latency}"
        )
        lines.append(
            f"{'':10} server CPU {phase['server_cpu_s']} s "
            f"({phase['server_cpu_us_per_msg']} µs/msg), client CPU {phase['client_cpu_s']} s, "
            f"server RSS {phase['server_rss_mib']} MiB"
        )
    lines.append(
        f"connections held: {result['connect']['held']} "
        f"(server threads {result['connect']['threads']})"
    )
    lines.append(
        f"games completed: {result['games']['games_completed']}, "
        f"server messages received by clients: {result['games']['messages_received']}"
    )
    lines.append(f"throughput requested: {result['throughput']['requested_per_s']} msg/s")
    limit = result["rate_limit"]
    lines.append(
        f"rate limit: {limit['sent']} back to back → {limit['answered']} answered, "
        f"{limit['refused_too_fast']} too-fast ({limit['seconds']} s)"
        + (f", then closed by the server ({limit['closed']})" if limit["closed"] else "")
    )
    after = result["after_close"]
    lines.append(
        f"after close: {after['rooms']} rooms, RSS {after['server_rss_mib']} MiB, "
        f"server CPU total {after['server_cpu_s_total']} s; "
        f"exit status {result['server_exit_status']}"
    )
    return "\n".join(lines)


def compare_stores(results: list[dict]) -> str:
    """The games' round trips with the store beside the same build's with it off, for one
    client count (each store's runs pooled by their median)."""
    by_store: dict[str, list[dict]] = {}
    for result in results:
        by_store.setdefault(result["store"], []).append(result["games"]["rtt_ms"])
    if set(by_store) != {"sqlite", "memory"}:
        return ""

    def median(store: str, key: str) -> float:
        return statistics.median(rtt[key] for rtt in by_store[store])

    parts = []
    for key in ("p50", "p95", "p99"):
        kept, off = median("sqlite", key), median("memory", key)
        parts.append(f"{key} {kept:.2f} / {off:.2f} ms = {kept / off:.2f}×" if off else f"{key} —")
    return f"games round trip, store ÷ store off ({results[0]['clients']} clients): " + ", ".join(
        parts
    )


def raise_file_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    if soft < needed:
        sys.exit(f"open-file limit {soft} is below the {needed} sockets needed; raise ulimit -n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "cardtable"))
    parser.add_argument("--web", default=os.path.join(ROOT, "web"))
    parser.add_argument("--clients", default="100,1000", help="comma-separated client counts")
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        help="Memory games per client (0: only deal one, for the throughput phase)",
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="throughput phase length")
    parser.add_argument(
        "--rate",
        type=float,
        default=20.0,
        help="max state requests per second per client (server limit: 30)",
    )
    parser.add_argument("--burst", type=int, default=200, help="rate-limit probe size")
    parser.add_argument("--batch", type=int, default=100, help="connections opened at once")
    parser.add_argument("--timeout", type=float, default=30.0, help="per message, seconds")
    parser.add_argument("--phase-limit", type=float, default=180.0, help="per phase, seconds")
    parser.add_argument(
        "--stores",
        default="sqlite",
        help="comma-separated stores to run each client count against, one after the other: "
        "sqlite (the default data directory's store) and memory (serve --in-memory, the store "
        "off); with both, the games' round trips are compared",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.rate > 30:
        print("note: --rate above 30/s will meet the server's too-fast refusals")
    counts = [int(part) for part in args.clients.split(",") if part]
    stores = [part for part in args.stores.split(",") if part]
    if not stores or any(store not in ("sqlite", "memory") for store in stores):
        parser.error("--stores takes sqlite and memory, e.g. sqlite,memory")
    raise_file_limit(2 * max(counts) + 100)
    print(
        f"cardtable: {args.bin}; {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    results = []
    for count in counts:
        for store in stores:
            result = asyncio.run(run(args.bin, args.web, count, store, args))
            results.append(result)
            print(report(result), flush=True)
        print(compare_stores([result for result in results if result["clients"] == count]))
    if args.json:
        with open(args.json, "w") as file:
            json.dump(results, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
