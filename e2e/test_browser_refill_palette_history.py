"""Set's Refill to 12 switch and colour-blind-safe palette,
History's fixed-size dialog that opens at the newest entry with readable older entries, and
Snap!'s matching piles lit on `*** Match! ***`."""

import pytest
from playwright.sync_api import expect

from browser import (
    DESKTOP,
    PHONE,
    POLL,
    acted,
    assert_card_names,
    reply_to,
    send,
    settle,
    view,
    wait_view,
    watch_errors,
)

SET_SEED = 5
# Snap! with seed 12: Steve turns 10♠, you turn 10♣, and Ray calls Snap! (the engine console
# plays it so: docs/ENGINE.md) — the open piles of Steve (right) and you (bottom) match.
SNAP_SEED = 12

# The relative luminance and contrast ratio of WCAG 2, over colours the page computed.
LUMINANCE = """
  const channels = (text) => text.match(/[\\d.]+/g).map(Number);
  const linear = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => p - q); return (y + 0.05) / (x + 0.05); };
"""


# ---------- Set: Refill to 12 ----------


def open_settings(page):
    page.get_by_role("button", name="Settings").click()
    dialog = page.get_by_role("dialog", name="Settings")
    expect(dialog).to_be_visible()
    return dialog


def find_a_set(page):
    """Chooses the three cards of a set the engine's Hint names (+3 first while none shows);
    returns how many cards lay on the table before, and the view after the third card."""
    while True:
        answer = send(page, {"cmd": "hint"})
        if answer.get("cards"):
            break
        acted(page, page.get_by_role("button", name="Deal three more cards").click)
    before = len(view(page)["table"])
    for index in answer["cards"]:
        v = acted(page, page.locator(f'.card-grid button.card[data-index="{index}"]').click)
    assert len(v["found"]) == len(view(page)["found"]) and v["foundMatches"], "no set was found"
    return before, v


def test_set_refill_to_12_switch(server, page):
    page.goto(f"{server}?game=set&seed={SET_SEED}")
    wait_view(page, "v.table.length === 12")
    settings = open_settings(page)
    switch = settings.get_by_role("switch", name="Refill to 12")
    expect(switch).to_be_visible()
    expect(switch).not_to_be_checked()
    # Explained in words, beside it and as its description.
    expect(switch).to_have_accessible_description(
        "After a set is found, three new cards take its places, so the table holds 12 again. "
        "Off: the set leaves the table and the other cards close up, until you ask for +3."
    )
    switch.check()
    saved = reply_to(page, settings.get_by_role("button", name="Save").click)
    assert saved["settings"]["set"]["refill"] is True

    # The next Deal takes it (the game is not yet played: no question).
    v = acted(page, page.get_by_role("button", name="Deal", exact=True).click)
    assert v["settings"]["refill"] is True and len(v["table"]) == 12
    before, v = find_a_set(page)
    # Refilled: 12 cards again; after a +3 (this deal's seed is the server's: it may need one
    # or two) the table closes up towards 12 without new cards.
    assert len(v["table"]) == max(12, before - 3)
    expect(page.locator(".card-grid button.card")).to_have_count(len(v["table"]))
    # Seed 5 with the switch on: its first set's places are dealt again.
    page.goto(f"{server}?game=set&seed={SET_SEED}")
    wait_view(page, "v.table.length === 12 && v.flips === 0 && v.settings.refill")
    before, v = find_a_set(page)
    assert before == 12 and len(v["table"]) == 12
    expect(page.locator(".card-grid button.card")).to_have_count(12)

    # Remembered with the other settings: the switch is on after a reload.
    page.reload()
    wait_view(page, "v.table.length >= 12")
    settings = open_settings(page)
    switch = settings.get_by_role("switch", name="Refill to 12")
    expect(switch).to_be_checked()
    switch.uncheck()
    saved = reply_to(page, settings.get_by_role("button", name="Save").click)
    assert saved["settings"]["set"]["refill"] is False
    # A game in play: Deal asks first; then the new game leaves found sets' places empty.
    find_a_set(page)

    def deal():
        page.get_by_role("button", name="Deal", exact=True).click()
        page.get_by_role("dialog", name="Give up this game?").get_by_role(
            "button", name="Deal anyway"
        ).click()

    v = acted(page, deal)
    assert v["settings"]["refill"] is False and len(v["table"]) == 12
    before, v = find_a_set(page)
    assert len(v["table"]) == before - 3
    expect(page.locator(".card-grid button.card")).to_have_count(before - 3)
    # And the seed the switch was first tried on, dealt again without it: 9 cards after its set.
    page.goto(f"{server}?game=set&seed={SET_SEED}")
    wait_view(page, "v.table.length === 12 && v.flips === 0")
    before, v = find_a_set(page)
    assert before == 12 and not v["settings"]["refill"] and len(v["table"]) == 9
    expect(page.locator(".card-grid button.card")).to_have_count(9)


