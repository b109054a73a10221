#!/usr/bin/env python3
"""Start-up time of `cardtable play`: from exec to the first playable screen (the game's status
line written to the terminal), on a pseudo-terminal of 80×24, beside `cardtable --version`
(the bare process start) in the same run. Prints the median and the range of `--runs` runs.

    scripts/bench_terminal_startup.py [--bin .build/release/cardtable] [--runs 9]
"""

import argparse
import contextlib
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import tempfile
import termios
import time


def until_shown(argv, marker, env):
    """Seconds from fork to `marker` appearing in the program's output on a pty."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen = b""
    try:
        while marker not in seen:
            ready, _, _ = select.select([fd], [], [], 10)
            if not ready:
                raise SystemExit(f"{argv}: nothing for 10 s; got {seen[-200:]!r}")
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
        elapsed = time.perf_counter() - start
        if marker not in seen:
            raise SystemExit(f"{argv} ended before {marker!r}")
        os.write(fd, b"qy")
    finally:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        os.close(fd)
    return elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release/cardtable")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="cardtable-startup-")
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    try:
        rows = {
            "cardtable --version": ([args.bin, "--version"], b"cardtable "),
            "cardtable play memory (to a playable screen)": (
                [args.bin, "play", "memory", "--seed", "1", "--data", data],
                b"Pairs found: 0 of 6",
            ),
            "cardtable play (the menu)": ([args.bin, "play", "--data", data], b"Choose a game"),
        }
        for name, (argv, marker) in rows.items():
            times = sorted(until_shown(argv, marker, env) for _ in range(args.runs))
            print(
                f"{name}: median {statistics.median(times) * 1000:.1f} ms "
                f"(min {times[0] * 1000:.1f}, max {times[-1] * 1000:.1f}, {args.runs} runs)"
            )
    finally:
        shutil.rmtree(data)


if __name__ == "__main__":
    main()
