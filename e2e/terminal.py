"""The terminal client in real tmux: `Tmux` runs one command in a detached session of its own
(its own server socket, so parallel tests never meet), sends keys and mouse reports, and
waits for what the screen must show — never a fixed sleep. A wait reads the screen again when
the pane has printed (tmux's control mode says so), not on a clock: each read is a tmux
process, and reading every 20 ms made the waits most of the terminal tests' CPU.

tmux starts with `escape-time 0` (PLATFORM.md "Terminal facts": its default 500 ms would
hold every Esc) and the command runs under `sh -c`, followed by `stty -a` into a file so a
test can check the terminal was left as it was found.
"""

import os
import pathlib
import re
import shlex
import subprocess
import threading
import time
import uuid

CARD_CORNER = re.compile(r"[┌┏╔+#]")
# NB: a wait still reads the screen this often (seconds) when tmux has said nothing: a safety
# net, not the way a change is seen.
QUIET_READ = 0.5


class Tmux:
    def __init__(self, command, tmp_path, width=80, height=24, env=None):
        self.socket = f"ct-{uuid.uuid4().hex[:10]}"
        self.tmp = pathlib.Path(tmp_path)
        self.stty = self.tmp / f"{self.socket}.stty"
        self.exit_file = self.tmp / f"{self.socket}.exit"
        environment = {"LANG": "C.UTF-8", "TERM": "xterm-256color", **(env or {})}
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in environment.items())
        # NB: after the command: its status, the terminal's settings, then a shell that waits so
        # the pane (and its last screen) stays for capture.
        script = (
            f"env {exports} {command}; echo $? > {self.exit_file}; "
            f"stty -a > {self.stty}; exec sleep 600"
        )
        self._tmux(
            "-f", "/dev/null", "new-session", "-d", "-x", str(width), "-y", str(height), script
        )
        self._tmux("set", "-sg", "escape-time", "0")
        # A control-mode client: tmux writes it a line (`%output …`, `%layout-change …`) whenever
        # the pane prints or the window changes; it sets no size of its own, so the window keeps
        # the session's. NB: its standard input stays open: a control client ends at the end of
        # its commands.
        self._changed = threading.Event()
        self._control = subprocess.Popen(
            ["tmux", "-L", self.socket, "-C", "attach"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self):
        for _ in self._control.stdout:
            self._changed.set()
        self._changed.set()

    def _tmux(self, *args, check=True):
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check
        )

    def close(self):
        self._tmux("kill-server", check=False)
        try:
            self._control.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._control.kill()
            self._control.wait()

    def screen(self, styles=False):
        args = ["capture-pane", "-p", "-N", "-J"] + (["-e"] if styles else [])
        return self._tmux(*args).stdout

    def keys(self, *keys):
        """tmux key names (`Enter`, `Right`, `Escape`) or literal text."""
        self._tmux("send-keys", *keys)

    def text(self, text):
        self._tmux("send-keys", "-l", text)

    def click(self, x, y):
        """A left click at column `x`, row `y` (0-based), as an SGR 1006 report."""
        for final in ("M", "m"):
            report = f"\x1b[<0;{x + 1};{y + 1}{final}"
            self._tmux("send-keys", "-H", *[f"{ord(c):02x}" for c in report])

    def resize(self, width, height):
        self._tmux("resize-window", "-x", str(width), "-y", str(height))

    def pid(self):
        """The process id of the command in the pane (the shell's child)."""
        shell = int(self._tmux("display-message", "-p", "#{pane_pid}").stdout.strip())
        children = subprocess.run(
            ["pgrep", "-P", str(shell)], capture_output=True, text=True
        ).stdout.split()
        # NB: `env … cardtable` execs, so the shell's one child is the command itself.
        assert len(children) == 1, f"pane shell {shell} runs {children}, not one command"
        return int(children[0])

    def wait_for(self, predicate, timeout=20, what="the screen"):
        """Waits until `predicate(screen)` is true (a string: is contained); returns the screen."""
        check = (lambda s: predicate in s) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        screen = ""
        while (left := deadline - time.monotonic()) > 0:
            # NB: cleared before the read: what the pane prints after it sets the event again.
            self._changed.clear()
            screen = self.screen()
            if check(screen):
                return screen
            self._changed.wait(min(left, QUIET_READ))
        raise AssertionError(f"{what} never showed {predicate!r}; last screen:\n{screen}")

    def wait_exit(self, timeout=20):
        """Waits for the command to end; returns its exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.stty.exists() and self.stty.stat().st_size > 0:
                return int(self.exit_file.read_text().strip())
            time.sleep(0.02)
        raise AssertionError(f"the command did not end; screen:\n{self.screen()}")

    def stty_settings(self):
        return self.stty.read_text()


def cards(screen):
    """The card places on a screen, in reading order: (x, y, width, inner lines) per card,
    found by their top-left corners and their top borders."""
    lines = screen.split("\n")
    found = []
    for y, line in enumerate(lines):
        for match in CARD_CORNER.finditer(line):
            x = match.start()
            rest = line[x + 1 :]
            end = next((i for i, c in enumerate(rest) if c in "┐┓╗+#"), None)
            if end is None or end < 2:
                continue
            if not all(c in "─━═-=abcdefghijklmnoprstuvwxyz✓*" for c in rest[:end]):
                continue
            width = end + 2
            inner = []
            for below in lines[y + 1 :]:
                segment = below[x : x + width]
                if len(segment) < width or segment[0] not in "│┃║|#":
                    break
                inner.append(segment[1:-1])
            found.append((x, y, width, inner))
    return found


RANK_SUIT = re.compile(r"(10|[2-9AJQK])([♠♥♦♣SHDC])")


def face(card):
    """A playing card's text (`10♠`) read from its first inner line, None when face down."""
    _, _, _, inner = card
    if not inner:
        return None
    match = RANK_SUIT.match(inner[0].strip())
    return match.group(0) if match else None


def environment_without_colour_overrides():
    env = dict(os.environ)
    for name in ("NO_COLOR", "COLORTERM"):
        env.pop(name, None)
    return env
