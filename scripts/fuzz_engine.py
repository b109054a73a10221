#!/usr/bin/env python3
"""Seeded fuzzer for the engine console, `cardtable engine` (docs/ENGINE.md).

Feeds one `cardtable engine` process a bounded stream of random and mutated JSON Lines:
valid commands of every game, the same commands with members of the wrong type, huge and odd
numbers, deep nesting, invalid UTF-8, NUL bytes, very long lines and random bytes. After
every line it checks the console's contract:

* every input line gets exactly one output line (a line that is only white space gets none:
  `EngineLoop` skips those, see `expected_replies`),
* each output line is a JSON object whose `ok` is a boolean, a refusal has `error.code`
  (a string), and a `state` object has a numeric `clock`,
* the process neither crashes nor hangs (each reply must come within `--timeout` seconds),
  and it exits with status 0 at the end of input.

The same seed gives the same inputs, so a failure is reproducible; the offending line is
written to `--save` (default `fuzz-engine-failure.bin`).

    python3 scripts/fuzz_engine.py --bin .build/release/cardtable --iterations 5000 --seed 1

The mutators (`mutate`, `random_line`, ...) are shared with scripts/fuzz_server.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# --------------------------------------------------------------------------------------------
# Inputs

#: Valid commands that reach every game and every command of the console.
SEEDS: list[dict] = [
    {"cmd": "new", "game": "memory", "seed": 1},
    {"cmd": "new", "game": "memory", "options": {"difficulty": "hard"}, "seed": 7},
    {"cmd": "new", "game": "memory", "options": {"difficulty": "medium"}},
    {"cmd": "new", "game": "concentration", "seed": 3},
    {"cmd": "new", "game": "matchismo", "options": {"cards": 12, "mode": 3}, "seed": 5},
    {"cmd": "new", "game": "matchismo", "deck": ["A♥", "K♣", "AH", "10C"], "seed": 2},
    {"cmd": "new", "game": "set", "options": {"refill": True, "twoPlayer": True}, "seed": 9},
    {"cmd": "new", "game": "snap", "seed": 4},
    {
        "cmd": "new",
        "game": "snap",
        "seed": 1,
        "options": {"players": ["Ann", "Bob"], "computer": ["Bob"], "starting": "Bob"},
    },
    {"cmd": "act", "action": {"type": "flip", "card": 0}},
    {"cmd": "act", "action": {"type": "flip", "card": 5}},
    {"cmd": "act", "action": {"type": "choose", "card": 1}},
    {"cmd": "act", "action": {"type": "setMode", "mode": 3}},
    {"cmd": "act", "action": {"type": "dealThree"}},
    {"cmd": "act", "action": {"type": "deal"}},
    {"cmd": "act", "action": {"type": "hint"}},
    {"cmd": "act", "action": {"type": "turn", "player": "You"}},
    {"cmd": "act", "action": {"type": "snap", "player": "Ray"}},
    {"cmd": "act", "action": {"type": "leave", "player": "Lucy"}},
    {"cmd": "act", "action": {"type": "nextRound", "player": "You"}},
    {"cmd": "act", "action": {"type": "choose", "card": 2}, "player": "P2"},
    {"cmd": "advance", "seconds": 2.5},
    {"cmd": "advance", "seconds": 30},
    {"cmd": "advance", "seconds": 1e308},
    {
        "cmd": "new",
        "game": "snap",
        "seed": 2,
        "options": {"players": ["A", "B", "C"], "computer": ["A", "B", "C"]},
    },
    {"cmd": "state"},
    {"cmd": "view", "player": "You"},
    {"cmd": "restart"},
    {"cmd": "games"},
    {"cmd": "help"},
    {"cmd": "hint"},
]

#: Replacement values: wrong types, numbers at and past every limit, odd strings.
ODD_VALUES: list = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**31,
    2**53 + 1,
    2**63,
    2**64 - 1,
    2**64,
    10**40,
    -(10**40),
    "",
    "x",
    "♥",
    "\u0000",
    "\ud7ff",
    "🂡",
    " " * 3,
    "A" * 5000,
    [],
    [[]],
    {},
    {"a": {}},
    [1, 2, 3],
    ["A♥"] * 60,
    0.5,
    -0.0,
    1e308,
    -1e308,
    1e-320,
]

#: Number texts that Python's json module would not write on its own.
ODD_NUMBER_TEXTS: list[str] = [
    "1e309",
    "-1e309",
    "1E400",
    "123456789012345678901234567890",
    "-0",
    "0.0000001e-400",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "1.5e15",
    "9e15",
    "-9223372036854775808",
    "-9223372036854775809",
    "1e-7",
    "00",
    "01",
    "1.",
    ".5",
    "+1",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    "1e",
    "--1",
]

INVALID_UTF8: list[bytes] = [
    b"\xff",
    b"\xfe",
    b"\xc3",
    b"\xc3\x28",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xc0\xaf",
    b"\xf8\x88\x80\x80\x80",
    b"\x80",
    b"\xbf",
]


def dump(value) -> bytes:
    """Compact JSON bytes, keeping non-ASCII characters as UTF-8."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def paths(value, prefix=()):
    """Every path (tuple of keys and indexes) into a JSON value, the root first."""
    yield prefix
    if isinstance(value, dict):
        for key, member in value.items():
            yield from paths(member, prefix + (key,))
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from paths(member, prefix + (index,))


