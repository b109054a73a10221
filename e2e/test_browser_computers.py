"""Computer players in Memory and Concentration (issue 20): a table's host seats them with a
level, and a game of one's own is played against one ("Play against"). They take their turns
on the server's clock with the same flips as people; the page only shows whose turn it is."""

import itertools

from playwright.sync_api import expect
from test_browser_together import join_by_link, start

from browser import acted, face_down, reply_to, view, wait_view
from games import memory_table_board

SEED = 5


def flip(page, index):
    return acted(page, page.get_by_role("button", name=face_down(index), exact=True).click)


def test_a_memory_table_with_a_perfect_computer_player(server, people, cardtable):
    board = memory_table_board(cardtable, SEED)
    partner = next(i for i in range(1, len(board)) if board[i] == board[0])
    # Ann turns the first card and a card of another pair; Bob turns the first card's partner
    # and a card of a third pair: Ray, who forgets nothing, knows a pair when his turn comes.
    other = next(i for i in range(1, len(board)) if board[i] != board[0])
    third = next(
        i for i in range(1, len(board)) if board[i] not in (board[0], board[other]) and i != partner
    )
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    ann.goto(f"{server}?game=memory&difficulty=easy&seed={SEED}&table=host")
    level = ann.get_by_label("Computer players’ memory")
    expect(level).to_have_value("good")
    level.select_option("perfect")
    table = reply_to(ann, ann.get_by_role("button", name="Host table").click)
    assert table["type"] == "table", table
    join_by_link(bob, table)
    seated = reply_to(ann, ann.get_by_role("button", name="Add computer player").click)
    assert [s["name"] for s in seated["seats"]] == ["Ann", "Bob", "Ray"]
    expect(bob.locator(".seat-list .seat-text")).to_have_text(
        ["Ann (host)", "Bob (you)", "Ray (computer)"]
    )
    start(ann, [bob])
    wait_view(ann, "v.computerLevel === 'perfect' && v.turn === 'Ann'")
    expect(ann.locator(".turns .player-chip")).to_have_text(
        ["You: 0 pairs", "Bob: 0 pairs", "Ray (computer): 0 pairs"]
    )
    for index in (0, other):
        flip(ann, index)
    wait_view(bob, "v.turn === 'Bob' && !v.waiting")
    for index in (partner, third):
        flip(bob, index)
    # Ray's turn: nobody's cards answer, and he turns his own after a pause.
    wait_view(ann, "v.turn === 'Ray'")
    expect(ann.locator(".turns .turn")).to_have_text("Ray's turn")
    expect(bob.get_by_role("button", name=face_down(5), exact=True)).to_have_attribute(
        "aria-disabled", "true"
    )
    # His first two cards are the pair he knows.
    wait_view(bob, f"v.board[0].removed && v.board[{partner}].removed", timeout=30000)
    assert bob.evaluate("window.cardtable.lastView.players[2].pairs") >= 1
    # He plays until a mismatch hands the turn to Ann (or finds every pair).
    wait_view(ann, "v.over || (v.turn === 'Ann' && !v.waiting)", timeout=60000)
    shown = ann.evaluate("window.cardtable.lastView")
    assert sum(p["pairs"] for p in shown["players"]) == shown["pairsFound"]
    assert [p.get("computer", False) for p in shown["players"]] == [False, False, True]


def test_a_game_alone_against_the_computer(server, people):
    page = people(server, "Ann")
    page.goto(f"{server}?game=memory&difficulty=easy")
    wait_view(page, "v.board.length === 12")
    opponent = page.get_by_label("Play against")
    expect(opponent).to_have_value("none")
    expect(page.locator(".turns")).to_be_hidden()
    opponent.select_option("good")
    wait_view(page, "v.players && v.players.length === 2 && v.computerLevel === 'good'")
    expect(page.locator(".turns .player-chip")).to_have_text(
        ["You: 0 pairs", "Ray (computer): 0 pairs"]
    )
    expect(page.locator(".turns .turn")).to_have_text("Your turn")
    # Turn cards until a mismatch hands the turn to Ray.
    while page.evaluate("window.cardtable.lastView.turn") == "You":
        shown = page.evaluate("window.cardtable.lastView")
        down = [
            i for i, spot in enumerate(shown["board"]) if not spot["faceUp"] and not spot["removed"]
        ]
        flip(page, down[0])
        flip(page, down[1])
        wait_view(page, "!v.waiting")
    wait_view(page, "v.over || v.turn === 'Ray'")
    if not page.evaluate("window.cardtable.lastView.over"):
        expect(page.locator(".turns .turn")).to_have_text("Ray's turn")
        flips = page.evaluate("window.cardtable.lastView.flips")
        wait_view(page, f"v.flips >= {flips + 2}", timeout=30000)
        wait_view(page, "v.over || (v.turn === 'You' && !v.waiting)", timeout=60000)
    # Concentration offers the same choice, named in the address too.
    page.goto(f"{server}?game=concentration&opponent=perfect")
    wait_view(page, "v.players && v.players.length === 2 && v.computerLevel === 'perfect'")
    expect(page.get_by_label("Play against")).to_have_value("perfect")
    expect(page.locator(".turns .player-chip")).to_have_text(
        ["You: 0 pairs", "Ray (computer): 0 pairs"]
    )


