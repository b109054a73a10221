"""Memory in the browser: an Easy game with seed 42 played to the win dialog."""

import collections

from playwright.sync_api import expect

from browser import (
    PHONE,
    acted,
    assert_card_names,
    card_name,
    engine,
    face_down,
    screenshot,
    settle,
    view,
    wait_view,
)

SEED = 42


def memory_board(cardtable):
    [reply] = engine(
        cardtable, {"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}, "seed": SEED}
    )
    return [spot["card"] for spot in reply["state"]["board"]]


def pairs_of(board):
    where = collections.defaultdict(list)
    for index, card in enumerate(board):
        where[card].append(index)
    return list(where.values())


def flip(page, index, board, how="click"):
    """Clicks (or taps) the face-down card at `index` by its accessible name; waits for the
    reply, in which it is face up, and checks that the card now bears its face's name."""
    card = page.get_by_role("button", name=face_down(index), exact=True)
    v = acted(page, getattr(card, how))
    assert v["board"][index] == {"card": board[index], "faceUp": True, "removed": False}
    expect(page.locator(f'button.card[data-index="{index}"]')).to_have_attribute(
        "aria-label", card_name(board[index])
    )
    return v


def test_memory_easy_played_to_the_win_dialog(server, page, cardtable):
    board = memory_board(cardtable)
    pairs = pairs_of(board)
    assert len(pairs) == 6
    page.goto(f"{server}?game=memory&difficulty=easy&seed={SEED}")
    wait_view(page, "v.board.length === 12")
    assert_card_names(page)

    # Keyboard only: Tab onto the table, arrows to the cards of the first pair, Enter and Space.
    first, second = pairs[0]
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('button.card')"):
            break
    at = int(page.evaluate("document.activeElement.dataset.index"))
    for target, key in ((first, "Enter"), (second, " ")):
        while at != target:
            if target // 4 > at // 4:
                page.keyboard.press("ArrowDown")
                at += 4
            elif target // 4 < at // 4:
                page.keyboard.press("ArrowUp")
                at -= 4
            elif target > at:
                page.keyboard.press("ArrowRight")
                at += 1
            else:
                page.keyboard.press("ArrowLeft")
                at -= 1
        assert int(page.evaluate("document.activeElement.dataset.index")) == target
        assert acted(page, lambda: page.keyboard.press(key))["board"][target]["faceUp"]
        expect(page.locator(f'button.card[data-index="{target}"]')).to_have_attribute(
            "aria-label", card_name(board[target])
        )
    wait_view(page, f"v.board[{first}].removed && v.board[{second}].removed && !v.waiting")
    expect(page.locator(f'button.card[data-index="{first}"]')).to_be_hidden()

    # One deliberate mismatch: the first card of two different pairs; both turn down after 2 s.
    a, b = pairs[1][0], pairs[2][0]
    flip(page, a, board)
    assert flip(page, b, board)["score"] == 1
    # NB: the score counts mistakes, and the status line says so.
    expect(page.get_by_role("status")).to_have_text("Pairs found: 1 of 6. Mistakes: 1")
    wait_view(page, f"!v.waiting && !v.board[{a}].faceUp && !v.board[{b}].faceUp")
    expect(page.get_by_role("button", name=face_down(a), exact=True)).to_be_visible()

    for i, j in pairs[1:]:
        flip(page, i, board)
        flip(page, j, board)
        wait_view(page, f"!v.waiting && v.board[{i}].removed")

    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Great!")
    expect(dialog).to_contain_text("You won with score: 1!")
    assert view(page)["score"] == 1
    screenshot(page, "memory.png")
    dialog.get_by_role("button", name="Back to the menu").click()
    expect(page.get_by_role("button", name="EASY")).to_be_visible()
    expect(page.get_by_role("button", name="MEDIUM")).to_be_visible()
    expect(page.get_by_role("button", name="HARD")).to_be_visible()


def test_memory_on_a_phone_with_reduced_motion(server, chromium, cardtable):
    board = memory_board(cardtable)
    context = chromium.new_context(
        viewport=PHONE, reduced_motion="reduce", has_touch=True, is_mobile=True
    )
    try:
        pg = context.new_page()
        pg.goto(f"{server}?game=memory&difficulty=easy&seed={SEED}")
        wait_view(pg, "v.board.length === 12")
        settle(pg)
        # The whole table fits the phone's width: no sideways scrolling.
        assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        boxes = [pg.locator(f'button.card[data-index="{i}"]').bounding_box() for i in range(12)]
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] for b in boxes)
        # Reduced motion: flips are instant.
        duration = pg.eval_on_selector(
            "button.card .card-flip", "e => getComputedStyle(e).transitionDuration"
        )
        assert all(float(d.rstrip("s")) == 0 for d in duration.split(","))
        flip(pg, 0, board, how="tap")
        flip(pg, 5, board, how="tap")
        screenshot(pg, "memory-phone.png")
    finally:
        context.close()
