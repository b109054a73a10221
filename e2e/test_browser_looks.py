"""How cards and numbers show: the card states (docs/WEB.md), the dark theme and its switch,
the notes that say why a score changed, and the question before a game is given up."""

import itertools
import re

import pytest
from playwright.sync_api import expect

from browser import (
    PHONE,
    POLL,
    acted,
    card_name,
    engine,
    face_down,
    more_menu,
    reply_to,
    screenshot,
    send,
    settle,
    view,
    wait_view,
    watch_errors,
)

# NB: what tells a card's state apart: its face's ring, its corner mark, its lift, its outline.
LOOK = """(b) => {
  const face = getComputedStyle(b.querySelector('.face.front'));
  const card = getComputedStyle(b), mark = getComputedStyle(b, '::after');
  return { ring: face.boxShadow, mark: mark.content, lift: card.transform,
           outline: `${card.outlineStyle} ${card.outlineColor}` };
}"""
SET_SEED = 5
MATCHISMO_SEED = 11


def open_game(page, server, game):
    """Opens `game` on a fixed deal; returns the accessible names of its first two cards."""
    if game == "set":
        page.goto(f"{server}?game=set&seed={SET_SEED}")
        wait_view(page, "v.table && v.table.length === 12")
        return [card_name(slot["card"]) for slot in view(page)["table"][:2]]
    page.goto(f"{server}?game=matchismo&seed={MATCHISMO_SEED}")
    wait_view(page, "v.table && v.table.length === 24")
    return [face_down(0), face_down(1)]


@pytest.mark.parametrize("game", ["matchismo", "set"])
def test_a_chosen_card_looks_chosen_while_hovered_and_while_focused(server, page, game):
    first, _ = open_game(page, server, game)
    chosen_card = page.locator('.card-grid button.card[data-index="0"]')
    other = page.locator('.card-grid button.card[data-index="1"]')
    acted(page, page.get_by_role("button", name=first, exact=True).click)
    expect(chosen_card).to_have_attribute("aria-pressed", "true")
    page.mouse.move(0, 0)
    settle(page)
    resting = chosen_card.evaluate(LOOK)
    assert resting["mark"] == '"✓"' and resting["lift"] != "none"

    # Hovered: the chosen card keeps its ring, mark and lift; an unchosen one has none of them.
    chosen_card.hover()
    settle(page)
    hovered_chosen = chosen_card.evaluate(LOOK)
    assert {k: hovered_chosen[k] for k in ("ring", "mark", "lift")} == {
        k: resting[k] for k in ("ring", "mark", "lift")
    }
    other.hover()
    settle(page)
    hovered_other = other.evaluate(LOOK)
    assert hovered_other["mark"] == "none" and hovered_other["lift"] == "none"
    assert hovered_other["ring"] != hovered_chosen["ring"]

    # Keyboard-focused: a dashed outline on both; the chosen one still differs, and the focus
    # ring is of another kind than the chosen ring (an outline, dashed, not the face's ring).
    page.mouse.move(0, 0)
    chosen_card.focus()
    page.keyboard.press("ArrowRight")
    expect(other).to_be_focused()
    focused_other = other.evaluate(LOOK)
    page.keyboard.press("ArrowLeft")
    expect(chosen_card).to_be_focused()
    focused_chosen = chosen_card.evaluate(LOOK)
    assert focused_chosen["outline"].startswith("dashed") and focused_other["outline"].startswith(
        "dashed"
    )
    assert focused_chosen["outline"] == focused_other["outline"]
    assert focused_chosen != focused_other
    assert focused_chosen["ring"] == resting["ring"] and focused_chosen["mark"] == '"✓"'
    assert resting["outline"].split()[0] == "none"


def test_a_tapped_card_looks_chosen_on_a_phone(server, chromium):
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone = context.new_page()
    errors = watch_errors(phone)
    first, _ = open_game(phone, server, "set")
    card = phone.locator('.card-grid button.card[data-index="0"]')
    acted(phone, phone.get_by_role("button", name=first, exact=True).tap)
    expect(card).to_have_attribute("aria-pressed", "true")
    settle(phone)
    tapped = card.evaluate(LOOK)
    plain = phone.locator('.card-grid button.card[data-index="1"]').evaluate(LOOK)
    assert tapped["mark"] == '"✓"' and tapped["lift"] != "none" and tapped["ring"] != plain["ring"]
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


# Every animation on the page has ended (none running, none waiting for its delay).
AT_REST = "() => document.getAnimations().every(a => a.playState !== 'running')"


HINTED = ".card-grid button.card.hinted"


