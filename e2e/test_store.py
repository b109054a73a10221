"""The store over real processes: `cardtable serve` killed with SIGKILL mid-game and started
again on the same data resumes every room at its last acknowledged action; `cardtable stats`,
`export` and `verify`; and the failures at start, each with its exit status
(docs/STORAGE.md)."""

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess

import websockets
from test_server import reply_to

from server import Server, running_server

DECK = ["A♥", "A♥", "K♠", "K♠", "2♦", "2♦", "3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠"]


def ws_url(base):
    return base.replace("http://", "ws://") + "ws"


class Player:
    """One WebSocket client that numbers its requests and waits for the reply to each."""

    def __init__(self, socket_):
        self.socket = socket_
        self.next_id = 0
        self.token = None

    @classmethod
    async def connect(cls, base, token=None):
        player = cls(await websockets.connect(ws_url(base)))
        welcome = json.loads(await asyncio.wait_for(player.socket.recv(), 10))
        assert welcome["protocol"] == 2
        hello = await player.ask({"cmd": "hello", **({"token": token} if token else {})})
        player.token = hello[-1]["token"]
        return player

    async def ask(self, message):
        """Sends `message` with a fresh id; returns the messages up to its reply."""
        self.next_id += 1
        await self.socket.send(json.dumps({**message, "id": self.next_id}))
        return await reply_to(self.socket, self.next_id)

    async def act(self, action):
        return (await self.ask({"cmd": "act", "action": action}))[-1]

    async def until(self, condition):
        """Reads pushed messages until one satisfies `condition`; returns it."""
        while True:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), 15))
            if condition(message):
                return message


def room_of(messages):
    """The room id in the `joined` among `messages`."""
    return next(message["room"] for message in messages if message["type"] == "joined")


async def play_a_tiny_matchismo_to_its_end(player):
    """Deals Matchismo with a deck of two cards and matches them, which ends the game and
    records it; returns the room."""
    joined = await player.ask(
        {
            "cmd": "new",
            "game": "matchismo",
            "seed": 1,
            "options": {"cards": 2},
            "deck": ["A♥", "A♠"],
        }
    )
    await player.act({"type": "choose", "card": 0})
    assert (await player.act({"type": "choose", "card": 1}))["view"]["over"]
    return room_of(joined)


def without_clock(view):
    """A view without its clock, which stands still while the server is down."""
    return {key: value for key, value in view.items() if key != "clock"}


def start(cardtable, web_root, data, port=0):
    """Starts a server on `data`; returns (base_url, Server)."""
    server = Server(cardtable, web_root, data, port=port)
    return server.start(), server


