"""Ratings and players' pages in the browser (docs/RATINGS.md), in one game to save its time: a
table game between people, dealt by the server (no chosen seed or deck: practice is unrated),
moves both players' ratings, which the seats show once it is over and the Scores page lists;
the Scores page links to the player's own page, which others see only once its player lets
them."""

import re

from playwright.sync_api import expect
from test_browser_together import join_by_link, start

from browser import acted, face_down, grave_violations, reply_to, send, wait_view

PROVISIONAL = "provisional: fewer than 10 rated games"
EASY_MODE = "difficulty easy, players 2"


def memory_table(server, people):
    """Ann hosts an easy Memory table the server deals (no seed, no deck: a rated game), Bob
    joins by its link, Ann starts; returns the pages and the `table` message."""
    ann = people(server, "Ann")
    bob = people(server, "Bob")
    ann.goto(f"{server}?game=memory&difficulty=easy&table=host")
    table = reply_to(ann, ann.get_by_role("button", name="Host table").click)
    assert table["type"] == "table" and table["phase"] == "lobby", table
    join_by_link(bob, table)
    start(ann, [bob])
    return ann, bob, table


def ann_takes_every_pair(ann, bob):
    """Plays the table's game to its end through the two pages, remembering each face as it is
    turned: Ann turns a pair she knows, else an unseen card and its partner if she knows it (or
    another unseen card); Bob, on his turns, turns two cards known to differ (Ann's mismatch
    just showed two). So Ann takes all six pairs, whatever the deal."""
    known = {}  # board index → face, for the cards still on the board that have been seen
    gone = set()
    pages = {"Ann": ann, "Bob": bob}
    turn = "Ann"
    while len(gone) < 12:
        page = pages[turn]
        # The turn is this player's, and every card on the board is face down again.
        wait_view(
            page,
            f"v.turn === '{turn}' && !v.waiting && v.board.every(s => s.removed || !s.faceUp)",
        )

        def flip(index, page=page):
            v = acted(page, page.get_by_role("button", name=face_down(index), exact=True).click)
            known[index] = v["board"][index]["card"]
            assert known[index], f"card {index} turned without a face: {v['board'][index]}"
            return v

        unseen = [i for i in range(12) if i not in known and i not in gone]
        if turn == "Ann":
            pair = next(
                ((i, j) for i in known for j in known if i < j and known[i] == known[j]), None
            )
            if pair:
                first, second = pair
                flip(first)
            else:
                first = unseen[0]
                flip(first)
                partner = next((j for j in known if j != first and known[j] == known[first]), None)
                second = unseen[1] if partner is None else partner
        else:
            first, second = next(
                (i, j) for i in known for j in known if i < j and known[i] != known[j]
            )
            flip(first)
        v = flip(second)
        if known[first] == known[second]:
            assert turn == "Ann", f"Bob matched {first} and {second}"
            wait_view(page, f"v.over || (v.board[{first}].removed && v.board[{second}].removed)")
            del known[first], known[second]
            gone |= {first, second}
        else:
            turn = "Bob" if turn == "Ann" else "Ann"
    wait_view(ann, "v.over")
    wait_view(bob, "v.over")
    return v


def seat_texts(page):
    return page.locator(".table-seat").all_text_contents()


