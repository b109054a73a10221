"""The smaller things of issue 21 (item 7): Snap!'s receipts scroll back through the whole round
and keep their size; the Too late!/Wrong! splash leaves every seat's name and score in view on a
phone; Matchismo's score note fits a phone; the locked mode select is legible in the dark
theme; J, Q and K are drawn as court figures and number cards with pips; no stylesheet is loaded
twice."""

import json

from playwright.sync_api import expect
from test_browser_together import SNAP_SEED, join_by_link, start

from browser import (
    PHONE,
    POLL,
    Relay,
    acted,
    card_name,
    face_down,
    reply_to,
    send,
    settle,
    wait_view,
)
from games import matchismo_table

MATCHISMO_SEED = 11


def snap_table(page, server, name, seed=SNAP_SEED):
    """`page` (a phone or a person) names itself and hosts a Snap! table dealt from `seed`;
    returns the `table` message."""
    if getattr(page, "person", None) is None:
        page.goto(server)
        expect(page.locator(".your-games, .name-form").first).to_be_attached()
        assert (
            send(page, {"cmd": "settings", "settings": {"name": name}})["settings"]["name"] == name
        )
        page.person = name
    page.goto(f"{server}?game=snap&table=host&seed={seed}")
    expect(page.get_by_label("Your name")).to_have_value(name)
    table = reply_to(page, page.get_by_role("button", name="Host table").click)
    assert table["type"] == "table" and table["phase"] == "lobby", table
    return table


def call(page):
    """Calls Snap! on `page`; the server answers with an update (a receipt goes to everyone)."""
    reply = reply_to(page, page.get_by_role("button", name="Snap!").click)
    assert reply["type"] == "update", reply


def box(locator):
    return locator.evaluate("e => e.getBoundingClientRect().toJSON()")


def test_receipts_scroll_back_through_the_round_keep_their_size_and_clear_at_a_new_round(
    server, people
):
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    # NB: Bob's page takes the server's messages through the test, which may add one.
    link = Relay(bob)
    table = snap_table(ann, server, "Ann")
    join_by_link(bob, table)
    expect(ann.locator(".seat-list .seat-text")).to_have_count(2)
    start(ann, [bob])
    wait_view(bob, "v.phase === 'playing'")
    receipts = bob.get_by_role("list", name="Calls", exact=True)
    expect(receipts).to_be_visible()
    expect(receipts.locator(".receipt")).to_have_count(0)
    size = box(receipts)
    table_top = box(bob.locator(".snap-table"))["top"]

    # Seven calls before any card is turned: the first is decided (wrong), the others too late.
    for _ in range(7):
        call(bob)
    expect(receipts.locator(".receipt")).to_have_count(7)
    expect(receipts.locator(".receipt").first).to_contain_text("You: Snap!")
    expect(receipts.locator(".receipt").first).to_contain_text("too late")
    expect(receipts.locator(".receipt").last).to_contain_text("— wrong (no match was showing)")
    expect(ann.get_by_role("list", name="Calls", exact=True).locator(".receipt")).to_have_count(7)
    # The list keeps its size and place (the seats stay put), and scrolls, the newest in view.
    assert box(receipts) == size
    assert box(bob.locator(".snap-table"))["top"] == table_top
    geometry = receipts.evaluate(
        """list => ({ scroll: list.scrollHeight, client: list.clientHeight, top: list.scrollTop,
           first: list.firstElementChild.getBoundingClientRect().toJSON(),
           own: list.getBoundingClientRect().toJSON() })"""
    )
    assert geometry["scroll"] > geometry["client"], "seven calls overflow three rows"
    assert geometry["top"] == 0
    assert geometry["first"]["top"] >= geometry["own"]["top"] - 0.5
    assert geometry["first"]["bottom"] <= geometry["own"]["bottom"] + 0.5
    # The keyboard reaches the list and scrolls back to the round's first call.
    receipts.focus()
    expect(receipts).to_be_focused()
    # NB: Chromium scrolls for a key smoothly, over several frames: wait for the state the key
    # must produce (the oldest call wholly in view), not for a scroll position near the end,
    # which a frame of the animation can pass 1 px short of it.
    bob.keyboard.press("End")
    bob.wait_for_function(
        """l => l.scrollTop > 0
             && l.lastElementChild.getBoundingClientRect().bottom
                <= l.getBoundingClientRect().bottom + 0.5""",
        arg=receipts.element_handle(),
        polling=POLL,
    )
    # A new call brings the newest back into view.
    call(bob)
    expect(receipts.locator(".receipt")).to_have_count(8)
    bob.wait_for_function("l => l.scrollTop === 0", arg=receipts.element_handle(), polling=POLL)
    assert box(receipts) == size

    # A new round (its `dealt`, as the server sends it when the host starts the next one)
    # empties the list; its size stays.
    last = bob.evaluate("window.cardtable.lastView")
    version = bob.evaluate("window.cardtable.version")
    link.ws.send(
        json.dumps(
            {
                "type": "update",
                "game": "snap",
                "seed": SNAP_SEED,
                "version": version + 1,
                "events": [{"type": "dealt", "round": 2, "starting": "Bob"}],
                "view": dict(last, round=2, phase="dealing", pause=None),
            }
        )
    )
    expect(receipts.locator(".receipt")).to_have_count(0)
    assert box(receipts) == size
    assert box(bob.locator(".snap-table"))["top"] == table_top