# ---------- Set: the colour-blind-safe palette ----------


def set_paints(page):
    """The computed paints of Set's inks: {colour: [a card symbol's stroke, the stripes' fill],
    colour + 'Solid': a solid symbol's fill, or None when the table has no solid card of it}."""
    return page.evaluate("""() => {
      const out = {};
      for (const colour of ['red', 'green', 'purple']) {
        const card = [...document.querySelectorAll('.card-grid button.card')]
          .find(b => (b.dataset.face || '').includes(':' + colour + ':'));
        const use = card?.querySelector('.front use');
        const stripes = document.querySelector(`#stripes-${colour} rect`);
        out[colour] = use ? [getComputedStyle(use).stroke, getComputedStyle(stripes).fill] : null;
        const solid = [...document.querySelectorAll('.card-grid button.card')]
          .find(b => (b.dataset.face || '').includes(':' + colour + ':solid'));
        out[colour + 'Solid'] = solid ? getComputedStyle(solid.querySelector('.front use')).fill : null;
      }
      return out;
    }""")


def greys_apart(page, colours):
    """The smallest contrast ratio between the greys (luminances) of `colours`."""
    return page.evaluate(
        f"""(colours) => {{ {LUMINANCE}
      let least = Infinity;
      for (let i = 0; i < colours.length; i++) for (let j = i + 1; j < colours.length; j++)
        least = Math.min(least, contrast(channels(colours[i]), channels(colours[j])));
      return least;
    }}""",
        colours,
    )


def test_set_colour_blind_safe_palette(server, page):
    page.goto(f"{server}?game=set&seed={SET_SEED}")
    wait_view(page, "v.table.length === 12")
    # Seed 5's table has a card of every colour, in every shading among them.
    standard = set_paints(page)
    assert standard["red"] == ["rgb(215, 38, 61)", "rgb(215, 38, 61)"]
    assert standard["green"] == ["rgb(26, 143, 76)", "rgb(26, 143, 76)"]
    assert standard["purple"] == ["rgb(111, 53, 176)", "rgb(111, 53, 176)"]

    settings = open_settings(page)
    switch = settings.get_by_role("switch", name="Colour-blind-safe colours")
    expect(switch).not_to_be_checked()
    expect(switch).to_have_accessible_description(
        "Draws the red, green and purple cards in vermillion, bluish green and deep purple, "
        "which also differ in lightness (in greyscale). The names stay red, green and purple. "
        "Applies at once, in this browser."
    )
    switch.check()
    settings.get_by_role("button", name="Save").click()
    expect(settings).to_have_count(0)
    safe = {"red": "rgb(179, 71, 0)", "green": "rgb(0, 158, 115)", "purple": "rgb(91, 44, 134)"}

    def shows_safe():
        expect(page.locator("html")).to_have_attribute("data-set-palette", "safe")
        # NB: waits for the restyle rather than a time: the stroke of a red card turns vermillion.
        page.wait_for_function(
            """(rgb) => { const use = document.querySelector('.card-grid .front use.set-red');
                                  return !!use && getComputedStyle(use).stroke === rgb; }""",
            arg=safe["red"],
            polling=POLL,
        )
        paints = set_paints(page)
        for colour, rgb in safe.items():
            assert paints[colour] == [rgb, rgb], (colour, paints)
            assert paints[colour + "Solid"] in (rgb, None)
        assert any(paints[c + "Solid"] for c in safe)

    shows_safe()
    # Apart in greyscale too (the standard colours are not).
    assert greys_apart(page, list(safe.values())) >= 1.5
    assert greys_apart(page, [standard[c][0] for c in ("red", "green", "purple")]) < 1.5
    # The cards keep their names: red, green, purple.
    assert_card_names(page)
    for colour in ("red", "green", "purple"):
        expect(page.locator(f"button.card[aria-label*=' {colour} ']").first).to_be_visible()

    # Remembered after a reload, in this browser.
    page.reload()
    wait_view(page, "v.table.length === 12")
    expect(page.locator("html")).to_have_attribute("data-set-palette", "safe")
    shows_safe()
    settings = open_settings(page)
    expect(settings.get_by_role("switch", name="Colour-blind-safe colours")).to_be_checked()
    settings.get_by_role("switch", name="Colour-blind-safe colours").uncheck()
    settings.get_by_role("button", name="Save").click()
    # NB: the dialog leaves the accessibility tree as it closes, a moment before its answer is
    # handled: wait for the palette itself.
    expect(page.locator("html")).not_to_have_attribute("data-set-palette", "safe")
    assert set_paints(page)["red"] == standard["red"]
    page.reload()
    wait_view(page, "v.table.length === 12")
    assert set_paints(page)["green"] == standard["green"]


