"""The benchmark scripts that compare CardTable with a baseline, and `cardtable bench tables`,
still run (at a tiny size, with no figure asserted), so that none can stop working unseen
(docs/PERFORMANCE.md)."""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_script(cardtable, script, *arguments):
    """Runs scripts/`script` with `arguments` against `cardtable`; returns what it did."""
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", script), *arguments, "--bin", cardtable],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    return done


def smoke(script, cardtable):
    """Runs scripts/`script` at its tiny size against `cardtable`; returns what it did."""
    return run_script(cardtable, script, "--smoke")


def test_memory_beside_its_c_copy_plays_the_same_actions(cardtable):
    done = smoke("bench_memory_c.py", cardtable)
    lines = [line for line in done.stdout.splitlines() if line.startswith("memory ")]
    assert [line.split(":")[0] for line in lines] == ["memory easy", "memory medium", "memory hard"]
    assert all("Swift / C" in line for line in lines)


def test_memory_beside_its_c_copy_counted_in_instructions(cardtable):
    """The count that, unlike time, does not move with the machine's load (200 games a
    difficulty less 3, under callgrind): both play the same actions, each a positive count."""
    done = run_script(cardtable, "bench_memory_c.py", "--quick", "--instructions")
    found = re.search(r"Swift ([\d.]+) per action, C ([\d.]+), Swift / C ([\d.]+)×", done.stdout)
    assert found, done.stdout
    assert all(float(figure) > 0 for figure in found.groups())


def test_the_servers_instructions_per_action_are_counted_for_every_run(cardtable):
    """`callgrind_rooms.py` at its smoke size: a count for each of `bench rooms`' runs."""
    done = run_script(cardtable, "callgrind_rooms.py", "--size", "smoke")
    lines = [line for line in done.stdout.splitlines() if line.startswith("rooms, ")]
    assert [line.split(" at ")[0] for line in lines] == [
        "rooms, snap",
        "rooms, snap",
        "rooms, set",
        "rooms, memory",
    ], done.stdout
    assert all(" instructions per action (" in line for line in lines)


def test_engine_beside_its_python_model_writes_the_same_replies(cardtable):
    done = smoke("bench_engine_model.py", cardtable)
    lines = done.stdout.splitlines()
    assert any(line.startswith("outputs: byte-identical") for line in lines), done.stdout
    assert [line.split(":")[0] for line in lines if line.startswith(("engine", "python"))] == [
        "engine",
        "python",
        "engine / Python",
    ]


@pytest.mark.parametrize(
    ("game", "store", "seats"),
    [("snap", "sqlite", 4), ("memory", "memory", 4), ("set", "sqlite", 4), ("memory", "sqlite", 1)],
)
def test_bench_tables_plays_tables_of_real_clients_and_stops_by_itself(
    cardtable, game, store, seats
):
    """A table of one seat is a player alone, who begins with `new`."""
    done = subprocess.run(
        [cardtable, "bench", "tables", "--rooms", "3", "--seconds", "1.5", "--game", game]
        + ["--store", store, "--seats", str(seats)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        f"== bench tables: 3 tables of {seats} ({3 * seats} clients), {game}, --commit turn, "
        f"store {store}"
    )
    played = next(line for line in lines if line.startswith("set up"))
    actions = int(played.split(": ")[1].split(" actions")[0].replace(",", ""))
    assert actions > 0, done.stdout
    assert any(line.startswith("action → last seat: p50 ") for line in lines)
    assert any("µs per action" in line for line in lines)
    assert lines[-1].endswith("exit status 0")


def test_the_load_benchmark_compares_the_store_with_the_store_off(cardtable):
    done = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "scripts", "loadtest.py"),
            "--bin",
            cardtable,
            "--clients",
            "3",
            "--stores",
            "sqlite,memory",
            "--seconds",
            "0.5",
            "--rate",
            "2",
            "--burst",
            "10",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line for line in lines if line.startswith("== ")] == [
        "== 3 clients, store sqlite ==",
        "== 3 clients, store memory ==",
    ]
    assert sum(line.startswith("games completed: 3,") for line in lines) == 2, done.stdout
    compared = [line for line in lines if line.startswith("games round trip, store ÷ store off")]
    assert len(compared) == 1 and "p50 " in compared[0] and "×" in compared[0], done.stdout
    assert all(line.endswith("exit status 0") for line in lines if line.startswith("after close"))


def test_page_loads_are_measured_first_and_again(cardtable):
    """`bench_pages.py` at its smoke size: one first visit and one return visit, each timed to
    its modules and to the cards on the table."""
    done = smoke("bench_pages.py", cardtable)
    lines = [line for line in done.stdout.splitlines() if line.startswith("HTTP/1.1, ")]
    assert [line.split(", new")[0] for line in lines] == [
        "HTTP/1.1, first visit",
        "HTTP/1.1, return visit",
    ], done.stdout
    assert all(re.search(r": \d+ ms, cards \d+ ms, \d+ requests? over the", line) for line in lines)
