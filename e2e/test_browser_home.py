"""The home screen's order: Your games first when there are any (the newest two, the rest a
button away), Join a table on a phone's first screen with or without them, and its help lines
readable on the felt (4.5:1 at least, on the felt's lightest green too)."""

from playwright.sync_api import expect

from browser import PHONE, wait_view
from games import DEALS

FELT_LIGHT = (0x17, 0x89, 0x4F)  # --felt-light: the centre of the light theme's gradient


def sections(page):
    """The home screen's parts on show, top to bottom, by class."""
    return page.evaluate(
        "() => [...document.querySelector('.home').children].filter(e => e.getClientRects().length).map(e => e.classList[0])"
    )


def join_on_first_screen(page):
    page.evaluate("window.scrollTo(0, 0)")
    box = page.get_by_role("link", name="Join a table").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box


def test_join_a_table_is_on_a_phones_first_screen_and_your_games_come_first(server, phone):
    phone.goto(server)
    expect(phone.locator(".your-games[data-loaded]")).to_be_attached()
    assert sections(phone)[:2] == ["play-together", "game-choice"]
    join_on_first_screen(phone)

    # Four unfinished games: Your games comes first, the newest two shown.
    for game in ("memory", "concentration", "matchismo", "set"):
        phone.goto(f"{server}{DEALS[game].address}")
        wait_view(phone, DEALS[game].ready)
    phone.goto(server)
    games = phone.get_by_role("region", name="Your games")
    expect(games).to_be_visible()
    assert sections(phone)[:3] == ["your-games", "play-together", "game-choice"]
    expect(games.get_by_role("link", name="Resume")).to_have_count(2)
    join_on_first_screen(phone)
    show = games.get_by_role("button", name="Show all 4")
    expect(show).to_have_attribute("aria-expanded", "false")
    show.click()
    expect(games.get_by_role("link", name="Resume")).to_have_count(4)
    expect(games.get_by_role("button", name="Show fewer")).to_have_attribute(
        "aria-expanded", "true"
    )


def luminance(rgb):
    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def over(top, alpha, below):
    return tuple(alpha * t + (1 - alpha) * b for t, b in zip(top, below))


def test_the_help_lines_are_readable_on_the_light_felt(server, page):
    page.goto(server)
    expect(page.get_by_role("heading", name="Your name")).to_be_visible()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    for text in ("Host a table with", "The same cards for everyone today"):
        colours = page.get_by_text(text).evaluate("""(e) => {
          const rgba = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
          let opacity = 1;
          for (let n = e; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
          const panel = e.closest('section');
          return { ink: rgba(getComputedStyle(e).color), opacity, panel: rgba(getComputedStyle(panel).backgroundColor) };
        }""")
        panel = colours["panel"] + [1] * (4 - len(colours["panel"]))
        ground = over(panel[:3], panel[3], FELT_LIGHT)
        ink = colours["ink"] + [1] * (4 - len(colours["ink"]))
        ink = over(ink[:3], ink[3] * colours["opacity"], ground)
        light, dark = sorted((luminance(ink), luminance(ground)), reverse=True)
        ratio = (light + 0.05) / (dark + 0.05)
        assert ratio >= 4.5, f"{text!r}: {ratio:.2f}:1 ({colours})"
