"""Matchismo and Set in the browser: matches, history lines, found matches, +3 and Hint."""

import itertools

from playwright.sync_api import expect

from browser import (
    acted,
    assert_card_names,
    card_name,
    engine,
    face_down,
    reply_to,
    require_game,
    screenshot,
    view,
    wait_view,
)

MATCHISMO_SEED = 11
SET_SEED = 5


def rank(card):
    return card[:-1]


def test_matchismo_match_and_mismatch_history(server, page, cardtable):
    require_game(cardtable, "matchismo")
    [reply] = engine(cardtable, {"cmd": "new", "game": "matchismo", "seed": MATCHISMO_SEED})
    table = [slot["card"] for slot in reply["state"]["table"]]
    i, j = next(
        (i, j)
        for i, j in itertools.combinations(range(len(table)), 2)
        if rank(table[i]) == rank(table[j])
    )
    k, m = next(
        (k, m)
        for k, m in itertools.combinations(range(len(table)), 2)
        if {k, m}.isdisjoint({i, j})
        and rank(table[k]) != rank(table[m])
        and table[k][-1] != table[m][-1]
    )

    page.goto(f"{server}?game=matchismo&seed={MATCHISMO_SEED}")
    wait_view(page, "v.table.length === 24")
    assert_card_names(page)
    expect(page.get_by_label("Cards to match")).to_be_enabled()
    for flips, index in enumerate((i, j, k, m), 1):
        v = acted(page, page.get_by_role("button", name=face_down(index), exact=True).click)
        assert v["flips"] == flips
    expect(page.get_by_label("Cards to match")).to_be_disabled()
    expect(page.get_by_text("Mode locked until Deal")).to_be_visible()

    a, b, c, d = (table[x] for x in (i, j, k, m))
    entries = [a, f"Matched {a} {b} for 16 points.", c, f"{c} {d} don’t match! 2 point penalty!"]
    expect(page.locator(".status-line")).to_have_text(entries[-1])
    expect(page.get_by_text("Score: 10")).to_be_visible()  # +16 −1 −1, then −2 −1 −1
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
    reason = v["foundMatches"][0]["reason"]["text"]
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

    # Deal (confirmed: the game is unfinished) empties the found matches and unlocks the mode selector.
    def deal():
        page.get_by_role("button", name="Deal", exact=True).click()
        page.get_by_role("dialog", name="Give up this game?").get_by_role(
            "button", name="Deal anyway"
        ).click()

    v = acted(page, deal)
    assert v["flips"] == 0 and v["foundMatches"] == []
    expect(found).to_be_hidden()
    expect(page.get_by_label("Cards to match")).to_be_enabled()
    expect(page.get_by_text("Mode locked until Deal")).to_be_hidden()


def test_set_plus_three_hint_and_a_found_set(server, page, cardtable):
    require_game(cardtable, "set")
    page.goto(f"{server}?game=set&seed={SET_SEED}")
    wait_view(page, "v.table.length === 12")
    assert_card_names(page)
    deck = view(page)["deckCount"]
    v = acted(page, page.get_by_role("button", name="Deal three more cards").click)
    assert len(v["table"]) == 15 and v["deckCount"] == deck - 3
    expect(page.locator(".card-grid button.card")).to_have_count(15)

    hint = reply_to(page, page.get_by_role("button", name="Hint").click)["cards"]
    assert len(hint) == 3
    cards = [v["table"][x]["card"] for x in hint]
    for text in cards:
        v = acted(page, page.get_by_role("button", name=card_name(text), exact=True).click)
    assert len(v["foundMatches"]) == 1

    found = page.get_by_role("region", name="matched cards:")
    expect(found.get_by_role("heading")).to_have_text("matched cards:")
    for text in cards:
        expect(found.get_by_role("img", name=card_name(text))).to_be_visible()
        # Matched Set cards leave the table.
        expect(
            page.locator(".card-grid").get_by_role("button", name=card_name(text), exact=True)
        ).to_have_count(0)
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
    first = [slot["card"] for slot in view(page)["table"]]
    v = acted(page, page.get_by_role("button", name="Deal", exact=True).click)
    dealt = [slot["card"] for slot in v["table"]]
    assert dealt != first, "Deal dealt the same cards"
    v = acted(page, page.get_by_role("button", name=card_name(dealt[0]), exact=True).click)
    assert v["flips"] == 1
    v = acted(page, page.get_by_role("button", name="Restart").click)
    assert v["flips"] == 0
    assert [slot["card"] for slot in v["table"]] == dealt
    expect(page.get_by_text("Score: 0")).to_be_visible()