def replaced(value, path, new):
    """A copy of `value` with the member at `path` replaced by `new`."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
    else:
        copy = list(value)
    copy[head] = replaced(value[head], rest, new)
    return copy


def deep(rng: random.Random) -> bytes:
    """Deep nesting: arrays or objects a few levels past the parser's limit, or very deep."""
    depth = rng.choice([63, 64, 65, 200, 10_000, 100_000])
    if rng.random() < 0.5:
        body = b"[" * depth + b"1" + b"]" * depth
    else:
        body = b'{"a":' * depth + b"1" + b"}" * depth
    if rng.random() < 0.3:
        body = body[: rng.randrange(1, len(body))]  # unterminated
    if rng.random() < 0.5:
        return b'{"cmd":"new","game":"memory","options":' + body + b"}"
    return body


def structural(rng: random.Random) -> bytes:
    """A valid command with one member replaced by an odd value or an odd number text."""
    command = rng.choice(SEEDS)
    path = rng.choice(list(paths(command)))
    if rng.random() < 0.35:
        marker = "\u0001MARK\u0001"
        text = dump(replaced(command, path, marker))
        return text.replace(dump(marker), rng.choice(ODD_NUMBER_TEXTS).encode())
    if path and rng.random() < 0.15:  # drop the member
        parent = path[:-1]
        container = command
        for key in parent:
            container = container[key]
        copy = json.loads(json.dumps(container))
        del copy[path[-1]]
        return dump(replaced(command, parent, copy))
    if rng.random() < 0.1:  # an extra, unknown member
        return dump({**command, rng.choice(["x", "cmd", "", "ok"]): rng.choice(ODD_VALUES)})
    return dump(replaced(command, path, rng.choice(ODD_VALUES)))


