"""Keyboard-only play: Memory to the win dialog, Set with +3, Hint, found matches, History and
Settings, and a Snap! turn and call; dialogs trap the focus, close on Escape and give it back."""

import collections

from playwright.sync_api import expect

from browser import (
    acted,
    card_name,
    engine,
    focused,
    record_texts,
    reply_to,
    require_game,
    tab_to,
    texts_shown,
    view,
    wait_view,
)

SNAP_SEED = 5


def arrow_to(page, index):
    """Home, then ArrowRight until the focused card is board index `index` (gone cards are skipped)."""
    page.keyboard.press("Home")
    for _ in range(100):
        if int(focused(page, "e.dataset.index")) == index:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrow keys never reached card {index}")


def assert_focus_stays_in_dialog(page, dialog, presses=6):
    for _ in range(presses):
        page.keyboard.press("Tab")
        assert dialog.evaluate("(d) => d.contains(document.activeElement)"), (
            "Tab left the open dialog"
        )


def test_memory_keyboard_only_from_menu_to_menu(server, page, cardtable):
    [reply] = engine(
        cardtable, {"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}, "seed": 42}
    )
    where = collections.defaultdict(list)
    for index, spot in enumerate(reply["state"]["board"]):
        where[spot["card"]].append(index)

    page.goto(f"{server}?game=memory&seed=42")
    expect(page.get_by_role("button", name="EASY")).to_be_focused()
    assert len(acted(page, lambda: page.keyboard.press("Enter"))["board"]) == 12
    tab_to(page, "e.matches('button.card')")
    for n, (first, second) in enumerate(where.values()):
        arrow_to(page, first)
        assert acted(page, lambda: page.keyboard.press("Enter"))["board"][first]["faceUp"]
        arrow_to(page, second)
        assert acted(page, lambda: page.keyboard.press(" "))["board"][second]["faceUp"]
        wait_view(page, f"v.board[{first}].removed && v.board[{second}].removed && !v.waiting")
        if n < 5:  # the focus stays on the table when its card leaves
            assert focused(page, "e.matches('button.card') && !e.classList.contains('gone')")

    dialog = page.get_by_role("dialog", name="Great!")
    expect(dialog).to_contain_text("You won with score: 0!")
    expect(dialog.get_by_role("button", name="Back to the menu")).to_be_focused()
    # The last pair has left the table before the dialog shows.
    expect(page.locator("button.card:visible")).to_have_count(0)
    assert_focus_stays_in_dialog(page, dialog)
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="EASY")).to_be_focused()


def test_set_keyboard_only(server, page, cardtable):
    require_game(cardtable, "set")
    page.goto(f"{server}?game=set&seed=5")
    wait_view(page, "v.table.length === 12")
    tab_to(page, "e.textContent === '+3'")
    v = acted(page, lambda: page.keyboard.press("Enter"))
    assert len(v["table"]) == 15
    tab_to(page, "e.textContent === 'Hint'")
    hint = reply_to(page, lambda: page.keyboard.press("Enter"))["cards"]
    assert len(hint) == 3
    cards = [v["table"][i]["card"] for i in hint]
    tab_to(page, "e.matches('button.card')")
    for count, index in enumerate(hint, 1):
        arrow_to(page, index)
        v = acted(page, lambda: page.keyboard.press(" "))
        assert v["flips"] == count
    assert len(v["foundMatches"]) == 1 and len(v["table"]) == 12
    assert focused(page, "e.matches('button.card')"), "the focus left the table with the found set"

    # The found match's reason shows on keyboard focus.
    tab_to(page, "e.matches('.found-match')")
    match = page.locator(".found-match").first
    expect(match.get_by_role("tooltip")).to_be_visible()
    expect(match.get_by_role("tooltip")).to_contain_text(v["foundMatches"][0]["reason"]["text"])
    for text in cards:
        expect(match.get_by_role("img", name=card_name(text))).to_be_visible()

    # History: Shift+Tab back to the top bar; the dialog keeps the focus; Escape gives it back.
    tab_to(page, "e.textContent === 'History'", key="Shift+Tab")
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="History")
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    assert_focus_stays_in_dialog(page, dialog)
    tab_to(page, "e.matches('input.scrubber')")
    page.keyboard.press("Home")
    expect(dialog.locator(".history-current")).to_have_class("history-current old")
    expect(dialog.locator(".history-entry").nth(1)).to_be_hidden()
    page.keyboard.press("End")
    expect(dialog.locator(".history-current")).to_have_class("history-current")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("button", name="History")).to_be_focused()

    # Settings by keyboard: match bonus 4 → 5, saved on the server, used by the next new game.
    tab_to(
        page,
        "e.matches('[aria-haspopup=dialog]') && e.textContent.endsWith('Settings')",
        key="Shift+Tab",
    )
    page.keyboard.press("Enter")
    settings = page.get_by_role("dialog", name="Settings")
    tab_to(page, "e.id === 'setting-matchBonus'")
    page.keyboard.press("ArrowRight")
    expect(settings.locator("output").first).to_have_text("5")
    tab_to(page, "e.textContent === 'Save'")
    saved = reply_to(page, lambda: page.keyboard.press("Enter"))
    assert saved["cmd"] == "settings" and saved["settings"]["set"]["matchBonus"] == 5
    expect(settings).to_be_hidden()
    expect(page.get_by_role("button", name="Settings")).to_be_focused()
    # A reload opens the same game again, dealt with the settings it had.
    page.reload()
    wait_view(page, "v.table.length === 12")
    assert view(page)["settings"]["matchBonus"] == 4
    page.goto(f"{server}?game=set&seed=5")
    wait_view(page, "v.table.length === 12 && v.flips === 0")
    assert view(page)["settings"]["matchBonus"] == 5
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_label("Match bonus")).to_have_value("5")
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Settings")).to_be_focused()


def test_snap_keyboard_turn_and_call(server, page, cardtable):
    require_game(cardtable, "snap")
    record_texts(page, ".snap-status")
    record_texts(page, ".splash")
    page.goto(f"{server}?game=snap&seed={SNAP_SEED}")
    wait_view(page, "v.phase === 'playing' && v.canTurn", timeout=20000)
    tab_to(page, "(e.getAttribute('aria-label') || '').startsWith('Your stack')")
    v = acted(page, lambda: page.keyboard.press("Enter"))
    assert you(v)["openCount"] == 1
    # The Snap! button by Tab and Space: one open card shows, so the call is wrong.
    tab_to(page, "e.textContent === 'Snap!'")
    reply = reply_to(page, lambda: page.keyboard.press(" "))
    assert snap_call(reply) == "wrong"
    assert texts_shown(page, ".splash") == ["Wrong!"]
    # The S shortcut calls again while the cards move, before another card is turned: too late.
    assert reply["view"]["pause"] is not None and reply["view"]["canSnap"]
    reply = reply_to(page, lambda: page.keyboard.press("s"))
    assert snap_call(reply) == "tooLate"
    assert texts_shown(page, ".splash") == ["Wrong!", "Too late!"]
    # The wrong call costs a card to each of the three others once the cards have moved.
    wait_view(page, "v.players.find(p => p.name === 'You').closedCount === 12 - 3")
    assert "You Must Pay" in texts_shown(page, ".snap-status")


def you(view):
    return next(p for p in view["players"] if p["name"] == "You")


def snap_call(reply):
    """The result of your Snap! call in a reply: `correct`, `wrong` or `tooLate`."""
    [result] = [
        e["result"] for e in reply["events"] if e["type"] == "snap" and e["player"] == "You"
    ]
    return result
