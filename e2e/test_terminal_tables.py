"""Mixed tables: a browser (Playwright) hosts, a terminal (`cardtable join` in real tmux) takes a
seat by the table's code. Both see each other's seats; a card turned in one shows in the other;
a Snap! from the terminal gets its receipt on both; the terminal's connection drops (a proxy
between it and the server cuts it) and comes back by itself within the grace period. Also a Set
race and Memory in turns."""

import contextlib
import socket
import threading

import pytest
from playwright.sync_api import expect
from terminal import Tmux, cards, face
from test_browser_together import (
    MEMORY_SEED,
    SET_SEED,
    SNAP_SEED,
    host,
    seat,
    set_of_three,
    start,
)

from browser import (
    WEB,
    acted,
    card_name,
    face_down,
    reply_to,
    require_game,
    send,
    view,
    wait_view,
)
from games import memory_table_board
from server import running_server


class Proxy:
    """A TCP forwarder on loopback between a client and `port`: `cut()` closes every
    connection through it as a network failure would; new ones are forwarded again."""

    def __init__(self, port):
        self.target = port
        self.refusing = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self, refuse=False):
        """Closes every connection; with `refuse`, new ones are closed too until `allow()`."""
        self.refusing = refuse
        with self.lock:
            cut, self.sockets = self.sockets, []
        for end in cut:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def allow(self):
        self.refusing = False

    def close(self):
        self.cut()
        self.listener.close()


@pytest.fixture
def grace_server(cardtable):
    with running_server(cardtable, WEB, "--grace-seconds", "60") as (url, _):
        yield url


@pytest.fixture
def terminal(cardtable, tmp_path):
    made = []

    def join(code, url, name):
        session = Tmux(
            f"{cardtable} join {code} --server {url} --name {name} --data {tmp_path / name}",
            tmp_path,
        )
        made.append(session)
        return session

    yield join
    for session in made:
        session.close()


def test_browser_hosts_snap_and_a_terminal_joins_by_code(grace_server, people, terminal, cardtable):
    require_game(cardtable, "snap")
    ann = people(grace_server, "Ann")
    table = host(ann, grace_server, "snap", seed=SNAP_SEED)
    proxy = Proxy(int(grace_server.rstrip("/").rsplit(":", 1)[1]))
    try:
        bob = terminal(table["code"], f"http://127.0.0.1:{proxy.port}", "Bob")
        lobby = bob.wait_for("Seat 2: Bob (you)")
        assert "Seat 1: Ann (host)" in lobby
        expect(ann.locator(".seat-list .seat-text").nth(1)).to_contain_text("Bob")
        start(ann, [])
        # Seed 5 for two: Ann turns J♣ first, then Bob J♠ — a match.
        wait_view(ann, "v.phase === 'playing' && v.canTurn")
        bob.wait_for("Ann's turn", timeout=30)
        acted(ann, ann.get_by_role("button", name="Your stack: 26 cards").click)
        bob.wait_for(lambda s: "J♣" in [face(c) for c in cards(s)], what="Ann's J♣")
        bob.wait_for("Your turn")
        bob.keys("t")
        expect(
            seat(ann, "top").get_by_role("img", name=f"Bob's open pile: {card_name('J♠')}")
        ).to_be_visible()
        bob.keys("s")
        screen = bob.wait_for("You: Snap! right")
        assert " ms after" in screen
        expect(ann.locator(".receipt").first).to_contain_text("Bob: Snap! after")
        expect(ann.locator(".receipt").first).to_contain_text("ms — correct")
        # The connection drops: Ann sees Bob away; the terminal comes back by itself.
        proxy.cut(refuse=True)
        countdown = seat(ann, "top").locator(".seat-away")
        expect(countdown).to_contain_text("Away — leaves in")
        bob.wait_for("reconnecting")
        proxy.allow()
        expect(countdown).to_be_hidden(timeout=20000)
        bob.wait_for(lambda s: "reconnecting" not in s and "You 27" in s, what="Bob back")
        # Someone who comes once it has started watches.
        carol = terminal(table["code"], grace_server, "Carol")
        watching = carol.wait_for("watching")
        assert "Bob" in watching and "Ann" in watching
        # Bob leaves, asked first.
        bob.keys("q")
        bob.wait_for("Leave the table?")
        bob.keys("y")
        assert bob.wait_exit() == 0
        assert "You left the Snap! table" in bob.screen()
        wait_view(ann, "v.players.find(p => p.name === 'Bob').left")
        expect(ann.locator(".table-seat", has_text="Bob")).to_contain_text("left")
    finally:
        proxy.close()


def test_a_set_race_between_a_browser_and_a_terminal(server, people, terminal, cardtable):
    ann = people(server, "Ann")
    table = host(ann, server, "set", seed=SET_SEED)
    bob = terminal(table["code"], server, "Bob")
    bob.wait_for("Seat 2: Bob (you)")
    start(ann, [])
    wait_view(ann, "v.players && v.players.length === 2")
    bob.wait_for("Ann 0  Bob 0")
    for index in set_of_three(view(ann)["table"]):
        bob.keys("abcdefghijklmnoprstuvwxyz"[index])
    screen = bob.wait_for("You: Set right")
    assert " ms after" in screen
    expect(ann.locator(".player-chip").nth(1)).not_to_have_text("Bob: 0")
    expect(ann.locator(".receipt").first).to_contain_text("Bob: Set after")


