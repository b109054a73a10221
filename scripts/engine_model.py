#!/usr/bin/env python3
"""A small Python model of `cardtable engine` playing Memory alone (docs/ENGINE.md "memory",
RULES §3): the baseline that scripts/bench_engine_model.py times the engine console against.

It reads JSON Lines on standard input and writes one reply per line, byte for byte as the
engine writes them, for the commands a recorded stream of whole Memory games uses:

- `{"cmd":"new","game":"memory","options":{"difficulty":D},"seed":N}` (D easy, medium or hard);
- `{"cmd":"act","action":{"type":"flip","card":I}}`, with Memory's refusals (`no-such-card`,
  `card-removed`, `pair-pending`, `card-face-up`, `game-over`);
- `{"cmd":"advance","seconds":S}`, `{"cmd":"state"}` and `{"cmd":"results"}`.

Anything else (another game, players, computers, a deck, `view`, malformed lines) is not
modelled: the model stops with an error naming the line, rather than answer it wrongly.

    python3 scripts/engine_model.py < stream.jsonl > replies.jsonl

Where the rules come from: the deal is Sources/MemoryGame/MemoryGame+Deal.swift with
Sources/CardTableCore/SplitMix64.swift; the moves MemoryGame+Rules.swift; the timers and
the clock Sources/CardTableCore/Match.swift; the texts Sources/GameWire/MemoryGame+Wire.swift;
the reply envelope Sources/GameWire/EngineConsole.swift and GameSession.swift; numbers
Sources/GameWire/JSONWriter.swift.
"""

from __future__ import annotations

import json
import sys

MASK = (1 << 64) - 1
# PlayingCard.standardDeck: spades, hearts, diamonds, clubs; each from ace to king.
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "♠♥♦♣" for rank in RANKS]
# MemoryGame.Difficulty: (columns, rows).
GRIDS = {"easy": (4, 3), "medium": (6, 4), "hard": (8, 4)}
REMOVAL_DELAY = 1.0  # a found pair leaves the board after 1.0 s of game clock
MISMATCH_DELAY = 2.0  # a mismatch is turned face down after 2.0 s and costs a point

# The compact JSON the engine writes: no spaces, non-ASCII characters (♥) as UTF-8. One-shot
# `encode` with no indent runs the json module's C encoder.
dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class Refusal(Exception):
    """An action the rules refuse: the reply names `code` and `message`, the state is kept."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class NotModelled(Exception):
    """A line this model does not answer."""


def number(seconds: float) -> int | float:
    """A clock value as JSONWriter writes it: integral values below 10^15 without a fraction
    (`2`, not `2.0`), others in the shortest form that reads back exactly (`2.5`,
    `0.30000000000000004`), which Python's float repr writes alike for the clocks of a game."""
    if seconds.is_integer() and abs(seconds) < 1e15:
        return int(seconds)
    return seconds


class SplitMix64:
    """The project's seeded generator (Sources/CardTableCore/SplitMix64.swift)."""

    def __init__(self, seed: int):
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def next_int(self, bound: int) -> int:
        """Uniform in 0..<bound: draws below 2^64 mod bound are rejected, so that the draws
        kept are a whole multiple of `bound`."""
        threshold = (1 << 64) % bound
        while True:
            value = self.next()
            if value >= threshold:
                return value % bound

    def shuffled(self, items: list) -> list:
        """Fisher–Yates, last position first."""
        items = list(items)
        for index in range(len(items) - 1, 0, -1):
            other = self.next_int(index + 1)
            items[index], items[other] = items[other], items[index]
        return items


