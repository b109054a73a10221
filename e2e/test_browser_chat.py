"""A table's chat in the browser (docs/PROTOCOL.md "Table chat", js/chat.js): the seated players
and a watcher write lines and quick reactions that everyone at the table sees with the writer's
name (a watcher's marked as such, your own as "You"), always as text; the host lets watchers
chat or not; a player mutes another; a page that comes back gets the latest lines; a refusal is
said in the panel; and the panel keeps a phone's table in view and passes the audit.

NB: the server takes at most 5 lines in 10 s from one player at one table: each test but the
one about that limit has every person say fewer."""

from playwright.sync_api import expect
from test_browser_together import join_by_link, start

from browser import (
    PHONE,
    assert_phone_layout,
    grave_violations,
    reply_to,
    require_game,
    send,
    wait_view,
    watch_errors,
)

EASY = ["A♥", "A♥", "K♠", "K♠", "2♦", "2♦", "3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠"]
CHAT_OFF = "The host has turned watchers' chat off."
HTML = "<b>bold</b><img src=x onerror=alert(1)>"


def host_table(server, page):
    """`page` hosts an easy Memory table (a practice deal, so nobody waits on a shuffle)."""
    page.goto(f"{server}?game=memory&difficulty=easy&table=host&deck={','.join(EASY)}")
    table = reply_to(page, page.get_by_role("button", name="Host table").click)
    assert table["type"] == "table" and table["phase"] == "lobby", table
    return table


def watch(page, server, table):
    """`page` opens the link of a table in play: it watches."""
    page.goto(f"{server}play/{table['room']}")
    wait_view(page, "v.version >= 0")
    assert page.evaluate("window.cardtable.role") == "watcher"
    expect(page.locator(".chat-panel")).to_be_visible()


def table_of_three(server, people):
    """Ann hosts, Bob joins and Ann starts; then Cat opens the link and watches. Returns the
    pages and the host's `table` message."""
    ann, bob, cat = (people(server, name) for name in ("Ann", "Bob", "Cat"))
    table = host_table(server, ann)
    join_by_link(bob, table)
    start(ann, [bob])
    watch(cat, server, table)
    return ann, bob, cat, table


def log(page):
    return page.get_by_role("log", name="Chat messages")


def lines(page):
    return log(page).locator(".chat-line")


def message_box(page):
    return page.get_by_label("Message to the table")


def say(page, text, key=True):
    """Types `text` in the chat and sends it (Enter, or the Send button); returns the reply."""
    message_box(page).fill(text)
    if key:
        return reply_to(page, lambda: message_box(page).press("Enter"))
    return reply_to(page, page.get_by_role("button", name="Send", exact=True).click)


def said(page, text):
    """Says `text`, which the server must take: its line comes back marked as this page's."""
    reply = say(page, text)
    assert reply["type"] == "chat" and reply["lines"][0]["you"] is True, reply
    assert reply["lines"][0]["text"] == text, reply
    return reply["lines"][0]


def expect_lines(page, who, texts):
    """The chat shows exactly these lines, oldest first: each writer as named, and its text."""
    expect(lines(page).locator(".chat-who")).to_have_text(who)
    expect(lines(page).locator(".chat-text")).to_have_text(texts)


