"""The player's records in the browser (issue 9): Your games on the home screen (resume,
abandon), the player's name, and the scores screen — high scores as RULES §1.5 writes them,
sorted by the server by date, score and duration with the extremes marked, and the
statistics per game and setting."""

import json
import re

from playwright.sync_api import expect
from websockets.sync.client import connect

from browser import POLL, more_menu, reply_to, room_of, view, wait_view
from games import click_face_down

ENTRY = re.compile(r"^Memory: (\d+), \((.+), (\d+)s\)$")


def entries(page):
    """The high scores shown: (score, end date/time text, duration in seconds, classes)."""
    rows = page.locator(".score-list li").evaluate_all(
        "lis => lis.map(li => [li.querySelector('.score-text').textContent, li.className])"
    )
    shown = []
    for text, classes in rows:
        match = ENTRY.match(text)
        assert match, f"not as RULES §1.5 writes it: {text!r}"
        shown.append((int(match[1]), match[2], int(match[3]), classes))
    return shown


def expected_texts(page, scores):
    """The end date/time of each entry as the page's locale writes it."""
    return page.evaluate("(scores) => scores.map(e => new Date(e.end).toLocaleString())", scores)


def play_memory_over_a_socket(base, token, at_least):
    """Plays an easy Memory game dealt without a seed (so it counts) to the win as the player
    holding `token`, over the protocol, learning the faces as they turn and mismatching on
    purpose until the score is at least `at_least`; returns the final score."""
    with connect(base.replace("http://", "ws://") + "ws", open_timeout=10) as socket_:
        asked = 0

        def ask(message):
            nonlocal asked
            asked += 1
            socket_.send(json.dumps({**message, "id": asked}))
            while True:
                answer = json.loads(socket_.recv(timeout=15))
                if answer.get("reply") == asked:
                    assert answer["type"] != "error", answer
                    return answer

        def until(event):
            """Reads pushed messages until a timer's update says `event`."""
            while True:
                pushed = json.loads(socket_.recv(timeout=15))
                if any(e["type"] == event for e in pushed.get("events", [])):
                    return

        socket_.recv(timeout=10)
        assert ask({"cmd": "hello", "token": token})["token"] == token
        ask({"cmd": "new", "game": "memory", "options": {"difficulty": "easy"}})
        known, unseen, score = {}, list(range(12)), 0

        def flip(i):
            view = ask({"cmd": "act", "action": {"type": "flip", "card": i}})["view"]
            if i in unseen:
                unseen.remove(i)
            known[i] = view["board"][i]["card"]
            return view["score"]

        while known or unseen:
            faces = list(known.items())
            pair = next(((i, j) for i, a in faces for j, b in faces if i < j and a == b), None)
            different = next(((i, j) for i, a in faces for j, b in faces if i < j and a != b), None)
            if different and score < at_least:
                first, second = different
                flip(first)
            elif pair:
                first, second = pair
                flip(first)
            else:
                first = unseen[0]
                flip(first)
                partner = next((j for j in known if j != first and known[j] == known[first]), None)
                second = unseen[0] if partner is None else partner
            score = flip(second)
            matched = known[first] == known[second]
            until("removed" if matched else "turnedDown")
            if matched:
                del known[first], known[second]
        return score


