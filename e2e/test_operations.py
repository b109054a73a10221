"""What an operator reads over real HTTP (docs/DEPLOY.md "Health and metrics"): `/healthz`
answers while the store does; `/metrics` is the Prometheus text format and its counters move
with the games played."""

import asyncio
import re
import sqlite3
import urllib.request

from test_server import converse, fetch

from server import running_server

SAMPLE = re.compile(
    r'^([a-z_:][a-z0-9_:]*)(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (-?[0-9.e+-]+)$'
)


def metrics(url):
    """The samples of `/metrics` by name and labels, checking every line's form."""
    status, headers, body = fetch(url + "metrics")
    assert status == 200
    assert headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    samples, types = {}, {}
    for line in body.decode().splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            types[name] = kind
            continue
        if line.startswith("# HELP "):
            continue
        match = SAMPLE.match(line)
        assert match, f"not a Prometheus sample: {line!r}"
        samples[match.group(1) + (match.group(2) or "")] = float(match.group(4))
    for name in samples:
        base = re.sub(r"\{.*", "", name)
        assert base in types or re.sub(r"_(sum|count)$", "", base) in types, name
    return samples


def test_healthz_answers_ok_while_the_store_does(cardtable, web_root):
    with running_server(cardtable, web_root) as (url, _):
        status, headers, body = fetch(url + "healthz")
        assert (status, body) == (200, b"ok\n")
        request = urllib.request.Request(url + "healthz", method="HEAD")
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200


def test_healthz_turns_unhealthy_with_the_reason_while_the_store_cannot_write(
    cardtable, web_root, tmp_path
):
    data = tmp_path / "data"
    with running_server(cardtable, web_root, data=data) as (url, _):
        new_game = {"cmd": "new", "game": "memory", "seed": 1}
        # NB: another process holding the write lock fails every write after the busy timeout.
        holder = sqlite3.connect(data / "cardtable.sqlite3", timeout=0, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            _, [refused] = asyncio.run(converse(url, [new_game]))
            assert refused[-1]["type"] == "error"
            assert refused[-1]["error"]["code"] == "storage-unavailable"
            status, _, body = fetch(url + "healthz")
            assert status == 503
            assert body.startswith(b"store unavailable: ") and b"locked" in body
            assert metrics(url)["cardtable_store_up"] == 0
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        _, [dealt] = asyncio.run(converse(url, [new_game]))
        assert dealt[-1]["type"] == "update"
        assert fetch(url + "healthz")[:3:2] == (200, b"ok\n")


def test_metrics_count_what_the_games_did(cardtable, web_root):
    with running_server(cardtable, web_root) as (url, _):
        before = metrics(url)
        assert before["cardtable_actions_total"] == 0
        assert before["cardtable_store_up"] == 1
        assert before["process_resident_memory_bytes"] > 1_000_000

        async def play():
            return await converse(
                url,
                [
                    {"cmd": "new", "game": "memory", "seed": 1},
                    {"cmd": "act", "action": {"type": "flip", "card": 0}},
                    {"cmd": "act", "action": {"type": "flip", "card": 0}},
                    {"cmd": "act", "action": {"type": "flip", "card": 1}},
                    "not json",
                ],
            )

        asyncio.run(play())
        after = metrics(url)
        assert after["cardtable_connections_opened_total"] == 1
        assert after["cardtable_messages_total"] == 5
        assert after["cardtable_actions_total"] == 2
        assert after['cardtable_errors_total{code="card-face-up"}'] == 1
        assert after['cardtable_errors_total{code="invalid-json"}'] == 1
        assert (
            after['cardtable_store_seconds_count{kind="write"}']
            > before['cardtable_store_seconds_count{kind="write"}']
        )
        assert after['cardtable_store_failures_total{kind="write"}'] == 0
        assert after["cardtable_rooms"] <= 1 and after["cardtable_connections"] == 0


# The libraries the binary may ask for by name (docs/DEPLOY.md "Install"): the C libraries of
# the system it was built on, and none of the Swift toolchain's.
SYSTEM_LIBRARIES = (
    "libwebsockets.so.",
    "libuv.so.",
    "libsqlite3.so.",
    "libpq.so.",
    "libz.so.",
    "libcap.so.",
    "libstdc++.so.",
    "libgcc_s.so.",
    "libm.so.",
    "libc.so.",
    "ld-linux",
)


def test_the_binary_carries_the_swift_runtime_and_needs_no_toolchain(cardtable):
    """What the binary asks the dynamic linker for is the system's C libraries that
    docs/DEPLOY.md names, none of the Swift runtime's (`libswiftCore.so`, Foundation, dispatch),
    which a machine without the toolchain does not have; and it runs with no library path."""
    import subprocess

    dynamic = subprocess.run(
        ["readelf", "--dynamic", cardtable], capture_output=True, text=True, check=True
    ).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    assert "libc.so.6" in needed, dynamic
    others = [name for name in needed if not name.startswith(SYSTEM_LIBRARIES)]
    assert not others, f"not a system C library: {others}"
    loaded = subprocess.run(
        ["ldd", cardtable], capture_output=True, text=True, check=True, env={}
    ).stdout
    assert "swift" not in loaded.lower() and "dispatch" not in loaded, loaded
    version = subprocess.run([cardtable, "--version"], capture_output=True, text=True, env={})
    assert version.returncode == 0 and version.stdout.startswith("cardtable "), version


def test_make_install_serves_the_games_from_anywhere(cardtable, tmp_path):
    """`make install PREFIX=…` puts the binary and the web client where the binary finds them:
    the installed server serves the page from an unrelated directory, without `--web`."""
    import os
    import subprocess

    from server import Server

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    prefix = tmp_path / "prefix"
    subprocess.run(
        ["make", "-s", "install", f"PREFIX={prefix}", f"BIN={cardtable}"],
        cwd=root,
        check=True,
        capture_output=True,
    )
    installed = prefix / "bin" / "cardtable"
    assert (prefix / "share" / "cardtable" / "web" / "index.html").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "CARDTABLE_WEB"}
    server = Server(installed, None, tmp_path / "data", cwd=elsewhere, env=env)
    try:
        url = server.start()
        status, _, body = fetch(url)
        assert status == 200 and b"<title>CardTable" in body
        assert fetch(url + "js/app.js")[0] == 200
        assert fetch(url + "healthz")[0] == 200
    finally:
        server.stop()
