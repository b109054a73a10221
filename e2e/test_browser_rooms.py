"""Rooms in the browser (issue 9): every game lives at its own link, so a reload, a page closed
and opened again, or a restarted server continue the same game at its last acknowledged move;
a link opened without the player's token watches and cannot act."""

import json
import time
import urllib.request

from playwright.sync_api import expect

from browser import (
    DESKTOP,
    POLL,
    card_name,
    engine,
    face_down,
    record_sent,
    record_texts,
    reply_to,
    require_game,
    room_of,
    send,
    sent,
    texts_shown,
    view,
    wait_shown,
    wait_version,
    wait_view,
    watch_errors,
    without_clock,
)
from games import DEALS, GAMES, PLAYS, click_face_down, matchismo_table, memory_pairs

SNAP_OPTIONS = {"players": ["You", "Ray", "Lucy", "Steve"], "computer": ["Ray", "Lucy", "Steve"]}


def wait_for_no_open_room(server, timeout=20):
    """Waits until the server has no room open (`/api/health`), polling."""
    deadline = time.monotonic() + timeout
    while json.loads(urllib.request.urlopen(server + "api/health").read())["rooms"] > 0:
        assert time.monotonic() < deadline, "the server kept the room open"
        time.sleep(0.05)


def test_reload_continues_every_game_from_the_same_position(server, chromium, cardtable):
    for game in GAMES:
        (address, ready), play = DEALS[game], PLAYS[game]
        require_game(cardtable, game)
        context = chromium.new_context(viewport=DESKTOP)
        try:
            page = context.new_page()
            errors = watch_errors(page)
            record_texts(page, ".countdown")
            page.goto(server + address)
            wait_view(page, ready, timeout=20000)
            room = room_of(page)
            assert page.url == f"{server}play/{room}", f"{game}: the address is not the room's link"
            more = play(page, cardtable)
            version = page.evaluate("window.cardtable.version")
            before = without_clock(view(page))

            if game == "snap":
                # NB: Snap! is played in real time: a computer player's call may still be
                # pending from the last card turned (they call matches, and now and then one by
                # mistake), so the room may move on between the page's last update and the
                # moment it is put away. And a reload may deliver the new socket's `open`
                # before the old one's close, so that the room never sleeps. So the page
                # leaves, the server puts the room away (this worker's server has no other
                # room open), and Back reloads it; it shows the room as it was put away — the
                # same view if nothing moved on, else a later version of the same table.
                page.goto("about:blank")
                wait_for_no_open_room(server)
                page.go_back()
                page.wait_for_function(
                    "(v) => window.cardtable && window.cardtable.version >= v"
                    " && !!window.cardtable.lastView",
                    arg=version,
                    polling=POLL,
                    timeout=20000,
                )
                after = view(page)
                if page.evaluate("window.cardtable.version") != version:
                    before = without_clock(after)
                    assert [p["name"] for p in after["players"]] == ["You", "Ray", "Lucy", "Steve"]
                    assert sum(p["closedCount"] + p["openCount"] for p in after["players"]) == 52
            else:
                page.reload()
                try:
                    after = wait_version(page, version, timeout=20000)
                except Exception as error:
                    shown = page.evaluate(
                        "() => ({url: location.href, version: window.cardtable?.version,"
                        " room: window.cardtable?.room, screen: document.body.dataset.screen})"
                    )
                    raise AssertionError(
                        f"{game}: version {version} not shown again: {shown}"
                    ) from error
            assert page.evaluate("window.cardtable.room") == room, game
            assert page.evaluate("window.cardtable.role") == "player", game
            assert without_clock(after) == before, f"{game}: the reloaded view differs"
            if game == "snap":
                # A woken Snap! room counts down before its clock runs again; meanwhile an action
                # is refused `resuming` (sent while the page still shows 2 s or more to go).
                wait_shown(page, ".countdown", "Resuming in 3…")
                request = page.evaluate("""() => {
                  const node = document.querySelector('.countdown');
                  if (!node || !/Resuming in [23]/.test(node.textContent)) return null;
                  return window.cardtable.send({ cmd: 'act', action: { type: 'turn', player: 'You' }, version: window.cardtable.version });
                }""")
                if request is not None:
                    reply = page.wait_for_function(
                        "(id) => window.cardtable.reply(id)", arg=request, polling=POLL
                    ).json_value()
                    assert reply["type"] == "error" and reply["error"]["code"] == "resuming", reply
                expect(page.locator(".countdown")).to_have_count(0, timeout=10000)
                assert "Resuming in 1…" in texts_shown(page, ".countdown")
            reply = reply_to(page, more)
            # NB: Snap! is real time: a computer player's call may reach the server between the
            # view that gave the page the turn and the turn itself; the turn is then refused
            # while the cards move, and the page turns again once it is its turn.
            for _ in range(10):
                if game != "snap" or reply.get("error", {}).get("code") != "cards-moving":
                    break
                reply = reply_to(page, more)
            assert reply["type"] == "update", f"{game}: the next move was refused: {reply}"
            # NB: Snap!'s computer players move on their own once its clock runs again.
            if game != "snap":
                assert reply["version"] == version + 1, f"{game}: the next move did not follow on"
            assert reply["version"] > version
            assert page.evaluate("window.cardtable.room") == room
            assert not errors, f"{game}: {errors}"
        finally:
            context.close()