# Records, for every splash shown, its box at several moments of its animation and the box of
# every seat's label (name, games won, card count) at that time.
RECORD_SPLASHES = """(() => {
  window.__splashes = [];
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (!(node instanceof HTMLElement) || !node.classList.contains('splash')) continue;
      const labels = [...document.querySelectorAll('.seat:not([hidden])')].map((s) => ({
        seat: s.getAttribute('aria-label'),
        box: s.querySelector('.seat-label').getBoundingClientRect().toJSON(),
      }));
      const [animation] = node.getAnimations();
      const boxes = [];
      if (animation) {
        const end = animation.effect.getComputedTiming().endTime;
        const was = animation.currentTime;
        for (const at of [0.2, 0.4, 0.6, 0.8, 0.9]) {
          animation.currentTime = at * end;
          boxes.push(node.getBoundingClientRect().toJSON());
        }
        animation.currentTime = was;
      } else boxes.push(node.getBoundingClientRect().toJSON());
      window.__splashes.push({ text: node.textContent, labels, boxes });
    }
  }).observe(document, { childList: true, subtree: true });
})();"""


def overlap(a, b):
    """The area two boxes share, in square pixels."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0, width) * max(0, height)


def test_the_splash_of_a_call_never_covers_a_seats_label_on_a_phone(server, phone, people):
    phone.add_init_script(RECORD_SPLASHES)
    table = snap_table(phone, server, "Ann")
    guests = [people(server, name) for name in ("Bob", "Cy", "Dee")]
    for guest in guests:
        join_by_link(guest, table)
    expect(phone.locator(".seat-list .seat-text")).to_have_count(4)
    start(phone, guests)
    for page in (phone, *guests):
        wait_view(page, "v.phase === 'playing'")
    # On Ann's phone Bob sits Left, Cy Top, Dee Right. Bob's call is decided (no card is showing:
    # wrong); every later one before a card is turned is too late — Ann's own at Bottom too.
    for page in (*guests, phone):
        call(page)
    phone.wait_for_function("() => window.__splashes.length >= 4", polling=POLL)
    splashes = phone.evaluate("window.__splashes")
    assert [s["text"] for s in splashes] == ["Wrong!", "Too late!", "Too late!", "Too late!"]
    covering, outside = [], []
    for splash in splashes:
        assert len(splash["labels"]) == 4
        for shown in splash["boxes"]:
            covering += [
                f"{splash['text']} over the {label['seat']}'s label"
                for label in splash["labels"]
                if overlap(shown, label["box"]) > 0
            ]
            if shown["left"] < 0 or shown["right"] > PHONE["width"]:
                outside.append(f"{splash['text']}: {shown['left']:.0f}…{shown['right']:.0f} px")
    assert not covering, covering
    assert not outside, f"splashes beyond the screen's edge: {outside}"


def test_matchismos_score_note_fits_a_phone(server, phone, cardtable):
    table = matchismo_table(cardtable, MATCHISMO_SEED)
    # Two cards of neither the same rank nor the same suit: the longest note, with the mode
    # locked (its note shares the line).
    k, m = next(
        (k, m)
        for k in range(len(table))
        for m in range(k + 1, len(table))
        if table[k][:-1] != table[m][:-1] and table[k][-1] != table[m][-1]
    )
    phone.goto(f"{server}?game=matchismo&seed={MATCHISMO_SEED}")
    wait_view(phone, "v.table && v.table.length === 24")
    acted(phone, phone.get_by_role("button", name=face_down(k), exact=True).click)
    acted(phone, phone.get_by_role("button", name=face_down(m), exact=True).click)
    note = phone.locator(".score-note")
    expect(note).to_have_text("No match −2, cost to choose −1")
    expect(phone.get_by_text("Mode locked until Deal")).to_be_visible()
    settle(phone)
    report = phone.evaluate(
        """() => {
      const fits = (e) => {
        const r = e.getBoundingClientRect(), area = e.closest('.status-area').getBoundingClientRect();
        return { text: e.textContent, clipped: e.scrollWidth > e.clientWidth + 0.5,
          outside: r.left < 0 || r.right > innerWidth || r.top < area.top - 0.5 || r.bottom > area.bottom + 0.5 };
      };
      const [note, mode] = [document.querySelector('.score-note'), document.querySelector('.mode-note')];
      const a = note.getBoundingClientRect(), b = mode.getBoundingClientRect();
      const shared = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
        Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
      return { note: fits(note), mode: fits(mode), shared, page: document.documentElement.scrollWidth };
    }"""
    )
    for part in ("note", "mode"):
        assert not report[part]["clipped"], f"{report[part]['text']} is cut short"
        assert not report[part]["outside"], f"{report[part]['text']} lies outside its area"
    assert report["shared"] == 0, "the score note and the mode note overlap"
    assert report["page"] <= PHONE["width"]


def luminance(rgb):
    channels = [c / 255 for c in rgb]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_locked_mode_select_is_legible_in_the_dark_theme(server, chromium):
    context = chromium.new_context(color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(f"{server}?game=matchismo&seed={MATCHISMO_SEED}")
        wait_view(page, "v.table && v.table.length === 24")
        acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
        select = page.get_by_role("combobox", name="Cards to match")
        expect(select).to_be_disabled()
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        settle(page)
        # The text's colour, through the select's and its ancestors' opacity, over the select's
        # own background laid on the felt: each of the felt's three tones, the worst counting.
        paint = select.evaluate(
            """(s) => {
          const rgba = (text) => text.match(/[\\d.]+/g).map(Number);
          let opacity = 1;
          for (let e = s; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
          const root = getComputedStyle(document.documentElement);
          const felts = ['--felt-light', '--felt', '--felt-dark'].map((name) => {
            const hex = root.getPropertyValue(name).trim().slice(1);
            return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
          });
          return { text: rgba(getComputedStyle(s).color), fill: rgba(getComputedStyle(s).backgroundColor), opacity, felts };
        }"""
        )

        def over(top, alpha, under):
            return [alpha * t + (1 - alpha) * u for t, u in zip(top, under)]

        ratios = []
        for felt in paint["felts"]:
            fill = paint["fill"] + [1] if len(paint["fill"]) == 3 else paint["fill"]
            behind = over(fill[:3], fill[3] * paint["opacity"], felt)
            text_alpha = (paint["text"][3] if len(paint["text"]) == 4 else 1) * paint["opacity"]
            ratios.append(contrast(over(paint["text"][:3], text_alpha, behind), behind))
        assert min(ratios) >= 4.5, f"the locked select's contrast: {ratios}"
    finally:
        context.close()


def test_court_cards_have_figures_and_number_cards_pips(server, page, cardtable):
    table = matchismo_table(cardtable, MATCHISMO_SEED)
    page.goto(f"{server}?game=matchismo&seed={MATCHISMO_SEED}")
    wait_view(page, "v.table && v.table.length === 24")
    look = """(card) => ({
      figure: card.querySelectorAll('.court-figure').length,
      court: card.querySelector('.court-figure')?.dataset.court ?? null,
      letters: [...card.querySelectorAll('text')].map((t) => t.textContent),
      pips: card.querySelectorAll('.pips use').length,
    })"""
    # On the table: a jack turned up (and down again), then a seven.
    jack, seven = table.index("J♠"), table.index("7♦")
    acted(page, page.get_by_role("button", name=face_down(jack), exact=True).click)
    card = page.get_by_role("button", name="J of spades")
    expect(card).to_have_attribute("aria-pressed", "true")
    assert card.evaluate(look) == {"figure": 1, "court": "jack", "letters": ["J", "J"], "pips": 0}
    acted(page, card.click)
    acted(page, page.get_by_role("button", name=face_down(seven), exact=True).click)
    card = page.get_by_role("button", name="7 of diamonds")
    assert card.evaluate(look) == {"figure": 0, "court": None, "letters": ["7", "7"], "pips": 7}
    # Every court of every suit: its figure, the rank only in the two corners (no framed letter).
    texts = [rank + suit for rank in "JQK" for suit in "♠♥♦♣"]
    page.evaluate(
        """async (texts) => {
      const { cardImage } = await import(new URL('cards.js', document.querySelector('script[type=module]').src));
      const gallery = document.createElement('div');
      gallery.id = 'court-gallery';
      gallery.append(...texts.map((text) => cardImage(text)));
      document.body.append(gallery);
    }""",
        [*texts, "A♥"],
    )
    courts = {"J": "jack", "Q": "queen", "K": "king"}
    for text in texts:
        shown = page.locator("#court-gallery").get_by_role("img", name=card_name(text), exact=True)
        assert shown.evaluate(look) == {
            "figure": 1,
            "court": courts[text[0]],
            "letters": [text[0]] * 2,
            "pips": 0,
        }, text
    ace = page.locator("#court-gallery").get_by_role("img", name="A of hearts").evaluate(look)
    assert ace["figure"] == 0 and ace["pips"] == 1


def test_no_stylesheet_is_loaded_twice(server, page):
    for address in ("", "?game=matchismo&seed=11", "?game=snap&seed=5"):
        page.goto(f"{server}{address}")
        expect(page.locator("main")).not_to_be_empty()
        hrefs = page.evaluate("() => [...document.styleSheets].map((s) => s.href).filter(Boolean)")
        assert len(hrefs) == len(set(hrefs)), f"a stylesheet loaded twice on /{address}: {hrefs}"
        assert any(h.endswith("/css/features.css") for h in hrefs)