def test_a_killed_server_resumes_every_room_at_its_last_acknowledged_action(
    cardtable, web_root, tmp_path
):
    data = tmp_path / "data"
    url, process = start(cardtable, web_root, data)
    port = url.rstrip("/").rsplit(":", 1)[1]
    try:

        async def before_the_kill():
            player = await Player.connect(url)
            rooms = {}
            # Memory with a mismatched pair showing (it turns down 2 s after it was turned).
            joined = await player.ask({"cmd": "new", "game": "memory", "deck": DECK})
            rooms["memory"] = room_of(joined)
            await player.act({"type": "flip", "card": 0})
            rooms["memory-last"] = await player.act({"type": "flip", "card": 2})
            assert rooms["memory-last"]["events"][-1]["type"] == "mismatched"
            # Matchismo part-way, and one small game played to its end and recorded.
            joined = await player.ask({"cmd": "new", "game": "matchismo", "seed": 8})
            rooms["matchismo"] = room_of(joined)
            for card in (0, 5, 9):
                rooms["matchismo-last"] = await player.act({"type": "choose", "card": card})
            rooms["finished"] = await play_a_tiny_matchismo_to_its_end(player)
            rooms["results-before"] = (await player.ask({"cmd": "results"}))[-1]["results"]
            assert len(rooms["results-before"]) == 1
            # Set part-way.
            joined = await player.ask({"cmd": "new", "game": "set", "seed": 4})
            rooms["set"] = room_of(joined)
            for card in (0, 1, 2, 3):
                rooms["set-last"] = await player.act({"type": "choose", "card": card})
            # Snap! mid-round: after the dealing pause, a few turns.
            joined = await player.ask({"cmd": "new", "game": "snap", "seed": 11})
            rooms["snap"] = room_of(joined)
            await player.until(
                lambda message: (
                    message["type"] == "update" and message["view"]["phase"] == "playing"
                )
            )
            state = (await player.ask({"cmd": "state"}))[-1]
            rooms["snap-version"] = state["version"]
            rooms["token"] = player.token
            return rooms

        rooms = asyncio.run(before_the_kill())
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    url, process = start(cardtable, web_root, data, port)
    try:

        async def after_the_restart():
            player = await Player.connect(url, rooms["token"])
            assert player.token == rooms["token"]
            listed = (await player.ask({"cmd": "rooms"}))[-1]["rooms"]
            assert {room["room"] for room in listed} == {
                rooms[name] for name in ("memory", "matchismo", "set", "snap")
            }

            for name in ("memory", "matchismo", "set"):
                opened = await player.ask({"cmd": "open", "room": rooms[name]})
                assert opened[0]["type"] == "joined" and opened[0]["role"] == "player"
                assert opened[0]["countdown"] == 0
                back, last = opened[-1], rooms[f"{name}-last"]
                assert back["version"] == last["version"], name
                assert without_clock(back["view"]) == without_clock(last["view"]), name
                if name == "memory":
                    turned = await player.until(lambda message: message.get("events"))
                    assert turned["events"] == [{"type": "turnedDown", "cards": [0, 2]}]

            opened = await player.ask({"cmd": "open", "room": rooms["snap"]})
            assert opened[0]["countdown"] == 3, "Snap! counts down before it runs again"
            assert opened[-1]["version"] >= rooms["snap-version"]
            refused = await player.ask({"cmd": "act", "action": {"type": "snap", "player": "You"}})
            assert refused[-1]["error"]["code"] == "resuming"

            opened = await player.ask({"cmd": "open", "room": rooms["finished"]})
            assert opened[0]["status"] == "over"
            results = (await player.ask({"cmd": "results"}))[-1]["results"]
            assert results == rooms["results-before"], "no result is lost"
            assert results[0]["ending"] == "finished"

        asyncio.run(after_the_restart())
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def test_a_server_in_memory_plays_every_game_and_writes_nothing(cardtable, web_root, tmp_path):
    # NB: were it to open the default data directory, it would be under this HOME.
    home = tmp_path / "home"
    home.mkdir()
    env = {name: value for name, value in os.environ.items() if name != "XDG_DATA_HOME"}
    env["HOME"] = str(home)
    server = Server(cardtable, web_root, tmp_path / "data", "--in-memory", env=env)
    url = server.start()
    try:
        assert "in memory only" in server.stdout_text()

        async def play():
            player = await Player.connect(url)
            joined = await player.ask({"cmd": "new", "game": "memory", "deck": DECK})
            memory = room_of(joined)
            await player.act({"type": "flip", "card": 0})
            assert (await player.act({"type": "flip", "card": 1}))["events"][-1]["type"] == (
                "matched"
            )
            await play_a_tiny_matchismo_to_its_end(player)
            results = (await player.ask({"cmd": "results"}))[-1]["results"]
            assert [result["game"] for result in results] == ["matchismo"]
            listed = (await player.ask({"cmd": "rooms"}))[-1]["rooms"]
            assert [room["room"] for room in listed] == [memory]
            reopened = await player.ask({"cmd": "open", "room": memory})
            assert reopened[0]["type"] == "joined" and reopened[-1]["version"] >= 2
            return player.token, memory

        token, memory = asyncio.run(play())
        server.restart()

        async def after_the_restart():
            player = await Player.connect(server.url, token)
            assert (await player.ask({"cmd": "rooms"}))[-1]["rooms"] == []
            refused = await player.ask({"cmd": "open", "room": memory})
            assert refused[-1]["error"]["code"] == "no-such-room"

        asyncio.run(after_the_restart())
    finally:
        server.stop()
    assert not (tmp_path / "data").exists()
    assert [path.name for path in home.iterdir()] == []


