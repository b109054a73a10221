#!/usr/bin/env python3
"""Records a golden transcript of `cardtable engine`: a seeded stream of commands across all
five games, and the console's reply to each (docs/ENGINE.md).

The stream is made interactively: each command is chosen from the replies so far (a player
who mostly plays legal moves, with refusals, views, timers, restarts and malformed lines
mixed in), so one run with a trusted binary records both the commands and the replies. The
golden test (Tests/GameWireTests/GoldenTranscriptTests.swift) feeds the recorded commands to
`EngineConsole` and checks every reply byte for byte.

    python3 scripts/golden.py --bin /path/to/trusted/cardtable --out Tests/GameWireTests/Golden

writes `engine.jsonl` there: one JSON object per line, `{"in": LINE, "out": REPLY}` (both
strings, exactly as written and read).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess


def dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Console:
    """One `cardtable engine` process; every line sent is recorded with its reply."""

    def __init__(self, binary: str):
        self.process = subprocess.Popen(
            [binary, "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            encoding="utf-8",
            errors="surrogateescape",
        )
        self.records: list[dict] = []

    def raw(self, line: str) -> dict | None:
        assert "\n" not in line
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline().rstrip("\n")
        self.records.append({"in": line, "out": reply})
        try:
            return json.loads(reply)
        except json.JSONDecodeError:
            return None

    def send(self, command: dict) -> dict:
        return self.raw(dump(command))

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def play_memory(console: Console, rng: random.Random, game: str, options: dict | None, seed: int):
    command = {"cmd": "new", "game": game, "seed": seed}
    if options is not None:
        command["options"] = options
    reply = console.send(command)
    seen: dict[str, list[int]] = {}
    for _ in range(rng.randrange(20, 90)):
        state = reply["state"]
        if state["over"]:
            break
        board = state["board"]
        roll = rng.random()
        if state["waiting"] and roll < 0.7:
            reply = console.send(
                {"cmd": "advance", "seconds": rng.choice([0.25, 0.5, 1, 1.5, 2, 3])}
            )
            continue
        if roll < 0.05:
            console.send({"cmd": "view", "player": "You"})
        elif roll < 0.08:
            console.send(
                {
                    "cmd": "act",
                    "action": {"type": "flip", "card": rng.choice([-1, len(board), 999])},
                }
            )
        elif roll < 0.1:
            console.send({"cmd": "state"})
        open_ = [i for i, p in enumerate(board) if not p.get("removed") and not p.get("matched")]
        if not open_:
            reply = console.send({"cmd": "advance", "seconds": 1})
            continue
        face_up = [i for i in open_ if board[i]["faceUp"]]
        if face_up and rng.random() < 0.6:
            # A player who remembers: complete the pair when the partner was seen.
            first = face_up[0]
            partner = [i for i in seen.get(board[first]["card"], []) if i != first and i in open_]
            pick = partner[0] if partner and rng.random() < 0.8 else rng.choice(open_)
        else:
            pick = rng.choice(open_)
        reply = console.send({"cmd": "act", "action": {"type": "flip", "card": pick}})
        for event in reply.get("events", []):
            if event.get("type") == "flipped":
                seen.setdefault(event["face"], []).append(event["card"])
    reply = console.send({"cmd": "advance", "seconds": 2})
    console.send({"cmd": "results"})
    if rng.random() < 0.3:
        console.send({"cmd": "restart"})


def play_choosing(
    console: Console,
    rng: random.Random,
    game: str,
    options: dict | None,
    seed: int,
    deck: list[str] | None = None,
):
    command = {"cmd": "new", "game": game, "seed": seed}
    if options is not None:
        command["options"] = options
    if deck is not None:
        command["deck"] = deck
    reply = console.send(command)
    if not reply.get("ok"):
        return
    two = game == "set" and (options or {}).get("twoPlayer")
    for _ in range(rng.randrange(30, 140)):
        state = reply["state"]
        table = state["table"]
        roll = rng.random()
        action: dict
        if state["over"]:
            if roll < 0.5:
                console.send({"cmd": "results"})
                action = {"type": "deal"}
            else:
                action = {"type": "choose", "card": rng.randrange(max(len(table), 1))}
        elif roll < 0.04:
            console.send({"cmd": "hint"})
            continue
        elif roll < 0.06:
            action = {"type": "hint"}
        elif roll < 0.08:
            action = {"type": "deal"}
        elif roll < 0.10:
            action = {"type": "setMode", "mode": rng.choice([2, 3, 4])}
        elif roll < 0.14 and game == "set":
            action = {"type": "dealThree"}
        elif roll < 0.16:
            console.send({"cmd": "view", "player": rng.choice(["You", "P1", "P2"])})
            continue
        elif roll < 0.17:
            console.send({"cmd": "restart"})
            reply = console.send({"cmd": "state"})
            continue
        elif roll < 0.18:
            action = {"type": "choose", "card": rng.choice([-3, len(table), 10**6])}
        else:
            hint = state.get("hint") or []
            if hint and rng.random() < 0.6:
                chosen = [i for i, s in enumerate(table) if s["chosen"] and not s["matched"]]
                stray = [i for i in chosen if i not in hint]
                pending = [i for i in hint if not table[i]["chosen"]]
                pick = stray[0] if stray else (pending[0] if pending else hint[0])
            elif rng.random() < 0.25:
                reply = console.send({"cmd": "act", "action": {"type": "hint"}})
                continue
            else:
                pick = rng.randrange(max(len(table), 1))
            action = {"type": "choose", "card": pick}
        if two and rng.random() < 0.3:
            action["player"] = rng.choice(["P1", "P2"])
        command = {"cmd": "act", "action": action}
        if two and rng.random() < 0.1:
            command["player"] = rng.choice(["P1", "P2", "Q"])
        reply = console.send(command)
        if "state" not in reply or reply["state"] is None:
            reply = console.send({"cmd": "state"})
    console.send({"cmd": "results"})


def play_snap(
    console: Console,
    rng: random.Random,
    options: dict | None,
    seed: int,
    deck: list[str] | None = None,
):
    command = {"cmd": "new", "game": "snap", "seed": seed}
    if options is not None:
        command["options"] = options
    if deck is not None:
        command["deck"] = deck
    reply = console.send(command)
    if not reply.get("ok"):
        return
    humans = [p["name"] for p in reply["state"]["players"] if not p["computer"]]
    everyone = [p["name"] for p in reply["state"]["players"]]
    for _ in range(rng.randrange(40, 160)):
        state = reply["state"]
        if state["phase"] == "gameOver":
            break
        roll = rng.random()
        if state["phase"] == "roundOver":
            console.send({"cmd": "results"})
            reply = console.send(
                {"cmd": "act", "action": {"type": "nextRound", "player": rng.choice(everyone)}}
            )
            if not reply.get("ok"):
                reply = console.send(
                    {"cmd": "act", "action": {"type": "nextRound", "player": state["host"]}}
                )
            continue
        active = state["active"]
        if roll < 0.35:
            reply = console.send(
                {"cmd": "advance", "seconds": rng.choice([0.1, 0.5, 0.6, 1, 2, 5.2, 8])}
            )
        elif roll < 0.6 and active in humans:
            reply = console.send({"cmd": "act", "action": {"type": "turn", "player": active}})
        elif roll < 0.7:
            caller = rng.choice(everyone + ["Nobody"])
            reply = console.send({"cmd": "act", "action": {"type": "snap", "player": caller}})
        elif roll < 0.72:
            reply = console.send(
                {"cmd": "act", "action": {"type": "turn", "player": rng.choice(everyone)}}
            )
        elif roll < 0.75:
            console.send({"cmd": "view", "player": rng.choice(everyone)})
        elif roll < 0.755:
            reply = console.send(
                {"cmd": "act", "action": {"type": "leave", "player": rng.choice(everyone[1:])}}
            )
        elif roll < 0.757:
            reply = console.send({"cmd": "act", "action": {"type": "leave", "player": everyone[0]}})
        else:
            reply = console.send({"cmd": "advance", "seconds": 30})
        if not reply.get("ok") and reply.get("state") is None:
            reply = console.send({"cmd": "state"})
    console.send({"cmd": "results"})


MALFORMED = [
    "{",
    "[]",
    "null",
    "42",
    '"cmd"',
    '{"cmd":1}',
    '{"cmd":"nope"}',
    '{"cmd":"act"}',
    '{"cmd":"act","action":[]}',
    '{"cmd":"act","action":{}}',
    '{"cmd":"act","action":{"type":"fly"}}',
    '{"cmd":"act","action":{"type":"flip"}}',
    '{"cmd":"act","action":{"type":"flip","card":"3"}}',
    '{"cmd":"act","action":{"type":"flip","card":1.5}}',
    '{"cmd":"act","action":{"type":"choose","card":1e2}}',
    '{"cmd":"act","action":{"type":"turn","player":7}}',
    '{"cmd":"act","action":{"type":"flip","card":0},"player":[]}',
    '{"cmd":"advance"}',
    '{"cmd":"advance","seconds":-1}',
    '{"cmd":"advance","seconds":"2"}',
    '{"cmd":"advance","seconds":1e308}',
    '{"cmd":"view"}',
    '{"cmd":"view","player":null}',
    '{"cmd":"new"}',
    '{"cmd":"new","game":"chess"}',
    '{"cmd":"new","game":7}',
    '{"cmd":"new","game":"memory","seed":-1}',
    '{"cmd":"new","game":"memory","seed":1.5}',
    '{"cmd":"new","game":"memory","seed":18446744073709551616}',
    '{"cmd":"new","game":"memory","seed":18446744073709551615}',
    '{"cmd":"new","game":"memory","seed":"7"}',
    '{"cmd":"new","game":"memory","seed":1e3}',
    '{"cmd":"new","game":"memory","seed":7,"options":{"difficulty":"insane"}}',
    '{"cmd":"new","game":"memory","seed":7,"options":{"size":3}}',
    '{"cmd":"new","game":"memory","seed":7,"options":[]}',
    '{"cmd":"new","game":"memory","seed":7,"deck":"A♥"}',
    '{"cmd":"new","game":"memory","seed":7,"deck":["A♥",1]}',
    '{"cmd":"new","game":"memory","seed":7,"deck":["A♥","Z♥"]}',
    '{"cmd":"new","game":"memory","seed":7,"deck":["A♥","A♥"]}',
    '{"cmd":"new","game":"memory","seed":7,"deck":["AH","AH","2H","2H","3H","3H","4H","4H","5H","5H","6H","6H"]}',
    '{"cmd":"new","game":"memory","seed":7,"deck":["AH","AH","AH","AH","3H","3H","4H","4H","5H","5H","6H","6H"]}',
    '{"cmd":"new","game":"concentration","seed":7,"options":{"difficulty":"easy"}}',
    '{"cmd":"new","game":"concentration","seed":7,"deck":["AH"]}',
    '{"cmd":"new","game":"matchismo","seed":7,"options":{"cards":1}}',
    '{"cmd":"new","game":"matchismo","seed":7,"options":{"cards":53}}',
    '{"cmd":"new","game":"matchismo","seed":7,"options":{"mode":4}}',
    '{"cmd":"new","game":"matchismo","seed":7,"options":{"matchBonus":11}}',
    '{"cmd":"new","game":"matchismo","seed":7,"options":{"costToChoose":"1"}}',
    '{"cmd":"new","game":"matchismo","seed":7,"options":{"cards":null,"mode":null}}',
    '{"cmd":"new","game":"matchismo","seed":7,"deck":["AH"]}',
    '{"cmd":"new","game":"matchismo","seed":7,"deck":["AH","ah"]}',
    '{"cmd":"new","game":"set","seed":7,"options":{"mode":2}}',
    '{"cmd":"new","game":"set","seed":7,"options":{"refill":1}}',
    '{"cmd":"new","game":"set","seed":7,"options":{"twoPlayer":"yes"}}',
    '{"cmd":"new","game":"set","seed":7,"deck":[]}',
    '{"cmd":"new","game":"set","seed":7,"deck":["oval:red:solid:2","oval:red:solid:2"]}',
    '{"cmd":"new","game":"set","seed":7,"deck":["oval:red:solid:4"]}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["Ann"]}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["Ann","Ann"]}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["Ann","  "]}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["Ann","referee"]}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["A","B","C","D","E"]}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":"Ann"}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["Ann","Bob"],"computer":["Cy"]}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["Ann","Bob"],"starting":"Cy"}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"players":["Ann","Bob"],"starting":5}}',
    '{"cmd":"new","game":"snap","seed":7,"options":{"seats":2}}',
    '{"cmd":"new","game":"snap","seed":7,"deck":["AH"]}',
    '{"cmd":"new","game":"snap","seed":7,"deck":[' + ",".join(['"AH"'] * 52) + "]}",
    '{"cmd":"games"}',
    '{"cmd":"help"}',
    '{"cmd":"state","extra":[1,2,{"a":null}]}',
    '{"cmd":"hint"}',
    '{"cmd":"results"}',
    '{"cmd":"state"} x',
    '{"cmd":"state",}',
    '{"cmd":"state" "x":1}',
    "{'cmd':'state'}",
    '{"cmd":"st\\u0061te"}',
    '{"cmd":"state\\ud800"}',
    '{"cmd":"\\x"}',
    '{"cmd":"state","cmd":"games"}',
    "[" * 70 + "]" * 70,
    '{"a":' * 66 + "1" + "}" * 66,
    '{"cmd":"unknown\\n\\"quoted\\"\\t\\u0001"}',
    '{"cmd":"é🂡"}',
    "tru",
    "nul",
    "-",
    "01",
    "1.",
    "1e",
    '{"cmd":"new","game":"memory","seed":00}',
    '{"cmd":"new","game":"memory","seed":-0}',
    '{"cmd":"new","game":"memory","seed":9007199254740993}',
    '{"cmd":"new","game":"memory","seed":9.007199254740993e15}',
]

ODD_NAMES = [
    'Ann "the" Great',
    "back\\slash",
    "tab\there",
    "new\nline",
    "é🂡✓",
    "\u0001ctrl",
    "  lead",
    "Ω",
]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rooms", help="a room harness binary: record rooms.jsonl instead")
    args = parser.parse_args()
    if args.rooms:
        record_rooms(args.rooms, args.out, args.seed)
        return
    rng = random.Random(args.seed)
    console = Console(args.bin)
    for line in MALFORMED[:12]:
        console.raw(line)
    for round_ in range(3):
        for difficulty in ["easy", "medium", "hard"]:
            play_memory(console, rng, "memory", {"difficulty": difficulty}, rng.randrange(2**64))
        play_memory(console, rng, "memory", None, round_)
        play_memory(console, rng, "concentration", None, rng.randrange(2**64))
        play_choosing(console, rng, "matchismo", None, rng.randrange(2**64))
        play_choosing(
            console,
            rng,
            "matchismo",
            {"cards": rng.choice([2, 6, 12, 30, 52]), "mode": 3, "matchBonus": rng.randrange(11)},
            rng.randrange(2**64),
        )
        play_choosing(
            console,
            rng,
            "matchismo",
            {"mismatchPenalty": 0, "costToChoose": 10},
            round_,
            deck=["A♥", "A♠", "KH", "10c", "2♦", "2♣", "qs", "T♥"],
        )
        play_choosing(console, rng, "set", None, rng.randrange(2**64))
        play_choosing(
            console, rng, "set", {"refill": True, "twoPlayer": True}, rng.randrange(2**64)
        )
        play_choosing(
            console,
            rng,
            "set",
            {"twoPlayer": True, "mismatchPenalty": 5},
            rng.randrange(2**64),
            deck=[
                "oval:red:solid:1",
                "oval:red:solid:2",
                "oval:red:solid:3",
                "diamond:green:open:1",
                "squiggle:purple:striped:2",
                "oval:green:striped:3",
            ],
        )
        play_snap(console, rng, None, rng.randrange(2**64))
        names = rng.sample(ODD_NAMES, 3)
        play_snap(
            console,
            rng,
            {"players": names, "computer": names[1:], "starting": names[0]},
            rng.randrange(2**64),
        )
        play_snap(console, rng, {"players": ["Ann", "Bob"]}, round_)
    for line in MALFORMED:
        console.raw(line)
    console.close()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "engine.jsonl")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as out:
        for record in console.records:
            out.write(dump(record) + "\n")
    size = os.path.getsize(path)
    print(f"golden: {len(console.records)} lines, {size:,} bytes -> {path}")


# --------------------------------------------------------------------------------------------
# The protocol: rooms driven through a harness that reads
# {"room":R,"join":C} | {"room":R,"leave":C} | {"room":R,"t":T,"c":C,"text":S} | {"room":R,"wake":T}
# and answers {"out":[[client,text],...],"wake":T|null} per line.


class Rooms:
    def __init__(self, harness: str):
        self.process = subprocess.Popen(
            [harness],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            encoding="utf-8",
            errors="surrogateescape",
        )
        self.records: list[dict] = []

    def call(self, request: dict) -> dict:
        line = dump(request)
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        self.records.append({"in": request, "out": reply["out"], "wake": reply["wake"]})
        return reply

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def drive_room(rooms: Rooms, rng: random.Random, room: int, game: str, options, seed):
    clock = rng.uniform(0, 1000)
    clients = [room * 10 + 1]
    rooms.call({"room": room, "join": clients[0]})
    wake = None

    def say(message, client=None, raw=None):
        nonlocal clock, wake
        # NB: never exactly on a timer's due time, where the old rooms' float rounding decided.
        clock += rng.choice([0.01, 0.1, 0.3, 0.6, 1.1, 2.1]) + rng.uniform(0.0001, 0.0009)
        while wake is not None and wake <= clock:
            # NB: a millisecond late, as a real timer fires: at exactly the due time the room's
            # clock difference can round just below it.
            reply = rooms.call({"room": room, "wake": wake + 0.001})
            wake = reply["wake"]
        text = raw if raw is not None else dump(message)
        reply = rooms.call(
            {"room": room, "t": clock, "c": client or rng.choice(clients), "text": text}
        )
        wake = reply["wake"]
        views = [json.loads(text) for _, text in reply["out"]]
        return [v for v in views if v.get("type") == "update"]

    command = {"cmd": "new", "game": game, "id": rng.choice([1, "a", None, 2.5])}
    if seed is not None:
        command["seed"] = seed
    if options is not None:
        command["options"] = options
    updates = say(command)
    view = updates[-1]["view"] if updates else None
    for step in range(rng.randrange(25, 70)):
        if step == 5:
            clients.append(room * 10 + 2)
            rooms.call({"room": room, "join": clients[1]})
        roll = rng.random()
        if view is None or roll < 0.05:
            updates = say({"cmd": "state", "id": step})
        elif roll < 0.08:
            say(
                None,
                raw=rng.choice(
                    [
                        "{",
                        "[]",
                        '{"cmd":9}',
                        '{"cmd":"act"}',
                        '{"cmd":"bogus","id":[1]}',
                        '{"cmd":"act","action":{"type":"turn","player":"Ray"}}',
                    ]
                ),
            )
            continue
        elif roll < 0.1:
            updates = say({"cmd": "results", "id": step})
        elif roll < 0.12:
            updates = say({"cmd": "hint", "id": step})
        elif roll < 0.13:
            updates = say({"cmd": "restart"})
        else:
            if game in ("memory", "concentration"):
                board = view["board"]
                action = {"type": "flip", "card": rng.randrange(len(board))}
            elif game in ("matchismo", "set"):
                table = view["table"]
                if view.get("hint") and rng.random() < 0.6:
                    hint = view["hint"]
                    pending = [i for i in hint if not table[i]["chosen"]]
                    action = {"type": "choose", "card": pending[0] if pending else hint[0]}
                elif game == "set" and rng.random() < 0.1:
                    action = {"type": "dealThree"}
                elif rng.random() < 0.05:
                    action = {"type": "deal"}
                else:
                    action = {"type": "choose", "card": rng.randrange(max(1, len(table)))}
            else:
                action = {"type": rng.choice(["turn", "turn", "snap", "turn"]), "player": "You"}
                if rng.random() < 0.02:
                    action = {"type": "leave"}
            updates = say({"cmd": "act", "action": action, "version": step, "id": f"r{step}"})
        if updates:
            view = updates[-1]["view"]
    if rng.random() < 0.5:
        rooms.call({"room": room, "leave": clients[-1]})
        say({"cmd": "state"}, client=clients[0])


def record_rooms(harness: str, out: str, seed: int):
    rng = random.Random(seed)
    rooms = Rooms(harness)
    room = 0
    for _ in range(6):
        for game, options in [
            ("memory", {"difficulty": "easy"}),
            ("memory", {"difficulty": "hard"}),
            ("concentration", None),
            ("matchismo", None),
            ("matchismo", {"mode": 3, "cards": 12}),
            ("set", None),
            ("set", {"twoPlayer": True, "refill": True}),
            ("snap", None),
        ]:
            room += 1
            seed_ = rng.choice([None, rng.randrange(2**64), 42])
            drive_room(rooms, rng, room, game, options, seed_)
    rooms.close()
    path = os.path.join(out, "rooms.jsonl")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as file:
        for record in rooms.records:
            file.write(dump(record) + "\n")
    print(f"golden: {len(rooms.records)} room calls -> {path}")


if __name__ == "__main__":
    main()