def byte_mutation(data: bytes, rng: random.Random) -> bytes:
    """A few byte edits: flips, deletions, insertions (invalid UTF-8, NUL, quotes), splices."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind == 1 and data:
            del data[at : at + rng.randint(1, 8)]
        elif kind == 2:
            data[at:at] = rng.choice(INVALID_UTF8)
        elif kind == 3:
            data[at:at] = b"\x00" * rng.randint(1, 3)
        elif kind == 4:
            data[at:at] = rng.choice(
                [
                    b'"',
                    b"\\",
                    b"{",
                    b"[",
                    b"}",
                    b"]",
                    b",",
                    b":",
                    b"\\u",
                    b"\\ud800",
                    b"\\udc00",
                    b"\\u0000",
                    b" ",
                ]
            )
        else:
            start = rng.randrange(len(data) + 1)
            data[at:at] = data[start : start + rng.randint(1, 16)]
    return bytes(data.replace(b"\n", b" "))


def long_line(rng: random.Random) -> bytes:
    """A very long line: a huge string member, a huge array, or a megabyte of junk."""
    size = rng.choice([70_000, 300_000, 1_000_000])
    kind = rng.randrange(4)
    if kind == 0:
        return dump({"cmd": "view", "player": "P" * size})
    if kind == 1:
        return (
            b'{"cmd":"new","game":"matchismo","deck":['
            + b'"A\xe2\x99\xa5",' * (size // 8)
            + b'"K"]}'
        )
    if kind == 2:
        return b'{"cmd":"new","game":"memory","seed":' + b"9" * size + b"}"
    return b"x" * size


def random_line(rng: random.Random) -> bytes:
    """Random bytes (no newline) of a random length."""
    length = rng.choice([0, 1, 2, 5, 20, 200])
    return bytes(rng.randrange(256) for _ in range(length)).replace(b"\n", b"\x00")


def fuzz_input(rng: random.Random, long_lines: bool = True) -> bytes:
    """One fuzz input (a line without its newline); valid commands keep the games moving."""
    roll = rng.random()
    if roll < 0.30:
        return dump(rng.choice(SEEDS))
    if roll < 0.60:
        return structural(rng)
    if roll < 0.80:
        return byte_mutation(dump(rng.choice(SEEDS)), rng)
    if roll < 0.88:
        return deep(rng)
    if roll < 0.97 or not long_lines:
        return random_line(rng)
    return long_line(rng)


# Kept for fuzz_server.py: the name says what it is for there.
mutate = fuzz_input

# --------------------------------------------------------------------------------------------
# Checks

#: Unicode White_Space: what Swift's `Character.isWhitespace` calls white space.
SWIFT_WHITESPACE = set("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)
}


def expected_replies(line: bytes) -> int:
    """1, or 0 for a line that is only white space (docs/ENGINE.md: blank lines are skipped)."""
    text = line.decode("utf-8", "replace")
    return 0 if all(ch in SWIFT_WHITESPACE for ch in text) else 1


def _reject_constant(name):
    raise ValueError(f"not JSON: {name}")


def check_reply(reply: bytes) -> str | None:
    """Why a reply line breaks the console's contract, or None when it is fine."""
    try:
        value = json.loads(reply.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError) as error:
        return f"reply is not JSON ({error}): {reply[:200]!r}"
    if not isinstance(value, dict):
        return f"reply is not an object: {reply[:200]!r}"
    if not isinstance(value.get("ok"), bool):
        return f"reply has no boolean ok: {reply[:200]!r}"
    state = value.get("state")
    if isinstance(state, dict) and not isinstance(state.get("clock"), (int, float)):
        return f"state.clock is not a number: {reply[:200]!r}"
    if value["ok"] is False:
        error = value.get("error")
        if not isinstance(error, dict) or not isinstance(error.get("code"), str):
            return f"refusal without error.code: {reply[:200]!r}"
    return None