def test_closing_the_page_and_opening_its_link_continues(server, page, cardtable):
    table = matchismo_table(cardtable)
    page.goto(f"{server}?game=matchismo&seed=11")
    wait_view(page, "v.table.length === 24")
    link = f"{server}play/{room_of(page)}"
    click_face_down(page, 0)
    v = click_face_down(page, 1)
    context = page.context
    page.close()

    again = context.new_page()
    errors = watch_errors(again)
    again.goto(link)
    after = wait_version(again, v["flips"])
    assert without_clock(after) == without_clock(v)
    expect(again.get_by_text(f"Flips: {v['flips']}")).to_be_visible()
    assert again.evaluate("window.cardtable.role") == "player"
    # The history came back with the game, and play goes on from it.
    assert after["history"] == v["history"] and after["history"][0] == table[0]
    v = click_face_down(again, 2)
    assert v["flips"] == 3
    assert not errors, errors


def files_loaded(page):
    """The page's scripts and style sheets as Resource Timing saw them: (path, bytes over the
    network), where 0 bytes is a copy from the browser's cache (a 304 costs its headers)."""
    return page.evaluate(
        """() => performance.getEntriesByType('resource')
            .map(e => [new URL(e.name).pathname, e.transferSize])
            .filter(([path]) => path.endsWith('.js') || path.endsWith('.css'))"""
    )


def test_a_page_opened_again_takes_its_scripts_and_styles_from_the_cache(server, page):
    """The page names its files under the build's version (docs/WEBSERVER.md, "Caching"), so
    opening the game again asks the server for the page alone: no file revalidated."""
    (address, ready) = DEALS["memory"]
    page.goto(f"{server}{address}")
    wait_view(page, ready)
    first = files_loaded(page)
    versions = {path.split("/")[2] for path, _ in first}
    assert len(versions) == 1 and all(path.startswith("/v/") for path, _ in first), first
    named = page.evaluate(
        "document.querySelectorAll('link[rel=modulepreload], link[rel=stylesheet], script[src]')"
        ".length"
    )
    assert len(first) == named, (named, first)
    assert {"js/app.js", "css/app.css"} <= {path.split("/", 3)[3] for path, _ in first}
    assert all(size > 0 for _, size in first), first
    link = f"{server}play/{room_of(page)}"

    page.goto(link)
    wait_view(page, ready)
    again = files_loaded(page)
    assert sorted(path for path, _ in again) == sorted(path for path, _ in first)
    assert [path for path, size in again if size] == [], "asked the server again"


