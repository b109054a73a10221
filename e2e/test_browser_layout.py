"""Every table fits the screen (issue 11): Snap!'s seats, stack and button, and every other game's
cards and controls, lie inside the viewport from a phone on its side to a large desktop, and the
page scrolls neither way; the cards stay put when a status line changes; Memory turns its grid
on an upright phone; Set's cards glide to their new places (not under reduced motion); and the
Large cards switch makes cards bigger and is remembered."""

import pytest
from playwright.sync_api import expect

from browser import (
    POLL,
    acted,
    card_name,
    more_menu,
    require_game,
    screenshot,
    send,
    settle,
    view,
    wait_view,
    watch_errors,
)

SIZES = [(360, 640), (740, 360), (640, 360), (1024, 600), (1280, 800), (1920, 1080)]
LARGE = "try { localStorage.setItem('cardtable.cards', 'large'); } catch {}"
# Forgets who this browser was (its token) but not its card size: a new player.
NEW_PLAYER = """() => { const cards = localStorage.getItem('cardtable.cards');
  localStorage.clear(); if (cards) localStorage.setItem('cardtable.cards', cards); }"""


@pytest.fixture(scope="module")
def windows(chromium):
    """One page per window size (and card size) for the module's matrices, instead of a browser
    context per case: `windows(server, width, height, large=False)` returns that window's page,
    as a new player (its token forgotten, so no case sees another's settings), and the list of
    its JavaScript errors since."""
    opened = {}

    def window(server, width, height, large=False):
        key = (width, height, large)
        if key not in opened:
            context = chromium.new_context(viewport={"width": width, "height": height})
            if large:
                context.add_init_script(LARGE)
            page = context.new_page()
            opened[key] = (context, page, watch_errors(page))
        # NB: the other windows leave their games (a Snap! page left on its table went on
        # drawing its animations for the rest of the module), once their player is forgotten: a
        # blank page cannot reach the server's storage.
        for other, (_, each, _) in opened.items():
            if each.url.startswith(server):
                each.evaluate(NEW_PLAYER)
                if other != key:
                    each.goto("about:blank")
        _, page, errors = opened[key]
        errors.clear()
        return page, errors

    yield window
    for context, _, _ in opened.values():
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_snap_seats_and_controls_are_all_in_view(server, windows, cardtable, width, height):
    require_game(cardtable, "snap")
    page, errors = windows(server, width, height)
    page.goto(f"{server}?game=snap&seed=5")
    wait_view(page, "v.phase === 'playing'", timeout=20000)
    settle(page)
    report = page.evaluate("""() => {
      const inside = (sel) => {
        const e = document.querySelector(sel);
        if (!e) return `${sel}: missing`;
        const r = e.getBoundingClientRect();
        const ok = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
        return ok ? null : `${sel}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`;
      };
      const outside = ['.seat-bottom', '.seat-top', '.seat-left', '.seat-right', '.snap-button',
                       '.seat-bottom .stack-button'].map(inside).filter(Boolean);
      const root = document.documentElement;
      return { outside, scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight };
    }""")
    assert report["outside"] == [], f"{width}×{height}: outside the viewport: {report['outside']}"
    assert report["scrollWidth"] <= width, f"{width}×{height}: scrolls sideways"
    assert report["scrollHeight"] <= height, (
        f"{width}×{height}: scrolls down ({report['scrollHeight']} px)"
    )
    if (width, height) == (740, 360):
        screenshot(page, "snap-phone-landscape.png")
    assert not errors, f"JavaScript errors: {errors}"


# ---------- every game fits, and nothing jumps (issue 11) ----------

