"""Replays in the browser (issue 9): History's scrubber shows the table as it was at the chosen
entry, and a finished game can be stepped through move by move on its own table."""

import collections
import itertools

from playwright.sync_api import expect

from browser import acted, card_name, engine, face_down, focused, reply_to, view, wait_view


def test_history_scrubber_shows_the_table_as_it_was(server, page, cardtable):
    [reply] = engine(cardtable, {"cmd": "new", "game": "matchismo", "seed": 11})
    table = [slot["card"] for slot in reply["state"]["table"]]
    i, j = next(
        (i, j) for i, j in itertools.combinations(range(24), 2) if table[i][:-1] == table[j][:-1]
    )
    k, m = next(
        (k, m)
        for k, m in itertools.combinations(range(24), 2)
        if {k, m}.isdisjoint({i, j})
        and table[k][:-1] != table[m][:-1]
        and table[k][-1] != table[m][-1]
    )
    page.goto(f"{server}?game=matchismo&seed=11")
    wait_view(page, "v.table.length === 24")
    for index in (i, j, k, m):
        acted(page, page.get_by_role("button", name=face_down(index), exact=True).click)

    page.get_by_role("button", name="History").click()
    dialog = page.get_by_role("dialog", name="History")
    shown = dialog.get_by_role("group", name="The table after entry 4")
    expect(shown).to_be_visible()
    expect(shown.get_by_role("img")).to_have_count(24)

    def faces_up(entry):
        """The cards face up on the dialog's table at `entry`: {index: accessible name}."""
        expect(dialog.get_by_role("group", name=f"The table after entry {entry}")).to_be_visible()
        names = dialog.locator(".history-table [role=img]").evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))"
        )
        assert len(names) == 24
        return {n: name for n, name in enumerate(names) if name != "face-down card"}

    # The newest entry: the pair matched; of the mismatched two only the last one stays chosen.
    assert faces_up(4) == {
        i: f"{card_name(table[i])}, matched",
        j: f"{card_name(table[j])}, matched",
        m: f"{card_name(table[m])}, chosen",
    }
    scrubber = dialog.get_by_label("History position")
    scrubber.fill("1")
    assert faces_up(1) == {i: f"{card_name(table[i])}, chosen"}
    scrubber.fill("2")
    assert faces_up(2) == {
        i: f"{card_name(table[i])}, matched",
        j: f"{card_name(table[j])}, matched",
    }
    # By keyboard: one entry on.
    scrubber.focus()
    page.keyboard.press("ArrowRight")
    assert faces_up(3) == {
        i: f"{card_name(table[i])}, matched",
        j: f"{card_name(table[j])}, matched",
        k: f"{card_name(table[k])}, chosen",
    }
    # The live table is untouched by looking back.
    page.keyboard.press("Escape")
    assert view(page)["flips"] == 4
    expect(page.locator(f'.card-grid button.card[data-index="{m}"]')).to_have_attribute(
        "aria-label", card_name(table[m])
    )


