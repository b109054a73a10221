"""Phones (360×740): no sideways scrolling, every card on screen or a scroll away with a point of
its own to tap, every button at least 44 px tall — Set, Concentration and Snap!."""

from playwright.sync_api import expect

from browser import (
    PHONE,
    acted,
    assert_phone_layout,
    card_name,
    face_down,
    require_game,
    settle,
    wait_view,
)


def test_set_on_a_phone(server, phone, cardtable):
    require_game(cardtable, "set")
    phone.goto(f"{server}?game=set&seed=5")
    wait_view(phone, "v.table.length === 12")
    assert_phone_layout(phone)
    v = acted(phone, phone.get_by_role("button", name="Deal three more cards").tap)
    assert len(v["table"]) == 15
    assert_phone_layout(phone)
    card = v["table"][14]["card"]
    target = phone.get_by_role("button", name=card_name(card), exact=True)
    target.scroll_into_view_if_needed()
    assert acted(phone, target.tap)["table"][14]["chosen"]
    expect(target).to_have_attribute("aria-pressed", "true")


def test_concentration_on_a_phone(server, phone):
    phone.goto(f"{server}?game=concentration&seed=3")
    wait_view(phone, "v.board.length === 52")
    assert_phone_layout(phone)
    for index in (0, 51):
        card = phone.get_by_role("button", name=face_down(index), exact=True)
        card.scroll_into_view_if_needed()
        assert acted(phone, card.tap)["board"][index]["faceUp"]
    expect(phone.get_by_text("Moves: 1", exact=True)).to_be_visible()


def test_snap_on_a_phone(server, phone, cardtable):
    require_game(cardtable, "snap")
    phone.goto(f"{server}?game=snap&seed=5")
    wait_view(phone, "v.phase === 'playing'", timeout=20000)
    settle(phone)
    report = phone.evaluate("""() => ({
      scrollWidth: document.documentElement.scrollWidth,
      seats: [...document.querySelectorAll('.seat')].map(s => s.getBoundingClientRect()).map(r => [r.left, r.right, r.bottom]),
      buttons: [...document.querySelectorAll('button')].filter(b => b.getClientRects().length).map(b => b.getBoundingClientRect().height),
    })""")
    assert report["scrollWidth"] <= PHONE["width"]
    assert all(
        left >= 0 and right <= PHONE["width"] and bottom <= PHONE["height"]
        for left, right, bottom in report["seats"]
    )
    assert min(report["buttons"]) >= 44
    expect(phone.get_by_role("button", name="Snap!")).to_be_in_viewport()
