"""Playing together at a table in the browser (issue 10): a host hosts a table from a game's
screen, friends join by its link or its code, the host starts, and each person — a browser
context of their own, so a token of their own — plays their own seat. Snap! turns every
player's seats so that they sit at Bottom and shows every call's receipt; Set is a race with a
score per player; Memory is played in turns. Leaving asks first; a dropped connection keeps the
seat for the grace period, with a countdown on the others' pages."""

import itertools
import re

import pytest
from playwright.sync_api import expect

from browser import (
    WEB,
    acted,
    card_name,
    engine,
    face_down,
    record_texts,
    reply_to,
    require_game,
    screenshot,
    send,
    view,
    wait_shown,
    wait_view,
)
from games import memory_table_board
from server import running_server

SNAP_SEED = 5  # two players, Ann and Bob: Ann turns J♣ first, then Bob J♠ (a match)
SET_SEED = 5
MEMORY_SEED = 5
TITLES = {"snap": "Snap!", "set": "Set", "memory": "Memory", "concentration": "Concentration"}


def host(page, url, game, seed=None, public=False, extra=""):
    """Hosts a table of `game` from the game's screen (Play with friends); returns the `table`
    message the host's page got."""
    page.goto(f"{url}?game={game}{extra}" + (f"&seed={seed}" if seed is not None else ""))
    page.get_by_role("link", name="Play with friends").click()
    expect(page.get_by_role("heading", name=f"Play {TITLES[game]} with friends")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_value(page.person)
    if public:
        page.get_by_label("List this table publicly").check()
    table = reply_to(page, page.get_by_role("button", name="Host table").click)
    assert table["type"] == "table" and table["phase"] == "lobby", table
    expect(page.locator(".table-code")).to_have_text(table["code"])
    expect(page.locator(".lobby-status")).to_have_text("Waiting for players to connect...")
    return table


def join_by_link(page, table):
    """Opens the table's link (as a friend would after it was copied to them): seated in the lobby."""
    page.goto(page.url.split("/?")[0].rstrip("/") + f"/play/{table['room']}")
    expect(page.locator(".lobby-status")).to_have_text("Waiting for game to start...")
    expect(page.locator(".seat-item.you")).to_contain_text(f"{page.person} (you)")


def join_by_code(page, url, code):
    page.goto(f"{url}?join")
    page.get_by_label("Table code").fill(code.replace("-", "").lower())
    table = reply_to(page, page.get_by_role("button", name="Join", exact=True).click)
    assert table["type"] == "table", table
    expect(page.locator(".lobby-status")).to_have_text("Waiting for game to start...")
    return table


def seats_shown(page):
    return page.locator(".seat-list .seat-text").all_inner_texts()


def start(host_page, others):
    """The host starts; every page gets its own first view."""
    start_button = host_page.get_by_role("button", name="Start", exact=True)
    expect(start_button).to_be_enabled()
    reply = reply_to(host_page, start_button.click)
    assert reply["type"] == "update", reply
    for page in others:
        wait_view(page, "v.version >= 0")
        expect(page.locator(".table-lobby")).to_be_hidden()


def seat(page, position):
    return page.get_by_role("group", name=f"{position} seat")


def snap_pair(url, people):
    ann = people(url, "Ann")
    bob = people(url, "Bob")
    table = host(ann, url, "snap", seed=SNAP_SEED)
    join_by_link(bob, table)
    expect(ann.locator(".seat-list .seat-text")).to_have_count(2)
    return ann, bob, table


def test_two_play_snap_with_receipts_and_leave(server, people, cardtable):
    require_game(cardtable, "snap")
    # The engine says what seed 5 deals two players: Ann starts; J♣ and J♠ are their top cards.
    [dealt] = engine(
        cardtable,
        {"cmd": "new", "game": "snap", "options": {"players": ["Ann", "Bob"]}, "seed": SNAP_SEED},
    )
    state = dealt["state"]
    assert state["starting"] == "Ann"
    assert [p["closed"][-1] for p in state["players"]] == ["J♣", "J♠"]

    ann, bob, table = snap_pair(server, people)
    expect(ann.locator(".seat-list .seat-text").first).to_have_text("Ann (host, you)")
    expect(ann.locator(".seat-list .seat-text").nth(1)).to_contain_text("Bob")
    expect(bob.locator(".seat-list .seat-text")).to_have_text(["Ann (host)", "Bob (you)"])
    screenshot(ann, "table-lobby.png")
    start(ann, [bob])

    # Each sees themselves at Bottom and the other at Top.
    for page, other in ((ann, "Bob"), (bob, "Ann")):
        expect(seat(page, "bottom")).to_contain_text("You")
        expect(seat(page, "top")).to_contain_text(other)
        expect(seat(page, "left")).to_be_hidden()
        expect(seat(page, "right")).to_be_hidden()
    # Ann's turn: only Ann's stack turns.
    wait_view(ann, "v.phase === 'playing' && v.canTurn")
    wait_view(bob, "v.phase === 'playing' && v.active === 'Ann'")
    expect(bob.locator(".snap-status")).to_have_text("Ann's turn")
    expect(bob.get_by_role("button", name="Your stack: 26 cards")).to_have_attribute(
        "aria-disabled", "true"
    )
    v = acted(ann, ann.get_by_role("button", name="Your stack: 26 cards").click)
    assert next(p for p in v["players"] if p["name"] == "Ann")["openTop"] == "J♣"
    expect(
        seat(bob, "top").get_by_role("img", name=f"Ann's open pile: {card_name('J♣')}")
    ).to_be_visible()
    wait_view(bob, "v.canTurn")
    expect(bob.locator(".snap-status")).to_have_text("Your turn. Tap the stack.")
    v = acted(bob, bob.get_by_role("button", name="Your stack: 26 cards").click)
    assert next(p for p in v["players"] if p["name"] == "Bob")["openTop"] == "J♠"
    expect(
        seat(ann, "top").get_by_role("img", name=f"Bob's open pile: {card_name('J♠')}")
    ).to_be_visible()

    # Bob calls Snap!: both pages show the receipt, in milliseconds.
    reply = reply_to(bob, bob.get_by_role("button", name="Snap!").click)
    assert reply["type"] == "update"
    expect(bob.locator(".receipt").first).to_contain_text("You: Snap! after")
    expect(bob.locator(".receipt").first).to_contain_text("ms — correct")
    expect(ann.locator(".receipt").first).to_contain_text("Bob: Snap! after")
    expect(ann.locator(".receipt").first).to_contain_text("ms — correct")
    wait_view(ann, "v.players.find(p => p.name === 'Bob').closedCount === 27")
    screenshot(ann, "table-snap.png")

    # Bob leaves: asked first; Stay keeps him at the table.
    bob.get_by_role("button", name="Leave game").click()
    dialog = bob.get_by_role("dialog", name="Leave Game?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Stay").click()
    expect(dialog).to_be_hidden()
    assert bob.evaluate("window.cardtable.role") == "player"
    bob.get_by_role("button", name="Leave game").click()
    bob.get_by_role("dialog", name="Leave Game?").get_by_role(
        "button", name="Leave", exact=True
    ).click()
    expect(bob.get_by_role("heading", name="Play together")).to_be_visible()
    # Ann's page shows him gone: at his seat and in the table's list.
    wait_view(ann, "v.players.find(p => p.name === 'Bob').left")
    expect(seat(ann, "top")).to_contain_text("Left the game")
    expect(ann.locator(".table-seat", has_text="Bob")).to_contain_text("left")


def test_the_host_leaving_ends_the_game(server, people, cardtable):
    require_game(cardtable, "snap")
    ann, bob, _ = snap_pair(server, people)
    start(ann, [bob])
    wait_view(bob, "v.phase === 'playing'")
    ann.get_by_role("button", name="End game").click()
    dialog = ann.get_by_role("dialog", name="End Game?")
    expect(dialog).to_contain_text("leaving ends the game for everyone")
    dialog.get_by_role("button", name="End game").click()
    expect(ann.get_by_role("heading", name="Play together")).to_be_visible()
    wait_view(bob, "v.over")
    expect(bob.locator(".banner-text")).to_have_text("The host has left. Game over.")
    # Nothing to confirm once the game is over.
    bob.get_by_role("button", name="Leave game").click()
    expect(bob.get_by_role("heading", name="Play together")).to_be_visible()


def test_three_at_a_snap_table_and_a_late_watcher(server, people, cardtable):
    require_game(cardtable, "snap")
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    cy = people(server, "Cy")
    table = host(ann, server, "snap", seed=SNAP_SEED)
    # Bob types the code on the join screen: a wrong one first.
    bob.goto(f"{server}?join")
    bob.get_by_label("Table code").fill("ZZZ-ZZ9")
    refused = reply_to(bob, bob.get_by_role("button", name="Join", exact=True).click)
    assert refused["error"]["code"] == "no-such-table"
    expect(bob.locator("#join-note")).to_have_text(
        "There is no table with that code. Check it with the host and try again."
    )
    join_by_code(bob, server, table["code"])
    join_by_link(cy, table)
    for page in (ann, bob, cy):
        expect(page.locator(".seat-list .seat-text")).to_have_count(3)
    start(ann, [bob, cy])
    # Each page: three seats, its own at Bottom; seats go Bottom, Left, Top in joining order.
    expected = {
        "Ann": {"bottom": "You", "left": "Bob", "top": "Cy"},
        "Bob": {"bottom": "You", "left": "Cy", "right": "Ann"},
        "Cy": {"bottom": "You", "top": "Ann", "right": "Bob"},
    }
    for page in (ann, bob, cy):
        expect(page.locator(".seat:not([hidden])")).to_have_count(3)
        for position, name in expected[page.person].items():
            expect(seat(page, position).locator(".seat-name")).to_have_text(name)
    # Dee opens the link after the start: she watches.
    dee = people(server, "Dee")
    dee.goto(f"{server}play/{table['room']}")
    wait_view(dee, "v.phase === 'dealing' || v.phase === 'playing'")
    assert dee.evaluate("window.cardtable.role") == "watcher"
    expect(dee.locator(".notice.watching")).to_have_text(
        "Watching — this table’s game started without you."
    )
    expect(dee.locator(".seat:not([hidden])")).to_have_count(3)
    expect(dee.get_by_role("button", name="Leave game")).to_be_hidden()
    expect(dee.get_by_role("button", name="Snap!")).to_have_attribute("aria-disabled", "true")


def test_the_host_closing_the_lobby_closes_it_for_the_guests(server, people):
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    table = host(ann, server, "memory", extra="&difficulty=easy")
    assert table["minSeats"] == 2
    join_by_link(bob, table)
    ann.get_by_role("button", name="Close table").click()
    dialog = ann.get_by_role("dialog", name="Leave Table?")
    expect(dialog).to_contain_text("leaving closes the table for everyone who joined")
    dialog.get_by_role("button", name="Close table").click()
    expect(bob.locator(".closed-notice")).to_have_text(
        "The host closed this table before it started."
    )


def test_a_game_answered_after_play_with_friends_leaves_the_host_form(server, people, cardtable):
    """Play with friends clicked before the game screen's own `joined` came: that late `joined`
    (of the game just left) does not take the host form's place; the table's own does."""
    require_game(cardtable, "snap")
    ann = people(server, "Ann")
    held = {"joined": [], "holding": True}

    def route(ws):
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def down(message):
            if held["holding"] and (held["joined"] or '"type":"joined"' in message):
                held["joined"].append(message)
            else:
                ws.send(message)

        upstream.on_message(down)
        held["ws"] = ws

    ann.route_web_socket(re.compile(r"/ws$"), route)
    ann.goto(f"{server}?game=snap&seed={SNAP_SEED}")
    ann.get_by_role("link", name="Play with friends").click()
    expect(ann.get_by_role("heading", name="Play Snap! with friends")).to_be_visible()
    assert held["joined"], "the game's joined was held back"
    held["holding"] = False
    for message in held.pop("joined"):
        held["ws"].send(message)
    # The table's answer comes after the late messages: once the lobby shows, they were handled.
    table = reply_to(ann, ann.get_by_role("button", name="Host table").click)
    assert table["type"] == "table" and table["phase"] == "lobby", table
    expect(ann.locator(".table-code")).to_have_text(table["code"])
    expect(ann.locator(".lobby-status")).to_have_text("Waiting for players to connect...")
    assert ann.evaluate("window.cardtable.table?.code") == table["code"]


def test_lobby_computer_players_and_the_public_list(server, people, cardtable):
    require_game(cardtable, "snap")
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    # Matchismo is for one player: no Play with friends there.
    ann.goto(f"{server}?game=matchismo")
    wait_view(ann, "v.table.length > 0")
    expect(ann.get_by_role("link", name="Play with friends")).to_have_count(0)
    ann.goto(f"{server}?game=snap&table=host")
    expect(ann.get_by_label("Computer players’ speed")).to_have_value("original")
    # The name is the player's, kept by the server: changed here, it is remembered.
    ann.get_by_label("Your name").fill("Annie")
    ann.get_by_label("Computer players’ speed").select_option("quick")
    ann.get_by_label("List this table publicly").check()
    table = reply_to(ann, ann.get_by_role("button", name="Host table").click)
    assert table["public"] is True
    assert table["seats"][0]["name"] == "Annie"
    assert send(ann, {"cmd": "settings"})["settings"]["name"] == "Annie"
    expect(ann.locator(".seat-list .seat-text")).to_have_text(["Annie (host, you)"])
    expect(ann.locator(".table-code")).to_have_attribute(
        "aria-label", "Code " + " ".join(table["code"].replace("-", ""))
    )
    # Copy puts the link on the clipboard.
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ann.get_by_role("button", name="Copy link").click()
    expect(ann.locator(".copy-note")).to_have_text("Link copied.")
    assert ann.evaluate("navigator.clipboard.readText()") == f"{server}play/{table['room']}"
    start_button = ann.get_by_role("button", name="Start", exact=True)
    expect(start_button).to_be_disabled()
    # A computer player takes a seat, and can be removed again.
    seated = reply_to(ann, ann.get_by_role("button", name="Add computer player").click)
    assert [s["name"] for s in seated["seats"]] == ["Annie", "Ray"]
    expect(ann.locator(".seat-list .seat-text")).to_have_text(
        ["Annie (host, you)", "Ray (computer)"]
    )
    expect(start_button).to_be_enabled()
    reply_to(ann, ann.get_by_role("button", name="Remove Ray").click)
    expect(ann.locator(".seat-list .seat-text")).to_have_count(1)
    expect(start_button).to_be_disabled()
    # The home screen lists the public table; Join seats Bob.
    bob.goto(server)
    item = bob.locator(".table-item", has_text="hosted by Annie")
    expect(item).to_contain_text("Snap!")
    expect(item).to_contain_text("1 of 4 seats taken")
    bob.get_by_role("link", name="Join Annie’s Snap! table").click()
    expect(bob.locator(".seat-item.you")).to_contain_text("Bob (you)")
    expect(ann.locator(".seat-list .seat-text")).to_have_count(2)
    reply_to(ann, ann.get_by_role("button", name="Add computer player").click)
    expect(ann.locator(".seat-list .seat-text")).to_have_count(3)
    start(ann, [bob])
    wait_view(bob, "v.players.length === 3")
    expect(bob.locator(".seat:not([hidden])")).to_have_count(3)
    # Once started, it is no longer listed.
    bob.goto(server)
    expect(bob.locator(".open-tables")).to_have_attribute("data-loaded", "true")
    expect(bob.locator(".table-item", has_text="hosted by Annie")).to_have_count(0)


def set_of_three(table, exclude=()):
    cards = [
        (i, slot["card"])
        for i, slot in enumerate(table)
        if slot["card"] and not slot["matched"] and i not in exclude
    ]
    for trio in itertools.combinations(cards, 3):
        if all(len(set(values)) != 2 for values in zip(*(card.split(":") for _, card in trio))):
            return [i for i, _ in trio]
    return None


def choose(page, index):
    card = view(page)["table"][index]["card"]
    return acted(page, page.locator("button.card").nth(index).click), card


def test_set_race_scores_each_player(server, people, cardtable):
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    table = host(ann, server, "set", seed=SET_SEED)
    join_by_link(bob, table)
    start(ann, [bob])
    wait_view(ann, "v.players && v.players.length === 2")
    for page in (ann, bob):
        expect(page.get_by_text("Score:", exact=False)).to_be_hidden()
        expect(page.get_by_role("button", name="Hint")).to_be_hidden()
        expect(page.locator(".player-chip")).to_have_text(
            ["You: 0", "Bob: 0"] if page is ann else ["Ann: 0", "You: 0"]
        )

    # Ann's own selection is highlighted on her page only.
    first = set_of_three(view(ann)["table"])
    assert first, "seed 5 deals a set"
    v, _ = choose(ann, first[0])
    expect(ann.locator("button.card").nth(first[0])).to_have_attribute("aria-pressed", "true")
    wait_view(bob, f"v.version === {v['version']}")
    expect(bob.locator("button.card").nth(first[0])).to_have_attribute("aria-pressed", "false")
    for index in first[1:]:
        v, _ = choose(ann, index)
    ann_score = next(p["score"] for p in v["players"] if p["player"] == "Ann")
    assert ann_score > 0, v["players"]
    expect(bob.locator(".player-chip")).to_have_text([f"Ann: {ann_score}", "You: 0"])

    # Bob finds the next set on the table as he sees it.
    wait_view(bob, f"v.version >= {v['version']}")
    second = set_of_three(view(bob)["table"])
    assert second, "another set on the table"
    for index in second:
        v, _ = choose(bob, index)
    bob_score = next(p["score"] for p in v["players"] if p["player"] == "Bob")
    assert bob_score > 0
    expect(ann.locator(".player-chip")).to_have_text([f"You: {ann_score}", f"Bob: {bob_score}"])
    expect(bob.locator(".player-chip")).to_have_text([f"Ann: {ann_score}", f"You: {bob_score}"])

    # +3 by agreement: Bob asks, both pages say so.
    v = acted(bob, bob.get_by_role("button", name="Deal three more cards").click)
    assert next(p for p in v["players"] if p["player"] == "Bob")["askedForThree"]
    expect(bob.locator(".three-note")).to_have_text("+3 asked by You")
    expect(ann.locator(".three-note")).to_have_text("+3 asked by Bob")
    screenshot(ann, "table-set.png")


def test_set_claims_get_receipts(server, people):
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    table = host(ann, server, "set", seed=SET_SEED)
    join_by_link(bob, table)
    start(ann, [bob])
    wait_view(ann, "v.players && v.players.length === 2")
    for index in set_of_three(view(ann)["table"]):
        choose(ann, index)
    expect(ann.locator(".receipt").first).to_contain_text("You: Set after")
    expect(ann.locator(".receipt").first).to_contain_text("— correct")
    expect(bob.locator(".receipt").first).to_contain_text("Ann: Set after")


def test_memory_in_turns(server, people, cardtable):
    board = memory_table_board(cardtable, MEMORY_SEED)
    pair = [i for i, card in enumerate(board) if card == board[0]]
    miss = next(
        (i, j)
        for i, j in itertools.combinations(range(len(board)), 2)
        if board[i] != board[j] and i not in pair and j not in pair
    )
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    table = host(ann, server, "memory", seed=MEMORY_SEED, extra="&difficulty=easy")
    join_by_link(bob, table)
    start(ann, [bob])
    wait_view(bob, "v.turn === 'Ann'")
    expect(ann.locator(".turns .turn")).to_have_text("Your turn")
    expect(bob.locator(".turns .turn")).to_have_text("Ann's turn")
    # Not Bob's turn: his cards are disabled.
    expect(bob.get_by_role("button", name=face_down(0), exact=True)).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(ann.get_by_role("button", name=face_down(0), exact=True)).to_have_attribute(
        "aria-disabled", "false"
    )
    # A pair keeps the turn.
    for index in pair:
        acted(ann, ann.get_by_role("button", name=face_down(index), exact=True).click)
    wait_view(ann, f"v.board[{pair[0]}].removed && !v.waiting")
    expect(ann.locator(".turns .player-chip")).to_have_text(["You: 1 pair", "Bob: 0 pairs"])
    expect(ann.locator(".turns .turn")).to_have_text("Your turn")
    # A mismatch passes it to Bob once the cards turn back.
    for index in miss:
        acted(ann, ann.get_by_role("button", name=face_down(index), exact=True).click)
    wait_view(bob, f"v.turn === 'Bob' && !v.waiting && !v.board[{miss[0]}].faceUp")
    expect(bob.locator(".turns .turn")).to_have_text("Your turn")
    expect(bob.locator(".turns .player-chip")).to_have_text(["Ann: 1 pair", "You: 0 pairs"])
    wait_view(ann, "v.turn === 'Bob'")
    expect(ann.locator(".turns .turn")).to_have_text("Bob's turn")
    expect(ann.get_by_role("button", name=face_down(miss[0]), exact=True)).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(bob.get_by_role("button", name=face_down(miss[0]), exact=True)).to_have_attribute(
        "aria-disabled", "false"
    )
    acted(bob, bob.get_by_role("button", name=face_down(miss[0]), exact=True).click)
    screenshot(bob, "table-memory.png")


def test_memory_in_turns_ends_praising_only_the_winner(server, people, cardtable):
    """Ann finds one pair and misses; Bob finds the other five: Bob is told Great!, Ann only
    Game over, each with every player's pairs and no Play again (a table's game)."""
    board = memory_table_board(cardtable, MEMORY_SEED)
    pairs = [[i for i, card in enumerate(board) if card == face] for face in dict.fromkeys(board)]
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    table = host(ann, server, "memory", seed=MEMORY_SEED, extra="&difficulty=easy")
    join_by_link(bob, table)
    start(ann, [bob])
    wait_view(ann, "v.turn === 'Ann'")
    for index in pairs[0]:
        acted(ann, ann.get_by_role("button", name=face_down(index), exact=True).click)
    wait_view(ann, f"v.board[{pairs[0][0]}].removed && !v.waiting")
    for index in (pairs[1][0], pairs[2][0]):
        acted(ann, ann.get_by_role("button", name=face_down(index), exact=True).click)
    wait_view(bob, "v.turn === 'Bob' && !v.waiting")
    for pair in pairs[1:]:
        for index in pair:
            acted(bob, bob.get_by_role("button", name=face_down(index), exact=True).click)
        wait_view(bob, f"v.board[{pair[0]}].removed && !v.waiting")
    won = bob.get_by_role("dialog", name="Great!")
    expect(won).to_contain_text("Bob wins with 5 pairs!")
    lost = ann.get_by_role("dialog", name="Game over")
    expect(lost).to_contain_text("Bob wins with 5 pairs!")
    expect(lost.locator(".summary-facts")).to_contain_text("You1 pair")
    expect(lost.locator(".summary-facts")).to_contain_text("Bob5 pairs")
    expect(ann.get_by_role("dialog", name="Great!")).to_have_count(0)
    for dialog in (won, lost):
        expect(dialog.get_by_role("button", name="Play again")).to_have_count(0)
        expect(dialog.get_by_role("button", name="Step through")).to_be_visible()


def test_concentration_in_turns(server, people):
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    table = host(ann, server, "concentration", seed=MEMORY_SEED)
    join_by_link(bob, table)
    start(ann, [bob])
    wait_view(bob, "v.turn === 'Ann' && v.board.length === 52")
    expect(bob.locator(".turns .turn")).to_have_text("Ann's turn")
    expect(bob.locator(".turns .player-chip")).to_have_text(["Ann: 0 pairs", "You: 0 pairs"])
    expect(bob.get_by_role("button", name=face_down(0), exact=True)).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(ann.get_by_role("button", name="↻ Refresh")).to_be_hidden()
    v = acted(ann, ann.get_by_role("button", name=face_down(0), exact=True).click)
    assert v["board"][0]["faceUp"]
    wait_view(bob, "v.board[0].faceUp")


@pytest.fixture
def grace_server(cardtable):
    """A server of the test's own, whose dropped players keep their seat for 60 s; its URL."""
    with running_server(cardtable, WEB, "--grace-seconds", "60") as (url, _):
        yield url


def drop(page):
    """Closes the page's WebSocket as a network failure would; the page reconnects by itself
    (at once, unless its context is offline)."""
    page.evaluate("window.__sockets.forEach((socket) => socket.close())")


def test_a_dropped_guest_keeps_the_seat_within_the_grace_period(grace_server, people, cardtable):
    url = grace_server
    ann = people(url, "Ann")
    bob = people(url, "Bob")
    # A fresh server has no open tables, and its home screen says so.
    expect(bob.locator(".open-tables .empty")).to_have_text(
        "No open tables right now. Host one from a game’s screen, or join with a code."
    )
    record_texts(bob, "#connection-banner")
    table = host(ann, url, "memory", seed=MEMORY_SEED, extra="&difficulty=easy")
    join_by_link(bob, table)
    start(ann, [bob])
    wait_view(bob, "v.turn === 'Ann'")
    # Bob's connection drops and cannot come back yet: Ann sees a countdown at his seat.
    bob.context.set_offline(True)
    drop(bob)
    away = ann.locator(".table-seat", has_text="Bob")
    expect(away).to_contain_text("away, leaves in")
    wait_shown(bob, "#connection-banner", "Connection lost — reconnecting…")
    seconds = int(away.inner_text().split("leaves in ")[1].split(" s")[0])
    assert 0 < seconds <= 60
    # Back online: the page reconnects by itself and Bob has his seat again.
    bob.context.set_offline(False)
    expect(ann.locator(".table-seat", has_text="Bob")).not_to_contain_text("away")
    wait_shown(bob, "#connection-banner", "Reconnected — your game continues.")
    assert bob.evaluate("window.cardtable.role") == "player"
    expect(bob.locator(".turns .turn")).to_have_text("Ann's turn")
    # Closing the page and opening the link again in the same browser also finds the seat.
    bob.close()
    expect(ann.locator(".table-seat", has_text="Bob")).to_contain_text("away, leaves in")
    again = bob.context.new_page()
    again.goto(f"{url}play/{table['room']}")
    wait_view(again, "v.turn === 'Ann'")
    assert again.evaluate("window.cardtable.role") == "player"
    expect(ann.locator(".table-seat", has_text="Bob")).not_to_contain_text("away")
    acted(ann, ann.get_by_role("button", name=face_down(0), exact=True).click)
    wait_view(again, "v.board[0].faceUp")


def test_a_dropped_snap_player_shows_a_countdown_at_their_seat(grace_server, people, cardtable):
    require_game(cardtable, "snap")
    ann, bob, _ = snap_pair(grace_server, people)
    start(ann, [bob])
    wait_view(bob, "v.phase === 'playing'")
    bob.context.set_offline(True)
    drop(bob)
    countdown = seat(ann, "top").locator(".seat-away")
    expect(countdown).to_contain_text("Away — leaves in")
    expect(seat(ann, "top")).to_contain_text("Bob")
    bob.context.set_offline(False)
    expect(countdown).to_be_hidden()
    wait_view(bob, "v.phase === 'playing'")
    expect(seat(bob, "bottom").locator(".seat-name")).to_have_text("You")
    assert bob.evaluate("window.cardtable.role") == "player"