LAYOUT_SIZES = [(360, 640), (740, 360), (1024, 600), (1280, 800), (1920, 1080)]
# (name, address, the first view's condition)
GAMES = [
    ("matchismo-2", "?game=matchismo&seed=11", "v.table.length === 24"),
    ("matchismo-3", "?game=matchismo&seed=11", "v.table.length === 24"),
    ("set", "?game=set&seed=5", "v.table.length === 12"),
    ("memory-easy", "?game=memory&difficulty=easy&seed=5", "v.board.length === 12"),
    ("memory-medium", "?game=memory&difficulty=medium&seed=5", "v.board.length === 24"),
    ("memory-hard", "?game=memory&difficulty=hard&seed=5", "v.board.length === 32"),
    ("concentration", "?game=concentration&seed=3", "v.board.length === 52"),
]

FIT_REPORT = """() => {
  const shown = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden';
  const out = (e) => { const r = e.getBoundingClientRect();
    return r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5; };
  const name = (e) => e.getAttribute('aria-label') || e.textContent.trim();
  const controls = [...document.querySelectorAll('header button, header a.btn, header select, main button:not(.card), main select, main a.btn, main label.toggle')]
    .filter(shown).filter(out).map(name);
  const cards = [...document.querySelectorAll('main button.card')].filter(shown);
  const root = document.documentElement;
  return { controls, cards: cards.length, outside: cards.filter(out).map(name),
           scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight };
}"""

# Every card's box by its place on the table (cards that left it, or are chosen and raised, excluded).
CARD_BOXES = """() => Object.fromEntries([...document.querySelectorAll('main button.card')]
  .filter(c => c.getClientRects().length && !c.classList.contains('gone') && c.getAttribute('aria-pressed') !== 'true')
  .map(c => { const r = c.getBoundingClientRect(); return [c.dataset.index, [r.left, r.top, r.width, r.height]]; }))"""


def open_game(chromium, server, address, condition, width, height, **context):
    ctx = chromium.new_context(viewport={"width": width, "height": height}, **context)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{server}{address}")
    wait_view(page, condition, timeout=20000)
    settle(page)
    return ctx, page, errors


