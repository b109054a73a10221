#!/usr/bin/env python3
"""`cardtable engine` beside a small Python model of it (scripts/engine_model.py) on a recorded
stream of whole Memory games, in one run (docs/PERFORMANCE.md).

Records a stream of whole games of Memory alone (easy, medium and hard in turn, each from a
seed) played by a perfect-recall player: it remembers every card it has seen, turns a pair it
knows, else an unseen card and its partner if it knows it; it thinks now and then (an
`advance` of a fraction of a second), advances the clock by the timer's delay after every pair
(1.0 s for a match, 2.0 s for a mismatch), sometimes taps too early or twice (Memory's
refusals) and asks `state` and `results` now and then, as a tool would. The commands are
chosen with the help of the Python model; the check below compares it with the real engine.

Then it runs `cardtable engine < stream > out` and `python3 scripts/engine_model.py < stream
> out`, each as a whole process, alternating, --runs times; fails with the first differing
line unless the two outputs are byte-identical; and prints each one's median total seconds,
lines/s and MB/s of replies, and engine / Python.

    swift build -c release
    python3 scripts/bench_engine_model.py                      # 300 games, median of 3 runs
    python3 scripts/bench_engine_model.py --bin .build/debug/cardtable --smoke
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "scripts", "engine_model.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_model import Console, SplitMix64, dumps  # noqa: E402

DIFFICULTIES = ["easy", "medium", "hard"]
# What the player's thinking before a card adds to the clock, in seconds: fractions whose sums
# (0.1 + 0.2) show how the engine writes a clock that is not a whole number.
THINKING = [0.1, 0.2, 0.25, 0.3, 0.5, 0.7, 1.5]


class Recorder:
    """Sends commands to the Python model and keeps each one's line."""

    def __init__(self):
        self.console = Console()
        self.lines: list[str] = []

    def send(self, command: dict, ok: bool = True) -> dict:
        self.lines.append(dumps(command))
        reply = self.console.reply(command)
        assert reply["ok"] == ok, (command, reply)
        return reply


def play(recorder: Recorder, random: SplitMix64, difficulty: str, seed: int) -> None:
    """One whole game of Memory alone by a player who forgets nothing."""
    new = {"cmd": "new", "game": "memory", "options": {"difficulty": difficulty}, "seed": seed}
    count = len(recorder.send(new)["state"]["board"])
    unseen = list(range(count))  # positions never seen face up
    seen: dict[str, list[int]] = {}  # face → its face-down positions seen, not yet paired
    removed: list[int] = []

    def think() -> None:
        if random.next_int(4) == 0:
            seconds = THINKING[random.next_int(len(THINKING))]
            recorder.send({"cmd": "advance", "seconds": seconds})

    def flip(index: int) -> dict:
        reply = recorder.send({"cmd": "act", "action": {"type": "flip", "card": index}})
        face = reply["events"][0]["face"]
        if index in unseen:
            unseen.remove(index)
            seen.setdefault(face, []).append(index)
        return reply

    def tap_refused(index: int) -> None:
        recorder.send({"cmd": "act", "action": {"type": "flip", "card": index}}, ok=False)

    over = False
    while not over:
        if random.next_int(8) == 0:
            recorder.send({"cmd": "state"})
        if removed and random.next_int(40) == 0:
            tap_refused(removed[random.next_int(len(removed))])  # card-removed
        known = next((places for places in seen.values() if len(places) == 2), None)
        first = known[0] if known else unseen[random.next_int(len(unseen))]
        think()
        face = flip(first)["events"][0]["face"]
        if random.next_int(40) == 0:
            tap_refused(first)  # card-face-up
        partner = [index for index in seen[face] if index != first]
        if partner:
            second = partner[0]
        else:
            others = [index for index in unseen if index != first]
            second = others[random.next_int(len(others))]
        think()
        matched = flip(second)["events"][-1]["type"] == "matched"
        if random.next_int(30) == 0:
            left = [index for index in range(count) if index not in removed]
            tap_refused(left[random.next_int(len(left))])  # pair-pending
        delay = 1.0 if matched else 2.0
        if random.next_int(5) == 0:
            delay += THINKING[random.next_int(len(THINKING))]  # a tool polling late
        reply = recorder.send({"cmd": "advance", "seconds": delay})
        assert not reply["state"]["waiting"], reply
        if matched:
            del seen[face]
            removed += [first, second]
        over = reply["state"]["over"]
    if random.next_int(2) == 0:
        recorder.send({"cmd": "results"})


