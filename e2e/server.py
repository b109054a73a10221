"""Starts a real `cardtable serve` on a free loopback port for a test, and stops it."""
import contextlib
import re
import resource
import signal
import subprocess

LISTENING = re.compile(r"CardTable listening on (http://[^/]+/)")


@contextlib.contextmanager
def running_server(cardtable, web_root, *extra, descriptors=None):
    """Yields (base_url, process); the server is asked to stop with SIGTERM at the end.

    `descriptors` limits the server's open files (soft and hard), as `ulimit -n` would."""
    def limit():
        if descriptors is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    process = subprocess.Popen(
        [cardtable, "serve", "--port", "0", "--web", str(web_root), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)
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