def test_players_and_a_watcher_chat_with_names_as_text_and_react(server, people):
    ann, bob, cat, _ = table_of_three(server, people)
    dialogs = []
    for page in (ann, bob, cat):
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        expect(log(page)).to_be_empty()
        expect(message_box(page)).to_have_attribute("maxlength", "200")
        expect(message_box(page)).to_be_enabled()

    # Ann presses Enter, Bob the Send button; Cat, watching, writes too.
    first = said(ann, "Hello Bob")
    assert first["name"] == "Ann" and first["seat"] == 0 and "watcher" not in first
    expect(message_box(ann)).to_have_value("")
    expect(message_box(ann)).to_be_focused()
    reply = say(bob, "Hi Ann", key=False)
    assert reply["type"] == "chat" and reply["lines"][0]["seat"] == 1, reply
    line = said(cat, "Nice game")
    assert line["watcher"] is True and "seat" not in line
    texts = ["Hello Bob", "Hi Ann", "Nice game"]
    expect_lines(ann, ["You", "Bob", "Cat (watcher)"], texts)
    expect_lines(bob, ["Ann", "You", "Cat (watcher)"], texts)
    expect_lines(cat, ["Ann", "Bob", "You (watcher)"], texts)
    expect(lines(cat).last).to_have_class("chat-line you watcher")

    # Markup is shown as the characters typed: no element is made of it, no script runs.
    said(ann, HTML)
    for page in (ann, bob, cat):
        expect(lines(page)).to_have_count(4)
        expect(lines(page).last.locator(".chat-text")).to_have_text(HTML)
        assert lines(page).last.locator(".chat-text").evaluate("(e) => e.textContent") == HTML
        expect(log(page).locator("b, img, script")).to_have_count(0)
    assert not dialogs, dialogs

    # A quick reaction: its emoji and its words, on every page.
    reply = reply_to(bob, bob.get_by_role("button", name="Good game").click)
    assert reply["type"] == "chat" and reply["lines"][0]["reaction"] == "gg", reply
    assert "text" not in reply["lines"][0]
    for page, who in ((ann, "Bob"), (bob, "You"), (cat, "Bob")):
        reaction = lines(page).last
        expect(reaction).to_have_class(
            "chat-line reaction" if who == "Bob" else "chat-line you reaction"
        )
        expect(reaction.locator(".chat-who")).to_have_text(who)
        expect(reaction.locator(".chat-emoji")).to_have_text("🤝")
        expect(reaction.locator(".chat-text")).to_have_text("Good game")
    # Every reaction has a button named by its words.
    for name in ("Well played", "Wow", "Ha!", "Oops", "So fast!", "Good game"):
        expect(
            cat.get_by_role("group", name="Quick reactions").get_by_role("button", name=name)
        ).to_be_visible()
    # The others at the table can be muted from the list under the chat.
    expect(ann.locator(".chat-person-name")).to_have_text(["Bob", "Cat (watcher)"])
    expect(cat.locator(".chat-person-name")).to_have_text(["Ann", "Bob"])
    expect(ann.get_by_role("button", name="Mute Cat", exact=True)).to_be_visible()


def test_the_host_turns_watchers_chat_off_and_on(server, people):
    ann, bob, cat, _ = table_of_three(server, people)
    switch = ann.get_by_label("Watchers may chat")
    expect(switch).to_be_checked()
    for page in (bob, cat):
        expect(page.get_by_label("Watchers may chat")).to_be_hidden()
    said(cat, "Can I talk?")

    table = reply_to(ann, switch.uncheck)
    assert table["type"] == "table" and table["watcherChat"] is False, table
    expect(switch).not_to_be_checked()
    # The watcher's field, Send and reactions are disabled, with the note; the players' are not.
    expect(message_box(cat)).to_be_disabled()
    expect(cat.get_by_role("button", name="Send", exact=True)).to_be_disabled()
    expect(cat.get_by_role("button", name="Wow")).to_be_disabled()
    expect(cat.locator(".chat-off-note")).to_have_text(CHAT_OFF)
    expect(cat.locator(".chat-off-note")).to_be_visible()
    for page in (ann, bob):
        expect(message_box(page)).to_be_enabled()
        expect(page.locator(".chat-off-note")).to_be_hidden()
    assert bob.evaluate("window.cardtable.table.watcherChat") is False
    # A watcher's line sent over the protocol all the same is refused, and nobody sees it.
    refused = send(cat, {"cmd": "say", "text": "Let me talk"})
    assert refused["type"] == "error" and refused["error"]["code"] == "chat-off", refused
    refused = send(cat, {"cmd": "say", "reaction": "oops"})
    assert refused["error"]["code"] == "chat-off", refused
    # Only the host may change it.
    refused = send(bob, {"cmd": "chat-settings", "watchers": True})
    assert refused["type"] == "error" and refused["error"]["code"] == "not-the-host", refused
    said(bob, "Players still chat")
    for page in (ann, bob, cat):
        expect(lines(page).locator(".chat-text")).to_have_text(
            ["Can I talk?", "Players still chat"]
        )

    table = reply_to(ann, switch.check)
    assert table["type"] == "table" and "watcherChat" not in table, table
    expect(message_box(cat)).to_be_enabled()
    expect(cat.locator(".chat-off-note")).to_be_hidden()
    said(cat, "Thanks!")
    expect(lines(ann).last.locator(".chat-who")).to_have_text("Cat (watcher)")
    expect(lines(ann).last.locator(".chat-text")).to_have_text("Thanks!")


