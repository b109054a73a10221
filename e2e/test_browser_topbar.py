"""The top bar keeps one row at every width from a 360 px phone: the title whole, the game's own
buttons beside it (on a phone some by their icon; what it has no room for — the brand, How to
play, Play against, Play with friends, Step through — in the More menu, under the same names), while a game
is played and once it has ended with Step through shown. The More menu by keyboard,
Escape and a click outside, and its switches still working and remembered."""

import pytest
from playwright.sync_api import expect

from browser import (
    BAR_FITTED,
    POLL,
    Relay,
    acted,
    clear_concentration,
    face_down,
    more_menu,
    send,
    tab_to,
    wait_view,
)
from games import DEALS, GAMES, memory_pairs

WIDTHS = [360, 390, 768, 1280]
# The bar's buttons that give way before the game's own (web/js/topbar.js).
ROOMS_OWN = (
    ".how-to-play-button",
    ".table-help-button",
    ".opponent-choice",
    ".play-with-friends",
    ".step-through",
)


def bar(page):
    """The top bar once it has been fitted to the window's width: its height, each shown part's
    box, the title's widths, and the bar's buttons sent to More with their stand-ins' names."""
    page.wait_for_function(f"() => {BAR_FITTED}", polling=POLL)
    return page.evaluate(
        """(roomsOwn) => {
      const bar = document.querySelector('.topbar');
      const title = document.getElementById('page-title');
      const name = (e) => e.getAttribute('aria-label') || e.textContent.trim();
      const parts = [...bar.querySelectorAll('.brand, #page-title, #toolbar-end > *, #more-button')]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => { const r = e.getBoundingClientRect(); return { name: name(e), top: r.top, bottom: r.bottom, left: r.left, right: r.right }; });
      const gone = [...bar.querySelectorAll('.overflowed')];
      return {
        height: bar.getBoundingClientRect().height, width: bar.clientWidth, parts,
        title: { text: title.textContent, scroll: title.scrollWidth, client: title.clientWidth },
        pageWidth: document.documentElement.scrollWidth,
        gone: gone.map(name),
        goneOwn: gone.filter((e) => !e.matches('.brand') && !roomsOwn.some((s) => e.matches(s))).map(name),
        standIns: [...document.querySelectorAll('.more-moved > *')].map(name),
      };
    }""",
        list(ROOMS_OWN),
    )


def assert_one_row(page, where):
    b = bar(page)
    parts = b["parts"]
    names = [p["name"] for p in parts]
    assert b["title"]["text"] in names, f"{where}: no title in the bar: {names}"
    middles = [(p["top"] + p["bottom"]) / 2 for p in parts]
    tallest = max(p["bottom"] - p["top"] for p in parts)
    assert max(middles) - min(middles) <= 3, (
        f"{where}: the bar's parts are on several rows: {parts}"
    )
    assert b["height"] <= tallest + 16, f"{where}: the bar is {b['height']} px tall: {parts}"
    assert all(p["left"] >= 0 and p["right"] <= b["width"] + 0.5 for p in parts), (
        f"{where}: a part of the bar is outside it: {parts}"
    )
    assert b["title"]["client"] > 0 and b["title"]["scroll"] <= b["title"]["client"], (
        f"{where}: the title is cut: {b['title']}"
    )
    assert b["pageWidth"] <= page.viewport_size["width"], f"{where}: the page scrolls sideways"
    # Whatever left the bar is in the More menu, under the same name.
    assert b["standIns"] == b["gone"], (
        f"{where}: {b['gone']} left the bar, More has {b['standIns']}"
    )
    return b


def at_every_width(page, where):
    """Checks the bar at each width; returns the game's own buttons that went to More, by width."""
    gone = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740 if width < 700 else 800})
        gone[width] = assert_one_row(page, f"{where} at {width} px")["goneOwn"]
    # At every width every button of the game's own is on the bar (on a phone some show only
    # their icon).
    assert all(not names for names in gone.values()), f"{where}: {gone}"
    return gone


def finish_memory(page, cardtable, relay):
    for a, b in memory_pairs(cardtable):
        acted(page, page.get_by_role("button", name=face_down(a), exact=True).click)
        page.get_by_role("button", name=face_down(b), exact=True).click()
        wait_view(page, f"v.board[{a}].removed && v.board[{b}].removed && !v.waiting")


def finish_concentration(page, cardtable, relay):
    # NB: the end as the server would send it (26 pairs take half a minute to play).
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    clear_concentration(page, relay, seconds=60)


def finish_matchismo(page, cardtable, relay):
    # Four cards from seed 1 (7♥ 9♠ 4♥ 8♦): the hearts match, and then no match is left.
    send(page, {"cmd": "settings", "settings": {"matchismo": {"cards": 4}}})
    page.goto(page.evaluate("location.origin") + "/?game=matchismo&seed=1")
    wait_view(page, "v.table.length === 4")
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    # NB: the last move's reply may come after the end screen's own requests: the test waits for the end.
    page.get_by_role("button", name=face_down(2), exact=True).click()


def finish_set(page, cardtable, relay):
    # A deck of one set: found, it ends the game.
    deck = ["oval:red:solid:1", "oval:green:solid:1", "oval:purple:solid:1"]
    send(page, {"cmd": "new", "game": "set", "deck": deck})
    wait_view(page, "v.table.length === 3")
    for index in range(2):
        acted(page, page.locator(f'.card-grid button.card[data-index="{index}"]').click)
    page.locator('.card-grid button.card[data-index="2"]').click()


