#!/usr/bin/env python3
"""Page loads over a slow network, one web client beside another in one run
(docs/PERFORMANCE.md, "Page loads").

Starts `cardtable serve` once for each web root, and in headless Chromium with 100 ms of round
trip (DevTools network emulation) opens Memory's game in a fresh browser context (a first
visit) and then again in the same context (a return visit), rounds alternating between the two
roots. For each it prints the median time to `DOMContentLoaded` (every module loaded and run)
and to the cards on the table (the WebSocket's welcome and the deal too), the requests that
went over the network and their bytes. With `--h2`, each server is also reached through nginx
with TLS and HTTP/2 (docs/DEPLOY.md's setup), when nginx and openssl are there.

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
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loadtest import Server  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = "?game=memory&difficulty=easy&seed=1"
# The page's files that went over the network, and their bytes: a copy from the cache has a
# transferSize of 0, a revalidation (304) its headers.
LOADED = """() => {
  const files = performance.getEntriesByType('resource').filter((e) => e.transferSize > 0);
  return [files.length + 1, files.reduce((sum, e) => sum + e.transferSize, 0)
    + performance.getEntriesByType('navigation')[0].transferSize];
}"""


class Nginx:
    """nginx with a self-signed certificate in front of each server, HTTP/2 over TLS."""

    def __init__(self, upstreams, ports, directory):
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
            self.urls[name] = f"https://127.0.0.1:{ports[name]}/"
            # NB: as docs/DEPLOY.md passes them, so that the page's WebSocket connects too.
            servers += f"""
    server {{
        listen 127.0.0.1:{ports[name]} ssl http2;
        ssl_certificate {directory}/cert.pem;
        ssl_certificate_key {directory}/key.pem;
        location / {{
            proxy_pass {upstream.rstrip("/")};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
        }}
    }}"""
        servers = (
            "\n    map $http_upgrade $connection_upgrade { default upgrade; '' close; }" + servers
        )
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
    """A first visit and a return visit in one fresh context, each as (ms to DOMContentLoaded,
    ms to the cards on the table, requests over the network, their bytes)."""
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
        loaded = 1000 * (time.perf_counter() - started)
        page.wait_for_selector(".card")
        dealt = 1000 * (time.perf_counter() - started)
        measured.append((loaded, dealt, *page.evaluate(LOADED)))
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

    # NB: nginx's ports are chosen first: each server takes WebSockets from its nginx origin.
    ports = {name: free_port() for name in roots} if args.h2 else {}
    with tempfile.TemporaryDirectory(prefix="cardtable-pages-") as directory:
        servers, nginx = {}, None
        try:
            for name, (binary, web) in roots.items():
                # NB: each server keeps its games in memory and takes its nginx origin's pages.
                origins = (
                    ("--allowed-origins", f"https://127.0.0.1:{ports[name]}") if args.h2 else ()
                )
                servers[name] = Server(binary, web, ("--in-memory", *origins))
            routes = {"HTTP/1.1": {name: served.base for name, served in servers.items()}}
            if args.h2:
                nginx = Nginx(routes["HTTP/1.1"], ports, directory)
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

    print(
        f"page loads, {rounds} round{'' if rounds == 1 else 's'}, {args.rtt:g} ms round trip: "
        "medians to DOMContentLoaded (every module loaded and run) and to Memory's cards on the "
        "table"
    )
    for route in routes:
        for index, visit in enumerate(("first visit", "return visit")):
            medians = {}
            for name in roots:
                runs = [result[index] for result in results[(route, name)]]
                loaded = statistics.median(run[0] for run in runs)
                dealt = statistics.median(run[1] for run in runs)
                medians[name] = (loaded, dealt)
                requests, transferred = runs[-1][2], runs[-1][3]
                print(
                    f"{route}, {visit}, {name} ({roots[name][1]}): {loaded:.0f} ms, cards "
                    f"{dealt:.0f} ms, {requests} request{'' if requests == 1 else 's'} over "
                    f"the network, {transferred} bytes"
                )
            if "old" in medians:
                (new_loaded, new_dealt), (old_loaded, old_dealt) = medians["new"], medians["old"]
                print(
                    f"{route}, {visit}: new / old {new_loaded / old_loaded:.2f}×, "
                    f"cards {new_dealt / old_dealt:.2f}×"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
