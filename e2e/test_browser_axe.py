"""An accessibility audit with axe-core (PyPI `axe-playwright-python`, which bundles axe): every
screen, in the dark theme at a phone's size and the light one at a desktop's, has no `serious`
or `critical` violation — the home screen both bare (no games of one's own, no open tables)
and with Your games and an open table listed, the top bar's More menu open, and a player's
page (a player's own, and a link to none; test_browser_ratings.py audits one with games)."""

import pytest
from playwright.sync_api import expect

from browser import (
    DESKTOP,
    PHONE,
    acted,
    bar_button,
    face_down,
    grave_violations,
    more_menu,
    reply_to,
    send,
    wait_view,
    watch_errors,
)


def screens(page, server, host_public_table):
    """Opens each screen in turn (waiting for what it draws) and yields its name."""
    page.goto(server)
    expect(page.get_by_role("heading", name="Your name")).to_be_visible()
    expect(page.get_by_role("heading", name="Open tables")).to_be_visible()
    expect(page.locator(".your-games[data-loaded]")).to_be_hidden()
    expect(page.locator(".open-tables .empty")).to_be_visible()
    yield "home, bare"

    page.goto(f"{server}?game=memory")
    expect(page.get_by_role("button", name="EASY")).to_be_visible()
    yield "memory menu"

    page.goto(f"{server}?game=memory&difficulty=easy&seed=42")
    wait_view(page, "v.board && v.board.length === 12")
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    yield "memory"

    page.goto(f"{server}?game=concentration&seed=3")
    wait_view(page, "v.board && v.board.length === 52")
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    yield "concentration"
    more_menu(page)
    yield "the More menu"
    page.keyboard.press("Escape")

    page.goto(f"{server}?game=matchismo&seed=11")
    wait_view(page, "v.table && v.table.length === 24")
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    reply_to(page, page.get_by_role("button", name="Hint").click)
    yield "matchismo"
    bar_button(page, "History").click()
    expect(page.get_by_role("dialog", name="History")).to_be_visible()
    yield "matchismo history"
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.get_by_role("dialog", name="Give up this game?")).to_be_visible()
    yield "deal confirmation"
    page.keyboard.press("Escape")

    page.goto(f"{server}?game=set&seed=5")
    wait_view(page, "v.table && v.table.length === 12")
    acted(page, page.get_by_role("button", name="Deal three more cards").click)
    yield "set"
    bar_button(page, "Settings").click()
    expect(page.get_by_role("dialog", name="Settings")).to_be_visible()
    yield "set settings"
    page.keyboard.press("Escape")

    page.goto(f"{server}?game=snap&seed=7")
    wait_view(page, "v.players && v.players.length > 1")
    yield "snap"

    page.goto(f"{server}scores")
    expect(page.get_by_role("heading", name="High scores")).to_be_visible()
    expect(page.get_by_label("Let others see my page")).to_be_enabled()
    yield "scores"
    page.get_by_role("link", name="Your player’s page").click()
    expect(page.get_by_role("heading", name="Recent games")).to_be_visible()
    yield "player's own page"
    page.goto(f"{server}players/AAAAAAAAAAAAAAAA")
    expect(
        page.get_by_role("heading", name="There is no player's page at this link.")
    ).to_be_visible()
    yield "no player's page"

    page.goto(f"{server}?game=snap&table=host")
    yield "host form"
    page.get_by_label("Your name").fill("Axel")
    reply_to(page, page.get_by_role("button", name="Host table").click)
    expect(page.locator(".table-code")).to_be_visible()
    yield "table lobby"

    host_public_table()
    page.goto(server)
    expect(page.locator(".your-games .room-item").first).to_be_visible()
    expect(page.locator(".open-tables .table-item")).to_have_count(1)
    yield "home with Your games and an open table"


# NB: each theme at one of the two sizes: the themes decide the contrast, the sizes the layout,
# and the other two pairings cost CI 75 s of Chromium for what these two already audit.
@pytest.mark.parametrize(("size", "scheme"), [("phone", "dark"), ("desktop", "light")])
def test_no_serious_or_critical_violation_on_any_screen(own_server, chromium, scheme, size):
    options = (
        {"viewport": PHONE, "has_touch": True, "is_mobile": True}
        if size == "phone"
        else {"viewport": DESKTOP}
    )
    context = chromium.new_context(color_scheme=scheme, **options)
    page = context.new_page()
    errors = watch_errors(page)
    # NB: a server of the test's own: the bare home screen lists no table another test opened.
    server = own_server.url
    host = chromium.new_context()

    def host_public_table():
        other = host.new_page()
        other.goto(server)
        expect(other.locator(".your-games[data-loaded]")).to_be_attached()
        hosted = send(other, {"cmd": "host", "game": "snap", "public": True})
        assert hosted["type"] == "table", hosted

    try:
        found = []
        for screen in screens(page, server, host_public_table):
            assert page.evaluate("document.documentElement.dataset.theme") == scheme
            found += grave_violations(page, screen)
        assert not found, "\n".join(found)
    finally:
        context.close()
        host.close()
    assert not errors, f"JavaScript errors: {errors}"
