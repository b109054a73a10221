"""Starts a real `cardtable serve` on a free loopback port for a test, and stops it."""
import contextlib
import re
import resource
import signal
import subprocess
import tempfile

LISTENING = re.compile(r"CardTable listening on (http://[^/]+/)")


def listening_url(process):
    """The base URL of a starting server's listening line (the lines before it are read)."""
    lines = []
    for line in process.stdout:
        lines.append(line)
        match = LISTENING.search(line)
        if match:
            return match.group(1)
    raise AssertionError(f"serve did not start: {''.join(lines)!r} {process.stderr.read()}")


# NB: tests that are not about the per-address limits play many games from one address.
LOOSE_LIMITS = ("--rooms-per-minute", "100000", "--connections-per-address", "100000",
                "--messages-per-address", "1000000")


@contextlib.contextmanager
def running_server(cardtable, web_root, *extra, descriptors=None, data=None, port=0,
                   limits=LOOSE_LIMITS):
    """Yields (base_url, process); the server is asked to stop with SIGTERM at the end.

    The server keeps its games in `data`, or in a fresh temporary directory removed afterwards
    (never the user's own). `descriptors` limits the server's open files (soft and hard), as
    `ulimit -n` would. `limits` are the per-address limits' options (loose by default; `()`
    for the server's own)."""
    def limit():
        if descriptors is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    with contextlib.ExitStack() as stack:
        if data is None:
            data = stack.enter_context(tempfile.TemporaryDirectory(prefix="cardtable-e2e-"))
        process = subprocess.Popen(
            [cardtable, "serve", "--port", str(port), "--web", str(web_root), "--data", str(data),
             *limits, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)
        try:
            yield listening_url(process), process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