def test_a_kill_while_the_moves_of_many_rooms_wait_for_one_commit_loses_none_told(
    cardtable, web_root, tmp_path
):
    """Group commit: 24 players move at once in rooms of their own, so that each turn of the
    server's loop commits several rooms' moves in one transaction; SIGKILL lands while moves
    are in flight. Every move any player was told of is there after the restart, with the
    view that player was shown."""
    data = tmp_path / "data"
    url, process = start(cardtable, web_root, data)
    port = url.rstrip("/").rsplit(":", 1)[1]
    told = {}
    rooms = []
    enough = asyncio.Event()

    async def play(player, room, index):
        card = index
        while True:
            card = (card + 5) % 24
            try:
                reply = await player.act({"type": "choose", "card": card})
            except (websockets.ConnectionClosed, ConnectionError, OSError):
                return
            if reply["type"] == "update":
                told[room] = (player.token, reply["version"], reply["view"])
                # NB: killed once every room has had moves told, while all keep sending.
                if len(told) == len(rooms) and min(move[1] for move in told.values()) >= 6:
                    enough.set()

    async def until_killed():
        players = [await Player.connect(url) for _ in range(24)]
        for index, player in enumerate(players):
            joined = await player.ask({"cmd": "new", "game": "matchismo", "seed": 40 + index})
            rooms.append(room_of(joined))
        games = [
            asyncio.ensure_future(play(player, room, index))
            for index, (player, room) in enumerate(zip(players, rooms, strict=True))
        ]
        await enough.wait()
        process.send_signal(signal.SIGKILL)
        await asyncio.gather(*games)

    try:
        asyncio.run(until_killed())
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    url, process = start(cardtable, web_root, data, port)
    try:

        async def after_the_restart():
            for room in rooms:
                token, version, view = told[room]
                player = await Player.connect(url, token)
                opened = await player.ask({"cmd": "open", "room": room})
                assert opened[-1]["version"] >= version, room
                shown = await player.ask({"cmd": "view-at", "version": version})
                assert without_clock(shown[-1]["view"]) == without_clock(view), room
                await player.socket.close()

        asyncio.run(after_the_restart())
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0


def run(cardtable, *arguments):
    return subprocess.run([cardtable, *arguments], capture_output=True, text=True, timeout=60)


def test_stats_export_and_verify_tell_the_story_of_the_games(cardtable, web_root, tmp_path):
    data = tmp_path / "data"
    with running_server(cardtable, web_root, data=data) as (url, _):

        async def play():
            player = await Player.connect(url)
            await player.ask({"cmd": "settings", "settings": {"name": "Ann"}})
            # NB: dealt without a seed or deck, so that it counts: played by remembering faces.
            joined = await player.ask({"cmd": "new", "game": "memory"})
            moves = await play_memory_by_heart(player, 12)
            return room_of(joined), moves

        room, moves = asyncio.run(play())

    stats = run(cardtable, "stats", "--data", str(data))
    assert stats.returncode == 0, stats.stderr
    assert stats.stdout.splitlines()[0] == "Ann"
    assert "memory" in stats.stdout and "difficulty easy" in stats.stdout
    table = json.loads(run(cardtable, "stats", "--data", str(data), "--json").stdout)
    [row] = table["players"][0]["stats"]
    assert (row["played"], row["won"], row["streak"], row["bestStreak"]) == (1, 1, 1, 1)
    assert row["bestScore"] == moves["mistakes"]

    saved = tmp_path / "game.json"
    exported = run(cardtable, "export", room, "--data", str(data), "--out", str(saved))
    assert exported.returncode == 0, exported.stderr
    document = json.loads(saved.read_text())
    assert document["format"] == "cardtable-save" and document["version"] == 1
    log = document["matches"][0]["log"]
    assert len(log) == moves["actions"]
    verified = run(cardtable, "verify", str(saved))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "valid" in verified.stdout and f"{len(log)} moves" in verified.stdout

    document["matches"][0]["log"][2]["action"] = {"type": "flip", "card": 0}
    saved.write_text(json.dumps(document))
    tampered = run(cardtable, "verify", str(saved))
    assert tampered.returncode == 1
    assert "NOT VALID" in tampered.stdout and "Move 3" in tampered.stdout

    assert run(cardtable, "export", "AAAAAAAAAAAAAAAA", "--data", str(data)).returncode == 1
    assert run(cardtable, "export", "nonsense", "--data", str(data)).returncode == 2
    assert run(cardtable, "stats", "--data", str(tmp_path / "empty")).returncode == 3


