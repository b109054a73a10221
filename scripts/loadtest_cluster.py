#!/usr/bin/env python3
"""Load benchmark beyond one machine (docs/PERFORMANCE.md "Several instances"): the Snap!
tables of scripts/loadtest_tables.py played, in one run, against

- **sqlite**: one `cardtable serve` on its SQLite file (the default);
- **postgres**: one `cardtable serve` on PostgreSQL, reached directly;
- **cluster**: two instances on that PostgreSQL behind nginx (scripts/cluster.sh, as
  `make cluster`), each room routed to one of them by its id;
- **cluster1**: one instance on that PostgreSQL behind the same nginx, to compare one instance
  with two through the same path.

With `--cpu-quota Q` every CardTable instance is capped at Q of a core (a cgroup CPU quota,
cgroup v1 `cpu.cfs_quota_us` or v2 `cpu.max`, made under /sys/fs/cgroup and removed after):
scale-out measured on one machine, each instance given a fixed share, so that two instances
have twice the CPU of one whatever the machine's other work.

Every table is made as a page makes one in a cluster: the host's socket hosts it wherever it
lands, then every seat connects at the room's own address (`/ws?room=ID`) — the same steps on
every setup, so the figures compare. Each setup's processes are measured apart: the CardTable
instances, PostgreSQL's processes, nginx's worker. All share this machine's cores with the
Python clients, so the setups are run one after the other in the same run and compared as
ratios.

    swift build -c release
    python3 scripts/loadtest_cluster.py --bin .build/release/cardtable --rooms 250
    python3 scripts/loadtest_cluster.py --setups cluster1,cluster --cpu-quota 0.25 --rooms 500
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loadtest import ROOT, Server, client_cpu_seconds, percentiles, raise_file_limit  # noqa: E402
from loadtest_tables import Table, open_seat, set_up, start_and_play  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    # NB: a process's own time and that of its children it has waited for (PostgreSQL's
    # backends that ended are counted in the postmaster's).
    return sum(int(value) for value in fields[11:15]) / CLOCK_TICKS


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


class CPUQuota:
    """A cgroup that holds processes to `share` of one core; removed by `remove()`."""

    def __init__(self, share: float, name: str):
        period = 100_000
        quota = int(share * period)
        v1 = pathlib.Path("/sys/fs/cgroup/cpu")
        if (v1 / "cpu.cfs_quota_us").exists():
            self.path = v1 / name
            self.path.mkdir()
            (self.path / "cpu.cfs_period_us").write_text(str(period))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            self.path = pathlib.Path("/sys/fs/cgroup") / name
            self.path.mkdir()
            (self.path / "cpu.max").write_text(f"{quota} {period}")

    def add(self, pid: int):
        (self.path / "cgroup.procs").write_text(str(pid))

    def throttled_seconds(self) -> float:
        """How long the quota held its processes back (cpu.stat), in seconds."""
        for line in (self.path / "cpu.stat").read_text().splitlines():
            key, value = line.split()
            if key == "throttled_time":
                return int(value) / 1e9
            if key == "throttled_usec":
                return int(value) / 1e6
        return 0.0

    def remove(self):
        parent = self.path.parent / "cgroup.procs"
        for pid in (self.path / "cgroup.procs").read_text().split():
            # NB: a process that ended meanwhile cannot be moved.
            with contextlib.suppress(OSError):
                parent.write_text(pid)
        self.path.rmdir()


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(line) for line in found.split()]


class Setup:
    """Processes serving the games: where clients connect, and their CPU by part."""

    name = ""
    ws_url = ""

    def parts(self) -> dict[str, list[int]]:
        return {}

    def cpu(self) -> dict[str, float]:
        return {part: sum(cpu_seconds(pid) for pid in pids) for part, pids in self.parts().items()}

    def rss(self) -> float:
        return sum(rss_mib(pid) for pid in self.parts().get("cardtable", []))

    quotas: list = []

    def cap(self, share: float):
        """Puts each CardTable instance in a cgroup of its own at `share` of a core."""
        self.quotas = []
        for number, pid in enumerate(self.parts()["cardtable"], 1):
            quota = CPUQuota(share, f"cardtable-load-{os.getpid()}-{number}")
            quota.add(pid)
            self.quotas.append(quota)
        self.name += f", each instance at {share:g} of a core"

    def uncap(self):
        for quota in self.quotas:
            quota.remove()
        self.quotas = []

    def stop(self):
        pass


class SQLiteSetup(Setup):
    name = "sqlite: one instance, SQLite"

    def __init__(self, binary, web, extra=()):
        self.server = Server(binary, web, extra)
        self.ws_url = self.server.ws_url

    def parts(self):
        return {"cardtable": [self.server.process.pid]}

    def stop(self):
        self.uncap()
        self.server.stop()


class ClusterSetup(Setup):
    """scripts/cluster.sh with `instances`; `direct`: clients go to the first instance, not
    through nginx."""

    def __init__(self, binary, web, instances, direct, extra=()):
        self.directory = tempfile.mkdtemp(prefix="cardtable-load-cluster-")
        os.rmdir(self.directory)
        port = random.randrange(20000, 32000)
        environment = dict(
            os.environ,
            BIN=binary,
            WEB=web,
            PORT=str(port),
            INSTANCES=str(instances),
            SERVE_FLAGS=" ".join(extra),
        )
        done = subprocess.run(
            [os.path.join(ROOT, "scripts", "cluster.sh"), "start", self.directory],
            env=environment,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            self.stop()
            raise RuntimeError(done.stdout + done.stderr)
        self.instances = instances
        first = self.read("instance-1.port")
        self.ws_url = f"ws://127.0.0.1:{first if direct else port}/ws"
        self.direct = direct
        self.name = (
            "postgres: one instance, PostgreSQL"
            if direct
            else f"cluster: {instances} instance{'s' if instances > 1 else ''}, PostgreSQL, nginx"
        )

    def read(self, name):
        with open(os.path.join(self.directory, name)) as file:
            return int(file.read().split()[0])

    def parts(self):
        postmaster = int(
            pathlib.Path(self.directory, "pg", "data", "postmaster.pid").read_text().splitlines()[0]
        )
        nginx = self.read("nginx/nginx.pid")
        return {
            "cardtable": [self.read(f"instance-{n}.pid") for n in range(1, self.instances + 1)],
            "postgres": [postmaster, *children(postmaster)],
            "nginx": [nginx, *children(nginx)],
        }

    def stop(self):
        self.uncap()
        subprocess.run(
            [os.path.join(ROOT, "scripts", "cluster.sh"), "stop", self.directory],
            capture_output=True,
        )


async def seat_at(base: str, room: str, table: Table, rng, name: str, token: str):
    """A seat connected at the room's own address, in the room (asked again while the room
    moves between instances)."""
    seat = await open_seat(f"{base}?room={room}", table, rng, name, token)
    for _ in range(200):
        answer = await seat.request({"cmd": "open", "room": room})
        if answer.get("type") != "error":
            return seat
        if answer["error"]["code"] != "room-elsewhere":
            raise RuntimeError(answer)
        await asyncio.sleep(0.05)
    raise RuntimeError(f"{room} never opened")


async def make_table(base: str, rng: random.Random) -> Table:
    table = Table()
    names = ["North", "East", "South", "West"]
    maker = await open_seat(base, table, rng, names[0])
    hosted = await maker.request({"cmd": "host", "game": "snap"})
    code, room = hosted["code"], maker.joined
    await maker.close()
    host = await seat_at(base, room, table, rng, names[0], maker.token)
    table.seats.append(host)
    for name in names[1:]:
        seat = await open_seat(f"{base}?room={room}", table, rng, name)
        await seat.request({"cmd": "join", "code": code})
        table.seats.append(seat)
    return table


async def run(setup: Setup, rooms: int, args) -> dict:
    rng = random.Random(args.seed)
    result: dict = {"setup": setup.name, "rooms": rooms, "clients": 4 * rooms}
    started = time.perf_counter()
    tables = await set_up(make_table, setup.ws_url, rooms, rng, args.batch)
    result["setup_seconds"] = round(time.perf_counter() - started, 2)
    elapsed, actions, latencies, before, after = await start_and_play(
        tables, args.seconds, lambda: (setup.cpu(), client_cpu_seconds())
    )
    cpu = {part: round(after[0][part] - before[0].get(part, 0.0), 2) for part in after[0]}
    result.update(
        {
            "seconds": round(elapsed, 2),
            "actions": actions,
            "actions_per_s": round(actions / elapsed, 1),
            "action_to_last_client_ms": percentiles(latencies),
            "cpu_s": cpu,
            "cpu_us_per_action": {
                part: round(value / actions * 1e6, 1) if actions else None
                for part, value in cpu.items()
            },
            "client_cpu_s": round(after[1] - before[1], 2),
            "cardtable_rss_mib": round(setup.rss(), 1),
            "throttled_s": round(sum(quota.throttled_seconds() for quota in setup.quotas), 2),
        }
    )
    await asyncio.gather(*(seat.close() for table in tables for seat in table.seats))
    return result


def report(result: dict) -> str:
    latency = result["action_to_last_client_ms"]
    per_action = ", ".join(
        f"{part} {value} µs" for part, value in result["cpu_us_per_action"].items()
    )
    return "\n".join(
        [
            f"== {result['setup']}: {result['rooms']} rooms of four ({result['clients']} clients) ==",
            f"tables hosted at their own address, joined and started in {result['setup_seconds']} s",
            f"play {result['seconds']} s: {result['actions']} actions, "
            f"{result['actions_per_s']} actions/s",
            f"action → last client: p50 {latency.get('p50')} ms, p95 {latency.get('p95')} ms, "
            f"p99 {latency.get('p99')} ms (n {latency.get('n')})",
            f"CPU per action: {per_action}; client CPU {result['client_cpu_s']} s; "
            f"CardTable RSS {result['cardtable_rss_mib']} MiB"
            + (
                f"; held back by the quota {result['throttled_s']} s"
                if result["throttled_s"]
                else ""
            ),
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "cardtable"))
    parser.add_argument("--web", default=os.path.join(ROOT, "web"))
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--setups", default="sqlite,postgres,cluster")
    parser.add_argument("--seconds", type=float, default=20.0, help="play phase length")
    parser.add_argument("--batch", type=int, default=50, help="tables set up at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--commit",
        default="",
        help="comma-separated `serve --commit` modes to run each setup with (turn,each)",
    )
    parser.add_argument(
        "--cpu-quota",
        type=float,
        default=0.0,
        help="cap every CardTable instance at this share of a core (a cgroup quota; needs root)",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    raise_file_limit(8 * args.rooms + 100)
    print(
        f"cardtable: {args.bin}; {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.2f} at start",
        flush=True,
    )
    makers = {
        "sqlite": lambda extra: SQLiteSetup(args.bin, args.web, extra),
        "postgres": lambda extra: ClusterSetup(args.bin, args.web, 1, True, extra),
        "cluster": lambda extra: ClusterSetup(args.bin, args.web, 2, False, extra),
        "cluster1": lambda extra: ClusterSetup(args.bin, args.web, 1, False, extra),
    }
    results = []
    for name in args.setups.split(","):
        for commit in args.commit.split(","):
            setup = makers[name](("--commit", commit) if commit else ())
            if commit:
                setup.name += f", --commit {commit}"
            try:
                if args.cpu_quota:
                    setup.cap(args.cpu_quota)
                result = asyncio.run(run(setup, args.rooms, args))
            finally:
                setup.stop()
            results.append(result)
            print(report(result), flush=True)
    if len(results) > 1 and results[0]["actions"]:
        base = results[0]
        for other in results[1:]:
            print(
                f"{other['setup']} / {base['setup']}: actions/s "
                f"{other['actions_per_s'] / base['actions_per_s']:.2f}×, p50 "
                f"{other['action_to_last_client_ms']['p50'] / base['action_to_last_client_ms']['p50']:.2f}×, p95 "
                f"{other['action_to_last_client_ms']['p95'] / base['action_to_last_client_ms']['p95']:.2f}×"
            )
    if args.json:
        with open(args.json, "w") as file:
            json.dump(results, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
