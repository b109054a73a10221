"""`cardtable serve` over real loopback sockets: static files, the WebSocket protocol, bad
input, a client vanishing mid-game, and shutdown."""

import asyncio
import contextlib
import json
import os
import pathlib
import signal
import socket
import urllib.error
import urllib.request

import pytest
import websockets

from server import running_server


@pytest.fixture()
def web_root(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>CardTable</title>")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "app.js").write_text("export const ready = true;\n")
    (tmp_path / "app.css").write_text("body { margin: 0 }\n")
    (tmp_path / "card.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    return tmp_path


@pytest.fixture()
def server(cardtable, web_root):
    with running_server(cardtable, web_root) as (url, process):
        yield url, process


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def ws_url(base):
    return base.replace("http://", "ws://") + "ws"


async def reply_to(socket_, request_id=None):
    """The messages up to and with the reply to request `request_id` (a message carrying
    `"reply": request_id`), or, for a message the server could not read, up to its error."""
    messages = []
    while True:
        message = json.loads(await asyncio.wait_for(socket_.recv(), 10))
        messages.append(message)
        if request_id is None and message["type"] == "error":
            return messages
        if request_id is not None and message.get("reply") == request_id:
            return messages


async def converse(base, messages):
    """Sends each message (objects get an `id`) and collects the messages each brought, up to
    its reply (after the welcome)."""
    async with websockets.connect(ws_url(base)) as socket_:
        welcome = json.loads(await asyncio.wait_for(socket_.recv(), 10))
        answers = []
        for number, message in enumerate(messages, start=1):
            request_id = None
            if isinstance(message, dict):
                request_id = message.setdefault("id", f"m{number}")
            await socket_.send(message if isinstance(message, str) else json.dumps(message))
            answers.append(await reply_to(socket_, request_id))
        return welcome, answers


def last_of(messages, kind):
    """The last message of type `kind` among `messages`."""
    return [message for message in messages if message["type"] == kind][-1]


def test_static_files_have_their_content_types(server):
    url, _ = server
    expected = {
        "": "text/html",
        "js/app.js": "javascript",
        "app.css": "text/css",
        "card.svg": "image/svg+xml",
    }
    for path, content_type in expected.items():
        status, headers, body = fetch(url + path)
        assert status == 200, path
        assert content_type in headers["Content-Type"], (path, headers["Content-Type"])
        assert headers["Cache-Control"], path
    assert fetch(url + "missing.js")[0] == 404


def test_json_endpoints(server):
    url, _ = server
    status, headers, body = fetch(url + "api/games")
    assert status == 200 and "application/json" in headers["Content-Type"]
    assert json.loads(body)["games"][:2] == ["memory", "concentration"]
    assert fetch(url + "api/nothing")[0] == 404


def test_a_memory_game_over_the_websocket(server):
    url, _ = server
    welcome, answers = asyncio.run(
        converse(
            url,
            [
                {
                    "cmd": "new",
                    "game": "memory",
                    "options": {"difficulty": "easy"},
                    "seed": 42,
                    "id": 1,
                },
                {"cmd": "act", "action": {"type": "flip", "card": 0}, "id": 2},
            ],
        )
    )
    assert welcome["type"] == "welcome" and "memory" in welcome["games"]
    assert [message["type"] for message in answers[0]] == ["hello", "joined", "update"]
    dealt, [flipped] = answers[0][-1], answers[1]
    assert answers[0][1]["role"] == "player" and len(answers[0][1]["room"]) == 16
    assert dealt["type"] == "update" and dealt["reply"] == 1 and dealt["seed"] == 42
    assert len(dealt["view"]["board"]) == 12
    assert all(position["card"] is None for position in dealt["view"]["board"])
    assert flipped["reply"] == 2 and flipped["version"] == 1
    assert flipped["events"][0]["type"] == "flipped"
    assert flipped["view"]["board"][0]["card"] == flipped["events"][0]["face"]


def test_timers_push_updates_unasked(server):
    url, _ = server

    async def play():
        async with websockets.connect(ws_url(url)) as socket_:
            await socket_.recv()
            deck = ["A♥", "A♥", "K♠", "K♠", "2♦", "2♦", "3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠"]
            await socket_.send(json.dumps({"cmd": "new", "game": "memory", "deck": deck, "id": 1}))
            await reply_to(socket_, 1)
            for card in (0, 1):
                await socket_.send(
                    json.dumps(
                        {"cmd": "act", "action": {"type": "flip", "card": card}, "id": 2 + card}
                    )
                )
                await reply_to(socket_, 2 + card)
            return json.loads(await asyncio.wait_for(socket_.recv(), 10))

    pushed = asyncio.run(play())
    assert pushed["events"] == [{"type": "removed", "cards": [0, 1]}]
    assert "reply" not in pushed


def test_malformed_and_oversized_messages_get_errors_and_the_connection_goes_on(server):
    url, _ = server
    _, answers = asyncio.run(
        converse(
            url,
            [
                "{not json",
                "[]",
                {"cmd": "teleport"},
                {"cmd": "act", "action": {"type": "flip", "card": 0}},
                "x" * 70_000,
                {"cmd": "new", "game": "concentration", "seed": 1},
            ],
        )
    )
    codes = [answer[-1].get("error", {}).get("code") for answer in answers]
    assert codes == ["invalid-json", "bad-request", "unknown-command", "no-game", "too-large", None]
    assert all(len(answer) == 1 for answer in answers[:5]), "one error each, nothing else"
    dealt = last_of(answers[-1], "update")
    assert len(dealt["view"]["board"]) == 52


def test_a_client_that_vanishes_mid_game_costs_nothing(server):
    url, _ = server
    host, port = url[len("http://") : -1].rsplit(":", 1)
    raw = socket.create_connection((host, int(port)))
    raw.sendall(
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    assert b"101" in raw.recv(4096).split(b"\r\n")[0]
    raw.close()  # gone without a closing handshake

    async def mid_game_drop():
        socket_ = await websockets.connect(ws_url(url))
        await socket_.recv()
        await socket_.send(json.dumps({"cmd": "new", "game": "memory", "seed": 3, "id": 1}))
        await reply_to(socket_, 1)
        await socket_.send(json.dumps({"cmd": "act", "action": {"type": "flip", "card": 0}}))
        socket_.transport.abort()

    asyncio.run(mid_game_drop())
    for _ in range(100):
        if json.loads(fetch(url + "api/health")[2])["clients"] == 0:
            break
        asyncio.run(asyncio.sleep(0.05))
    health = json.loads(fetch(url + "api/health")[2])
    assert health["clients"] == 0 and health["rooms"] == 0, "the room is put away"
    _, answers = asyncio.run(converse(url, [{"cmd": "new", "game": "memory", "seed": 3}]))
    assert answers[0][-1]["type"] == "update"


def test_sigterm_and_sigint_stop_the_server_cleanly(cardtable, web_root):
    for sent in (signal.SIGTERM, signal.SIGINT):
        with running_server(cardtable, web_root) as (url, process):

            async def connected_client():
                async with websockets.connect(ws_url(url)) as socket_:
                    await socket_.recv()
                    process.send_signal(sent)
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        while True:
                            await asyncio.wait_for(socket_.recv(), 10)
                    return closed.value

            closed = asyncio.run(connected_client())
            assert closed.rcvd is not None and closed.rcvd.code == 1001, "going away, not 1006"
            assert process.wait(timeout=10) == 0
            assert "CardTable stopped." in process.stdout_text()


def test_a_busy_port_is_a_clear_error(cardtable, web_root):
    with running_server(cardtable, web_root) as (url, _):
        port = url.rstrip("/").rsplit(":", 1)[1]
        import subprocess

        result = subprocess.run(
            [
                cardtable,
                "serve",
                "--port",
                port,
                "--web",
                str(web_root),
                "--data",
                str(web_root / "busy-port-data"),
            ],
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert result.returncode == 1
        assert port in result.stderr


def server_cpu_seconds(process):
    """utime + stime of a process, in seconds."""
    fields = pathlib.Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_out_of_descriptors_it_refuses_logs_once_serves_on_and_accepts_again(cardtable, web_root):
    # NB: 96 descriptors: the server keeps 32 in reserve and serves 64 connections.
    with running_server(cardtable, web_root, descriptors=96) as (url, process):

        async def scenario():
            held, refused = [], 0
            for _ in range(120):
                try:
                    socket_ = await websockets.connect(ws_url(url), open_timeout=5)
                    await asyncio.wait_for(socket_.recv(), 5)
                    held.append(socket_)
                except (
                    TimeoutError,
                    OSError,
                    websockets.InvalidHandshake,
                    websockets.ConnectionClosed,
                ):
                    refused += 1
            assert 0 < len(held) <= 64 and refused == 120 - len(held)
            cpu = server_cpu_seconds(process)
            for _ in range(30):  # knocking while full costs the server nothing
                with contextlib.suppress(
                    OSError,
                    websockets.InvalidHandshake,
                    websockets.ConnectionClosed,
                    asyncio.TimeoutError,
                ):
                    extra = await websockets.connect(ws_url(url), open_timeout=2)
                    await extra.close()
            await asyncio.sleep(1)
            assert server_cpu_seconds(process) - cpu < 0.5, "the server spins at its limit"
            for socket_ in held[:5]:  # those it holds are served
                await socket_.send(json.dumps({"cmd": "new", "game": "memory", "seed": 1, "id": 9}))
                assert (await reply_to(socket_, 9))[-1]["type"] == "update"
            for socket_ in held[:20]:
                await socket_.close()
            for _ in range(100):
                if json.loads(fetch(url + "api/health")[2])["clients"] <= len(held) - 20:
                    break
                await asyncio.sleep(0.05)
            again = [await websockets.connect(ws_url(url), open_timeout=5) for _ in range(10)]
            for socket_ in again + held[20:]:
                await socket_.close()

        asyncio.run(scenario())
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        log = process.stderr_text()
        assert log.count("the limit; refusing new ones") == 1, log
        assert "accepting again" in log, log