def test_scores_screen_sorts_by_date_score_and_duration_and_marks_the_extremes(own_server, page):
    # NB: the three games are the page's player's, played over the protocol (the browser's
    # play of Memory has tests of its own); this test is about the scores screen.
    page.goto(own_server.url)
    expect(page.locator(".your-games, .name-form").first).to_be_attached()
    token = page.evaluate("localStorage.getItem('cardtable.token')")
    assert token
    played = []
    for _ in range(3):
        at_least = (played[-1] + 1) if played else 0
        played.append(play_memory_over_a_socket(own_server.url, token, at_least))
    assert played == sorted(played) and len(set(played)) == 3, played

    # A practice game (a chosen seed) stays out of the high scores.
    page.goto(f"{own_server.url}?game=memory&difficulty=easy&seed=42")
    wait_view(page, "v.board.length === 12")

    page.goto(own_server.url)
    more_menu(page).get_by_role("link", name="Scores", exact=True).click()
    expect(page.get_by_role("heading", name="High scores")).to_be_visible()
    expect(page).to_have_url(f"{own_server.url}scores")
    expect(page.locator(".score-list li")).to_have_count(3)
    expect(page.get_by_label("Game")).to_have_value("memory")

    by = {}
    for sort in ("Date", "Score", "Duration"):
        answer = reply_to(page, page.get_by_role("button", name=sort, exact=True).click)
        assert (
            answer["cmd"] == "scores"
            and answer["sort"] == sort.lower()
            and answer["game"] == "memory"
        )
        expect(page.get_by_role("button", name=sort, exact=True)).to_have_attribute(
            "aria-pressed", "true"
        )
        scores = answer["scores"]
        shown = entries(page)
        # The page shows the server's order, each entry as RULES §1.5 writes it.
        assert [s[0] for s in shown] == [e["score"] for e in scores]
        assert [s[2] for s in shown] == [round(e["duration"]) for e in scores]
        assert [s[1] for s in shown] == expected_texts(page, scores)
        by[sort] = scores
    assert answer["better"] == "lower"
    # Date: newest first, so the last game played comes first; score: lowest (best) first;
    # duration: shortest first.
    assert [e["score"] for e in by["Date"]] == played[::-1]
    assert [e["end"] for e in by["Date"]] == sorted((e["end"] for e in by["Date"]), reverse=True)
    assert [e["score"] for e in by["Score"]] == played
    assert [e["duration"] for e in by["Duration"]] == sorted(e["duration"] for e in by["Duration"])

    # The extremes are highlighted, with words for them.
    shown = entries(page)
    scores = by["Duration"]
    for mark, label in (
        ("lowest", "lowest score"),
        ("highest", "highest score"),
        ("shortest", "shortest game"),
        ("longest", "longest game"),
    ):
        marked = [i for i, e in enumerate(scores) if mark in e["marks"]]
        assert marked, f"no entry marked {mark}"
        assert [i for i, s in enumerate(shown) if f"mark-{mark}" in s[3]] == marked
        for i in marked:
            expect(page.locator(".score-list li").nth(i).get_by_text(label)).to_be_visible()
    assert [e for e in scores if "lowest" in e["marks"]][0]["score"] == played[0]
    assert [e for e in scores if "highest" in e["marks"]][0]["score"] == played[2]
    assert [e for e in scores if "shortest" in e["marks"]][0]["duration"] == min(
        e["duration"] for e in scores
    )
    assert [e for e in scores if "longest" in e["marks"]][0]["duration"] == max(
        e["duration"] for e in scores
    )

    # The statistics: three easy games played and won, the best score, a streak of three.
    table = page.locator(".stats-table")
    expect(table).to_be_visible()
    row = table.get_by_role("row").filter(has_text="Memory")
    cells = row.locator("td").all_inner_texts()
    assert cells[0] == "difficulty easy"
    assert cells[1:4] == ["3", "3", str(played[0])]
    assert re.fullmatch(r"\d+s", cells[4])
    assert cells[5:] == ["3", "3"]

    # Another game with nothing finished says so.
    answer = reply_to(page, lambda: page.get_by_label("Game").select_option("set"))
    assert answer["scores"] == []
    expect(page.get_by_text("No finished games yet.").first).to_be_visible()
    expect(page.locator(".score-list li")).to_have_count(0)