VALUES = [
    ["diamond", "squiggle", "oval"],
    ["red", "green", "purple"],
    ["solid", "striped", "open"],
    ["1", "2", "3"],
]
DECK = [":".join(card) for card in itertools.product(*VALUES)]


def third(a, b):
    """The card that makes a set with `a` and `b` (Set cards as `symbol:color:shading:number`)."""
    parts = []
    for x, y, values in zip(a.split(":"), b.split(":"), VALUES, strict=True):
        parts.append(x if x == y else next(v for v in values if v not in (x, y)))
    return ":".join(parts)


def sets_among(cards):
    return [t for t in itertools.combinations(cards, 3) if third(t[0], t[1]) == t[2]]


def two_sets_and_no_other():
    """Twelve Set cards holding exactly two sets, with no card in both."""
    first = DECK[0:3]
    second = next(
        [a, b, third(a, b)]
        for a, b in itertools.combinations(DECK[3:], 2)
        if third(a, b) not in first and len(sets_among(first + [a, b, third(a, b)])) == 2
    )
    cards = first + second
    for card in DECK:
        if len(cards) < 12 and card not in cards and len(sets_among(cards + [card])) == 2:
            cards.append(card)
    assert len(cards) == 12 and len(sets_among(cards)) == 2, cards
    return cards


def test_a_set_table_with_a_computer_racer_played_to_the_end(server, people):
    ann = people(server, "Ann")
    deck = ",".join(two_sets_and_no_other())
    # NB: a chosen seed makes the computer's draws, and so its timing, the same every time.
    ann.goto(f"{server}?game=set&table=host&deck={deck}&seed=5")
    level = ann.get_by_label("Computer players’ speed")
    expect(level).to_have_value("steady")
    level.select_option("sharp")
    reply_to(ann, ann.get_by_role("button", name="Host table").click)
    reply_to(ann, ann.get_by_role("button", name="Add computer player").click)
    expect(ann.locator(".seat-list .seat-text")).to_have_text(["Ann (host, you)", "Ray (computer)"])
    start(ann, [])
    wait_view(ann, "v.players && v.players.length === 2 && v.computerLevel === 'sharp'")
    expect(ann.get_by_role("button", name="Hint")).to_be_hidden()
    expect(ann.locator(".player-chip")).to_have_text(["You: 0", "Ray (computer): 0"])
    # Ann claims the first set she sees; Ray, on the server's clock, the other (or both, if
    # he is quicker: a card he took first is refused to her).
    cards = view(ann)["table"]
    trio = next(
        t
        for t in itertools.combinations(range(len(cards)), 3)
        if third(cards[t[0]]["card"], cards[t[1]]["card"]) == cards[t[2]]["card"]
    )
    for index in trio:
        slot = view(ann)["table"]
        if index < len(slot) and slot[index]["card"] == cards[index]["card"]:
            reply_to(ann, ann.locator("button.card").nth(index).click)
    wait_view(ann, "v.over", timeout=60000)
    shown = view(ann)
    ray = next(p for p in shown["players"] if p["player"] == "Ray")
    assert ray["score"] > 0 and ray.get("computer") is True, shown["players"]
    assert len(shown["foundMatches"]) == 2
    expect(ann.locator(".game-over")).to_be_visible()


def test_set_alone_against_the_computer(server, people):
    page = people(server, "Ann")
    # NB: a chosen seed deals the same cards and the same computer's draws every time.
    page.goto(f"{server}?game=set&opponent=sharp&seed=5")
    wait_view(page, "v.players && v.players.length === 2 && v.computerLevel === 'sharp'")
    expect(page.get_by_label("Play against")).to_have_value("sharp")
    expect(page.get_by_role("button", name="Hint")).to_be_hidden()
    expect(page.locator(".player-chip")).to_have_text(["You: 0", "Ray (computer): 0"])
    # Ray finds a set by himself, card by card, within his few seconds (or, seeing none, asks
    # for three more cards, which Ann grants).
    wait_view(page, "v.players[1].score > 0 || v.players[1].askedForThree", timeout=60000)
    if page.evaluate("window.cardtable.lastView.players[1].askedForThree"):
        acted(page, page.get_by_role("button", name="Deal three more cards").click)
        wait_view(page, "v.players[1].score > 0", timeout=60000)
    expect(page.locator(".player-chip").nth(1)).not_to_have_text("Ray (computer): 0")
    page.get_by_label("Play against").select_option("none")
    wait_view(page, "!v.players")
    expect(page.get_by_role("button", name="Hint")).to_be_visible()