@pytest.mark.parametrize(
    ("address", "condition", "mark"),
    [
        ("?game=snap&seed=5", "v.phase === 'playing' && v.canTurn", ".stack-button.can-turn"),
        ("?game=set&seed=5", "v.table.length === 12", HINTED),
        ("?game=matchismo&seed=11", "v.table.length === 24", HINTED),
        ("?game=memory&difficulty=easy&seed=5", "v.board.length === 12", None),
        ("?game=concentration&seed=3", "v.board.length === 52", None),
    ],
    ids=["snap-your-turn", "set-hinted", "matchismo-hinted", "memory", "concentration"],
)
def test_a_table_left_alone_comes_to_rest(server, page, address, condition, mark):
    """A player who steps away leaves a page that draws nothing: Snap!'s stack nudges three
    times when the turn comes, a hint glows twice, and then both keep their still `mark` (a
    ring). A page that animated for ever kept a phone drawing 60 frames a second."""
    page.goto(f"{server}{address}")
    wait_view(page, condition, timeout=20000)
    if mark == HINTED:
        assert send(page, {"cmd": "hint"})["cards"]
    if mark:
        expect(page.locator(mark).first).to_be_visible()
    page.wait_for_function(AT_REST, polling=POLL, timeout=15000)
    if mark:
        expect(page.locator(mark).first).to_be_visible()


def test_hinted_and_mismatched_cards_are_marked(server, page, cardtable):
    [reply] = engine(cardtable, {"cmd": "new", "game": "matchismo", "seed": MATCHISMO_SEED})
    table = [slot["card"] for slot in reply["state"]["table"]]
    k, m = next(
        (k, m)
        for k, m in itertools.combinations(range(len(table)), 2)
        if table[k][:-1] != table[m][:-1] and table[k][-1] != table[m][-1]
    )
    open_game(page, server, "matchismo")
    hint = reply_to(page, page.get_by_role("button", name="Hint").click)["cards"]
    hinted = page.locator(f'.card-grid button.card[data-index="{hint[0]}"]')
    expect(hinted).to_have_class(re.compile(r"\bhinted\b"))
    assert hinted.evaluate("b => getComputedStyle(b, '::before').borderTopStyle") == "dotted"

    acted(page, page.get_by_role("button", name=face_down(k), exact=True).click)
    acted(page, page.get_by_role("button", name=face_down(m), exact=True).click)
    for index in (k, m):
        card = page.locator(f'.card-grid button.card[data-index="{index}"]')
        assert card.evaluate(LOOK)["mark"] == '"✗"'
    # The score note says what the mismatch cost, and the cost to choose.
    expect(page.locator(".score-note")).to_have_text("No match −2, cost to choose −1")
    expect(page.locator(".score-note")).to_have_attribute("role", "status")


def background(page, selector):
    """The relative luminance (0 black … 1 white) of the element's computed background colour."""
    return page.eval_on_selector(
        selector,
        """(e) => {
      const [r, g, b] = getComputedStyle(e).backgroundColor.match(/[\\d.]+/g).map(Number)
        .map(c => { c /= 255; return c <= .03928 ? c / 12.92 : ((c + .055) / 1.055) ** 2.4; });
      return .2126 * r + .7152 * g + .0722 * b;
    }""",
    )


def test_the_dark_theme_follows_the_system_and_the_switch_is_remembered(server, chromium):
    context = chromium.new_context(color_scheme="dark")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server}?game=matchismo&seed={MATCHISMO_SEED}")
    wait_view(page, "v.table && v.table.length === 24")
    switch = more_menu(page).get_by_role("button", name="Dark theme")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(switch).to_have_attribute("aria-pressed", "true")
    # Dialogs are dark too.
    page.get_by_role("button", name="History").click()
    expect(page.get_by_role("dialog", name="History")).to_be_visible()
    assert background(page, "dialog.dialog") < 0.05
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    screenshot(page, "matchismo-dark.png")

    # The switch picks light, and the choice outlives a reload and the system's dark.
    more_menu(page)
    switch.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.reload()
    wait_view(page, "v.table && v.table.length === 24")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.get_by_role("button", name="History").click()
    expect(page.get_by_role("dialog", name="History")).to_be_visible()
    assert background(page, "dialog.dialog") > 0.9
    page.keyboard.press("Escape")
    more_menu(page)
    switch.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_the_switch_is_on_the_home_screen_of_a_light_system(server, page):
    page.goto(server)
    switch = more_menu(page).get_by_role("button", name="Dark theme")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(switch).to_have_attribute("aria-pressed", "false")
    felt = "getComputedStyle(document.documentElement).getPropertyValue('--felt').trim()"
    assert page.evaluate(felt) == "#0f6b3f"
    switch.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate(felt) == "#0b4229"  # a darker felt


