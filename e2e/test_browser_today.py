"""Today's deal (issue 11): the home screen's links deal the day's cards, the same for everyone
(the server's UTC date), as the engine console deals them for that date."""

import datetime

from playwright.sync_api import expect

from browser import DESKTOP, engine, wait_view


def test_todays_deal_is_the_same_for_everyone_and_the_engines(server, chromium, cardtable):
    pages = []
    for _ in range(2):
        context = chromium.new_context(viewport=DESKTOP)
        pages.append(context.new_page())
    try:
        for page in pages:
            page.goto(server)
            page.get_by_role("link", name="Today’s Memory").click()
            wait_view(page, "v.board && v.board.length === 12")
        # NB: read after the deal, so that a test run across midnight compares the same day.
        day = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
        [reply] = engine(cardtable, {"cmd": "new", "game": "memory", "today": day})
        # NB: the page holds the seed as a JavaScript number: the nearest double to it.
        seeds = [float(page.evaluate("window.cardtable.seed")) for page in pages]
        assert seeds == [float(reply["state"]["seed"])] * 2, "today's seed, shown as practice"
        expect(pages[0].get_by_role("heading", name="Memory")).to_be_visible()
    finally:
        for page in pages:
            page.context.close()
