"""Where the suite's CPU goes, test by test: with `CARDTABLE_CPU_REPORT=<file>` each worker
appends one JSON line per test to the file — the test's id, its wall time, the CPU time
(user and system, in seconds) that the worker's whole process tree spent while it ran, and
that CPU by kind of process (`by`): the worker itself, Playwright's driver, its Chromium
(browser, renderers, GPU and utility processes), the servers and terminals the test started,
and what the worker reaped meanwhile without its being read. `scripts/e2e_cpu.py <file>` sums
it by module and lists the dearest tests.

NB: CI's test stage is CPU-bound on two cores (docs/PERFORMANCE.md, "Where CI's test stage
spends its time"), so a test's CPU, not its wall time, is what it costs CI; wall time under
parallel workers is mostly waiting for a core. A session-wide server's work for a test is
counted in whichever test's span it falls in.
"""

import json
import os
import threading
import time

import pytest

REPORT = os.environ.get("CARDTABLE_CPU_REPORT")
TICK = os.sysconf("SC_CLK_TCK")
# How often the tree is read, in seconds: a process that exits unreaped (Chromium's
# renderers) is counted as of its last reading.
EVERY = 0.1


def _processes():
    """{pid: (parent pid, own CPU seconds, reaped children's CPU seconds)} from /proc."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                text = stat.read()
        except OSError:
            continue
        # NB: after the command's closing parenthesis (a command may hold spaces and parentheses).
        fields = text[text.rindex(b")") + 2 :].split()
        # stat(5)'s fields 4 and 14–17 (ppid, utime, stime, cutime, cstime), here from 0 = field 3.
        own = (int(fields[11]) + int(fields[12])) / TICK
        reaped = (int(fields[13]) + int(fields[14])) / TICK
        found[int(name)] = (int(fields[1]), own, reaped)
    return found


def _kind(pid):
    """What a process is, in a word: Chromium's by its `--type` (`browser` for the main one),
    else its command's name."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            args = cmdline.read().split(b"\0")
        if len(args) <= 2:  # NB: Chromium writes its title over its arguments, spaced
            args = args[0].split(b" ")
    except OSError:
        return "?"
    command = os.path.basename(args[0].decode(errors="replace")) if args and args[0] else "?"
    if "chrom" in command:
        for arg in args:
            if arg.startswith(b"--type="):
                return "chromium-" + arg[7:].decode(errors="replace")
        return "chromium-browser"
    if command.startswith("python"):
        return "python"
    return command


class TreeMeter:
    """Reads the CPU of a process and its descendants every `EVERY` s while a test runs.

    NB: Chromium's processes reap their children without counting their time (a renderer's
    CPU is gone from /proc when it exits), so each process is counted by its own time as last
    read; the root's reaped children (servers, `cardtable engine`) by the root's count of them.
    """

    def __init__(self, root):
        self.root = root
        self.first = {}
        self.last = {}
        self.kinds = {}
        self.root_reaped = None
        self.done = threading.Event()
        self.read()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def read(self):
        processes = _processes()
        children = {}
        for pid, (parent, _, _) in processes.items():
            children.setdefault(parent, []).append(pid)
        stack = [self.root]
        while stack:
            pid = stack.pop()
            if pid in processes:
                own = processes[pid][1]
                self.first.setdefault(pid, own if self.root_reaped is None else 0.0)
                self.last[pid] = (processes[pid][0], own)
                if pid not in self.kinds:
                    self.kinds[pid] = _kind(pid)
            stack.extend(children.get(pid, ()))
        reaped = processes[self.root][2]
        if self.root_reaped is None:
            self.root_reaped = reaped
        return reaped, set(processes)

    def run(self):
        while not self.done.wait(EVERY):
            self.read()

    def stop(self):
        """The CPU seconds the tree spent since the meter started."""
        self.done.set()
        self.thread.join()
        reaped, alive = self.read()
        total = 0.0
        self.by_kind = {}
        for pid, (_, own) in self.last.items():
            total += own - self.first[pid]
            kind = self.kinds.get(pid, "?")
            self.by_kind[kind] = self.by_kind.get(kind, 0.0) + own - self.first[pid]
        # The root's children reaped meanwhile: their whole lives (and what they reaped) are in
        # the root's count; what of it was read above is not counted twice.
        gone = {
            pid
            for pid, (parent, _) in self.last.items()
            if parent == self.root and pid not in alive
        }
        read = 0.0
        for pid, (_, own) in self.last.items():
            ancestor = pid
            while ancestor in self.last and ancestor not in gone:
                ancestor = self.last[ancestor][0]
            if ancestor in gone:
                read += own
        unread = max(0.0, reaped - self.root_reaped - read)
        if unread:
            self.by_kind["reaped"] = unread
        return total + unread


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not REPORT:
        yield
        return
    meter, wall = TreeMeter(os.getpid()), time.monotonic()
    yield
    line = {
        "test": item.nodeid,
        "wall": round(time.monotonic() - wall, 3),
        "cpu": round(meter.stop(), 3),
    }
    line["by"] = {kind: round(cpu, 3) for kind, cpu in meter.by_kind.items() if cpu >= 0.005}
    with open(REPORT, "a") as report:
        report.write(json.dumps(line) + "\n")