def finish_snap(page, cardtable, relay):
    # The host (the player) leaving ends the game (RULES §5.4).
    send(page, {"cmd": "act", "action": {"type": "leave", "player": "You"}})


ENDS_IN_A_DIALOG = {"memory", "concentration"}

FINISH = {
    "memory": finish_memory,
    "concentration": finish_concentration,
    "matchismo": finish_matchismo,
    "set": finish_set,
    "snap": finish_snap,
}


@pytest.mark.parametrize("game", GAMES)
def test_the_top_bar_keeps_one_row_in_play_and_at_the_end(server, page, cardtable, game):
    deal = DEALS[game]
    relay = Relay(page)
    page.goto(f"{server}{deal.address}")
    wait_view(page, deal.ready, timeout=20000)
    at_every_width(page, f"{game} in play")

    page.set_viewport_size({"width": 1280, "height": 800})
    FINISH[game](page, cardtable, relay)
    wait_view(page, "v.over === true", timeout=20000)
    step = page.locator("#toolbar-end .step-through")
    expect(step).not_to_have_attribute("hidden", "")
    if game in ENDS_IN_A_DIALOG:
        # NB: measured without it (a modal dialog makes the bar inert).
        expect(page.locator("dialog[open]")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("dialog[open]")).to_have_count(0)
    gone = at_every_width(page, f"{game} at its end")
    # Step through: on the bar from a tablet's width up, in More on a phone if need be.
    assert "Step through" not in bar(page)["gone"]
    page.set_viewport_size({"width": 360, "height": 740})
    b = assert_one_row(page, f"{game} at its end, on a phone")
    assert gone[360] == b["goneOwn"]
    if "Step through" in b["gone"]:
        more_menu(page).get_by_role("button", name="Step through").click()
        expect(page.get_by_role("region", name="Step through the game")).to_be_visible()


def test_the_home_screen_bar_keeps_one_row(server, page):
    page.goto(server)
    expect(page.get_by_role("heading", name="Your name")).to_be_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        assert_one_row(page, f"home at {width} px")


def test_the_more_menu_by_keyboard_and_its_switches_remembered(server, page):
    page.goto(f"{server}?game=concentration&seed=3")
    wait_view(page, "v.board.length === 52")
    button = page.get_by_role("button", name="More", exact=True)
    panel = page.locator("#more-panel")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(panel).to_be_hidden()
    # The rarely used controls are in the menu only.
    expect(page.get_by_role("switch", name="Sound")).to_have_count(0)

    page.locator("main").focus()
    tab_to(page, "e.id === 'more-button'", key="Shift+Tab")
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(panel).to_be_visible()
    expect(button).to_be_focused()
    page.keyboard.press("Tab")
    sound = panel.get_by_role("switch", name="Sound")
    expect(sound).to_be_focused()
    before = sound.get_attribute("aria-checked")
    page.keyboard.press("Space")
    expect(sound).not_to_have_attribute("aria-checked", before)
    page.keyboard.press("Tab")
    large = panel.get_by_role("button", name="Large cards")
    expect(large).to_be_focused()
    page.keyboard.press("Enter")
    expect(large).to_have_attribute("aria-pressed", "true")
    expect(page.locator("html")).to_have_attribute("data-cards", "large")
    page.keyboard.press("Tab")
    dark = panel.get_by_role("button", name="Dark theme")
    expect(dark).to_be_focused()
    page.keyboard.press("Space")
    expect(dark).to_have_attribute("aria-pressed", "true")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.keyboard.press("Tab")
    expect(panel.get_by_role("link", name="Scores")).to_be_focused()
    # Escape closes it and gives the focus back to More.
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(button).to_be_focused()

    # A click outside closes it; so does the focus going past its end.
    button.click()
    expect(panel).to_be_visible()
    page.mouse.click(5, 400)
    expect(panel).to_be_hidden()
    button.click()
    panel.get_by_role("link", name="Scores").focus()
    page.keyboard.press("Tab")
    expect(panel).to_be_hidden()

    # Remembered as before.
    page.reload()
    wait_view(page, "v.board.length === 52")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("html")).to_have_attribute("data-cards", "large")
    panel = more_menu(page)
    expect(panel.get_by_role("switch", name="Sound")).not_to_have_attribute("aria-checked", before)
    expect(panel.get_by_role("button", name="Dark theme")).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_role("button", name="Large cards")).to_have_attribute(
        "aria-pressed", "true"
    )
    # Scores, from the menu.
    panel.get_by_role("link", name="Scores").click()
    expect(page.get_by_role("heading", name="High scores")).to_be_visible()
    expect(panel).to_be_hidden()


def test_a_button_the_phone_bar_has_no_room_for_works_from_more(server, phone):
    phone.goto(f"{server}?game=memory&difficulty=easy&seed=42")
    wait_view(phone, "v.board.length === 12")
    gone = assert_one_row(phone, "memory on a phone")["gone"]
    assert "How to play" in gone
    expect(phone.get_by_role("button", name="How to play", exact=True)).to_have_count(0)
    more_menu(phone).get_by_role("button", name="How to play").click()
    dialog = phone.get_by_role("dialog", name="How to play Memory")
    expect(dialog).to_be_visible()
    phone.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(phone.get_by_role("button", name="More", exact=True)).to_be_focused()
    # On a wide window it is back on the bar.
    phone.set_viewport_size({"width": 1280, "height": 800})
    expect(phone.get_by_role("button", name="How to play", exact=True)).to_be_visible()
    assert bar(phone)["standIns"] == []
