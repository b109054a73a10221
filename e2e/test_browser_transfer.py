"""Your player on another device (issue 20): a one-time code shown on one browser and typed on
another moves the player — name, games and statistics — to the second; the code works once."""

import re

from playwright.sync_api import expect

from browser import acted, face_down, send, wait_view


def played(page):
    """How many games the page's player has played, by the server's statistics."""
    return sum(row["played"] for row in send(page, {"cmd": "stats"})["stats"])


def test_a_transfer_code_moves_the_player_with_their_statistics_once(server, people):
    ann = people(server, "Ann")
    # NB: a game given up counts as played (a practice deal would not count at all).
    ann.goto(f"{server}?game=memory&difficulty=easy")
    wait_view(ann, "v.board.length === 12")
    acted(ann, ann.get_by_role("button", name=face_down(0), exact=True).click)
    assert send(ann, {"cmd": "abandon"})["type"] != "error"
    assert played(ann) == 1

    ann.goto(server)
    ann.get_by_role("button", name="Show a code for another device").click()
    code = ann.locator(".transfer-code")
    expect(code).to_have_text(re.compile(r"^[A-Z2-9]{4}-[A-Z2-9]{4}$"))
    shown = code.inner_text()

    other = people(server, None)
    other.goto(server)
    use = other.get_by_label("Use a code")
    expect(use).to_be_visible()
    assert played(other) == 0
    use.fill(shown.lower().replace("-", ""))
    other.get_by_role("button", name="Move here").click()
    # The page loads again as Ann: her name, and her game in the statistics.
    expect(other.get_by_label("Name", exact=True)).to_have_value("Ann")
    assert played(other) == 1
    assert other.evaluate("localStorage.getItem('cardtable.token')") == ann.evaluate(
        "localStorage.getItem('cardtable.token')"
    )

    # The code is spent: a third browser is told so, and stays who it was.
    third = people(server, "Cy")
    third.goto(server)
    third.get_by_label("Use a code").fill(shown)
    third.get_by_role("button", name="Move here").click()
    expect(third.locator("#transfer-use-note")).to_contain_text("That code moves no player")
    expect(third.get_by_label("Name", exact=True)).to_have_value("Cy")
