"""Matchismo and Set in the browser: matches, history lines, found matches, +3 and Hint."""
import itertools
import json

from playwright.sync_api import expect

from browser import (assert_card_names, card_name, engine, face_down, require_game, screenshot, view,
                     wait_view)

MATCHISMO_SEED = 11
SET_SEED = 5


def rank(card):
    return card[:-1]


def test_matchismo_match_and_mismatch_history(server, page, cardtable):
    require_game(cardtable, "matchismo")
    [reply] = engine(cardtable, {"cmd": "new", "game": "matchismo", "seed": MATCHISMO_SEED})
    table = [slot["card"] for slot in reply["state"]["table"]]
    i, j = next((i, j) for i, j in itertools.combinations(range(len(table)), 2) if rank(table[i]) == rank(table[j]))
    k, m = next((k, m) for k, m in itertools.combinations(range(len(table)), 2)
                if {k, m}.isdisjoint({i, j}) and rank(table[k]) != rank(table[m]) and table[k][-1] != table[m][-1])

    page.goto(f"{server}?game=matchismo&seed={MATCHISMO_SEED}")
    wait_view(page, "v.table.length === 24")
    assert_card_names(page)
    expect(page.get_by_label("Cards to match")).to_be_enabled()
    version = 0
    for index in (i, j, k, m):
        page.get_by_role("button", name=face_down(index), exact=True).click()
        version += 1
        wait_view(page, f"window.cardtable.version >= {version}")
    expect(page.get_by_label("Cards to match")).to_be_disabled()
    expect(page.get_by_text("Mode locked until Deal")).to_be_visible()

    a, b, c, d = (table[x] for x in (i, j, k, m))
    entries = [a, f"Matched {a} {b} for 16 points.", c, f"{c} {d} don’t match! 2 point penalty!"]
    expect(page.locator(".status-line")).to_have_text(entries[-1])
    expect(page.get_by_text("Score: 10")).to_be_visible()   # +16 −1 −1, then −2 −1 −1
    expect(page.get_by_text("Flips: 4")).to_be_visible()
    # The matched cards stay on the table, dimmed and unplayable.
    for x in (i, j):
        card = page.locator(f'button.card[data-index="{x}"]')
        expect(card).to_have_attribute("aria-disabled", "true")
        assert float(card.evaluate("e => getComputedStyle(e).opacity")) < 0.5

    # Found matches: the header, the two cards, the reason on keyboard focus.
    found = page.get_by_role("region", name="matched cards:")
    expect(found.get_by_role("heading")).to_have_text("matched cards:")
    expect(found.get_by_role("img", name=card_name(a))).to_be_visible()
    expect(found.get_by_role("img", name=card_name(b))).to_be_visible()
    match = found.get_by_role("listitem").first
    match.focus()
    reason = view(page)["foundMatches"][0]["reason"]["text"]
    expect(match.get_by_role("tooltip")).to_be_visible()
    expect(match.get_by_role("tooltip")).to_contain_text(reason)
    screenshot(page, "matchismo.png")

    page.get_by_role("button", name="History").click()
    dialog = page.get_by_role("dialog", name="History")
    expect(dialog).to_be_visible()
    text = dialog.locator("pre").inner_text()
    assert text == "\n\n".join(f"{n:2d}: {entry}" for n, entry in enumerate(entries, 1))
    # The scrubber steps back: older entries dimmed, later ones hidden.
    dialog.get_by_label("History position").fill("2")
    expect(dialog.locator(".history-entry").nth(0)).to_have_class("history-entry older")
    expect(dialog.locator(".history-entry").nth(1)).to_have_class("history-entry")
    expect(dialog.locator(".history-entry").nth(3)).to_be_hidden()
    dialog.get_by_role("button", name="Close").click()

    # Deal empties the found matches and unlocks the mode selector.
    page.get_by_role("button", name="Deal").click()
    wait_view(page, "v.flips === 0 && v.foundMatches.length === 0")
    expect(found).to_be_hidden()
    expect(page.get_by_label("Cards to match")).to_be_enabled()
    expect(page.get_by_text("Mode locked until Deal")).to_be_hidden()


def test_set_plus_three_hint_and_a_found_set(server, page, cardtable):
    require_game(cardtable, "set")
    page.goto(f"{server}?game=set&seed={SET_SEED}")
    wait_view(page, "v.table.length === 12")
    assert_card_names(page)
    deck = view(page)["deckCount"]
    page.get_by_role("button", name="Deal three more cards").click()
    wait_view(page, f"v.table.length === 15 && v.deckCount === {deck - 3}")
    expect(page.locator(".card-grid button.card")).to_have_count(15)

    page.get_by_role("button", name="Hint").click()
    wait_view(page, "v.hint.length === 3")
    hint = view(page)["hint"]
    cards = [view(page)["table"][x]["card"] for x in hint]
    for text in cards:
        page.get_by_role("button", name=card_name(text), exact=True).click()
    wait_view(page, "v.foundMatches.length === 1")

    found = page.get_by_role("region", name="matched cards:")
    expect(found.get_by_role("heading")).to_have_text("matched cards:")
    for text in cards:
        expect(found.get_by_role("img", name=card_name(text))).to_be_visible()
        # Matched Set cards leave the table.
        expect(page.locator(".card-grid").get_by_role("button", name=card_name(text), exact=True)).to_have_count(0)
    found.get_by_role("listitem").first.hover()
    expect(found.get_by_role("tooltip").first).to_be_visible()
    expect(page.locator(".status-line")).to_contain_text("Matched")
    screenshot(page, "set.png")

    page.get_by_role("button", name="History").click()
    dialog = page.get_by_role("dialog", name="History")
    # Set cards in history lines are drawn as coloured symbols named like the cards.
    for text in cards:
        expect(dialog.get_by_role("img", name=card_name(text)).first).to_be_visible()
    assert dialog.locator("pre").inner_text().startswith(" 1: ")


def test_restart_deals_the_current_set_deal_again(server, page, cardtable):
    require_game(cardtable, "set")
    page.goto(f"{server}?game=set&seed={SET_SEED}")
    wait_view(page, "v.table.length === 12")
    first = json.dumps(json.dumps([slot["card"] for slot in view(page)["table"]]))
    page.get_by_role("button", name="Deal", exact=True).click()
    wait_view(page, f"JSON.stringify(v.table.map((s) => s.card)) !== {first}")
    dealt = [slot["card"] for slot in view(page)["table"]]
    page.get_by_role("button", name=card_name(dealt[0]), exact=True).click()
    wait_view(page, "v.flips === 1")
    page.get_by_role("button", name="Restart").click()
    wait_view(page, "v.flips === 0")
    assert [slot["card"] for slot in view(page)["table"]] == dealt
    expect(page.get_by_text("Score: 0")).to_be_visible()
