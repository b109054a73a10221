"""The smaller things of issue 21 (item 7), a test each: J, Q and K are drawn as court figures
and number cards with pips."""

from playwright.sync_api import expect

from browser import acted, card_name, face_down, wait_view
from games import matchismo_table

MATCHISMO_SEED = 11


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
      const { cardImage } = await import('/js/cards.js');
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
