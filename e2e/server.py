"""Starts a real `cardtable serve` on a free loopback port for a test, and stops it."""
import contextlib
import re
import signal
import subprocess
import time

LISTENING = re.compile(r"CardTable listening on (http://[^/]+/)")


@contextlib.contextmanager
def running_server(cardtable, web_root, *extra):
    """Yields (base_url, process); the server is asked to stop with SIGTERM at the end."""
    process = subprocess.Popen(
        [cardtable, "serve", "--port", "0", "--web", str(web_root), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = LISTENING.search(line)
        assert match, f"serve did not start: {line!r} {process.stderr.read() if process.poll() is not None else ''}"
        yield match.group(1), process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
