"""The end of every game (issue 21): a summary that fits the game — what was found, the score,
the time, a new best when the server says so — and the way on (Play again with the same
settings, Step through); Matchismo says why it ended, Set says sets; the end moves no card.
Today's deal says so in the game and its end offers a text to share. Set's screen has its
Refill to 12 switch and a clock."""

import datetime
import itertools
import json
import re

from playwright.sync_api import expect

from browser import (
    POLL,
    Relay,
    acted,
    clear_concentration,
    reply_to,
    room_of,
    send,
    view,
    wait_view,
)
from games import click_face_down, memory_pairs

TIME = re.compile(r"^\d+:\d\d$")


def facts(scope):
    """The summary's facts, as {label: value}."""
    pairs = scope.locator(".summary-facts").evaluate(
        "dl => [...dl.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent])"
    )
    return dict(pairs)


def test_memory_ends_with_a_summary_play_again_and_a_new_best(server, page, cardtable):
    """The end's summary: pairs, mistakes and the record's time; Play again deals the same size
    anew; New best shows when the server's `results` say so. (Which game is a best is the
    server's: RoomTests.aWonGameSaysWhatItBetteredAmongThePlayersEarlierOnes. Here a seeded,
    practice game is played, and the answer is given a `best` on its way to the page.)"""
    link = {"best": False}

    def with_best(text):
        message = json.loads(text)
        if not (link["best"] and message.get("cmd") == "results" and message.get("results")):
            return text
        message["results"][-1]["best"] = ["score", "time"]
        return json.dumps(message)

    Relay(page, rewrite=with_best)

    def win():
        page.goto(f"{server}?game=memory&difficulty=easy&seed=42")
        wait_view(page, "v.board.length === 12 && v.pairsFound === 0")
        for first, second in memory_pairs(cardtable, seed=42):
            click_face_down(page, first)
            click_face_down(page, second)
            wait_view(page, f"v.board[{first}].removed && !v.waiting")
        return page.get_by_role("dialog", name="Great!")

    dialog = win()
    shown = facts(dialog)
    assert shown["Pairs"] == "6 of 6" and shown["Mistakes"] == "0", shown
    assert TIME.match(shown["Time"]), shown
    # The summary's time is the record's, once the results came; practice betters nothing.
    results = send(page, {"cmd": "results"})["results"]
    assert "best" not in results[-1]
    expect(dialog.locator(".summary-time")).to_have_text(time_text(results[-1]["duration"]))
    expect(dialog.locator(".new-best")).to_be_hidden()
    room = room_of(page)
    dialog.get_by_role("button", name="Play again").click()
    wait_view(page, "v.pairsFound === 0 && v.flips === 0 && v.board.length === 12")
    assert room_of(page) != room and not view(page)["over"]

    link["best"] = True
    dialog = win()
    expect(dialog.locator(".new-best")).to_have_text("New best score and time!")
    expect(dialog.locator(".new-best")).to_have_attribute("role", "status")


def time_text(seconds):
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def small_matchismo(page, server):
    """Seed 1 on a table of four cards (7♥ 9♠ 4♥ 8♦): the hearts match, then nothing can."""
    page.goto(f"{server}?game=matchismo&seed=1")
    wait_view(page, "v.table.length === 24")
    page.get_by_role("button", name="Settings").click()
    settings = page.get_by_role("dialog", name="Settings")
    settings.get_by_label("Cards on the table").fill("4")
    reply_to(page, settings.get_by_role("button", name="Save").click)
    acted(page, page.get_by_role("button", name="Deal", exact=True).click)
    page.goto(f"{server}?game=matchismo&seed=1")
    wait_view(page, "v.table.length === 4")


def card_boxes(page):
    return page.locator(".card-grid button.card").evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"
    )


def test_matchismo_says_why_it_ended_and_the_end_moves_no_card(server, page):
    small_matchismo(page, server)
    click_face_down(page, 0)
    area = page.locator(".grid-area").bounding_box()
    v = click_face_down(page, 2)
    assert v["over"]
    over = page.locator(".game-over")
    expect(over).to_contain_text("Game Over!")
    expect(over).to_contain_text("No matches left ...")
    expect(over.locator(".end-reason")).to_have_text("The 2 cards left hold no 2-card match.")
    shown = facts(over)
    assert shown["Score"] == str(v["score"]) and shown["Matches found"] == "1", shown
    assert shown["Flips"] == "2" and TIME.match(shown["Time"]), shown
    # Laid over the table: the table stays where it was, and no card moves when it goes.
    assert page.locator(".grid-area").bounding_box() == area
    page.wait_for_function(
        "() => document.querySelector('.card-grid').getAnimations({ subtree: true }).length === 0",
        polling=POLL,
    )
    boxes = card_boxes(page)
    over.get_by_role("button", name="Close").click()
    expect(over).to_be_hidden()
    assert card_boxes(page) == boxes
    # Play again deals the same settings anew (the banner is there again after a reload).
    page.reload()
    over = page.locator(".game-over")
    v = acted(page, over.get_by_role("button", name="Play again").click)
    assert not v["over"] and v["flips"] == 0 and len(v["table"]) == 4
    expect(over).to_be_hidden()


def third(a, b):
    """The Set card that makes a set with `a` and `b` (texts such as `oval:red:solid:2`)."""
    features = [
        ["diamond", "squiggle", "oval"],
        ["red", "green", "purple"],
        ["solid", "striped", "open"],
        ["1", "2", "3"],
    ]
    out = []
    for values, x, y in zip(features, a.split(":"), b.split(":"), strict=True):
        out.append(x if x == y else next(v for v in values if v not in (x, y)))
    return ":".join(out)