async def play_memory_by_heart(player, cards):
    """Plays a Memory game of `cards` cards to its end, never forgetting a face it saw; waits
    for each pair to be resolved before the next. Returns the count of mistakes and of the
    match's actions (flips and the timers' resolutions)."""
    faces, removed, mistakes, actions = {}, set(), 0, 0

    async def flip(card):
        nonlocal actions
        update = await player.act({"type": "flip", "card": card})
        actions += 1
        faces[card] = next(e["face"] for e in update["events"] if e["type"] == "flipped")
        return update

    async def resolved():
        nonlocal actions
        pushed = await player.until(
            lambda message: (
                message.get("events") and message["events"][0]["type"] in ("removed", "turnedDown")
            )
        )
        actions += 1
        return pushed

    while len(removed) < cards:
        unseen = [card for card in range(cards) if card not in faces]
        known = [
            (a, b)
            for a in faces
            for b in faces
            if a < b and faces[a] == faces[b] and a not in removed
        ]
        if known:
            first, second = known[0]
            await flip(first)
        else:
            first = unseen[0]
            await flip(first)
            partner = [card for card in faces if card != first and faces[card] == faces[first]]
            second = partner[0] if partner else [card for card in unseen if card != first][0]
        update = await flip(second)
        if faces[first] == faces[second]:
            removed |= {first, second}
        else:
            mistakes += 1
        await resolved()
    assert update is not None
    return {"mistakes": mistakes, "actions": actions}


def serve_exit(cardtable, web_root, data):
    """Starts `cardtable serve` on `data`, which must refuse to start: (status, stderr)."""
    result = subprocess.run(
        [cardtable, "serve", "--port", "0", "--web", str(web_root), "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return result.returncode, result.stderr


def test_bad_data_is_refused_at_start_with_a_clear_message_and_its_own_status(
    cardtable, web_root, tmp_path
):
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "cardtable.sqlite3").write_text("this is not a database\n" * 400)
    status, error = serve_exit(cardtable, web_root, corrupt)
    assert status == 6 and "damaged" in error

    damaged = tmp_path / "damaged"
    with running_server(cardtable, web_root, data=damaged):
        pass
    database = damaged / "cardtable.sqlite3"
    filler = sqlite3.connect(database)
    with filler:
        filler.executemany(
            "INSERT INTO actions (room, ordinal, idx, time, at, player, automatic, action)"
            " VALUES ('filler', 0, ?, 0, 0, 'filler', 0, hex(randomblob(300)))",
            [(index,) for index in range(3000)],
        )
    filler.close()
    size = database.stat().st_size
    assert size > 1_000_000 and not (damaged / "cardtable.sqlite3-wal").exists()
    with open(database, "r+b") as file:
        file.seek(size // 2 // 4096 * 4096)
        file.write(random.Random(21).randbytes(4096))
    status, error = serve_exit(cardtable, web_root, damaged)
    assert status == 6 and f"{database} is damaged" in error
    assert "restore it from a backup (docs/DEPLOY.md" in error

    emptied = tmp_path / "emptied"
    emptied.mkdir()
    (emptied / "cardtable.sqlite3").write_bytes(b"")
    status, error = serve_exit(cardtable, web_root, emptied)
    assert status == 6 and f"{emptied}/cardtable.sqlite3 is damaged" in error
    assert "empty (0 bytes)" in error and "restore it from a backup" in error
    assert (emptied / "cardtable.sqlite3").stat().st_size == 0, "nothing was written over it"

    newer = tmp_path / "newer"
    newer.mkdir()
    connection = sqlite3.connect(newer / "cardtable.sqlite3")
    connection.execute("PRAGMA user_version = 99")
    connection.close()
    status, error = serve_exit(cardtable, web_root, newer)
    assert status == 7 and "newer CardTable" in error

    blocked = tmp_path / "file-not-directory"
    blocked.write_text("")
    status, error = serve_exit(cardtable, web_root, blocked)
    assert status == 3 and "not a directory" in error

    with running_server(cardtable, web_root, data=tmp_path / "shared"):
        status, error = serve_exit(cardtable, web_root, tmp_path / "shared")
        assert status == 5 and "locked" in error

    locked = tmp_path / "locked"
    with running_server(cardtable, web_root, data=locked):
        pass
    holder = sqlite3.connect(locked / "cardtable.sqlite3", timeout=0)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        status, error = serve_exit(cardtable, web_root, locked)
        assert status == 5 and "locked by another process" in error
    finally:
        holder.rollback()
        holder.close()
