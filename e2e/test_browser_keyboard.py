"""Keyboard-only play: Memory to the win dialog, Set with +3, Hint, found matches, History and
Settings, and a Snap! turn and call; dialogs trap the focus, close on Escape and give it back."""
import collections

from playwright.sync_api import expect

from browser import card_name, engine, focused, require_game, tab_to, view, wait_view

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
        assert dialog.evaluate("(d) => d.contains(document.activeElement)"), "Tab left the open dialog"


def test_memory_keyboard_only_from_menu_to_menu(server, page, cardtable):
    [reply] = engine(cardtable, {"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}, "seed": 42})
    where = collections.defaultdict(list)
    for index, spot in enumerate(reply["state"]["board"]):
        where[spot["card"]].append(index)

    page.goto(f"{server}?game=memory&seed=42")
    expect(page.get_by_role("button", name="EASY")).to_be_focused()
    page.keyboard.press("Enter")
    wait_view(page, "v.board.length === 12")
    tab_to(page, "e.matches('button.card')")
    for n, (first, second) in enumerate(where.values()):
        arrow_to(page, first)
        page.keyboard.press("Enter")
        arrow_to(page, second)
        page.keyboard.press(" ")
        wait_view(page, f"v.board[{first}].removed && v.board[{second}].removed && !v.waiting")
        if n < 5:   # the focus stays on the table when its card leaves
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
    page.keyboard.press("Enter")
    wait_view(page, "v.table.length === 15")
    tab_to(page, "e.textContent === 'Hint'")
    page.keyboard.press("Enter")
    wait_view(page, "v.hint.length === 3")
    hint = view(page)["hint"]
    cards = [view(page)["table"][i]["card"] for i in hint]
    tab_to(page, "e.matches('button.card')")
    for count, index in enumerate(hint, 1):
        arrow_to(page, index)
        page.keyboard.press(" ")
        wait_view(page, f"v.flips === {count}")
    wait_view(page, "v.foundMatches.length === 1 && v.table.length === 12")
    assert focused(page, "e.matches('button.card')"), "the focus left the table with the found set"

    # The found match's reason shows on keyboard focus.
    tab_to(page, "e.matches('.found-match')")
    match = page.locator(".found-match").first
    expect(match.get_by_role("tooltip")).to_be_visible()
    expect(match.get_by_role("tooltip")).to_contain_text(view(page)["foundMatches"][0]["reason"]["text"])
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

    # Settings by keyboard: match bonus 4 → 5, saved, remembered after a reload, used by the next game.
    tab_to(page, "e.textContent === 'Settings'", key="Shift+Tab")
    page.keyboard.press("Enter")
    settings = page.get_by_role("dialog", name="Settings")
    tab_to(page, "e.id === 'setting-matchBonus'")
    page.keyboard.press("ArrowRight")
    expect(settings.locator("output").first).to_have_text("5")
    tab_to(page, "e.textContent === 'Save'")
    page.keyboard.press("Enter")
    expect(settings).to_be_hidden()
    expect(page.get_by_role("button", name="Settings")).to_be_focused()
    page.reload()
    wait_view(page, "v.table.length === 12")
    assert view(page)["settings"]["matchBonus"] == 5
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_label("Match bonus")).to_have_value("5")
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Settings")).to_be_focused()


def test_snap_keyboard_turn_and_call(server, page, cardtable):
    require_game(cardtable, "snap")
    page.goto(f"{server}?game=snap&seed={SNAP_SEED}")
    wait_view(page, "v.phase === 'playing' && v.canTurn", timeout=20000)
    tab_to(page, "(e.getAttribute('aria-label') || '').startsWith('Your stack')")
    page.keyboard.press("Enter")
    wait_view(page, "v.players.find(p => p.name === 'You').openCount === 1")
    # The Snap! button by Tab and Space: one open card shows, so the call is wrong.
    tab_to(page, "e.textContent === 'Snap!'")
    page.keyboard.press(" ")
    expect(page.locator(".splash")).to_have_text("Wrong!")
    # The S shortcut calls again while the cards move, before another card is turned: too late.
    wait_view(page, "v.pause !== null && v.canSnap")
    page.keyboard.press("s")
    expect(page.locator(".splash", has_text="Too late!")).to_be_visible()
    expect(page.locator(".snap-status")).to_have_text("You Must Pay")