def a_deck_with_one_set():
    """Twelve Set cards: a set first, then nine among which no three make a set."""
    found = ["oval:red:solid:1", "oval:red:solid:2", "oval:red:solid:3"]
    rest = []
    for card in itertools.product(
        ["diamond", "squiggle", "oval"],
        ["red", "green", "purple"],
        ["solid", "striped", "open"],
        "123",
    ):
        text = ":".join(card)
        if text in found or any(third(a, b) == text for a, b in itertools.combinations(rest, 2)):
            continue
        rest.append(text)
        if len(rest) == 9:
            return found + rest
    raise AssertionError("no nine cards without a set")


def test_set_ends_saying_sets_with_its_summary(server, page):
    page.goto(f"{server}?game=set&seed=5")
    wait_view(page, "v.table.length === 12")
    deck = a_deck_with_one_set()
    send(page, {"cmd": "new", "game": "set", "deck": deck})
    wait_view(page, f"v.table.length === 12 && v.table[3].card === '{deck[3]}'")
    for index in range(3):
        v = acted(page, page.locator(f'.card-grid button.card[data-index="{index}"]').click)
    assert v["over"] and len(v["table"]) == 9
    over = page.locator(".game-over")
    expect(over).to_contain_text("No sets left ...")
    expect(over.locator(".end-reason")).to_have_text(
        "The deck is empty, and the 9 cards left hold no set."
    )
    shown = facts(over)
    assert shown["Sets found"] == "1" and shown["Score"] == str(v["score"]), shown
    assert "match" not in over.inner_text().lower()


def test_set_has_a_clock_and_a_remembered_refill_switch(server, page):
    page.goto(f"{server}?game=set")
    wait_view(page, "v.table.length === 12")
    clock = page.get_by_role("timer", name="Time")
    expect(clock).to_be_visible()
    page.wait_for_function(
        "() => document.querySelector('.set-screen [role=timer]').textContent !== '0:00'",
        polling=POLL,
    )
    refill = page.get_by_role("switch", name="Refill to 12")
    expect(refill).not_to_be_checked()
    page.get_by_role("button", name="How to play").click()
    help_dialog = page.get_by_role("dialog", name="How to play Set")
    expect(help_dialog).to_contain_text("the cards after it close up (Refill to 12 is off)")
    help_dialog.get_by_role("button", name="Close").click()
    # The switch deals a game with it at once (nothing played yet) and is remembered.
    v = acted(page, refill.click)
    assert v["settings"]["refill"] is True and v["flips"] == 0
    page.reload()
    wait_view(page, "v.table.length === 12")
    expect(page.get_by_role("switch", name="Refill to 12")).to_be_checked()
    page.goto(f"{page.url.split('/play/')[0]}/?game=set")
    wait_view(page, "v.table.length === 12 && v.flips === 0")
    v = view(page)
    assert v["settings"]["refill"] is True, "a new game takes the remembered switch"
    page.get_by_role("button", name="How to play").click()
    expect(page.get_by_role("dialog", name="How to play Set")).to_contain_text(
        "dealt fresh cards while the deck lasts (Refill to 12 is on)"
    )


def test_todays_deal_says_so_and_offers_a_text_to_share(server, page, cardtable):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{server}?game=memory&difficulty=easy&today")
    wait_view(page, "v.board.length === 12")
    day = page.evaluate("window.cardtable.today")
    utc = datetime.datetime.now(datetime.UTC).date()
    assert datetime.date.fromisoformat(day) in {
        utc - datetime.timedelta(days=1),
        utc,
        utc + datetime.timedelta(days=1),
    }
    written = datetime.date.fromisoformat(day).strftime("%-d %b %Y")
    expect(page.locator(".notice.todays-deal")).to_have_text(
        f"Today’s deal · {written} · the same cards for everyone today"
    )
    for first, second in memory_pairs(cardtable, today=day):
        click_face_down(page, first)
        click_face_down(page, second)
        wait_view(page, f"v.board[{first}].removed && !v.waiting")
    dialog = page.get_by_role("dialog", name="Great!")
    results = send(page, {"cmd": "results"})["results"]
    text = f"CardTable Memory — {written} — easy, 0 mistakes, {time_text(results[-1]['duration'])}"
    expect(dialog.get_by_label("Text to share")).to_have_value(text)
    dialog.get_by_role("button", name="Copy").click()
    expect(dialog.locator(".share-done")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == text


def test_concentration_ends_with_its_summary_and_play_again(server, page):
    """The page draws the end the server sends (an update that clears the table, made from the
    server's last view): the summary's pairs, moves and time, and Play again deals a new game
    in a new room."""
    link = Relay(page)
    page.goto(f"{server}?game=concentration&seed=3")
    wait_view(page, "v.board.length === 52")
    click_face_down(page, 0)
    room = room_of(page)
    link.frozen = True
    clear_concentration(page, link, seconds=95)
    dialog = page.get_by_role("dialog", name="Cleared!")
    expect(dialog).to_contain_text("All 26 pairs found in 26 moves.")
    shown = facts(dialog)
    assert shown == {"Pairs": "26 of 26", "Moves": "26", "Time": "1:35"}, shown
    link.frozen = False
    dialog.get_by_role("button", name="Play again").click()
    wait_view(page, "v.board.length === 52 && v.flips === 0 && !v.over")
    assert room_of(page) != room
    expect(page.get_by_role("timer", name="Time")).to_have_text("0:00")