class Engine:
    """One `cardtable engine` process, read line by line with a timeout."""

    def __init__(self, binary: str):
        self.process = subprocess.Popen(
            [binary, "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
        )
        self.buffer = b""

    def send(self, line: bytes) -> None:
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout: float) -> bytes | None:
        """The next output line; None on end of output or timeout (see `alive`)."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def finish(self, timeout: float) -> tuple[int | None, bytes, bytes]:
        """Closes the input; returns the exit status, any output left and standard error."""
        try:
            rest, errors = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rest, errors = self.process.communicate()
            return None, self.buffer + rest, errors
        return self.process.returncode, self.buffer + rest, errors


class FuzzFailure(Exception):
    """The console broke its contract; `line` is the input that showed it."""

    def __init__(self, message: str, line: bytes | None = None, iteration: int | None = None):
        super().__init__(message)
        self.line = line
        self.iteration = iteration


def fuzz_engine(
    binary: str,
    iterations: int,
    seed: int,
    timeout: float = 10.0,
    long_lines: bool = True,
    log=None,
) -> dict:
    """Runs the fuzzer; returns counts, or raises `FuzzFailure` with the offending input."""
    rng = random.Random(seed)
    engine = Engine(binary)
    counts = {"lines": 0, "replies": 0, "ok": 0, "refused": 0, "skipped": 0, "bytes": 0}
    codes: dict[str, int] = {}
    started = time.monotonic()
    try:
        for iteration in range(iterations):
            line = fuzz_input(rng, long_lines)
            counts["lines"] += 1
            counts["bytes"] += len(line) + 1
            try:
                engine.send(line)
            except BrokenPipeError:
                raise FuzzFailure(engine_death(engine), line, iteration) from None
            if expected_replies(line) == 0:
                counts["skipped"] += 1
                continue
            reply = engine.read_line(timeout)
            if reply is None:
                if engine.process.poll() is not None:
                    raise FuzzFailure(engine_death(engine), line, iteration)
                raise FuzzFailure(f"no reply within {timeout} s (hang)", line, iteration)
            counts["replies"] += 1
            problem = check_reply(reply)
            if problem:
                raise FuzzFailure(problem, line, iteration)
            value = json.loads(reply)
            if value["ok"]:
                counts["ok"] += 1
            else:
                counts["refused"] += 1
                codes[value["error"]["code"]] = codes.get(value["error"]["code"], 0) + 1
            if log and iteration % 1000 == 999:
                log(f"  {iteration + 1} lines, {time.monotonic() - started:.1f} s")
        status, rest, errors = engine.finish(timeout)
        if status is None:
            raise FuzzFailure("the console did not end at end of input (hang)")
        if status != 0:
            raise FuzzFailure(f"exit status {status} at end of input; stderr: {errors[-500:]!r}")
        if rest.strip():
            raise FuzzFailure(f"extra output after the last reply: {rest[:300]!r}")
    finally:
        if engine.process.poll() is None:
            engine.process.kill()
            engine.process.wait()
    counts["seconds"] = round(time.monotonic() - started, 2)
    counts["codes"] = dict(sorted(codes.items(), key=lambda item: -item[1]))
    return counts


def engine_death(engine: Engine) -> str:
    """Describes how the engine process ended."""
    status = engine.process.wait()
    errors = engine.process.stderr.read()[-2000:]
    return f"the console died with status {status}; stderr: {errors.decode('utf-8', 'replace')}"


def default_binary() -> str:
    """$CARDTABLE_BIN, else the release build, else the debug build of this checkout."""
    if os.environ.get("CARDTABLE_BIN"):
        return os.environ["CARDTABLE_BIN"]
    for config in ("release", "debug"):
        path = os.path.join(ROOT, ".build", config, "cardtable")
        if os.access(path, os.X_OK):
            return path
    sys.exit("build cardtable first (swift build -c release) or pass --bin")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=None, help="the cardtable binary")
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait per reply")
    parser.add_argument("--no-long-lines", action="store_true", help="skip the 70 KB–1 MB lines")
    parser.add_argument(
        "--save", default="fuzz-engine-failure.bin", help="where to write the input that failed"
    )
    args = parser.parse_args()
    binary = args.bin or default_binary()
    print(f"fuzzing {binary} engine: {args.iterations} lines, seed {args.seed}")
    try:
        counts = fuzz_engine(
            binary, args.iterations, args.seed, args.timeout, not args.no_long_lines, log=print
        )
    except FuzzFailure as failure:
        print(f"FAILED at line {failure.iteration}: {failure}")
        if failure.line is not None:
            with open(args.save, "wb") as file:
                file.write(failure.line + b"\n")
            print(f"input ({len(failure.line)} bytes) saved to {args.save}: {failure.line[:300]!r}")
        return 1
    print(json.dumps(counts, indent=1))
    print("ok: every line answered once with a JSON object with a boolean ok; no crash, no hang")
    return 0


if __name__ == "__main__":
    sys.exit(main())