class Memory:
    """One match of Memory alone: the board, the pending timer, the clock and the record."""

    def __init__(self, difficulty: str, seed: int):
        self.difficulty = difficulty
        self.seed = seed
        self.columns, self.rows = GRIDS[difficulty]
        self.pairs = self.columns * self.rows // 2
        random = SplitMix64(seed)
        picked = random.shuffled(DECK)[: self.pairs]
        self.cards = random.shuffled(picked + picked)
        self.face_up = [False] * len(self.cards)
        self.removed = [False] * len(self.cards)
        self.turned: list[int] = []  # face-up cards not yet resolved, in turning order
        self.resolving: str | None = None  # "remove" or "turnDown" while a pair waits
        self.due: float | None = None  # when the pending timer resolves the pair
        self.score = 0  # mistakes
        self.pairs_found = 0
        self.moves = 0  # pairs turned
        self.flips = 0
        self.version = 0  # accepted actions, the timer's included
        self.clock = 0.0
        self.results: list[dict] = []

    def is_over(self) -> bool:
        return self.pairs_found == self.pairs and self.resolving is None

    def flip(self, index: int) -> list[dict]:
        # NB: in MemoryGame.flip's order, which decides the refusal when several apply.
        if self.is_over():
            raise Refusal("game-over", "The game is over.")
        if not 0 <= index < len(self.cards):
            raise Refusal("no-such-card", f"There is no card {index} on the board.")
        if self.removed[index]:
            raise Refusal("card-removed", f"Card {index} has already been removed.")
        if len(self.turned) >= 2 or self.resolving is not None:
            raise Refusal("pair-pending", "Wait until the two turned cards are resolved.")
        if self.face_up[index]:
            raise Refusal("card-face-up", f"Card {index} is already face up.")
        self.version += 1
        self.face_up[index] = True
        self.flips += 1
        self.turned.append(index)
        events = [{"type": "flipped", "card": index, "face": self.cards[index]}]
        if len(self.turned) < 2:
            return events
        first = self.turned[0]
        self.moves += 1
        if self.cards[first] == self.cards[index]:
            self.pairs_found += 1
            events.append({"type": "matched", "cards": [first, index]})
            self.resolving, self.due = "remove", self.clock + REMOVAL_DELAY
        else:
            self.score += 1
            events.append({"type": "mismatched", "cards": [first, index]})
            self.resolving, self.due = "turnDown", self.clock + MISMATCH_DELAY
        return events

    def advance(self, seconds: float) -> list[dict]:
        """Match.advance(by:): the clock goes to clock + seconds; a timer due by then runs at
        its own time first."""
        time = self.clock + max(0.0, seconds)
        events = []
        if self.due is not None and self.due <= time:
            self.clock = max(self.clock, self.due)
            self.due = None
            events = self.resolve()
        self.clock = max(self.clock, time)
        return events

    def resolve(self) -> list[dict]:
        self.version += 1
        first, second = self.turned
        if self.resolving == "remove":
            for index in self.turned:
                self.removed[index] = True
                self.face_up[index] = False
            events = [{"type": "removed", "cards": [first, second]}]
        else:
            self.face_up[first] = self.face_up[second] = False
            events = [{"type": "turnedDown", "cards": [first, second]}]
        self.turned = []
        self.resolving = None
        if self.is_over():
            events.append({"type": "finished", "score": self.score, "moves": self.moves})
            # NB: Memory's game starts at the match's deal, clock 0.
            self.results.append(
                {
                    "game": "memory",
                    "options": f"difficulty {self.difficulty}",
                    "seed": self.seed,
                    "score": self.score,
                    "moves": self.moves,
                    "ending": "finished",
                    "start": 0,
                    "end": number(self.clock),
                    "duration": number(self.clock - 0.0),
                }
            )
        return events

    def state(self) -> dict:
        """The referee's state: the header, Memory's wire view, the record at the end."""
        over = self.is_over()
        if over:
            status = f"You won with score: {self.score}!"
        else:
            status = f"Pairs found: {self.pairs_found} of {self.pairs}. Score: {self.score}"
        state = {
            "game": "memory",
            "seed": self.seed,
            "version": self.version,
            "clock": number(self.clock),
            "score": self.score,
            "status": status,
            "over": over,
            "title": "Great!" if over else None,
            "columns": self.columns,
            "rows": self.rows,
            "pairsFound": self.pairs_found,
            "pairs": self.pairs,
            "flips": self.flips,
            "waiting": self.resolving is not None,
            "board": [
                {"card": card, "faceUp": up, "removed": gone}
                for card, up, gone in zip(self.cards, self.face_up, self.removed)
            ],
        }
        if over and self.results:
            state["result"] = self.results[-1]
        state["resultCount"] = len(self.results)
        return state


class Console:
    """The engine console with at most one game: one request in, one reply out."""

    def __init__(self):
        self.game: Memory | None = None

    def reply(self, request: dict) -> dict:
        command = request.get("cmd")
        if command == "new" and request.get("game") == "memory":
            options = request.get("options", {})
            self.game = Memory(options.get("difficulty", "easy"), int(request["seed"]))
            return self.answer([])
        if self.game is None or command not in ("act", "advance", "state", "results"):
            raise NotModelled(request)
        if command == "act":
            action = request["action"]
            if action.get("type") != "flip" or "player" in request:
                raise NotModelled(request)
            try:
                return self.answer(self.game.flip(action["card"]))
            except Refusal as refusal:
                error = {"code": refusal.code, "message": refusal.message}
                return {"ok": False, "error": error, "state": self.game.state()}
        if command == "advance":
            return self.answer(self.game.advance(request["seconds"]))
        if command == "state":
            return self.answer([])
        return {"ok": True, "results": self.game.results}

    def answer(self, events: list[dict]) -> dict:
        return {"ok": True, "events": events, "state": self.game.state()}


def main() -> int:
    console = Console()
    write = sys.stdout.buffer.write
    for count, line in enumerate(sys.stdin.buffer, 1):
        if not line.strip():
            continue  # the engine skips blank lines without a reply
        try:
            reply = console.reply(json.loads(line))
        except (NotModelled, KeyError, TypeError, ValueError) as error:
            message = f"engine_model: line {count} is not modelled: {line!r} ({error!r})"
            print(message, file=sys.stderr)
            return 1
        write(dumps(reply).encode())
        write(b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