def record(games: int, seed: int) -> str:
    """The stream of `games` whole games (easy, medium, hard in turn), one command a line."""
    recorder = Recorder()
    random = SplitMix64(seed)
    for game in range(games):
        play(recorder, random, DIFFICULTIES[game % 3], random.next())
    return "".join(line + "\n" for line in recorder.lines)


def timed(command: list[str], stream: str, out: str) -> float:
    """Seconds the whole process takes to answer the stream into `out`."""
    with open(stream, "rb") as source, open(out, "wb") as target:
        start = time.perf_counter()
        subprocess.run(command, stdin=source, stdout=target, check=True)
        return time.perf_counter() - start


def first_difference(stream: str, engine: bytes, model: bytes) -> str:
    with open(stream, "rb") as file:
        commands = file.read().splitlines()
    ours, theirs = engine.splitlines(), model.splitlines()
    for number, (a, b) in enumerate(zip(ours, theirs), 1):
        if a != b:
            column = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            return (
                f"line {number} differs at byte {column}\n"
                f"  command: {commands[number - 1].decode()}\n"
                f"  engine:  {a.decode(errors='replace')}\n"
                f"  model:   {b.decode(errors='replace')}"
            )
    return f"the engine wrote {len(ours)} lines, the model {len(theirs)}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "cardtable"))
    parser.add_argument("--games", type=int, default=300, help="whole games (default 300)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the recorder's seed (default 1)")
    parser.add_argument("--stream", help="also keep the recorded stream in this file")
    parser.add_argument("--smoke", action="store_true", help="6 games, 1 run: only shows it runs")
    args = parser.parse_args()
    games, runs = (6, 1) if args.smoke else (args.games, args.runs)
    if not os.access(args.bin, os.X_OK):
        print(f"no cardtable binary at {args.bin}: build it first", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory(prefix="cardtable-engine-model-") as directory:
        stream = args.stream or os.path.join(directory, "stream.jsonl")
        text = record(games, args.seed)
        with open(stream, "w", encoding="utf-8") as file:
            file.write(text)
        lines = text.count("\n")
        commands = {
            "engine": [args.bin, "engine"],
            "python": [sys.executable, MODEL],
        }
        seconds: dict[str, list[float]] = {name: [] for name in commands}
        expected = None
        for run in range(runs):
            outputs = {}
            for name, command in commands.items():
                out = os.path.join(directory, f"{name}-{run}.jsonl")
                seconds[name].append(timed(command, stream, out))
                with open(out, "rb") as file:
                    outputs[name] = file.read()
            expected = expected if expected is not None else outputs["engine"]
            for name, output in outputs.items():
                if output != expected:
                    difference = first_difference(stream, expected, output)
                    print(f"run {run + 1}: {name}'s replies differ: {difference}", file=sys.stderr)
                    return 1
        size = len(expected)

    per_difficulty = ", ".join(
        f"{len(range(index, games, 3))} {name}" for index, name in enumerate(DIFFICULTIES)
    )
    print(f"== cardtable engine beside engine_model.py: {games} games of Memory ({per_difficulty})")
    print(
        f"stream: {lines:,} commands, {len(text.encode()) / 1e6:.2f} MB; "
        f"replies: {size / 1e6:.2f} MB; the median of {runs} run(s) of each, alternating"
    )
    print(f"outputs: byte-identical ({lines:,} replies, {runs} runs each)")
    median = {name: statistics.median(values) for name, values in seconds.items()}
    for name, label in (("engine", args.bin), ("python", "python3 scripts/engine_model.py")):
        total = median[name]
        print(
            f"{name}: {total:.3f} s, {lines / total:,.0f} lines/s, "
            f"{size / total / 1e6:,.1f} MB/s of replies ({label})"
        )
    print(f"engine / Python: {median['python'] / median['engine']:.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
