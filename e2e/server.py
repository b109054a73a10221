"""The one way the tests start a real `cardtable serve` on loopback: `Server` (start, stop,
restart on the same port and data) and `running_server`, a `with` block around one."""

import contextlib
import pathlib
import queue
import re
import resource
import signal
import subprocess
import tempfile
import threading

import pytest

LISTENING = re.compile(r"CardTable listening on (http://[^/\s]+/)")

# NB: tests that are not about the per-address limits play many games from one address (the
# whole browser suite plays against one server); the limits are tested in test_limits.py.
LOOSE_LIMITS = (
    "--rooms-per-minute",
    "100000",
    "--connections-per-address",
    "100000",
    "--messages-per-address",
    "1000000",
    "--handling-budget",
    "none",
)


class Server:
    """One `cardtable serve` with its own data folder, serving `web` (None: no `--web`, the
    installed client; `cwd` and `env` are the process's).

    `extra` are more options; `limits` the per-address limits' (loose by default, `()` for the
    server's own); `descriptors` limits its open files (soft and hard) as `ulimit -n` would.
    Its standard error goes to a log file next to the data (a pipe nobody reads would stop a
    chatty server when full); its standard output is collected by a thread.
    """

    def __init__(
        self,
        cardtable,
        web,
        data,
        *extra,
        limits=LOOSE_LIMITS,
        descriptors=None,
        port=0,
        cwd=None,
        env=None,
    ):
        self.cardtable = cardtable
        self.cwd = cwd
        self.env = env
        self.web = web
        self.data = pathlib.Path(data)
        self.extra = extra
        self.limits = limits
        self.descriptors = descriptors
        self.port = port
        self.url = None
        self.proc = None
        self.log = self.data.with_name(self.data.name + ".log")
        self._output = []
        self._reader = None

    def start(self):
        """Starts the server and waits for its listening line; returns its base URL."""

        def limit():
            if self.descriptors is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (self.descriptors, self.descriptors))

        self.data.parent.mkdir(parents=True, exist_ok=True)
        self._output = []
        with open(self.log, "a") as log:
            web = () if self.web is None else ("--web", str(self.web))
            self.proc = subprocess.Popen(
                [
                    str(self.cardtable),
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    *web,
                    # NB: a server in memory is given no data; its log still goes next to it.
                    *(() if "--in-memory" in self.extra else ("--data", str(self.data))),
                    *self.limits,
                    *self.extra,
                ],
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                preexec_fn=limit,
                cwd=self.cwd,
                env=self.env,
            )
        lines = queue.Queue()

        def read():
            for line in self.proc.stdout:
                self._output.append(line)
                lines.put(line)
            lines.put(None)

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        while True:
            try:
                line = lines.get(timeout=30)
            except queue.Empty:
                pytest.fail("cardtable serve printed no listening line within 30 s")
            if line is None:
                self.proc.wait()
                pytest.fail(f"cardtable serve ended before listening: {self.stderr_text().strip()}")
            match = LISTENING.search(line)
            if match:
                self.url = match.group(1)
                self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
                return self.url

    def stop(self, sig=signal.SIGTERM):
        """Stops the server (SIGTERM: it closes every WebSocket with 1001; SIGKILL: at once)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(timeout=10)
        self.proc = None

    def restart(self, sig=signal.SIGTERM):
        """Stops the server and starts it again on the same port and data."""
        self.stop(sig)
        return self.start()

    # The process, for tests about how it ends.
    @property
    def pid(self):
        return self.proc.pid

    def send_signal(self, sig):
        self.proc.send_signal(sig)

    def wait(self, timeout=None):
        """Waits for the process to end; returns its exit status."""
        status = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=10)
        return status

    def stdout_text(self):
        """What the server printed on its standard output so far."""
        return "".join(self._output)

    def stderr_text(self):
        """The server's log (its standard error) so far."""
        return self.log.read_text() if self.log.exists() else ""


@contextlib.contextmanager
def running_server(
    cardtable, web_root, *extra, descriptors=None, data=None, port=0, limits=LOOSE_LIMITS
):
    """Yields (base_url, Server); the server is asked to stop with SIGTERM at the end.

    The server keeps its games in `data`, or in a fresh temporary directory removed afterwards
    (never the user's own)."""
    with contextlib.ExitStack() as stack:
        if data is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="cardtable-e2e-"))
            data = pathlib.Path(folder) / "data"
        server = Server(
            cardtable, web_root, data, *extra, limits=limits, descriptors=descriptors, port=port
        )
        server.start()
        try:
            yield server.url, server
        finally:
            server.stop()
