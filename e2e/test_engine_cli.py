"""The engine console as tools use it: JSON Lines through the real binary's stdin/stdout."""

import collections
import json
import subprocess

from games import DEALS, GAMES


def run_engine(cardtable, lines):
    result = subprocess.run(
        [cardtable, "engine"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_hard_memory_board_has_every_card_twice(cardtable):
    [reply] = run_engine(
        cardtable, ['{"cmd":"new","game":"memory","options":{"difficulty":"hard"},"seed":7}']
    )
    board = reply["state"]["board"]
    assert reply["ok"] is True
    assert len(board) == 32
    counts = collections.Counter(position["card"] for position in board)
    assert set(counts.values()) == {2} and len(counts) == 16


def test_bad_lines_get_errors_and_the_console_goes_on(cardtable):
    replies = run_engine(
        cardtable,
        [
            "this is not json",
            '{"cmd":"new","game":"concentration","seed":1}',
            '{"cmd":"warp"}',
            '{"cmd":"act","action":{"type":"flip","card":0}}',
        ],
    )
    assert [r["ok"] for r in replies] == [False, True, False, True]
    assert replies[0]["error"]["code"] == "invalid-json"
    assert replies[2]["error"]["code"] == "unknown-command"
    assert replies[3]["state"]["board"][0]["faceUp"] is True


def test_same_seed_same_deal_across_processes(cardtable):
    line = '{"cmd":"new","game":"concentration","seed":123456789}'
    first = run_engine(cardtable, [line])[0]["state"]
    second = run_engine(cardtable, [line])[0]["state"]
    assert first == second


def test_usage_errors_exit_with_status_2(cardtable):
    result = subprocess.run([cardtable, "juggle"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "Unknown command" in result.stderr


def test_every_game_is_covered(cardtable):
    """The tests' one list of games (e2e/games.py) is the engine's, in its menu order."""
    [reply] = run_engine(cardtable, ['{"cmd":"games"}'])
    assert reply["games"] == GAMES
    assert list(DEALS) == GAMES


def test_engine_help_prints_its_usage_and_a_stray_argument_is_refused(cardtable):
    shown = subprocess.run(
        [cardtable, "engine", "--help"], capture_output=True, text=True, timeout=30
    )
    assert shown.returncode == 0 and shown.stderr == ""
    assert shown.stdout.startswith("Usage: cardtable engine") and "docs/ENGINE.md" in shown.stdout
    refused = subprocess.run([cardtable, "engine", "x"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and 'engine takes no arguments, got "x"' in refused.stderr