def test_set_says_what_plus_three_cost_and_two_players_show_only_their_scores(server, page):
    open_game(page, server, "set")
    v = acted(page, page.get_by_role("button", name="Deal three more cards").click)
    assert v["score"] == -6
    expect(page.locator(".score-note")).to_have_text("+3 with a set showing: −6")
    # Two players: each player's score, no score of both.
    expect(page.get_by_text("Score: -6", exact=True)).to_be_visible()
    v = acted(page, page.get_by_label("Two players").check)
    assert v["current"] == "P1"
    expect(page.locator(".player-chip")).to_have_text(["P1: 0", "P2: 0"])
    expect(page.locator(".score-bar .counter", has_text="Score:")).to_be_hidden()
    # NB: the two-player game is a new, random deal: a set shows on 12 cards only most of
    # the time (about 97 %), and +3 costs nothing when none does.
    reply = reply_to(page, page.get_by_role("button", name="Deal three more cards").click)
    assert reply["type"] == "update", reply
    [dealt] = [e for e in reply["events"] if e["type"] == "dealtThree"]
    if dealt.get("charge"):
        expect(page.locator(".score-note")).to_have_text(
            f"P1: +3 with a set showing: −{dealt['charge']}"
        )
    else:
        expect(page.locator(".score-note")).to_have_text("")


def test_memory_counts_mistakes_and_concentration_names_its_moves_once(server, page):
    page.goto(f"{server}?game=memory&difficulty=easy&seed=42")
    wait_view(page, "v.board && v.board.length === 12")
    expect(page.get_by_role("status")).to_have_text("Pairs found: 0 of 6. Mistakes: 0")
    page.goto(f"{server}?game=concentration&seed=3")
    wait_view(page, "v.board && v.board.length === 52")
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    acted(page, page.get_by_role("button", name=face_down(1), exact=True).click)
    expect(page.get_by_text("Moves: 1", exact=True)).to_be_visible()
    expect(page.get_by_text("Moves:")).to_have_count(1)
    # Restart beside Refresh says which does what.
    restart = page.get_by_role("button", name="Restart this deal")
    expect(restart).to_have_attribute("title", "Deal the same cards again, from the start")
    expect(page.get_by_role("button", name="↻ Refresh")).to_have_attribute(
        "title", "Shuffle and deal a new game"
    )


def test_deal_and_refresh_ask_before_giving_up_a_game_in_progress(server, page):
    open_game(page, server, "matchismo")
    deal = page.get_by_role("button", name="Deal", exact=True)
    # Nothing played yet: Deal deals at once.
    v = acted(page, deal.click)
    assert v["flips"] == 0
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    deal.click()
    dialog = page.get_by_role("dialog", name="Give up this game?")
    expect(dialog).to_be_visible()
    # The safe answer has the focus: Keep playing changes nothing.
    expect(dialog.get_by_role("button", name="Keep playing")).to_be_focused()
    sent = page.evaluate("window.cardtable.lastRequest")
    dialog.get_by_role("button", name="Keep playing").click()
    expect(dialog).to_have_count(0)
    assert page.evaluate("window.cardtable.lastRequest") == sent and view(page)["flips"] == 1

    def deal_anyway():
        deal.click()
        page.get_by_role("dialog", name="Give up this game?").get_by_role(
            "button", name="Deal anyway"
        ).click()

    assert acted(page, deal_anyway)["flips"] == 0

    page.goto(f"{server}?game=concentration&seed=3")
    wait_view(page, "v.board && v.board.length === 52")
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)

    def refresh_anyway():
        page.get_by_role("button", name="↻ Refresh").click()
        page.get_by_role("dialog", name="Give up this game?").get_by_role(
            "button", name="Refresh anyway"
        ).click()

    v = acted(page, refresh_anyway)
    assert v["flips"] == 0


def test_snap_asks_before_a_new_game_once_a_card_is_turned(server, page):
    page.goto(f"{server}?game=snap&seed=5")
    wait_view(page, "v.phase === 'playing' && v.canTurn", timeout=20000)
    acted(page, lambda: page.keyboard.press("t"))
    page.get_by_role("button", name="New game").click()
    dialog = page.get_by_role("dialog", name="Give up this game?")
    expect(dialog.get_by_role("button", name="Keep playing")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    def new_game_anyway():
        page.get_by_role("button", name="New game").click()
        page.get_by_role("dialog", name="Give up this game?").get_by_role(
            "button", name="New game anyway"
        ).click()

    v = acted(page, new_game_anyway)
    assert all(p["openCount"] == 0 for p in v["players"])
