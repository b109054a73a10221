"""The end-to-end tests' fixtures: the built `cardtable` binary, one `cardtable serve` for the
whole run (and one per test for tests that restart it), and headless Chromium pages.

The server binary is `$CARDTABLE_BIN` or the one `swift build --show-bin-path` names; the
browser tests' server serves `<repo>/web` and keeps its data in a temporary folder, never the
user's own. Chromium is Debian's `/usr/bin/chromium` (or
`$CHROMIUM`), driven by Playwright. Plain helpers live in browser.py.
"""
import os
import pathlib
import queue
import re
import signal
import subprocess
import threading

import pytest
from playwright.sync_api import sync_playwright

from browser import DESKTOP, PHONE, WEB, watch_errors

ROOT = pathlib.Path(__file__).resolve().parent.parent
LISTENING = "CardTable listening on "


@pytest.fixture(scope="session")
def cardtable() -> str:
    """Path of the debug `cardtable` binary (built by `make test`)."""
    path = os.environ.get("CARDTABLE_BIN")
    if not path:
        bin_dir = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
            capture_output=True, text=True).stdout.strip()
        path = os.path.join(bin_dir, "cardtable")
    assert os.access(path, os.X_OK), f"build cardtable first: {path}"
    return path


# NB: the whole browser suite plays from one address against one server; the per-address limits
# (tested on their own in test_limits.py) would stop it.
LOOSE_LIMITS = ["--rooms-per-minute", "100000", "--connections-per-address", "100000",
                "--messages-per-address", "1000000"]


class Server:
    """One `cardtable serve` on loopback with its own data folder; `restart()` stops it and
    starts it again on the same data and the same port (the pages open on it reconnect)."""

    def __init__(self, cardtable, data):
        self.cardtable = cardtable
        self.data = pathlib.Path(data)
        self.port = 0
        self.url = None
        self.proc = None

    def start(self):
        # NB: stderr goes to a file: a pipe nobody reads would stop a chatty server when full.
        self.log = self.data.with_name(self.data.name + ".log")
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(
                [self.cardtable, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--web", str(WEB), "--data", str(self.data), *LOOSE_LIMITS],
                stdout=subprocess.PIPE, stderr=log, text=True)
        self.url = _listening_url(self.proc, self.log)
        self.port = int(re.search(r":(\d+)/", self.url).group(1))
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
        self.proc = None

    def restart(self, sig=signal.SIGTERM):
        self.stop(sig)
        return self.start()


@pytest.fixture(scope="session")
def server(cardtable, tmp_path_factory):
    """Starts `cardtable serve --port 0 --web <repo>/web --data <a tmp dir>` once; yields its
    base URL."""
    running = Server(cardtable, tmp_path_factory.mktemp("data"))
    running.start()
    try:
        yield running.url
    finally:
        running.stop()


@pytest.fixture
def own_server(cardtable, tmp_path):
    """A server of the test's own, on fresh data, for tests that restart it or count records."""
    running = Server(cardtable, tmp_path / "data")
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _listening_url(proc, log):
    """The URL in the server's listening line (skips the tests when it has no `serve`)."""
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout] + [lines.put(None)],
                     daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=30)
        except queue.Empty:
            pytest.fail("cardtable serve printed no listening line within 30 s")
        if line is None:
            proc.wait()
            err = log.read_text()
            if "Unknown command" in err:
                pytest.skip(f"this cardtable has no `serve` command yet: {err.strip()}")
            pytest.fail(f"cardtable serve ended before listening: {err.strip()}")
        if line.startswith(LISTENING):
            return line[len(LISTENING):].strip()


@pytest.fixture(scope="module")
def chromium():
    """Headless Debian Chromium for one test module.

    NB: module scope, not session: the sync Playwright API runs an asyncio loop while it is
    started, and other modules (the server tests) run their own loops with asyncio.run.
    """
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    """A desktop-size page (1280×800) that fails the test on any page error or console.error."""
    context = chromium.new_context(viewport=DESKTOP)
    pg = context.new_page()
    errors = watch_errors(pg)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def phone(chromium):
    """A 360×740 touch phone page that fails the test on any page error or console.error."""
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pg = context.new_page()
    errors = watch_errors(pg)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture()
def web_root(tmp_path):
    """A stand-in web client (one index.html), for tests of the server rather than the page."""
    root = tmp_path / "web"
    root.mkdir()
    (root / "index.html").write_text("<!doctype html><title>CardTable</title>")
    return root