# ---------- History ----------


def history_of_twenty(server, page):
    """Matchismo with seed 11 and twenty cards chosen (twenty history entries); the History
    dialog open on its newest entry's table."""
    page.goto(f"{server}?game=matchismo&seed=11")
    wait_view(page, "v.table.length === 24")
    for index in range(20):
        reply = send(
            page,
            {
                "cmd": "act",
                "action": {"type": "choose", "card": index},
                "version": page.evaluate("window.cardtable.version"),
            },
        )
        assert reply["type"] == "update", reply
    wait_view(page, "v.history.length === 20")
    page.get_by_role("button", name="History").click()
    dialog = page.get_by_role("dialog", name="History")
    expect(dialog.get_by_role("group", name="The table after entry 20")).to_be_visible()
    settle(page)
    return dialog


def shown_entry(dialog, entry):
    """Waits until the dialog's table shows the table after `entry`."""
    expect(
        dialog.locator(f'.history-table[data-entry="{entry}"][aria-busy="false"]')
    ).to_have_count(1)


def test_history_opens_at_the_newest_entry(server, page):
    dialog = history_of_twenty(server, page)
    scrubber = dialog.get_by_label("History position")
    expect(scrubber).to_have_value("20")
    expect(scrubber).to_have_attribute("max", "20")
    newest = view(page)["history"][-1]
    expect(dialog.locator(".history-current")).to_have_text(f"20: {newest}")
    current = dialog.locator('.history-entry[aria-current="true"]')
    expect(current).to_have_text(f"20: {newest}")
    # The entries scroll (there are more than fit), and the newest one is in view.
    seen = dialog.locator(".history-text").evaluate("""(pre) => {
      const box = pre.getBoundingClientRect();
      const entry = pre.querySelector('[aria-current="true"]').getBoundingClientRect();
      return { scrolls: pre.scrollHeight > pre.clientHeight, inView: entry.top >= box.top - 1 && entry.bottom <= box.bottom + 1 };
    }""")
    assert seen == {"scrolls": True, "inView": True}