def test_a_player_mutes_and_unmutes_another(server, people):
    ann, bob, cat, _ = table_of_three(server, people)
    said(bob, "Before")
    said(cat, "Watching you")
    expect(lines(ann)).to_have_count(2)

    table = reply_to(ann, ann.get_by_role("button", name="Mute Bob", exact=True).click)
    assert table["type"] == "table" and table["muted"] == ["Bob"], table
    expect(ann.locator(".chat-person.muted .chat-person-name")).to_have_text("Bob — muted")
    expect(ann.get_by_role("button", name="Unmute Bob", exact=True)).to_be_focused()
    expect(ann.locator(".chat-status")).to_have_text("You no longer see what Bob says.")
    # Bob's next line reaches Cat, not Ann. (Ann's own line, said after the server took Bob's,
    # shows that Bob's would have come first.)
    said(bob, "Can you hear me?")
    said(ann, "Quiet here")
    expect_lines(ann, ["Bob", "Cat (watcher)", "You"], ["Before", "Watching you", "Quiet here"])
    expect_lines(
        cat,
        ["Bob", "You (watcher)", "Bob", "Ann"],
        ["Before", "Watching you", "Can you hear me?", "Quiet here"],
    )
    # Muting is Ann's own: Bob still sees everyone, and his mute list is untouched.
    expect(bob.locator(".chat-person.muted")).to_have_count(0)
    assert "muted" not in bob.evaluate("window.cardtable.table")
    # A watcher is muted by the name of their lines.
    table = reply_to(ann, ann.get_by_role("button", name="Mute Cat", exact=True).click)
    assert sorted(table["muted"]) == ["Bob", "Cat"], table

    table = reply_to(ann, ann.get_by_role("button", name="Unmute Bob", exact=True).click)
    assert table["muted"] == ["Cat"], table
    expect(ann.get_by_role("button", name="Mute Bob", exact=True)).to_be_visible()
    said(bob, "Back again")
    said(cat, "Still here")
    said(ann, "Welcome back")
    expect(lines(ann).locator(".chat-text")).to_have_text(
        ["Before", "Watching you", "Quiet here", "Back again", "Welcome back"]
    )
    # Nobody mutes themselves or a name nobody at the table goes by.
    refused = send(ann, {"cmd": "mute", "name": "Ann"})
    assert refused["error"]["code"] == "bad-request", refused
    refused = send(ann, {"cmd": "mute", "name": "Zed"})
    assert refused["error"]["code"] == "no-such-player", refused


def test_a_page_that_comes_back_gets_the_latest_lines(server, people):
    ann, bob, cat, _ = table_of_three(server, people)
    said(ann, "One")
    said(bob, "Two")
    said(cat, "Three")
    reply_to(ann, ann.get_by_role("button", name="Wow").click)
    expect(lines(cat)).to_have_count(4)

    # Cat reloads: the lines come back, hers as her own, the reaction as a reaction.
    cat.reload()
    wait_view(cat, "v.version >= 0")
    expect_lines(cat, ["Ann", "Bob", "You (watcher)", "Ann"], ["One", "Two", "Three", "Wow"])
    expect(lines(cat).last).to_have_class("chat-line reaction")
    # A new line after the history follows it, once.
    said(bob, "Four")
    expect(lines(cat).locator(".chat-text")).to_have_text(["One", "Two", "Three", "Wow", "Four"])
    # Bob, muted by Ann, is left out of the lines that Ann's page gets back.
    reply_to(ann, ann.get_by_role("button", name="Mute Bob", exact=True).click)
    ann.reload()
    wait_view(ann, "v.version >= 0")
    expect_lines(ann, ["You", "Cat (watcher)", "You"], ["One", "Three", "Wow"])
    expect(ann.locator(".chat-person.muted .chat-person-name")).to_have_text("Bob — muted")


def test_typing_in_the_chat_at_a_snap_table_plays_nothing(server, people, cardtable):
    require_game(cardtable, "snap")
    ann, bob = people(server, "Ann"), people(server, "Bob")
    ann.goto(f"{server}?game=snap&table=host&seed=5")
    table = reply_to(ann, ann.get_by_role("button", name="Host table").click)
    join_by_link(bob, table)
    start(ann, [bob])
    wait_view(ann, "v.phase === 'playing' && v.canTurn")
    # The table has one button named Snap!: the call (the chat's ⚡ says "So fast!").
    expect(ann.get_by_role("button", name="Snap!")).to_have_count(1)
    # S and T call and turn on the table's page, but not while typing a line.
    before = ann.evaluate("window.cardtable.lastRequest")
    version = ann.evaluate("window.cardtable.version")
    message_box(ann).press_sequentially("St st")
    reply = reply_to(ann, lambda: message_box(ann).press("Enter"))
    assert reply["type"] == "chat" and reply["lines"][0]["text"] == "St st", reply
    assert ann.evaluate("window.cardtable.lastRequest") == before + 1
    assert ann.evaluate("window.cardtable.version") == version
    expect(lines(bob).locator(".chat-text")).to_have_text(["St st"])
    reply = reply_to(bob, bob.get_by_role("button", name="So fast!").click)
    assert reply["lines"][0]["reaction"] == "snap", reply
    expect(lines(ann).last.locator(".chat-text")).to_have_text("So fast!")