def assert_fits(page, label, down=False):
    """No scrolling, every control and card in view; `down`: large cards may make the page scroll
    down (never sideways), by a third of the window at most, with the controls in view."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    report = page.evaluate(FIT_REPORT)
    assert report["cards"] > 0, f"{label}: no cards"
    assert report["scrollWidth"] <= width, f"{label}: scrolls sideways ({report['scrollWidth']} px)"
    assert report["scrollHeight"] <= height * (1.4 if down else 1), (
        f"{label}: scrolls down ({report['scrollHeight']} px)"
    )
    assert not report["controls"], f"{label}: controls outside the viewport: {report['controls']}"
    if not down:
        assert not report["outside"], f"{label}: cards outside the viewport: {report['outside']}"


def assert_still(before, after, label):
    moved = {
        i: (before[i], after[i])
        for i in before
        if i in after and max(abs(a - b) for a, b in zip(before[i], after[i])) > 2
    }
    assert not moved, f"{label}: cards moved when the status line changed: {moved}"


def status_text(page):
    return page.evaluate(
        "[...document.querySelectorAll('main .status-line, main .score-note')].map(e => e.textContent).join(' | ')"
    )


def play_a_step(page, game):
    """A choice that changes the status line (and the score note): two cards, or three in Set and
    3-card Matchismo; waits until the game has settled after it."""
    if game.startswith("memory") or game == "concentration":
        for index in (0, 1):
            acted(page, page.locator(f"main button.card[data-index='{index}']").click)
        # NB: the server turns a mismatch down (or takes a pair away) after its own timer.
        wait_view(
            page,
            "!v.waiting && v.board.every(s => !s.faceUp || s.removed || s.matched)",
            timeout=20000,
        )
        return
    count = 3 if game in ("set", "matchismo-3") else 2
    for index in range(count):
        acted(page, page.locator(f"main button.card[data-index='{index}']").click)


@pytest.mark.parametrize("width,height", LAYOUT_SIZES)
@pytest.mark.parametrize("game,address,condition", GAMES, ids=[g[0] for g in GAMES])
def test_every_game_fits_and_stays_still(
    server, windows, cardtable, game, address, condition, width, height
):
    require_game(cardtable, game.split("-")[0])
    label = f"{game} {width}×{height}"
    page, errors = windows(server, width, height)
    page.goto(f"{server}{address}")
    wait_view(page, condition, timeout=20000)
    settle(page)
    if game == "matchismo-3":
        v = acted(page, lambda: page.get_by_label("Cards to match").select_option("3"))
        assert v["mode"] == 3
        settle(page)
    assert_fits(page, label)
    before, said = page.evaluate(CARD_BOXES), status_text(page)
    play_a_step(page, game)
    settle(page)
    after = page.evaluate(CARD_BOXES)
    if game != "concentration":
        assert status_text(page) != said, f"{label}: the status line did not change"
    assert_still(before, after, label)
    assert_fits(page, label)
    assert not errors, f"JavaScript errors: {errors}"


def test_memory_hard_on_an_upright_phone_is_transposed(server, chromium):
    ctx, page, errors = open_game(
        chromium, server, "?game=memory&difficulty=hard&seed=5", "v.board.length === 32", 360, 740
    )
    try:
        report = page.evaluate("""async () => {
          const { memoryGeometry } = await import(new URL('geometry.js', document.querySelector('script[type=module]').src));
          const table = document.querySelector('.memory-table');
          const r = table.getBoundingClientRect();
          const cards = [...table.querySelectorAll('button.card')].map(c => c.getBoundingClientRect());
          const lefts = new Set(cards.map(c => Math.round(c.left))), tops = new Set(cards.map(c => Math.round(c.top)));
          return { transposed: table.dataset.transposed, columns: lefts.size, rows: tops.size, width: cards[0].width,
                   plain: memoryGeometry(r.width, r.height, 8, 4).cardWidth };
        }""")
        assert report["transposed"] == "true"
        assert (report["columns"], report["rows"]) == (4, 8), report
        assert report["width"] > report["plain"] * 1.2, report
        assert_fits(page, "memory-hard 360×740")
        # The arrow keys follow the cards on screen: right is the board's next row.
        page.locator("main button.card[data-index='0']").focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.index") == "8"
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.dataset.index") == "9"
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


# Keeps every Web Animation a card button starts (with its id) in window.__moves.
RECORD_MOVES = """(() => {
  window.__moves = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    if (this.matches && this.matches('button.card')) window.__moves.push({ index: this.dataset.index, id: options && options.id });
    return animate.call(this, keyframes, options);
  };
})();"""

# Each card's drawn box against its place in the layout (offsets ignore transforms).
LANDED = """() => [...document.querySelectorAll('.card-grid button.card')].map(c => {
  const r = c.getBoundingClientRect(), p = c.offsetParent.getBoundingClientRect();
  return Math.max(Math.abs(r.left - (p.left + c.offsetParent.clientLeft + c.offsetLeft)),
                  Math.abs(r.top - (p.top + c.offsetParent.clientTop + c.offsetTop)));
})"""


def take_a_set(page):
    """Chooses a set Hint names; returns the update's view."""
    hint = send(page, {"cmd": "hint"})
    assert hint["type"] == "answer" and len(hint["cards"]) == 3, hint
    faces = [view(page)["table"][i]["card"] for i in hint["cards"]]
    v = None
    for face in faces:
        v = acted(page, page.get_by_role("button", name=card_name(face), exact=True).click)
    return v


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_set_reflows_with_moves_unless_reduced_motion(server, chromium, cardtable, motion):
    require_game(cardtable, "set")
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.add_init_script(RECORD_MOVES)
    try:
        page.goto(f"{server}?game=set&seed=5")
        wait_view(page, "v.table.length === 12")
        settle(page)
        v = acted(page, page.get_by_role("button", name="Deal three more cards").click)
        assert len(v["table"]) == 15
        settle(page)
        grown = page.evaluate("window.__moves.splice(0)")
        before = {slot["card"]: i for i, slot in enumerate(v["table"])}
        v = take_a_set(page)
        assert len(v["table"]) == 12, "the set was not taken away"
        moved = [face for i, face in enumerate(s["card"] for s in v["table"]) if before[face] != i]
        settle(page)
        moves = page.evaluate("window.__moves")
        landed = page.evaluate(LANDED)
        assert max(landed) <= 2, f"cards did not land on their places: {landed}"
        if motion == "reduce":
            assert grown == [] and moves == [], f"cards moved under reduced motion: {grown + moves}"
        else:
            assert moved, "no card changed place"
            assert {m["index"] for m in grown} >= {"12", "13", "14"}, (
                f"the three new cards did not come in: {grown}"
            )
            assert any(m["id"] == "flip-move" for m in moves), (
                f"the cards jumped to their new places: {moves}"
            )
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_found_set_tooltip_keeps_a_phone_page_still(server, chromium, cardtable):
    require_game(cardtable, "set")
    ctx, page, errors = open_game(
        chromium,
        server,
        "?game=set&seed=5",
        "v.table.length === 12",
        360,
        640,
        has_touch=True,
        is_mobile=True,
    )
    try:
        before = page.evaluate(CARD_BOXES)
        take_a_set(page)
        settle(page)
        assert_still(before, page.evaluate(CARD_BOXES), "set 360×640, a set found")
        match = page.locator(".found-match").first
        match.focus()
        tip = match.get_by_role("tooltip")
        expect(tip).to_be_visible()
        box = tip.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert_fits(page, "set 360×640, tooltip shown")
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


