"""A table's rematch (issue 20): at the end of the game each player is offered a new deal for
the same seats; it is dealt once everyone still at the table has accepted, whoever went frees
the seat, and the games won add up on the table ("Games won: Ann 1 – Bob 0")."""

from playwright.sync_api import expect
from test_browser_together import join_by_link, start

from browser import acted, face_down, reply_to, wait_view

EASY = ["A♥", "A♥", "K♠", "K♠", "2♦", "2♦", "3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠"]


def memory_table(server, people, names):
    """`names[0]` hosts an easy Memory table dealt with each pair side by side, the others join
    by its link, and the host starts; returns the pages."""
    pages = [people(server, name) for name in names]
    host = pages[0]
    host.goto(f"{server}?game=memory&difficulty=easy&table=host&deck={','.join(EASY)}")
    table = reply_to(host, host.get_by_role("button", name="Host table").click)
    for page in pages[1:]:
        join_by_link(page, table)
    start(host, pages[1:])
    return pages


def win_everything(page):
    """The host finds all six pairs: the game is over, its end dialog open."""
    for pair in range(6):
        acted(page, page.get_by_role("button", name=face_down(2 * pair), exact=True).click)
        acted(page, page.get_by_role("button", name=face_down(2 * pair + 1), exact=True).click)
        wait_view(page, f"v.board[{2 * pair}].removed && !v.waiting")
    wait_view(page, "v.over")


def test_a_rematch_accepted_by_everyone_deals_again_and_counts_the_wins(server, people):
    ann, bob = memory_table(server, people, ["Ann", "Bob"])
    win_everything(ann)
    for page in (ann, bob):
        expect(page.get_by_role("dialog")).to_be_visible()
        expect(page.locator(".table-wins")).to_have_text(
            "Games won: You 1 – Bob 0" if page is ann else "Games won: Ann 1 – You 0"
        )
    ann.get_by_role("dialog").get_by_role("button", name="Rematch").click()
    expect(bob.locator(".rematch-note")).to_have_text("Rematch accepted by Ann; waiting for you.")
    expect(ann.locator(".rematch-note")).to_have_text("Rematch accepted by you; waiting for Bob.")
    expect(ann.locator("button.rematch")).to_have_text("Rematch asked")
    bob.get_by_role("dialog").get_by_role("button", name="Rematch").click()
    for page in (ann, bob):
        wait_view(page, "v.version === 0 && !v.over && v.pairsFound === 0")
        expect(page.locator(".rematch-row")).to_be_hidden()
        expect(page.get_by_role("dialog")).to_be_hidden()
    expect(bob.locator(".table-wins")).to_have_text("Games won: Ann 1 – You 0")
    expect(ann.locator(".turns .player-chip")).to_have_text(["You: 0 pairs", "Bob: 0 pairs"])
    # A new deal: the practice table's deck dealt only the first game.
    board = [spot["card"] for spot in ann.evaluate("window.cardtable.lastView.board")]
    assert board == [None] * 12


def test_whoever_goes_frees_the_seat_and_the_others_play_again(server, people):
    ann, bob, cat = memory_table(server, people, ["Ann", "Bob", "Cat"])
    win_everything(ann)
    for page in (ann, bob):
        page.get_by_role("dialog").get_by_role("button", name="Rematch").click()
    expect(ann.locator(".rematch-note")).to_have_text(
        "Rematch accepted by you, Bob; waiting for Cat."
    )
    # Cat goes back to the menu and away from the table: the two play on without her.
    cat.get_by_role("dialog").get_by_role("button", name="Back to the menu").click()
    for page in (ann, bob):
        wait_view(page, "v.version === 0 && !v.over && v.players.length === 2")
    # NB: the seats show each person's rating in the game's mode (practice is unrated: 1500).
    expect(ann.locator(".table-seat")).to_have_text(["Ann (host, you) · 1500?", "Bob · 1500?"])
    expect(ann.locator(".table-wins")).to_have_text("Games won: You 1 – Bob 0")
