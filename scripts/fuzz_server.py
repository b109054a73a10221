#!/usr/bin/env python3
"""Seeded fuzzer for `cardtable serve`: hostile WebSocket traffic on loopback.

Starts `cardtable serve --port 0` and runs a bounded number of seeded scenarios, each on a
fresh connection:

* `text`       – mutated JSON text frames (the engine fuzzer's inputs, scripts/fuzz_engine.py)
* `bad-utf8`   – text frames whose bytes are not UTF-8
* `binary`     – binary frames
* `fragments`  – a valid or mutated message split into continuation frames
* `oversized`  – a message just over the 64 KiB limit, in one frame or in fragments
* `vanish`     – a game with timers pending, then the TCP connection is dropped
* `raw`        – hand-made frames on a raw socket: a truncated header, a 2^63-byte length, an
  unmasked frame, reserved opcodes and bits, a long ping, a bad close code, an HTTP request
  cut short, garbage instead of a handshake – then the socket is closed mid-message
* `wrong-path` – a WebSocket on a path other than `/ws`

On a WebSocket that stays open the scenario ends with a probe `{"cmd":"state","id":"probe"}`
that must be answered, and every message the server sent must be a JSON object whose `type`
is `welcome`, `update`, `answer` or `error`. After every scenario `GET /api/health` must answer
200 with `ok: true`, and a long-lived *canary* connection must still answer. At the end every
room must be gone again (`rooms: 0`) and the server must stop cleanly on SIGTERM.

    python3 scripts/fuzz_server.py --bin .build/release/cardtable --iterations 2000 --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import struct
import sys
import tempfile
import time
import urllib.request

import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_engine import default_binary, mutate  # noqa: E402
from loadtest import Server  # noqa: E402

# NB: the message types of docs/PROTOCOL.md; anything else is a finding.
KNOWN_TYPES = {"welcome", "hello", "joined", "left", "closed", "update", "answer", "error"}
SCENARIOS = [
    "text",
    "text",
    "text",
    "bad-utf8",
    "binary",
    "fragments",
    "oversized",
    "vanish",
    "raw",
    "raw",
    "wrong-path",
]


class FuzzFailure(Exception):
    """The server broke its contract in `scenario` number `iteration`."""


def frame(
    opcode: int,
    payload: bytes,
    fin: bool = True,
    mask: bool = True,
    rsv: int = 0,
    length: int | None = None,
) -> bytes:
    """One WebSocket frame (RFC 6455 §5.2); `length` may lie about the payload's size."""
    size = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    mask_bit = 0x80 if mask else 0
    if size < 126:
        head += bytes([mask_bit | size])
    elif size < 1 << 16:
        head += bytes([mask_bit | 126]) + struct.pack("!H", size)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", size)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(byte ^ key[index % 4] for index, byte in enumerate(payload))


def check_message(text, scenario: str) -> dict:
    """A server message must be a JSON object of a known type."""
    if isinstance(text, bytes):
        raise FuzzFailure(f"{scenario}: the server sent a binary frame {text[:100]!r}")
    try:
        message = json.loads(text)
    except ValueError as error:
        raise FuzzFailure(
            f"{scenario}: the server sent non-JSON ({error}): {text[:200]!r}"
        ) from error
    if not isinstance(message, dict) or message.get("type") not in KNOWN_TYPES:
        raise FuzzFailure(f"{scenario}: unexpected message {text[:200]!r}")
    return message


async def probe(socket, scenario: str, sent: int, timeout: float) -> None:
    """Asks for the state and reads until the answer to it; checks everything read."""
    await socket.send(json.dumps({"cmd": "state", "id": "probe"}))
    answers = 0
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            text = await asyncio.wait_for(socket.recv(), max(left, 0.001))
        except TimeoutError:
            raise FuzzFailure(f"{scenario}: no answer to the probe within {timeout} s") from None
        message = check_message(text, scenario)
        if message.get("reply") == "probe":
            break
        answers += 1
    if answers < sent:
        raise FuzzFailure(f"{scenario}: {sent} messages sent but only {answers} answered")


async def open_socket(url: str, timeout: float):
    socket = await websockets.connect(
        url, compression=None, ping_interval=None, open_timeout=timeout, max_size=2**24
    )
    check_message(await asyncio.wait_for(socket.recv(), timeout), "welcome")
    return socket