def test_a_restarted_server_finds_the_memory_game_where_it_was(own_server, page, cardtable):
    pairs = memory_pairs(cardtable)
    record_texts(page, "#connection-banner")
    record_sent(page)
    page.goto(f"{own_server.url}?game=memory&difficulty=easy&seed=42")
    wait_view(page, "v.board.length === 12")
    room = room_of(page)
    (a, b), (c, d) = pairs[:2]
    click_face_down(page, a)
    click_face_down(page, b)
    wait_view(page, f"v.board[{a}].removed && !v.waiting")
    # A mismatch showing when the server stops: it turns back after the restart.
    click_face_down(page, c)
    shown = click_face_down(page, pairs[2][0])

    own_server.restart()
    wait_shown(page, "#connection-banner", "Connection lost — reconnecting…")
    wait_shown(page, "#connection-banner", "Reconnected — your game continues.", timeout=30000)
    wait_view(
        page, f"!v.waiting && !v.board[{c}].faceUp && !v.board[{pairs[2][0]}].faceUp", timeout=20000
    )
    assert page.evaluate("window.cardtable.room") == room
    assert page.url == f"{own_server.url}play/{room}"
    # The page said who it is and opened its room again; it dealt nothing new.
    messages = sent(page)
    again = next(n for n, m in enumerate(messages) if n > 0 and m["cmd"] == "hello")
    assert messages[0]["cmd"] == "hello" and "token" not in messages[0]
    assert messages[again]["token"] and messages[again + 1] == {
        "cmd": "open",
        "room": room,
        "id": messages[again + 1]["id"],
    }
    assert [m["cmd"] for m in messages].count("new") == 1
    v = view(page)
    # The same deal at the same place: the first pair gone, nothing else found, one mistake;
    # six actions: four flips, the pair leaving, the mismatch turning back.
    assert page.evaluate("window.cardtable.version") == 6
    assert v["score"] == shown["score"] == 1
    assert [spot["removed"] for spot in v["board"]] == [i in (a, b) for i in range(12)]
    click_face_down(page, c)
    v = click_face_down(page, d)
    assert v["board"][c]["faceUp"] and v["board"][d]["faceUp"]
    wait_view(page, f"v.board[{c}].removed && v.board[{d}].removed && v.pairsFound === 2")


def test_a_restarted_server_finds_the_matchismo_game_where_it_was(own_server, page, cardtable):
    record_texts(page, "#connection-banner")
    page.goto(f"{own_server.url}?game=matchismo&seed=11")
    wait_view(page, "v.table.length === 24")
    room = room_of(page)
    for index in (3, 5, 8):
        before = click_face_down(page, index)

    own_server.restart()
    wait_shown(page, "#connection-banner", "Reconnected — your game continues.", timeout=30000)
    after = wait_version(page, 3)
    assert page.evaluate("window.cardtable.room") == room
    assert without_clock(after) == without_clock(before)
    v = click_face_down(page, 9)
    assert v["flips"] == 4 and v["history"][:3] == before["history"]


