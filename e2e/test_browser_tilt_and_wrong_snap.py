"""Concentration's tilted table and a Snap! round with a wrong Snap!."""

from playwright.sync_api import expect

from browser import (
    acted,
    assert_card_names,
    card_name,
    engine,
    face_down,
    record_texts,
    reply_to,
    require_game,
    screenshot,
    texts_shown,
    view,
    wait_view,
)

CONCENTRATION_SEED = 3
SNAP_SEED = 5
SNAP_OPTIONS = {"players": ["You", "Ray", "Lucy", "Steve"], "computer": ["Ray", "Lucy", "Steve"]}


def overlaps(a, b):
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_concentration_tilted_overlapping_table(server, page, cardtable):
    [reply] = engine(cardtable, {"cmd": "new", "game": "concentration", "seed": CONCENTRATION_SEED})
    tilt = reply["state"]["tilt"]
    board = [spot["card"] for spot in reply["state"]["board"]]
    page.goto(f"{server}?game=concentration&seed={CONCENTRATION_SEED}")
    wait_view(page, "v.board.length === 52")
    assert_card_names(page)
    assert view(page)["tilt"] == tilt
    assert set(tilt) <= {0, 10, 20, 30} and len(set(tilt)) > 1
    cards = page.locator("button.card")
    expect(cards).to_have_count(52)
    styles = cards.evaluate_all("bs => bs.map(b => [b.style.transform, Number(b.style.zIndex)])")
    assert [s[0] for s in styles] == [f"rotate({t}deg)" for t in tilt]
    assert [s[1] for s in styles] == list(range(52))  # later cards lie above
    # Turned neighbours overlap (their turned bounding boxes intersect).
    boxes = [cards.nth(i).bounding_box() for i in range(52)]
    assert any(overlaps(boxes[i], boxes[i + 1]) for i in range(51))
    for index in (0, 1):
        assert acted(page, page.get_by_role("button", name=face_down(index), exact=True).click)[
            "board"
        ][index]["faceUp"]
        expect(cards.nth(index)).to_have_attribute("aria-label", card_name(board[index]))
    expect(page.get_by_text("Moves: 1", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="↻ Refresh")).to_be_enabled()
    screenshot(page, "concentration.png")


def test_snap_wrong_snap_makes_you_pay(server, page, cardtable):
    require_game(cardtable, "snap")
    # The engine says who starts this seed's first round: You, so no card shows when we call.
    replies = engine(
        cardtable,
        {"cmd": "new", "game": "snap", "options": SNAP_OPTIONS, "seed": SNAP_SEED},
        {"cmd": "advance", "seconds": 6},
    )
    starting = next(e["player"] for e in replies[1]["events"] if e["type"] == "activated")
    assert starting == "You"

    record_texts(page, ".snap-status")
    page.goto(f"{server}?game=snap&seed={SNAP_SEED}")
    wait_view(page, "v.phase === 'playing' && v.active === 'You'", timeout=20000)
    assert "Dealing..." in texts_shown(page, ".snap-status")
    expect(page.locator(".snap-status")).to_have_text("Your turn. Tap the stack.")
    for seat in ("Ray", "Lucy", "Steve"):
        expect(
            page.get_by_role(
                "group", name=f"{ {'Ray': 'left', 'Lucy': 'top', 'Steve': 'right'}[seat] } seat"
            )
        ).to_contain_text(seat)
    you = page.get_by_role("group", name="bottom seat")
    expect(you).to_contain_text("13 cards")
    expect(you).to_contain_text("0 Won")
    stack = page.get_by_role("button", name="Your stack: 13 cards")
    expect(stack).to_have_attribute("aria-disabled", "false")

    reply = reply_to(page, page.get_by_role("button", name="Snap!").click)
    assert reply["view"]["status"] == "No Match!"
    # The cards move, then the wrong caller pays each other player a card.
    wait_view(page, "v.players.find(p => p.name === 'You').closedCount === 10")
    shown = texts_shown(page, ".snap-status")
    assert shown[shown.index("No Match!") + 1] == "You Must Pay", shown
    expect(you).to_contain_text("10 cards")
    for name in ("Ray", "Lucy", "Steve"):
        assert next(p for p in view(page)["players"] if p["name"] == name)["closedCount"] == 14
    screenshot(page, "snap.png")

    # Play resumes with you: turn your card by keyboard (Enter on your stack).
    wait_view(page, "v.pause === null && v.canTurn")
    page.get_by_role("button", name="Your stack: 10 cards").focus()
    v = acted(page, lambda: page.keyboard.press("Enter"))
    mine = next(p for p in v["players"] if p["name"] == "You")
    assert mine["openCount"] == 1
    expect(
        you.get_by_role("img", name=f"Your open pile: {card_name(mine['openTop'])}")
    ).to_be_visible()