def test_stepping_through_a_finished_memory_game(server, page, cardtable):
    [reply] = engine(
        cardtable, {"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}, "seed": 42}
    )
    board = [spot["card"] for spot in reply["state"]["board"]]
    where = collections.defaultdict(list)
    for index, card in enumerate(board):
        where[card].append(index)
    pairs = list(where.values())
    page.goto(f"{server}?game=memory&difficulty=easy&seed=42")
    wait_view(page, "v.board.length === 12")
    for a, b in pairs:
        acted(page, page.get_by_role("button", name=face_down(a), exact=True).click)
        acted(page, page.get_by_role("button", name=face_down(b), exact=True).click)
        wait_view(page, f"v.board[{a}].removed && v.board[{b}].removed && !v.waiting")
    total = page.evaluate("window.cardtable.version")
    assert total == 18  # 12 flips and 6 pairs leaving the table

    dialog = page.get_by_role("dialog", name="Great!")
    dialog.get_by_role("button", name="Step through").click()
    stepper = page.get_by_role("region", name="Step through the game")
    position = stepper.locator("output")
    expect(position).to_have_text(f"Move 0 of {total}")
    expect(stepper.get_by_role("button", name="Next move")).to_be_focused()
    cards = page.locator(".memory-table button.card")

    def shows(move):
        expect(position).to_have_text(f"Move {move} of {total}")
        expect(stepper).to_have_attribute("data-shown", str(move))
        return cards.evaluate_all(
            "bs => bs.map(b => [b.getAttribute('aria-label'), b.classList.contains('gone'), b.getAttribute('aria-disabled')])"
        )

    # The deal: every card face down; nothing can be played while stepping.
    at = shows(0)
    assert [name for name, _, _ in at] == [face_down(n) for n in range(12)]
    assert {disabled for _, _, disabled in at} == {"true"}
    # Move 1: the first card of the first pair face up.
    page.keyboard.press("Enter")
    at = shows(1)
    a, b = pairs[0]
    assert at[a][0] == card_name(board[a])
    assert [name for n, (name, _, _) in enumerate(at) if n != a] == [
        face_down(n) for n in range(12) if n != a
    ]
    page.keyboard.press("ArrowRight")
    at = shows(2)
    assert at[b][0] == card_name(board[b]) and not at[b][1]
    page.keyboard.press("ArrowRight")
    at = shows(3)  # the pair has left the table
    assert at[a][1] and at[b][1]
    page.keyboard.press("End")
    at = shows(total)
    assert all(gone for _, gone, _ in at)
    expect(stepper.get_by_role("button", name="Next move")).to_have_attribute(
        "aria-disabled", "true"
    )
    page.keyboard.press("Home")
    shows(0)
    stepper.get_by_role("button", name="Last move").click()
    shows(total)
    stepper.get_by_role("button", name="Previous move").click()
    at = shows(total - 1)
    last = pairs[-1]
    assert not at[last[0]][1] and at[last[0]][0] == card_name(board[last[0]])

    # Back to the game: the live (finished) table again, and Step through in the top bar.
    stepper.get_by_role("button", name="Back to the game").click()
    expect(stepper).to_have_count(0)
    assert all(cards.evaluate_all("bs => bs.map(b => b.classList.contains('gone'))"))
    step = page.get_by_role("button", name="Step through")
    expect(step).to_be_visible()
    assert focused(page, "e.textContent") == "Step through"
    step.click()
    expect(position).to_have_text(f"Move 0 of {total}")
    page.keyboard.press("Escape")
    expect(stepper).to_have_count(0)


def test_stepping_through_a_finished_matchismo_game_on_a_small_table(server, page):
    # Four cards from seed 1: 7♥ 9♠ 4♥ 8♦. The hearts match; then no match is left.
    page.goto(f"{server}?game=matchismo&seed=1")
    wait_view(page, "v.table.length === 24")
    page.get_by_role("button", name="Settings").click()
    settings = page.get_by_role("dialog", name="Settings")
    settings.get_by_label("Cards on the table").fill("4")
    expect(settings.locator("output").last).to_have_text("4")
    saved = reply_to(page, settings.get_by_role("button", name="Save").click)
    assert saved["settings"]["matchismo"]["cards"] == 4
    # The settings apply from the next Deal: a new game on four cards.
    v = acted(page, page.get_by_role("button", name="Deal", exact=True).click)
    assert len(v["table"]) == 4 and v["settings"]["cards"] == 4
    page.goto(f"{server}?game=matchismo&seed=1")
    wait_view(page, "v.table.length === 4")
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    v = acted(page, page.get_by_role("button", name=face_down(2), exact=True).click)
    assert v["over"] and v["score"] > 0
    over = page.locator(".game-over")
    expect(over).to_contain_text("Game Over!")

    over.get_by_role("button", name="Step through").click()
    stepper = page.get_by_role("region", name="Step through the game")
    cards = page.locator(".card-grid button.card")

    def shows(move):
        expect(stepper.locator("output")).to_have_text(f"Move {move} of 2")
        expect(stepper).to_have_attribute("data-shown", str(move))
        return cards.evaluate_all(
            "bs => bs.map(b => [b.getAttribute('aria-label'), b.getAttribute('aria-pressed'), b.classList.contains('matched'), b.getAttribute('aria-disabled')])"
        )

    at = shows(0)
    assert [a[0] for a in at] == [face_down(n) for n in range(4)]
    expect(page.get_by_text("Flips: 0")).to_be_visible()
    expect(over).to_be_hidden()
    stepper.get_by_role("button", name="Next move").click()
    at = shows(1)
    assert at[0][:3] == [card_name("7♥"), "true", False] and at[2][0] == face_down(2)
    assert {a[3] for a in at} == {"true"}
    expect(page.get_by_role("button", name="Deal", exact=True)).to_be_disabled()
    stepper.get_by_role("button", name="Next move").click()
    at = shows(2)
    assert at[0][2] and at[2][2] and at[2][0] == card_name("4♥")
    expect(over).to_contain_text("Game Over!")
    stepper.get_by_role("button", name="Back to the game").click()
    expect(stepper).to_have_count(0)
    expect(page.get_by_role("button", name="Deal", exact=True)).to_be_enabled()
    assert view(page)["over"]
