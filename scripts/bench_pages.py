#!/usr/bin/env python3
"""Page loads over a slow network, one web client beside another in one run
(docs/PERFORMANCE.md, "Page loads").

Starts `cardtable serve` once for each web root, and in headless Chromium with 100 ms of round
trip (DevTools network emulation) opens Memory's game in a fresh browser context (a first
visit) and then again in the same context (a return visit), rounds alternating between the two
roots. For each it prints the median time to `DOMContentLoaded` (every module loaded and run),
the requests that went over the network and their bytes. With `--h2`, each server is also
reached through nginx with TLS and HTTP/2 (docs/DEPLOY.md's setup), when nginx and openssl are
there.

    python3 scripts/bench_pages.py --baseline-web /tmp/old-web          # this web/ against it
    python3 scripts/bench_pages.py --baseline-web /tmp/old-web --h2
    python3 scripts/bench_pages.py --smoke                              # one round, one root

A baseline from an older commit: `git worktree add /tmp/old REV` and `--baseline-web
/tmp/old/web` (the server is the same binary, `--bin`, for both); or `--baseline-bin` for a
server of its own.
"""

import argparse
import os
import pathlib
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
LISTENING = re.compile(r"(http://127\.0\.0\.1:\d+/)")
PAGE = "?game=memory&difficulty=easy&seed=1"
# The page's files that went over the network, and their bytes: a copy from the cache has a
# transferSize of 0, a revalidation (304) its headers.
LOADED = """() => {
  const files = performance.getEntriesByType('resource').filter((e) => e.transferSize > 0);
  return [files.length + 1, files.reduce((sum, e) => sum + e.transferSize, 0)
    + performance.getEntriesByType('navigation')[0].transferSize];
}"""


class Served:
    """`cardtable serve` of one web root, on a free loopback port, with data of its own."""

    def __init__(self, binary, web, directory):
        self.proc = subprocess.Popen(
            [
                os.path.abspath(binary),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--web",
                web,
                "--in-memory",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=directory,
        )
        for line in self.proc.stdout:
            found = LISTENING.search(line)
            if found:
                self.url = found.group(1)
                return
        sys.exit(f"bench_pages: {binary} serve {web} did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


class Nginx:
    """nginx with a self-signed certificate in front of each server, HTTP/2 over TLS."""

    def __init__(self, upstreams, directory):
        self.directory = directory
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-keyout", f"{directory}/key.pem",
                "-out", f"{directory}/cert.pem",
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        self.urls = {}
        servers = ""
        for name, upstream in upstreams.items():
            port = free_port()
            self.urls[name] = f"https://127.0.0.1:{port}/"
            servers += f"""
    server {{
        listen 127.0.0.1:{port} ssl http2;
        ssl_certificate {directory}/cert.pem;
        ssl_certificate_key {directory}/key.pem;
        location / {{ proxy_pass {upstream.rstrip("/")}; proxy_http_version 1.1; }}
    }}"""
        self.conf = f"{directory}/nginx.conf"
        temp = " ".join(
            f"{kind}_temp_path {directory};" for kind in ("client_body", "proxy", "fastcgi")
        )
        pathlib.Path(self.conf).write_text(
            f"pid {directory}/nginx.pid; error_log {directory}/error.log; daemon on;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{ access_log off; {temp} uwsgi_temp_path {directory}; "
            f"scgi_temp_path {directory};{servers}\n}}\n"
        )
        subprocess.run(["nginx", "-c", self.conf, "-p", directory], check=True)

    def stop(self):
        subprocess.run(["nginx", "-c", self.conf, "-p", self.directory, "-s", "stop"], check=False)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def visits(browser, url, rtt):
    """A first visit and a return visit in one fresh context: (ms, requests, bytes) each."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, ignore_https_errors=True)
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": rtt, "downloadThroughput": 1.5e6, "uploadThroughput": 7.5e5},
    )
    measured = []
    for _ in ("first", "return"):
        started = time.perf_counter()
        page.goto(url + PAGE, wait_until="domcontentloaded")
        elapsed = 1000 * (time.perf_counter() - started)
        measured.append((elapsed, *page.evaluate(LOADED)))
    context.close()
    return measured


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=str(ROOT / ".build" / "release" / "cardtable"))
    parser.add_argument("--web", default=str(ROOT / "web"), help="the web root measured")
    parser.add_argument("--baseline-web", help="a web root to measure beside it")
    parser.add_argument("--baseline-bin", help="the baseline's own server (default: --bin)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--rtt", type=float, default=100, help="round trip, ms (default 100)")
    parser.add_argument("--h2", action="store_true", help="also through nginx, TLS and HTTP/2")
    parser.add_argument("--smoke", action="store_true", help="one round: only shows it runs")
    parser.add_argument(
        "--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
    )
    args = parser.parse_args()
    rounds = 1 if args.smoke else args.rounds
    roots = {"new": (args.bin, args.web)}
    if args.baseline_web or args.baseline_bin:
        roots["old"] = (args.baseline_bin or args.bin, args.baseline_web or args.web)
    if args.h2 and not (shutil.which("nginx") and shutil.which("openssl")):
        print("bench_pages: --h2 needs nginx and openssl; measuring HTTP/1.1 only")
        args.h2 = False

    with tempfile.TemporaryDirectory(prefix="cardtable-pages-") as directory:
        servers = {name: Served(binary, web, directory) for name, (binary, web) in roots.items()}
        routes = {"HTTP/1.1": {name: served.url for name, served in servers.items()}}
        nginx = None
        try:
            if args.h2:
                nginx = Nginx(routes["HTTP/1.1"], directory)
                routes["HTTP/2 via nginx"] = nginx.urls
            results = {(route, name): [] for route in routes for name in roots}
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=args.chromium, args=["--ignore-certificate-errors"]
                )
                for number in range(rounds):
                    order = list(roots) if number % 2 == 0 else list(reversed(roots))
                    for route, urls in routes.items():
                        for name in order:
                            results[(route, name)].append(visits(browser, urls[name], args.rtt))
                browser.close()
        finally:
            if nginx:
                nginx.stop()
            for served in servers.values():
                served.stop()

    print(f"page loads, {rounds} rounds, {args.rtt:g} ms round trip: median to DOMContentLoaded")
    for route in routes:
        for index, visit in enumerate(("first visit", "return visit")):
            medians = {}
            for name in roots:
                runs = [result[index] for result in results[(route, name)]]
                ms = statistics.median(run[0] for run in runs)
                medians[name] = ms
                requests, transferred = runs[-1][1], runs[-1][2]
                print(
                    f"{route}, {visit}, {name} ({roots[name][1]}): {ms:.0f} ms, "
                    f"{requests} request{'' if requests == 1 else 's'} over the network, "
                    f"{transferred} bytes"
                )
            if "old" in medians:
                print(f"{route}, {visit}: new / old {medians['new'] / medians['old']:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