async def text_scenario(url, rng, timeout, kind):
    """Text, invalid-UTF-8, binary, fragmented or oversized messages, then the probe."""
    socket = await open_socket(url, timeout)
    try:
        sent = 0
        if rng.random() < 0.5:  # often with a game running, so actions reach the rules
            game = rng.choice(["memory", "concentration", "matchismo", "set", "snap"])
            await socket.send(json.dumps({"cmd": "new", "game": game, "seed": rng.randrange(99)}))
            sent += 1
        for _ in range(rng.randint(1, 10)):
            data = mutate(rng, long_lines=False)
            if kind == "text":
                await socket.send(data.decode("utf-8", "replace"))
            elif kind == "bad-utf8":
                await socket.send(data + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80"]), text=True)
            elif kind == "binary":
                await socket.send(data)
            elif kind == "fragments":
                cut = sorted(rng.sample(range(len(data) + 1), min(3, len(data) + 1)))
                parts = [data[a:b] for a, b in zip([0] + cut, cut + [len(data)])]
                await socket.send([part.decode("utf-8", "replace") for part in parts])
            elif kind == "oversized":
                big = b'{"cmd":"state","pad":"' + b"x" * (65_536 + rng.randrange(100)) + b'"}'
                if rng.random() < 0.5:
                    await socket.send(big.decode())
                else:
                    await socket.send(
                        [big[i : i + 16_384].decode() for i in range(0, len(big), 16_384)]
                    )
            sent += 1
        await probe(socket, kind, sent, timeout)
    finally:
        await socket.close()


async def vanish_scenario(url, rng, timeout):
    """Starts a game, leaves timers pending, then drops the TCP connection without a close."""
    socket = await open_socket(url, timeout)
    game = rng.choice(["memory", "concentration", "snap"])
    await socket.send(json.dumps({"cmd": "new", "game": game, "seed": rng.randrange(99)}))
    check_message(await asyncio.wait_for(socket.recv(), timeout), "vanish")
    if game != "snap":
        for card in rng.sample(range(12), 2):
            await socket.send(json.dumps({"cmd": "act", "action": {"type": "flip", "card": card}}))
    if rng.random() < 0.5:  # half a message in flight
        socket.transport.write(frame(1, b'{"cmd":"sta', fin=False))
    socket.transport.abort()


async def read_frame(reader) -> tuple[int, bytes]:
    """One unmasked server frame: (opcode, payload)."""
    first, second = await reader.readexactly(2)
    size = second & 0x7F
    if size == 126:
        size = struct.unpack("!H", await reader.readexactly(2))[0]
    elif size == 127:
        size = struct.unpack("!Q", await reader.readexactly(8))[0]
    return first & 0x0F, await reader.readexactly(size)


async def expect_text(reader, wanted: bytes, timeout: float, attack: str) -> None:
    """Reads frames until a text frame containing `wanted`."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            opcode, payload = await asyncio.wait_for(
                read_frame(reader), max(deadline - time.monotonic(), 0.001)
            )
        except TimeoutError:
            raise FuzzFailure(f"raw {attack}: no answer to a valid message") from None
        if opcode == 1:
            check_message(payload.decode("utf-8"), f"raw {attack}")
            if wanted in payload:
                return


RAW_ATTACKS = [
    "truncated-header",
    "huge-length",
    "unmasked",
    "reserved-opcode",
    "rsv-bits",
    "long-ping",
    "bad-close",
    "half-message",
    "half-handshake",
    "garbage",
    "continuation-first",
    "interleaved-control",
    "zero-length-fragments",
]


async def raw_scenario(host, port, rng, timeout):
    """A hand-made handshake and hostile frames on a raw socket, closed mid-message."""
    attack = rng.choice(RAW_ATTACKS)
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        if attack == "garbage":
            writer.write(bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000))))
            await writer.drain()
            return attack
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        if attack == "half-handshake":
            writer.write(request[: rng.randrange(1, len(request) - 2)])
            await writer.drain()
            return attack
        writer.write(request)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise FuzzFailure(f"raw: handshake refused: {head[:200]!r}")
        payload = json.dumps({"cmd": "state"}).encode()
        frames = {
            "truncated-header": frame(1, payload)[: rng.randint(1, 5)],
            "huge-length": frame(1, b"{}", length=(1 << 63) - 1)[:14] + b"{}",
            "unmasked": frame(1, payload, mask=False),
            "reserved-opcode": frame(rng.choice([3, 4, 5, 6, 7, 0xB, 0xC, 0xF]), payload),
            "rsv-bits": frame(1, payload, rsv=rng.randint(1, 7)),
            "long-ping": frame(9, b"p" * 200, length=200),
            "bad-close": frame(8, struct.pack("!H", rng.choice([0, 999, 1005, 1006, 5000]))),
            "half-message": frame(1, payload)[: -rng.randint(1, len(payload))],
            "continuation-first": frame(0, payload),
            "interleaved-control": frame(1, payload[:5], fin=False)
            + frame(9, b"x")
            + frame(0, payload[5:]),
            "zero-length-fragments": frame(1, b"", fin=False)
            + frame(0, b"", fin=False)
            + frame(0, payload),
        }
        writer.write(frames[attack])
        await writer.drain()
        if attack in ("interleaved-control", "zero-length-fragments"):
            # valid framing: the state request must be answered (no game yet: `no-game`)
            await expect_text(reader, b"no-game", timeout, attack)
            return attack
        # read a little of whatever comes back, then drop the socket mid-conversation
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reader.read(4096), 0.05)
        return attack
    except (ConnectionError, asyncio.IncompleteReadError) as error:
        if attack in ("interleaved-control", "zero-length-fragments"):
            raise FuzzFailure(
                f"raw {attack}: the server hung up on valid frames: {error!r}"
            ) from error
        return attack  # the server may hang up on a protocol violation: that is fine
    finally:
        writer.transport.abort()


async def wrong_path_scenario(url, timeout):
    """A WebSocket on another path: the server closes it; nothing else happens."""
    try:
        socket = await websockets.connect(
            url.rsplit("/", 1)[0] + "/elsewhere", compression=None, open_timeout=timeout
        )
    except (websockets.InvalidStatus, websockets.InvalidHandshake, ConnectionError):
        return
    try:
        await asyncio.wait_for(socket.recv(), timeout)
    except websockets.ConnectionClosed:
        return
    finally:
        await socket.close()


def health(base: str, timeout: float) -> dict:
    with urllib.request.urlopen(base + "api/health", timeout=timeout) as response:
        if response.status != 200:
            raise FuzzFailure(f"health: status {response.status}")
        body = json.loads(response.read())
    if body.get("ok") is not True:
        raise FuzzFailure(f"health: {body}")
    return body


async def fuzz(server: Server, iterations: int, seed: int, timeout: float, log=None) -> dict:
    rng = random.Random(seed)
    host, port = server.base[len("http://") :].rstrip("/").rsplit(":", 1)
    counts: dict[str, int] = {}
    canary = await open_socket(server.ws_url, timeout)
    await canary.send(json.dumps({"cmd": "new", "game": "memory", "seed": 1}))
    check_message(await asyncio.wait_for(canary.recv(), timeout), "canary")
    last_canary = 0.0
    started = time.monotonic()
    for iteration in range(iterations):
        scenario = rng.choice(SCENARIOS)
        label = scenario
        try:
            if scenario in ("text", "bad-utf8", "binary", "fragments", "oversized"):
                await asyncio.wait_for(
                    text_scenario(server.ws_url, rng, timeout, scenario), 2 * timeout
                )
            elif scenario == "vanish":
                await vanish_scenario(server.ws_url, rng, timeout)
            elif scenario == "raw":
                label = "raw:" + await raw_scenario(host, int(port), rng, timeout)
            else:
                await wrong_path_scenario(server.ws_url, timeout)
        except FuzzFailure as failure:
            raise FuzzFailure(f"iteration {iteration} ({label}): {failure}") from None
        except (TimeoutError, websockets.ConnectionClosed, ConnectionError) as error:
            if server.process.poll() is not None:
                raise FuzzFailure(
                    f"iteration {iteration} ({label}): the server died with status "
                    f"{server.process.returncode}"
                ) from None
            raise FuzzFailure(f"iteration {iteration} ({label}): {error!r}") from None
        counts[label] = counts.get(label, 0) + 1
        if server.process.poll() is not None:
            raise FuzzFailure(
                f"iteration {iteration} ({label}): the server died with status "
                f"{server.process.returncode}"
            )
        try:
            await asyncio.to_thread(health, server.base, timeout)
            if time.monotonic() - last_canary > 0.1:  # stay well under 30 messages/s
                last_canary = time.monotonic()
                await probe(canary, "canary", 0, timeout)
        except FuzzFailure as failure:
            raise FuzzFailure(f"after iteration {iteration} ({label}): {failure}") from None
        except Exception as error:  # noqa: BLE001 - any failure to answer is the finding
            raise FuzzFailure(
                f"after iteration {iteration} ({label}): server unhealthy: {error!r}"
            ) from None
        if log and iteration % 500 == 499:
            log(f"  {iteration + 1} scenarios, {time.monotonic() - started:.1f} s")
    await canary.close()
    deadline = time.monotonic() + 10
    rooms = health(server.base, timeout)["rooms"]
    while rooms and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        rooms = health(server.base, timeout)["rooms"]
    if rooms:
        raise FuzzFailure(f"{rooms} rooms still open after every client left")
    return {
        "scenarios": iterations,
        "seconds": round(time.monotonic() - started, 2),
        "server_rss_mib": round(server.rss_mib(), 1),
        "counts": dict(sorted(counts.items())),
    }


def fuzz_server(binary: str, iterations: int, seed: int, timeout: float = 10.0, log=None) -> dict:
    """Runs the fuzzer against a fresh server; raises `FuzzFailure` on any finding."""
    with tempfile.TemporaryDirectory() as web_root:
        with open(os.path.join(web_root, "index.html"), "w") as index:
            index.write("<!doctype html><title>CardTable</title>")
        server = Server(binary, web_root)
        try:
            result = asyncio.run(fuzz(server, iterations, seed, timeout, log))
        finally:
            server.stop()
        if server.process.returncode != 0:
            raise FuzzFailure(
                f"the server exited with status {server.process.returncode} on "
                f"SIGTERM; stderr: {server.process.stderr.read()[-2000:]}"
            )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=None, help="the cardtable binary")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    binary = args.bin or default_binary()
    print(f"fuzzing {binary} serve: {args.iterations} scenarios, seed {args.seed}")
    try:
        result = fuzz_server(binary, args.iterations, args.seed, args.timeout, log=print)
    except FuzzFailure as failure:
        print(f"FAILED: {failure}")
        return 1
    print(json.dumps(result, indent=1))
    print("ok: the server answered every probe and health check, and stopped cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())