def test_a_link_without_the_token_watches_and_cannot_act(server, page, chromium, cardtable):
    page.goto(f"{server}?game=matchismo&seed=11")
    wait_view(page, "v.table.length === 24")
    link = f"{server}play/{room_of(page)}"
    v = click_face_down(page, 0)

    context = chromium.new_context(viewport=DESKTOP)
    try:
        watcher = context.new_page()
        errors = watch_errors(watcher)
        watcher.goto(link)
        seen = wait_version(watcher, 1)
        assert watcher.evaluate("window.cardtable.role") == "watcher"
        # The same secrets hidden: the watcher sees what the player sees.
        assert without_clock(seen) == without_clock(v)
        expect(
            watcher.get_by_text("Watching — only the player who started this game can play.")
        ).to_be_visible()
        cards = watcher.locator(".card-grid button.card")
        expect(cards).to_have_count(24)
        assert set(cards.evaluate_all("bs => bs.map(b => b.getAttribute('aria-disabled'))")) == {
            "true"
        }
        for name in ("Deal", "Hint", "Restart this deal", "Settings"):
            expect(watcher.get_by_role("button", name=name, exact=True)).to_be_disabled()
        expect(watcher.get_by_label("Cards to match")).to_be_disabled()

        # A click changes nothing: nothing is sent, the view stays.
        sent = watcher.evaluate("window.cardtable.lastRequest")
        # NB: force: Playwright would wait for a card that is aria-disabled to become enabled.
        watcher.get_by_role("button", name=face_down(5), exact=True).click(force=True)
        assert watcher.evaluate("window.cardtable.lastRequest") == sent
        assert watcher.evaluate("window.cardtable.version") == 1
        # An action sent anyway on the watcher's connection is refused by the server.
        reply = send(watcher, {"cmd": "act", "action": {"type": "choose", "card": 5}, "version": 1})
        assert reply["type"] == "error" and reply["error"]["code"] == "watching", reply
        for cmd in ("restart", "hint"):
            reply = send(watcher, {"cmd": cmd})
            assert reply["type"] == "error" and reply["error"]["code"] == "watching", reply

        # The player's next move reaches the watcher.
        v = click_face_down(page, 7)
        assert without_clock(wait_version(watcher, 2)) == without_clock(v)
        expect(watcher.get_by_text("Flips: 2")).to_be_visible()
        # History is open to watchers.
        watcher.get_by_role("button", name="History").click()
        expect(
            watcher.get_by_role("dialog", name="History").locator(".history-entry")
        ).to_have_count(2)
        assert not errors, errors
    finally:
        context.close()
    # The player still plays.
    assert click_face_down(page, 9)["flips"] == 3


def test_a_link_to_no_room_says_so(server, page):
    page.goto(f"{server}play/AAAAAAAAAAAAAAAA")
    expect(page.get_by_role("heading", name="There is no game at this link")).to_be_visible()
    page.get_by_role("link", name="Back to the games").click()
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()


def test_back_and_forward_return_to_the_same_game(server, page):
    page.goto(server)
    page.locator("a.game-tile", has_text="Matchismo").click()
    wait_view(page, "v.table.length === 24")
    room = room_of(page)
    v = click_face_down(page, 2)
    page.get_by_role("link", name="CardTable home").click()
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    page.go_back()
    wait_version(page, 1)
    assert page.evaluate("window.cardtable.room") == room
    assert without_clock(view(page)) == without_clock(v)
    # Back again skips the `?game=` address: the home screen, not a new deal.
    page.go_back()
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    page.go_forward()
    wait_version(page, 1)
    assert page.evaluate("window.cardtable.room") == room


def test_a_seed_above_2_to_the_53_deals_exactly_that_deal(server, page, cardtable):
    seed = 2**53 + 1  # a JavaScript number would turn it into 2^53
    [exact] = engine(
        cardtable, {"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}, "seed": seed}
    )
    [rounded] = engine(
        cardtable,
        {"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}, "seed": seed - 1},
    )
    board = [spot["card"] for spot in exact["state"]["board"]]
    assert board != [spot["card"] for spot in rounded["state"]["board"]]
    record_sent(page)
    page.goto(f"{server}?game=memory&difficulty=easy&seed={seed}")
    wait_view(page, "v.board.length === 12")
    [new] = [m for m in sent(page) if m["cmd"] == "new"]
    assert new["seed"] == str(seed) and new["options"] == {"difficulty": "easy"}
    # Its cards are the exact seed's: two pairs of turns, each waiting for the pair to resolve.
    for index in range(4):
        v = click_face_down(page, index)
        assert v["board"][index]["card"] == board[index]
        expect(page.locator(f'button.card[data-index="{index}"]')).to_have_attribute(
            "aria-label", card_name(board[index])
        )
        if index % 2:
            wait_view(page, "!v.waiting")