def test_a_game_between_two_people_moves_their_ratings_shown_on_a_page_by_choice(server, people):
    # NB: one game for both: the rated game is the longest part (Memory's turns).
    ann, bob, hosted = memory_table(server, people)
    # Once dealt, the seats show each person's rating: everyone starts at 1500, provisional.
    expect(ann.locator(".table-seat")).to_have_text(["Ann (host, you) · 1500?", "Bob · 1500?"])
    expect(bob.locator(".table-seat")).to_have_text(["Ann (host) · 1500?", "Bob (you) · 1500?"])
    mark = ann.locator(".table-seat").first.get_by_role("img", name=PROVISIONAL)
    expect(mark).to_have_text("?")
    expect(mark).to_have_attribute("title", PROVISIONAL)

    last = ann_takes_every_pair(ann, bob)
    assert [(p["player"], p["pairs"]) for p in last["players"]] == [("Ann", 6), ("Bob", 0)]

    # The table message of the game over carries the new ratings: two new equals, +20 / -20.
    expect(ann.locator(".table-seat")).to_have_text(["Ann (host, you) · 1520?", "Bob · 1480?"])
    expect(bob.locator(".table-seat")).to_have_text(["Ann (host) · 1520?", "Bob (you) · 1480?"])
    shown = {}
    for text in seat_texts(bob):
        match = re.fullmatch(r"(\w+)(?: \([^)]*\))? · (\d+)\?", text)
        assert match, text
        shown[match[1]] = int(match[2])
    assert shown["Ann"] > 1500 > shown["Bob"] and shown["Ann"] + shown["Bob"] == 3000, shown

    # The Scores page lists each one's rating in the game's mode.
    stats = send(ann, {"cmd": "stats"})
    assert stats["ratings"] == [
        {"game": "memory", "options": EASY_MODE, "rating": 1520, "games": 1, "provisional": True}
    ], stats
    for page, rating in ((ann, "1520?"), (bob, "1480?")):
        page.goto(f"{server}scores")
        section = page.get_by_role("region", name="Ratings")
        expect(section.get_by_role("heading", name="Ratings")).to_be_visible()
        table = section.locator("table.ratings-table")
        expect(table).to_be_visible()
        expect(table.locator("caption")).to_contain_text("provisional")
        row = table.locator("tbody tr")
        expect(row).to_have_count(1)
        expect(row.locator("th")).to_have_text("Memory")
        expect(row.locator("td")).to_have_text([EASY_MODE, rating, "1"])
        expect(row.get_by_role("img", name=PROVISIONAL)).to_be_visible()
        expect(section.get_by_text("No rated games yet")).to_be_hidden()
    found = grave_violations(bob, "scores with a rating")
    assert not found, "\n".join(found)

    # Ann's Scores page links to her own page, which only she sees for now.
    ann.goto(f"{server}scores")
    own = ann.get_by_role("region", name="Your player’s page")
    shown = own.get_by_label("Let others see my page")
    expect(shown).to_be_enabled()
    expect(shown).not_to_be_checked()
    expect(own.locator(".profile-note")).to_have_text(
        "Only you can see your page: others who open its link are told there is none."
    )
    link = own.get_by_role("link", name="Your player’s page")
    expect(link).to_have_attribute("href", re.compile(r"^/players/[A-Za-z0-9_-]{16}$"))
    address = link.get_attribute("href")
    link.click()
    expect(ann).to_have_url(f"{server.rstrip('/')}{address}")
    expect(ann.get_by_role("heading", name="Ann", exact=True)).to_be_visible()
    expect(ann.locator(".own-page-note")).to_contain_text("This is your page. Only you can see it")

    # Bob, given the link, is told there is no page there.
    bob.goto(f"{server.rstrip('/')}{address}")
    expect(
        bob.get_by_role("heading", name="There is no player's page at this link.")
    ).to_be_visible()
    expect(bob.get_by_role("heading", name="Ann", exact=True)).to_have_count(0)
    expect(bob.get_by_role("link", name="Back to the games")).to_have_attribute("href", "/")

    # Ann lets others see it.
    ann.goto(f"{server}scores")
    shown = ann.get_by_role("region", name="Your player’s page").get_by_label(
        "Let others see my page"
    )
    expect(shown).to_be_enabled()
    saved = reply_to(ann, shown.check)
    assert saved["type"] == "answer" and saved["settings"]["profile"] is True, saved
    expect(shown).to_be_checked()
    expect(ann.locator(".profile-note")).to_have_text("Others can see your page: share its link.")
    ann.reload()
    expect(
        ann.get_by_role("region", name="Your player’s page").get_by_label("Let others see my page")
    ).to_be_checked()

    # Bob's page, reloaded: Ann's name, rating and her game, with its replay.
    bob.reload()
    expect(bob.get_by_role("heading", name="Ann", exact=True)).to_be_visible()
    expect(bob.locator(".own-page-note")).to_have_count(0)
    ratings = bob.get_by_role("region", name="Ratings").locator("tbody tr")
    expect(ratings).to_have_count(1)
    expect(ratings.locator("th")).to_have_text("Memory")
    expect(ratings.locator("td")).to_have_text([EASY_MODE, "1520?", "1"])
    stats = bob.get_by_role("region", name="Statistics").locator("tbody tr")
    expect(stats.filter(has_text="Memory")).to_have_count(1)
    recent = bob.get_by_role("region", name="Recent games").locator("tbody tr")
    expect(recent).to_have_count(1)
    expect(recent.locator("th")).to_have_text("Memory")
    cells = recent.locator("td")
    expect(cells.nth(0)).to_have_text(EASY_MODE)
    expect(cells.nth(2)).to_have_text("Won")
    expect(cells.nth(3)).to_have_text(re.compile(r"^\d+$"))
    found = grave_violations(bob, "another player's page")
    assert not found, "\n".join(found)
    replay = recent.get_by_role("link", name=re.compile(r"^Replay Memory"))
    expect(replay).to_have_attribute("href", f"/play/{hosted['room']}")
    replay.click()
    expect(bob).to_have_url(f"{server}play/{hosted['room']}")
    wait_view(bob, "v.over && v.board.every(s => s.removed)")


def test_no_rated_games_yet_says_where_ratings_come_from(server, people):
    ann = people(server, "Ann")
    ann.goto(f"{server}scores")
    section = ann.get_by_role("region", name="Ratings")
    expect(
        section.get_by_text(
            "No rated games yet: ratings come from finished table games between people."
        )
    ).to_be_visible()
    expect(section.locator("table")).to_be_hidden()
