#!/usr/bin/env python3
"""The game server's instructions per action, counted by callgrind (docs/PERFORMANCE.md).

Runs `cardtable bench rooms` under `valgrind --tool=callgrind`, one profile part for each of
its runs (tables of four of a game, on a virtual clock, in process), and prints for each the
instructions spent in the server's calls (`RoomsLoad.serve`: a message or a timer, and the
commit at the end of the turn) per accepted action. Instructions, unlike seconds, do not move
with the machine's load, so two builds compare in one line each:

    swift build -c release
    python3 scripts/callgrind_rooms.py --bin .build/release/cardtable            # --quick size
    python3 scripts/callgrind_rooms.py --bin old/cardtable --bin .build/release/cardtable

A `--quick` run takes some four minutes under valgrind; `--smoke` a few seconds.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAY = "$s16CardTableCommand9RoomsLoadC4play3for"
SERVE = "$s16CardTableCommand9RoomsLoadC5serve"
RUN = re.compile(r"^(rooms, [^:]+): .*\((\d+) actions")


def count(binary: str, size: str) -> list[tuple[str, int, int]]:
    """Each run's (name, actions, server instructions)."""
    # NB: `RoomsLoad.play(for:)` by its whole symbol, which callgrind needs to split the profile
    # there and nowhere else.
    symbols = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    # NB: the shortest: the others are closures within it.
    found = [line.split()[-1] for line in symbols.splitlines() if PLAY in line]
    play = min((name for name in found if name.startswith(PLAY)), key=len, default=None)
    if play is None:
        sys.exit(f"callgrind_rooms: {binary} has no bench rooms (no {PLAY}…)")
    with tempfile.TemporaryDirectory() as directory:
        out = os.path.join(directory, "callgrind.out")
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--dump-before={play}",
            f"--dump-after={play}",
            f"--callgrind-out-file={out}",
            binary,
            "bench",
            "rooms",
            f"--{size}",
        ]
        # NB: the same hash seed every run, so that dictionaries take the same instructions.
        environment = dict(
            os.environ, CARDTABLE_WEB=os.path.join(ROOT, "web"), SWIFT_DETERMINISTIC_HASHING="1"
        )
        result = subprocess.run(command, capture_output=True, text=True, env=environment)
        if result.returncode != 0:
            sys.exit(f"callgrind_rooms: {binary} failed:\n{result.stderr[-2000:]}")
        runs = [m.groups() for m in map(RUN.match, result.stdout.splitlines()) if m]
        parts = sorted(
            (p for p in glob.glob(out + ".*") if p.rsplit(".", 1)[1].isdigit()),
            key=lambda p: int(p.rsplit(".", 1)[1]),
        )
        # NB: a part ends where each play begins and ends, so every second one is a play.
        plays = parts[1::2]
        if len(plays) != len(runs):
            sys.exit(f"callgrind_rooms: {len(runs)} runs but {len(plays)} profiles of a play")
        return [
            (name, int(actions), serve_instructions(part))
            for (name, actions), part in zip(runs, plays)
        ]


def serve_instructions(part: str) -> int:
    """The inclusive instructions of every copy of `RoomsLoad.serve` (they never nest).

    A function whose code callgrind finds in two files (its own and `<compiler-generated>`) is
    listed twice, the one inside the other: each copy counts once, at its larger figure.
    """
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--auto=no", "--threshold=100", part],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    copies: dict[str, int] = {}
    for line in text.splitlines():
        match = re.match(r"^\s*([\d,]+) \([^)]*\)\s+\S*?:?(\$s\S+)", line)
        if match and match.group(2).startswith(SERVE) and "'" not in match.group(2):
            name, value = match.group(2), int(match.group(1).replace(",", ""))
            copies[name] = max(copies.get(name, 0), value)
    return sum(copies.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", action="append", help="a cardtable binary (repeat to compare)")
    parser.add_argument("--size", choices=["quick", "smoke"], default="quick")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("callgrind_rooms: valgrind is not installed (apt-get install valgrind)")
    binaries = args.bin or [os.path.join(ROOT, ".build/release/cardtable")]
    results = [count(binary, args.size) for binary in binaries]
    for runs in zip(*results):
        figures = [instructions / actions for _, actions, instructions in runs]
        line = f"{runs[0][0]}: " + ", ".join(f"{value:,.0f}" for value in figures)
        if len(figures) > 1:
            line += f" instructions per action ({figures[-1] / figures[0]:.2f}× the first)"
        else:
            line += f" instructions per action ({runs[0][1]} actions)"
        print(line)


if __name__ == "__main__":
    main()