def test_chat_in_the_lobby_and_a_refusal_in_the_status_line(server, people):
    ann, bob = people(server, "Ann"), people(server, "Bob")
    table = host_table(server, ann)
    join_by_link(bob, table)
    # The lobby has the chat too.
    expect(ann.locator(".table-lobby")).to_be_visible()
    for number in range(1, 6):
        said(bob, f"Line {number}")
    expect(lines(ann)).to_have_count(5)
    # A sixth line within 10 s is refused: the panel says why and keeps what was typed.
    reply = say(bob, "Line 6")
    assert reply["type"] == "error" and reply["error"]["code"] == "too-many-messages", reply
    expect(bob.locator(".chat-status")).to_have_text("Slow down: at most 5 messages in 10 seconds.")
    expect(message_box(bob)).to_have_value("Line 6")
    expect(lines(bob)).to_have_count(5)
    # Over the protocol: a line too long, an empty one, both text and reaction, an unknown reaction.
    for message, code in (
        ({"cmd": "say", "text": "x" * 201}, "message-too-long"),
        ({"cmd": "say", "text": "   "}, "bad-request"),
        ({"cmd": "say", "text": "hi", "reaction": "wow"}, "bad-request"),
        ({"cmd": "say", "reaction": "boo"}, "bad-request"),
    ):
        refused = send(ann, message)
        assert refused["type"] == "error" and refused["error"]["code"] == code, (message, refused)
    # A game of one's own has no chat.
    ann.goto(f"{server}?game=memory&difficulty=easy&seed=42")
    wait_view(ann, "v.board.length === 12")
    expect(ann.locator(".chat-panel")).to_have_count(0)
    refused = send(ann, {"cmd": "say", "text": "anyone?"})
    assert refused["error"]["code"] == "not-a-table", refused


def test_the_chat_keeps_a_phone_table_in_view_and_passes_the_audit(server, chromium):
    pages, contexts, errors = [], [], []
    try:
        for name in ("Ann", "Bob"):
            context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
            contexts.append(context)
            page = context.new_page()
            errors += watch_errors(page)
            page.goto(server)
            expect(page.locator(".your-games, .name-form").first).to_be_attached()
            assert (
                send(page, {"cmd": "settings", "settings": {"name": name}})["settings"]["name"]
                == name
            )
            page.person = name
            pages.append(page)
        ann, bob = pages
        table = host_table(server, ann)
        join_by_link(bob, table)
        start(ann, [bob])
        said(bob, ("A long line that wraps on a phone's narrow screen, " * 3).strip())
        reply_to(bob, bob.get_by_role("button", name="Good game").tap)
        expect(lines(ann)).to_have_count(2)
        # The game keeps the whole window: the chat is below it, a scroll away.
        place = ann.evaluate(
            """() => {
              const board = document.querySelector('.memory-table').getBoundingClientRect();
              const chat = document.querySelector('.chat-panel').getBoundingClientRect();
              return { boardBottom: board.bottom, boardHeight: board.height, chatTop: chat.top, height: innerHeight };
            }"""
        )
        assert place["boardBottom"] <= place["height"] + 0.5, place
        assert place["boardHeight"] > place["height"] / 2, place
        assert place["chatTop"] >= place["boardBottom"] - 0.5, place
        ann.locator(".chat-panel").scroll_into_view_if_needed()
        assert_phone_layout(ann)
        found = grave_violations(ann, "table chat, host, phone", ".chat-panel")
        found += grave_violations(bob, "table chat, player, phone", ".chat-panel")
        assert not found, "\n".join(found)
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_the_watchers_panel_with_chat_off_passes_the_audit(server, people):
    ann, _, cat, _ = table_of_three(server, people)
    said(cat, "Hello")
    reply_to(ann, ann.get_by_label("Watchers may chat").uncheck)
    expect(cat.locator(".chat-off-note")).to_be_visible()
    cat.locator(".chat-panel").scroll_into_view_if_needed()
    found = grave_violations(
        cat, "table chat, watcher, chat off", ".chat-panel"
    ) + grave_violations(ann, "table chat, host", ".chat-panel")
    assert not found, "\n".join(found)