def test_memory_in_turns_between_a_browser_and_a_terminal(server, people, terminal, cardtable):
    board = memory_table_board(cardtable, MEMORY_SEED)
    first, second = next(
        (i, j) for i in range(len(board)) for j in range(i + 1, len(board)) if board[i] != board[j]
    )
    ann = people(server, "Ann")
    table = host(ann, server, "memory", seed=MEMORY_SEED, extra="&difficulty=easy")
    bob = terminal(table["code"], server, "Bob")
    bob.wait_for("Seat 2: Bob (you)")
    start(ann, [])
    wait_view(ann, "v.turn === 'Ann'")
    bob.wait_for("Ann's turn")
    # Ann misses: the turn passes to Bob, whose terminal turns a card Ann's page then shows.
    for index in (first, second):
        acted(ann, ann.get_by_role("button", name=face_down(index), exact=True).click)
    bob.wait_for("Your turn")
    bob.wait_for(lambda s: "(wait)" not in s.split("\n")[1], what="the cards turned back")
    bob.keys("Home", "Enter")
    wait_view(ann, "v.board[0].faceUp")
    expect(ann.get_by_role("button", name=face_down(0), exact=True)).to_be_hidden()


def test_a_rematch_between_a_browser_and_a_terminal(server, people, terminal):
    easy = ["A♥", "A♥", "K♠", "K♠", "2♦", "2♦", "3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠"]
    ann = people(server, "Ann")
    ann.goto(f"{server}?game=memory&difficulty=easy&table=host&deck={','.join(easy)}")
    table = reply_to(ann, ann.get_by_role("button", name="Host table").click)
    bob = terminal(table["code"], server, "Bob")
    bob.wait_for("Seat 2: Bob (you)")
    start(ann, [])
    for pair in range(6):
        acted(ann, ann.get_by_role("button", name=face_down(2 * pair), exact=True).click)
        acted(ann, ann.get_by_role("button", name=face_down(2 * pair + 1), exact=True).click)
        wait_view(ann, f"v.board[{2 * pair}].removed && !v.waiting")
    screen = bob.wait_for("Games won: Ann 1 – You 0")
    assert "N rematch" in screen
    bob.keys("N")
    bob.wait_for("Rematch accepted by You")
    expect(ann.locator(".rematch-note")).to_have_text("Rematch accepted by Bob; waiting for you.")
    ann.get_by_role("dialog").get_by_role("button", name="Rematch").click()
    wait_view(ann, "v.version === 0 && !v.over")
    bob.wait_for("Ann's turn")


def test_a_browsers_transfer_code_moves_its_player_to_the_terminal(
    server, people, cardtable, tmp_path
):
    ann = people(server, "Ann")
    ann.goto(server)
    ann.get_by_role("button", name="Show a code for another device").click()
    code = ann.locator(".transfer-code")
    expect(code).not_to_be_empty()
    data = tmp_path / "moved"
    session = Tmux(
        f"{cardtable} play memory --server {server} --claim {code.inner_text()} --data {data}",
        tmp_path,
    )
    try:
        session.wait_for("Pairs found: 0 of 6")
        # The terminal now plays as Ann: its token is hers, kept for next time.
        token = ann.evaluate("localStorage.getItem('cardtable.token')")
        assert (data / "terminal.token").read_text().strip() == token
        # Her settings came with her: the game the terminal dealt is one of her rooms.
        rooms = send(ann, {"cmd": "rooms"})["rooms"]
        assert any(room["game"] == "memory" for room in rooms), rooms
    finally:
        session.close()


def test_a_terminal_chats_with_a_browser_at_the_table(server, people, terminal):
    ann = people(server, "Ann")
    table = host(ann, server, "snap", seed=SNAP_SEED)
    bob = terminal(table["code"], server, "Bob")
    bob.wait_for("Seat 2: Bob (you)")
    assert "Tab chat" in bob.screen()
    # The browser says something: the terminal's lobby shows it above its keys.
    ann.locator("#chat-input").fill("<b>ready</b> when you are")
    ann.locator(".chat-send").click()
    bob.wait_for("Ann: <b>ready</b> when you are")
    # The terminal writes back from its chat (Tab), which shows the table's lines.
    bob.keys("Tab")
    bob.wait_for("Table chat")
    bob.text("one morex")
    bob.keys("BSpace")
    bob.text("!")
    bob.keys("Enter")
    expect(ann.locator(".chat-line").last.locator(".chat-who")).to_have_text("Bob")
    expect(ann.locator(".chat-line").last.locator(".chat-text")).to_have_text("one more!")
    bob.wait_for("You: one more!")
    bob.keys("Escape")
    bob.wait_for(lambda s: "Table chat" not in s, what="the chat closed")
    # Once the game is on, a line from the browser shows on the terminal's message line.
    start(ann, [])
    bob.wait_for("Ann's turn", timeout=30)
    ann.locator("#chat-input").fill("good luck")
    ann.locator(".chat-send").click()
    bob.wait_for("Ann: good luck")