def test_your_games_resume_and_abandon_and_your_name(server, page):
    page.goto(f"{server}?game=matchismo&seed=11")
    wait_view(page, "v.table.length === 24")
    matchismo = room_of(page)
    click_face_down(page, 0)
    click_face_down(page, 1)
    page.goto(f"{server}?game=memory&difficulty=medium&seed=7")
    wait_view(page, "v.board.length === 24")
    memory = room_of(page)
    click_face_down(page, 0)

    page.get_by_role("link", name="CardTable home").click()
    games = page.get_by_role("region", name="Your games")
    expect(games).to_be_visible()
    items = games.get_by_role("listitem")
    expect(items).to_have_count(2)
    # Most recently played first, with the game, its options, its moves and when.
    expect(items.nth(0)).to_contain_text("Memory")
    expect(items.nth(0)).to_contain_text("difficulty medium")
    expect(items.nth(0)).to_contain_text("Moves: 1")
    expect(items.nth(1)).to_contain_text("Matchismo")
    expect(items.nth(1)).to_contain_text("Moves: 2")
    expect(items.nth(0)).to_contain_text(re.compile(r"Last played (now|\d+ seconds? ago)"))

    # Resume goes to the room's link and its game as it was.
    items.nth(1).get_by_role("link", name=re.compile("^Resume Matchismo")).click()
    wait_view(page, "v.flips === 2")
    assert page.evaluate("window.cardtable.room") == matchismo
    expect(page).to_have_url(f"{server}play/{matchismo}")

    # Abandon takes a game off the list, for good.
    page.get_by_role("link", name="CardTable home").click()
    expect(items).to_have_count(2)
    items.filter(has_text="Memory").get_by_role("button", name=re.compile("^Abandon")).click()
    expect(items).to_have_count(1)
    expect(items.nth(0)).to_contain_text("Matchismo")
    page.reload()
    expect(page.get_by_role("region", name="Your games").get_by_role("listitem")).to_have_count(1)
    # The abandoned game's link still shows it, closed.
    page.goto(f"{server}play/{memory}")
    expect(page.get_by_text("This game was abandoned")).to_be_visible()
    expect(page.locator("button.card").first).to_have_attribute("aria-disabled", "true")

    # Your name is kept with the player's settings on the server.
    page.goto(server)
    name = page.get_by_label("Name", exact=True)
    name.fill("Ada")
    saved = reply_to(page, page.get_by_role("button", name="Save name").click)
    assert saved["settings"]["name"] == "Ada"
    page.reload()
    expect(page.get_by_label("Name", exact=True)).to_have_value("Ada")
    assert view(page) is None


def test_old_settings_move_to_the_server_once(server, page):
    page.goto(server)
    expect(page.get_by_role("heading", name="Pick a game")).to_be_visible()
    # What an older page kept in localStorage: the scoring settings and Set's two players.
    page.evaluate("""() => {
      localStorage.setItem('cardtable.settings', JSON.stringify({ matchBonus: 6, mismatchPenalty: 3, costToChoose: 0 }));
      localStorage.setItem('cardtable.set.twoPlayer', 'true');
    }""")
    page.goto(f"{server}?game=set&seed=5")
    wait_view(page, "v.table.length === 12")
    v = view(page)
    assert v["settings"]["matchBonus"] == 6 and v["settings"]["costToChoose"] == 0
    assert v["current"] == "P1"
    assert page.evaluate(
        "[localStorage.getItem('cardtable.settings'), localStorage.getItem('cardtable.set.twoPlayer')]"
    ) == [None, None]
    settings = page.evaluate("window.cardtable.send({cmd: 'settings'})")
    answer = page.wait_for_function(
        "(id) => window.cardtable.reply(id)", arg=settings, polling=POLL
    ).json_value()
    assert answer["settings"]["matchismo"]["matchBonus"] == 6
    assert answer["settings"]["set"]["twoPlayer"] is True
    page.goto(f"{server}?game=matchismo&seed=11")
    wait_view(page, "v.table.length === 24")
    assert view(page)["settings"]["mismatchPenalty"] == 3