CARD_WIDTH = "() => document.querySelector('main button.card').getBoundingClientRect().width"


@pytest.mark.parametrize(
    "address,condition",
    [
        ("?game=matchismo&seed=11", "v.table.length === 24"),
        ("?game=concentration&seed=3", "v.board.length === 52"),
    ],
)
def test_large_cards_are_bigger_and_remembered(server, chromium, address, condition):
    ctx, page, errors = open_game(chromium, server, address, condition, 1280, 800)
    try:
        usual = page.evaluate(CARD_WIDTH)
        switch = more_menu(page).get_by_role("button", name="Large cards")
        expect(switch).to_have_attribute("aria-pressed", "false")
        switch.click()
        expect(switch).to_have_attribute("aria-pressed", "true")
        page.wait_for_function(f"() => ({CARD_WIDTH})() > {usual} * 1.1", polling=POLL)
        settle(page)
        assert_fits(page, "large cards", down=True)
        page.reload()
        wait_view(page, condition)
        settle(page)
        expect(more_menu(page).get_by_role("button", name="Large cards")).to_have_attribute(
            "aria-pressed", "true"
        )
        assert page.evaluate("document.documentElement.dataset.cards") == "large"
        assert page.evaluate(CARD_WIDTH) > usual * 1.1
        assert_fits(page, "large cards, reloaded", down=True)
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.parametrize("width,height", [(360, 640), (740, 360), (1920, 1080)])
@pytest.mark.parametrize(
    "game,address,condition",
    GAMES + [("snap", "?game=snap&seed=5", "v.phase === 'playing'")],
    ids=[g[0] for g in GAMES] + ["snap"],
)
def test_large_cards_never_scroll_sideways(
    server, windows, cardtable, game, address, condition, width, height
):
    require_game(cardtable, game.split("-")[0])
    page, errors = windows(server, width, height, large=True)
    page.goto(f"{server}{address}")
    wait_view(page, condition, timeout=20000)
    settle(page)
    assert page.evaluate("document.documentElement.dataset.cards") == "large"
    if game == "snap":
        report = page.evaluate("""() => [...document.querySelectorAll('.seat, .snap-button')].map(e => e.getBoundingClientRect())
          .filter(r => r.top < 0 || r.left < 0 || r.bottom > innerHeight + .5 || r.right > innerWidth + .5).length""")
        assert report == 0, f"large cards, {width}×{height}: Snap!'s seats outside the viewport"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    else:
        assert_fits(page, f"large cards, {game} {width}×{height}", down=True)
    assert not errors, f"JavaScript errors: {errors}"
