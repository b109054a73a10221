#!/usr/bin/env python3
"""Memory's engine beside a plain C copy of the same benchmark, in one run (docs/PERFORMANCE.md).

Builds scripts/memory_bench.c with `cc -O2`, runs it and `cardtable bench memory` with the same
number of games per difficulty, checks that both performed the same number of actions (the
same deals, rules and player), and prints each one's ns per action and Swift / C.

    swift build -c release
    python3 scripts/bench_memory_c.py --bin .build/release/cardtable          # 5,000 games
    python3 scripts/bench_memory_c.py --quick                                 # 200 games
    python3 scripts/bench_memory_c.py --quick --instructions                  # counted

Time moves with the machine's load, so much that the ratio of one run says little on a shared
machine; `--instructions` counts instead, under valgrind's callgrind: each program's
instructions at the size asked less those of 3 games (starting the program, its first deals),
divided by the actions between them, for all three difficulties together.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(
    r"memory (\w+): [\d,.]+ games/s, ([\d,.]+) ns/action \((\d+) games, (\d+) actions\)"
)
SIZES = {"full": ([], 5000), "quick": (["--quick"], 200), "smoke": (["--smoke"], 3)}


def figures(text: str, prefix: str) -> dict[str, tuple[float, int, int]]:
    """Each difficulty's (ns per action, games, actions) among the lines starting `prefix`."""
    found = {}
    for line in text.splitlines():
        if not line.startswith(prefix):
            continue
        match = LINE.search(line)
        if match:
            name, nanoseconds, games, actions = match.groups()
            found[name] = (float(nanoseconds.replace(",", "")), int(games), int(actions))
    return found


def instructions(argv: list[str], directory: str) -> tuple[int, str]:
    """The instructions `argv` executes, counted by callgrind, and what it printed."""
    out = os.path.join(directory, "callgrind.out")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
        check=True,
        capture_output=True,
        text=True,
    )
    match = re.search(r"Collected : (\d+)", done.stderr)
    if not match:
        sys.exit(f"bench_memory_c: no count from callgrind:\n{done.stderr[-1000:]}")
    return int(match.group(1)), done.stdout


def actions(text: str, prefix: str) -> int:
    """The actions of every difficulty together among the lines starting `prefix`."""
    return sum(found[2] for found in figures(text, prefix).values())


def counted(program: str, binary: str, flags: list[str], games: int, directory: str) -> int:
    """Prints each one's instructions per action (the size asked less 3 games) and the ratio."""
    if not shutil.which("valgrind"):
        print("bench_memory_c: --instructions needs valgrind (apt-get install valgrind)")
        return 1
    small_flags, small_games = SIZES["smoke"]
    runs = {
        "Swift": ([binary, "bench", "memory", *flags], [binary, "bench", "memory", *small_flags]),
        "C": ([program, str(games)], [program, str(small_games)]),
    }
    per_action = {}
    for name, (large, small) in runs.items():
        prefix = "c memory " if name == "C" else "memory "
        (large_count, large_text), (small_count, small_text) = (
            instructions(argv, directory) for argv in (large, small)
        )
        played = actions(large_text, prefix) - actions(small_text, prefix)
        spent = large_count - small_count
        per_action[name] = (spent / played, played)
    (swift, played), (c, c_played) = per_action["Swift"], per_action["C"]
    if played != c_played:
        print(f"Swift played {played} actions, C {c_played}: not the same benchmark")
        return 1
    print(f"Memory, {games} games per difficulty less 3, counted by callgrind ({played} actions)")
    print(
        f"memory instructions: Swift {swift:.1f} per action, C {c:.1f}, Swift / C {swift / c:.2f}×"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "cardtable"))
    # NB: the Swift toolchain's clang where the system has no `cc`.
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("clang") or "cc"
    parser.add_argument("--cc", default=compiler)
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="200 games per difficulty")
    size.add_argument("--smoke", action="store_true", help="3 games: only shows it still runs")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under callgrind instead"
    )
    args = parser.parse_args()
    flags, games = SIZES["quick" if args.quick else "smoke" if args.smoke else "full"]
    if args.instructions and args.smoke:
        parser.error("--instructions counts against 3 games: ask for --quick or the full size")

    with tempfile.TemporaryDirectory(prefix="cardtable-memory-c-") as directory:
        program = os.path.join(directory, "memory_bench")
        source = os.path.join(ROOT, "scripts", "memory_bench.c")
        subprocess.run([args.cc, "-O2", "-o", program, source], check=True)
        if args.instructions:
            return counted(program, args.bin, flags, games, directory)
        c_text = subprocess.run(
            [program, str(games)], check=True, capture_output=True, text=True
        ).stdout
    swift_text = subprocess.run(
        [args.bin, "bench", "memory", *flags], check=True, capture_output=True, text=True
    ).stdout
    c, swift = figures(c_text, "c memory "), figures(swift_text, "memory ")
    if set(c) != {"easy", "medium", "hard"} or set(swift) != set(c):
        print(f"could not read the figures:\n{c_text}\n{swift_text}", file=sys.stderr)
        return 1
    print(f"Memory, {games} games per difficulty: Swift engine beside a plain C copy (cc -O2)")
    for name in ("easy", "medium", "hard"):
        (c_ns, c_games, c_actions), (swift_ns, swift_games, swift_actions) = c[name], swift[name]
        if (c_games, c_actions) != (swift_games, swift_actions):
            print(
                f"{name}: C played {c_actions} actions in {c_games} games, Swift "
                f"{swift_actions} in {swift_games}: not the same benchmark",
                file=sys.stderr,
            )
            return 1
        print(
            f"memory {name}: Swift {swift_ns:.1f} ns/action, C {c_ns:.1f} ns/action, "
            f"Swift / C {swift_ns / c_ns:.2f}× ({swift_actions} actions)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