def test_history_dialog_keeps_its_size_while_scrubbing(server, page):
    dialog = history_of_twenty(server, page)
    scrubber = dialog.get_by_label("History position")
    size = dialog.bounding_box()
    slider = scrubber.bounding_box()

    def still():
        settle(page)
        assert dialog.bounding_box() == size
        assert scrubber.bounding_box() == slider

    # Dragging the thumb from the newest entry to the oldest, the button held down throughout.
    y = slider["y"] + slider["height"] / 2
    page.mouse.move(slider["x"] + slider["width"] - 4, y)
    page.mouse.down()
    seen = set()
    for step in range(1, 11):
        page.mouse.move(slider["x"] + slider["width"] * (1 - step / 10), y, steps=2)
        at = int(scrubber.input_value())
        shown_entry(dialog, at)
        seen.add(at)
        still()
    page.mouse.up()
    assert 1 in seen and len(seen) >= 5
    # Stepping by keyboard, one entry at a time and to either end.
    scrubber.focus()
    for key, at in (
        ("ArrowRight", 2),
        ("ArrowRight", 3),
        ("End", 20),
        ("ArrowLeft", 19),
        ("Home", 1),
    ):
        page.keyboard.press(key)
        expect(scrubber).to_have_value(str(at))
        shown_entry(dialog, at)
        still()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_history_older_entries_are_readable(server, chromium, scheme):
    context = chromium.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        dialog = history_of_twenty(server, page)
        expect(page.locator("html")).to_have_attribute("data-theme", scheme)
        dialog.get_by_label("History position").fill("12")
        shown_entry(dialog, 12)
        settle(page)
        ratios = page.evaluate(f"""() => {{ {LUMINANCE}
          // The colour as seen: the text's colour, faded by its own and its ancestors' opacity,
          // over the first opaque background behind it.
          const seen = (node) => {{
            let fade = 1, back = null;
            for (let e = node; e; e = e.parentElement) {{
              const style = getComputedStyle(e);
              fade *= Number(style.opacity);
              const bg = channels(style.backgroundColor);
              if (!back && (bg.length < 4 || bg[3] === 1) && style.backgroundColor !== 'rgba(0, 0, 0, 0)') back = bg.slice(0, 3);
            }}
            const ink = channels(getComputedStyle(node).color);
            const alpha = (ink.length === 4 ? ink[3] : 1) * fade;
            return [ink.slice(0, 3).map((c, i) => c * alpha + back[i] * (1 - alpha)), back];
          }};
          const ratio = (node) => {{ const [ink, back] = seen(node); return contrast(ink, back); }};
          const older = [...document.querySelectorAll('.history-entry.older')];
          return {{ count: older.length, older: Math.min(...older.map(ratio)),
                    current: ratio(document.querySelector('.history-current')),
                    currentOld: document.querySelector('.history-current').classList.contains('old') }};
        }}""")
        assert ratios["count"] == 11 and ratios["currentOld"]
        assert ratios["older"] >= 4.5, ratios
        assert ratios["current"] >= 4.5, ratios
    finally:
        context.close()
    assert not errors, errors


# ---------- Snap!: the matching piles ----------


def snap_until_match(server, page):
    """Plays your turns in Snap! (seed 12) until the status says `*** Match! ***`; returns,
    at that moment, the seats whose open piles are lit, with their badges and animations."""
    page.goto(f"{server}?game=snap&seed={SNAP_SEED}")
    wait_view(page, "v.phase === 'dealing' || v.phase === 'playing'")
    wait_view(page, "v.canTurn", timeout=20000)
    acted(page, page.get_by_role("button", name="Your stack: 13 cards").click)
    return page.wait_for_function(
        """() => {
      if (document.querySelector('.snap-status').textContent !== '*** Match! ***') return null;
      const lit = [...document.querySelectorAll('.seat')].filter(s => !s.hidden && s.classList.contains('matching'));
      return lit.map(s => ({
        seat: s.className.match(/seat-(\\w+)/)[1],
        badge: s.querySelector('.match-badge').checkVisibility() ? s.querySelector('.match-badge').textContent : null,
        label: s.querySelector('.pile.open').getAttribute('aria-label'),
        ring: getComputedStyle(s.querySelector('.pile.open')).boxShadow,
        animation: getComputedStyle(s.querySelector('.pile.open')).animationName,
        moving: s.querySelector('.pile.open').getAnimations().filter(a => a.animationName === 'match-pulse').length,
      }));
    }""",
        timeout=20000,
        polling="raf",
    ).json_value()


def assert_lit_then_gone(page, lit):
    assert [s["seat"] for s in sorted(lit, key=lambda s: s["seat"])] == ["bottom", "right"], lit
    labels = {s["seat"]: s["label"] for s in lit}
    assert labels == {
        "bottom": "Your open pile: 10 of clubs, matching",
        "right": "Steve's open pile: 10 of spades, matching",
    }
    for seat in lit:
        assert seat["badge"] == "= Match"
        assert "rgb(255, 255, 255)" in seat["ring"]
    # The cards go to Ray: the highlight goes with them.
    wait_view(page, "v.pause && v.pause.moved")
    expect(page.locator(".seat.matching")).to_have_count(0)
    expect(page.locator(".match-badge:visible")).to_have_count(0)


def test_snap_lights_the_matching_piles(server, page):
    lit = snap_until_match(server, page)
    assert {s["animation"] for s in lit} == {"match-pulse"}
    assert_lit_then_gone(page, lit)


def test_snap_matching_piles_do_not_pulse_under_reduced_motion(server, chromium):
    context = chromium.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    errors = watch_errors(page)
    try:
        lit = snap_until_match(server, page)
        assert {s["animation"] for s in lit} == {"none"} and {s["moving"] for s in lit} == {0}
        assert_lit_then_gone(page, lit)
    finally:
        context.close()
    assert not errors, errors
