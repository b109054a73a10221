"""Several instances behind nginx on one PostgreSQL (docs/DEPLOY.md "Several instances"),
started by scripts/cluster.sh exactly as `make cluster` does: rooms spread over both
instances, each run by one; a table whose instance is SIGKILLed mid-game continues on the
other through nginx with every acknowledged move; instances racing for one room never both run
it; a transfer code made on one instance and taken on the other; and a page in the browser
that goes on playing when its instance dies."""

import asyncio
import concurrent.futures
import contextlib
import json
import os
import pathlib
import random
import signal
import socket
import subprocess
import tempfile
import urllib.request

import pytest
import websockets
from test_tables import Client

from browser import acted, face_down, wait_view

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Memory's easy deck laid out in pairs: cards 0 and 1 match, 2 and 3, and so on.
PAIRS = ["A♥", "A♥", "K♠", "K♠", "2♦", "2♦", "3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠"]


def run(main):
    """Runs the coroutine function `main` to its end on an event loop of its own, in a thread:
    Playwright's synchronous API may hold this thread's loop after a browser test."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main()).result()


def free_port():
    """A free port below the ephemeral range, where no server started with port 0 (as every
    other test's is) can take it between this choice and nginx's bind."""
    while True:
        port = random.randrange(20000, 32000)
        with socket.socket() as probe, contextlib.suppress(OSError):
            probe.bind(("127.0.0.1", port))
            return port


class Cluster:
    """A running cluster: nginx's address, and each instance's port and process."""

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)
        self.port = 0
        self.url = ""

    def start(self, cardtable):
        for _ in range(5):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}/"
            environment = dict(
                os.environ,
                PG_SCRATCH_FSYNC="off",
                BIN=cardtable,
                PORT=str(self.port),
                WEB=str(ROOT / "web"),
            )
            done = subprocess.run(
                [ROOT / "scripts" / "cluster.sh", "start", self.directory],
                env=environment,
                capture_output=True,
                text=True,
                timeout=120,
            )
            if done.returncode == 0:
                assert f"open {self.url}" in done.stdout
                return
            # NB: another program may still have bound the port first: then a new one.
            in_use = "Address already in use" in done.stdout + done.stderr
            self.stop()
            assert in_use, done.stdout + done.stderr
        raise AssertionError("no free port for nginx")

    def stop(self):
        subprocess.run(
            [ROOT / "scripts" / "cluster.sh", "stop", self.directory],
            capture_output=True,
            text=True,
            timeout=120,
        )

    def instances(self):
        return [1, 2]

    def instance_port(self, number):
        return int((self.directory / f"instance-{number}.port").read_text())

    def pid(self, number):
        return int((self.directory / f"instance-{number}.pid").read_text())

    def metric(self, number, name):
        text = (
            urllib.request.urlopen(
                f"http://127.0.0.1:{self.instance_port(number)}/metrics", timeout=10
            )
            .read()
            .decode()
        )
        line = next(line for line in text.splitlines() if line.startswith(name + " "))
        return float(line.split()[1])

    def owner(self, name="cardtable_rooms"):
        """The one instance with something in memory (`name` > 0)."""
        owners = [n for n in self.instances() if self.metric(n, name) > 0]
        assert len(owners) == 1, f"{name} on {owners}"
        return owners[0]

    def kill(self, number):
        os.kill(self.pid(number), signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid(number), 0)


@pytest.fixture()
def cluster(cardtable):
    directory = tempfile.mkdtemp(prefix="cardtable-cluster-")
    os.rmdir(directory)
    running = Cluster(directory)
    try:
        running.start(cardtable)
        yield running
    finally:
        running.stop()
    assert not pathlib.Path(directory).exists()


async def connect(base, name, room=None, token=None):
    """A client through nginx, at the room's own address when it has one (as the page does)."""
    address = base.replace("http://", "ws://") + "ws" + (f"?room={room}" if room else "")
    socket_ = await websockets.connect(address, max_queue=None, ping_interval=None)
    client = Client(socket_, name)
    await client.next(lambda m: m["type"] == "welcome")
    hello = await client.ask({"cmd": "hello", **({"token": token} if token else {})})
    client.token = hello["token"]
    return client


async def new_game(client, request):
    """Deals a game for `client`; returns the room's id once the deal's update came."""
    sent = await client.send(request)
    joined = await client.next(lambda m: m["type"] == "joined")
    await client.next(lambda m: m.get("reply") == sent)
    return joined["room"]


async def open_room(client, room):
    """Opens `room`, asking again while it is `room-elsewhere` (moving between instances), as
    the page does; returns the `joined`."""
    for _ in range(400):
        request = await client.send({"cmd": "open", "room": room})
        answer = await client.next(lambda m: m.get("reply") == request or m["type"] == "joined")
        if answer["type"] == "joined":
            return answer
        assert answer["error"]["code"] == "room-elsewhere", answer
        # NB: the database frees a dead instance's lease once it sees the connection close.
        await asyncio.sleep(0.05)
    raise AssertionError(f"{room} never opened")


def test_rooms_spread_over_both_instances_and_each_runs_in_one(cluster):
    async def main():
        clients, rooms = [], []
        first = await connect(cluster.url, "Ann")
        for index in range(16):
            # A game is dealt wherever a socket without a room lands, then played at its own
            # address, which nginx routes by the room's id (the dealer's socket moves there).
            maker = await connect(cluster.url, "Ann", token=first.token)
            room = await new_game(maker, {"cmd": "new", "game": "memory", "seed": index + 1})
            await maker.close()
            rooms.append(room)
            player = await connect(cluster.url, "Ann", room=room, token=first.token)
            await open_room(player, room)
            reply = await player.act({"type": "flip", "card": 0})
            assert reply["type"] == "update" and reply["version"] == 1
            clients.append(player)
        await first.close()
        counts = [cluster.metric(n, "cardtable_rooms") for n in cluster.instances()]
        assert sum(counts) == 16 and all(count > 0 for count in counts), counts
        # The list of unfinished games comes from the shared database, whichever instance.
        for number in cluster.instances():
            listing = await connect(
                f"http://127.0.0.1:{cluster.instance_port(number)}/", "Ann", token=clients[0].token
            )
            listed = await listing.ask({"cmd": "rooms"})
            assert sorted(r["room"] for r in listed["rooms"]) == sorted(rooms)
            await listing.close()
        for client in clients:
            await client.close()

    run(main)


def test_a_killed_instances_table_continues_on_the_other_with_every_acknowledged_move(cluster):
    async def main():
        ann = await connect(cluster.url, "Ann")
        hosted = await ann.ask(
            {
                "cmd": "host",
                "game": "memory",
                "seed": 4,
                "deck": PAIRS,
                "options": {"difficulty": "easy"},
            }
        )
        assert hosted["type"] == "table", hosted
        room = next(m["room"] for m in ann.inbox if m["type"] == "joined")
        code = hosted["code"]
        # Both take their seats at the table's own address (the host's socket moves there).
        await ann.close()
        ann = await connect(cluster.url, "Ann", room=room, token=ann.token)
        assert (await open_room(ann, room))["role"] == "player"
        bob = await connect(cluster.url, "Bob", room=room)
        joined = await bob.ask({"cmd": "join", "code": code})
        assert joined["type"] in ("joined", "table"), joined
        started = await ann.ask({"cmd": "start"})
        assert started["type"] == "update", started
        acknowledged = 0
        for card in (0, 1):
            reply = await ann.act({"type": "flip", "card": card})
            assert reply["type"] == "update"
            acknowledged = reply["version"]
        await ann.update(lambda view: not view["waiting"])
        reply = await ann.act({"type": "flip", "card": 2})
        acknowledged = reply["version"]

        owner = cluster.owner("cardtable_tables")
        cluster.kill(owner)
        # Both pages' sockets drop; they come back through nginx, which passes the dead
        # instance over, and the other one rebuilds the table from the stored moves.
        ann = await connect(cluster.url, "Ann", room=room, token=ann.token)
        bob = await connect(cluster.url, "Bob", room=room, token=bob.token)
        for client in (ann, bob):
            assert (await open_room(client, room))["role"] == "player"
        view = (await ann.update())["view"]
        assert view["version"] >= acknowledged
        assert [card["removed"] for card in view["board"][:2]] == [True, True]
        assert view["board"][2]["faceUp"] is True
        survivor = next(n for n in cluster.instances() if n != owner)
        assert cluster.metric(survivor, "cardtable_tables") == 1
        reply = await ann.act({"type": "flip", "card": 3})
        assert reply["type"] == "update" and reply["version"] == view["version"] + 1
        seen = await bob.update(lambda v: v["version"] == reply["version"])
        assert seen["view"]["board"][3]["faceUp"] is True or seen["view"]["board"][3]["removed"]
        for client in (ann, bob):
            await client.close()

    run(main)


def test_instances_racing_for_one_room_never_both_run_it(cluster):
    async def main():
        maker = await connect(cluster.url, "Ann")
        direct = [f"http://127.0.0.1:{cluster.instance_port(n)}/" for n in cluster.instances()]
        for index in range(20):
            room = await new_game(maker, {"cmd": "new", "game": "matchismo", "seed": index + 1})
            # Let it go: a new game moves the maker's socket off it.
            await new_game(maker, {"cmd": "new", "game": "memory", "seed": 1})
            racers = [await connect(base, "Ann", token=maker.token) for base in direct]
            requests = [await racer.send({"cmd": "open", "room": room}) for racer in racers]
            answers = await asyncio.gather(
                *(
                    racer.next(lambda m, r=request: m.get("reply") == r or m["type"] == "joined")
                    for racer, request in zip(racers, requests)
                )
            )
            kinds = sorted(
                a["type"] if a["type"] == "joined" else a["error"]["code"] for a in answers
            )
            assert kinds == ["joined", "room-elsewhere"], kinds
            for racer in racers:
                await racer.close()
        await maker.close()

    run(main)


def test_export_and_stats_read_the_shared_database(cluster, cardtable):
    async def main():
        ann = await connect(cluster.url, "Ann")
        room = await new_game(ann, {"cmd": "new", "game": "memory", "seed": 9})
        await ann.close()
        return room

    room = run(main)
    database = (cluster.directory / "database").read_text().strip()
    exported = subprocess.run(
        [cardtable, "export", room, "--database", database],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["game"] == "memory"
    stats = subprocess.run(
        [cardtable, "stats", "--database", database, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert stats.returncode == 0, stats.stderr


def test_a_transfer_code_made_on_one_instance_is_taken_on_the_other_once(cluster):
    async def main():
        first, second = (
            f"http://127.0.0.1:{cluster.instance_port(number)}/" for number in cluster.instances()
        )
        phone = await connect(first, "Ann")
        await phone.ask({"cmd": "settings", "settings": {"name": "Ann"}})
        made = await phone.ask({"cmd": "transfer"})
        assert made["type"] == "answer" and made["expiresIn"] == 600, made
        laptop = await connect(second, "Laptop")
        claimed = await laptop.ask({"cmd": "claim", "code": made["code"]})
        assert claimed.get("token") == phone.token, claimed
        again = await laptop.ask({"cmd": "claim", "code": made["code"]})
        assert again["error"]["code"] == "no-such-code", again
        moved = await connect(second, "Ann", token=claimed["token"])
        settings = await moved.ask({"cmd": "settings"})
        assert settings["settings"]["name"] == "Ann"
        for client in (phone, laptop, moved):
            await client.close()

    run(main)


def test_a_database_that_cannot_be_reached_is_refused_at_start_without_its_password(cardtable):
    address = "postgres://ann:s3cret@/cardtable?host=/tmp/cardtable-no-such-socket"
    started = subprocess.run(
        [cardtable, "serve", "--port", "0", "--database", address],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode == 3, started
    assert "s3cret" not in started.stdout + started.stderr
    assert "postgres://ann@/cardtable" in started.stderr


def test_a_page_goes_on_playing_when_its_instance_dies(cluster, chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{cluster.url}?game=memory&seed=3&difficulty=easy")
        wait_view(page, "v.version === 0")
        acted(page, lambda: page.get_by_role("button", name=face_down(0), exact=True).click())
        room = page.evaluate("location.pathname").rsplit("/", 1)[-1]
        # The page moved its socket to the room's own address: the room runs where nginx
        # routes that address.
        owner = cluster.owner()
        cluster.kill(owner)
        page.get_by_text("Reconnected — your game continues.").wait_for(timeout=30000)
        wait_view(page, "v.version === 1")
        acted(page, lambda: page.get_by_role("button", name=face_down(1), exact=True).click())
        wait_view(page, "v.version >= 2")
        survivor = next(n for n in cluster.instances() if n != owner)
        assert cluster.metric(survivor, "cardtable_rooms") == 1
        assert page.evaluate("location.pathname").endswith(room)
    finally:
        context.close()
