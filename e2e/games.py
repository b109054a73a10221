"""Every game the end-to-end tests play, in one place: the games in menu order, and for each a
dealt game's address (a chosen seed) and the view that says it is on screen, a first move, and
part of a game to play. A test that covers every game takes them from here;
`test_every_game_is_covered` (test_engine_cli.py) checks that this list is the server's, so a
new game fails until it is added here.
"""

import collections
import itertools
from typing import NamedTuple

from browser import acted, engine, face_down, wait_view


class Deal(NamedTuple):
    address: str
    ready: str


GAMES = ["memory", "concentration", "matchismo", "set", "snap"]

DEALS = {
    "memory": Deal("?game=memory&difficulty=easy&seed=42", "v.board.length === 12"),
    "concentration": Deal("?game=concentration&seed=3", "v.board.length === 52"),
    "matchismo": Deal("?game=matchismo&seed=11", "v.table.length === 24"),
    "set": Deal("?game=set&seed=5", "v.table.length === 12"),
    "snap": Deal("?game=snap&seed=5", "v.phase === 'dealing' || v.phase === 'playing'"),
}

# Each game's first move on its deal: a click or key that sends one action the game accepts.
FIRST_MOVES = {
    "memory": lambda page: page.get_by_role("button", name=face_down(0), exact=True).click(),
    "concentration": lambda page: page.get_by_role("button", name=face_down(7), exact=True).click(),
    "matchismo": lambda page: page.get_by_role("button", name=face_down(3), exact=True).click(),
    "set": lambda page: page.get_by_role("button", name="Deal three more cards").click(),
    "snap": lambda page: (
        wait_view(page, "v.phase === 'playing' && v.canTurn", timeout=20000),
        page.keyboard.press("t"),
    ),
}


def memory_pairs(cardtable, seed=42, today=None):
    """An easy Memory deal's pairs (board indices) from `seed`, or from the day's deal `today`
    (`YYYY-MM-DD`)."""
    deal = {"today": today} if today else {"seed": seed}
    [reply] = engine(
        cardtable, {"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}, **deal}
    )
    where = collections.defaultdict(list)
    for index, spot in enumerate(reply["state"]["board"]):
        where[spot["card"]].append(index)
    return list(where.values())


def memory_table_board(cardtable, seed):
    """The cards of an easy Memory table of Ann and Bob dealt from `seed`, in board order."""
    [dealt] = engine(
        cardtable,
        {
            "cmd": "new",
            "game": "memory",
            "options": {"difficulty": "easy", "players": ["Ann", "Bob"]},
            "seed": seed,
        },
    )
    return [spot["card"] for spot in dealt["state"]["board"]]


def matchismo_table(cardtable, seed=11):
    [reply] = engine(cardtable, {"cmd": "new", "game": "matchismo", "seed": seed})
    return [slot["card"] for slot in reply["state"]["table"]]


def click_face_down(page, index):
    return acted(page, page.get_by_role("button", name=face_down(index), exact=True).click)


def play_memory(page, cardtable):
    (a, b), (c, d) = memory_pairs(cardtable)[:2]
    click_face_down(page, a)
    click_face_down(page, b)
    wait_view(page, f"v.board[{a}].removed && v.board[{b}].removed && !v.waiting")
    click_face_down(page, c)
    return page.get_by_role("button", name=face_down(d), exact=True).click


def play_concentration(page, cardtable):
    click_face_down(page, 0)
    return page.get_by_role("button", name=face_down(1), exact=True).click


def play_matchismo(page, cardtable):
    table = matchismo_table(cardtable)
    i, j = next(
        (i, j) for i, j in itertools.combinations(range(24), 2) if table[i][:-1] == table[j][:-1]
    )
    k = next(x for x in range(24) if x not in (i, j))
    for index in (i, j, k):
        click_face_down(page, index)
    m = next(x for x in range(24) if x not in (i, j, k))
    return page.get_by_role("button", name=face_down(m), exact=True).click


def play_set(page, cardtable):
    v = acted(page, page.get_by_role("button", name="Deal three more cards").click)
    assert len(v["table"]) == 15
    v = acted(page, page.locator('.card-grid button.card[data-index="0"]').click)
    assert v["table"][0]["chosen"]
    return page.locator('.card-grid button.card[data-index="1"]').click


def play_snap(page, cardtable):
    wait_view(
        page, "v.phase === 'playing' && v.active === 'You' && v.canTurn && !v.pause", timeout=20000
    )
    v = acted(page, lambda: page.keyboard.press("t"))
    assert you(v)["openCount"] == 1

    # NB: by the time the move is made (after a reload, say), the computer players may have
    # called; the move waits for the turn again. And a call may land between the view that
    # says the turn is yours and the key, so that the page sends nothing: then it waits again.
    def turn_when_yours():
        before = page.evaluate("window.cardtable.lastRequest")
        for _ in range(10):
            wait_view(
                page,
                "v.phase === 'playing' && v.active === 'You' && v.canTurn && !v.pause",
                timeout=20000,
            )
            page.keyboard.press("t")
            if page.evaluate("window.cardtable.lastRequest") != before:
                return
        raise AssertionError("the page never sent the turn")

    return turn_when_yours


def you(v):
    return next(p for p in v["players"] if p["name"] == "You")


PLAYS = {
    "memory": play_memory,
    "concentration": play_concentration,
    "matchismo": play_matchismo,
    "set": play_set,
    "snap": play_snap,
}
