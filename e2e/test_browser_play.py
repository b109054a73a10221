"""Playing in the browser: no console errors in any game, +3 on an empty deck, two-player Set,
the Concentration timer, Snap!'s splashes, winner banner and Next Round, reduced motion."""

import itertools
import re

import pytest
from playwright.sync_api import expect

from browser import (
    DESKTOP,
    POLL,
    Relay,
    acted,
    face_down,
    record_texts,
    require_game,
    settle,
    view,
    wait_shown,
    wait_view,
    watch_errors,
)
from games import DEALS, FIRST_MOVES, GAMES

SNAP_OPTIONS = {"players": ["You", "Ray", "Lucy", "Steve"], "computer": ["Ray", "Lucy", "Steve"]}


def is_set(cards):
    attributes = zip(*(card.split(":") for card in cards))
    return all(len(set(values)) != 2 for values in attributes)


@pytest.mark.parametrize("game", GAMES)
def test_no_console_errors_while_playing(server, chromium, cardtable, game):
    context = chromium.new_context(viewport=DESKTOP)
    try:
        pg = context.new_page()
        errors = watch_errors(pg)
        pg.goto(server)
        pg.get_by_role(
            "link", name=re.compile(r"^(Memory|Concentration|Matchismo|Set|Snap!)")
        ).first.wait_for()
        (url, ready), move = DEALS[game], FIRST_MOVES[game]
        pg.goto(server + url)
        wait_view(pg, ready, timeout=20000)
        acted(pg, lambda: move(pg))
        pg.get_by_role("link", name="CardTable home").click()
        expect(pg.get_by_role("heading", name="Pick a game")).to_be_visible()
        assert not errors, f"{game}: {errors}"
    finally:
        context.close()


def test_plus_three_disabled_on_an_empty_deck(server, page, cardtable):
    require_game(cardtable, "set")
    page.goto(f"{server}?game=set&seed=9")
    wait_view(page, "v.table.length === 12")
    plus = page.get_by_role("button", name="Deal three more cards")
    deck = view(page)["deckCount"]
    while deck > 0:
        expect(plus).to_be_enabled()
        v = acted(page, plus.click)
        assert v["deckCount"] == deck - 3
        deck = v["deckCount"]
    expect(plus).to_be_disabled()
    expect(page.locator(".card-grid button.card")).to_have_count(81)
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]


def test_two_player_set_shows_scores_and_turns(server, page, cardtable):
    require_game(cardtable, "set")
    page.goto(f"{server}?game=set&seed=4")
    wait_view(page, "v.table.length === 12 && !v.players")
    v = acted(page, page.get_by_label("Two players").check)
    assert v["current"] == "P1"
    chips = page.locator(".player-chip")
    expect(chips).to_have_text(["P1: 0", "P2: 0"])
    expect(chips.nth(0)).to_have_attribute("aria-current", "true")
    expect(page.locator(".turn")).to_have_text("P1's turn")
    table = [slot["card"] for slot in v["table"]]
    triple = next(
        c for c in itertools.combinations(range(12), 3) if not is_set([table[i] for i in c])
    )
    for i in triple:
        v = acted(page, page.locator(f'.card-grid button.card[data-index="{i}"]').click)
    assert v["current"] == "P2"
    expect(page.locator(".turn")).to_have_text("P2's turn")
    expect(chips.nth(1)).to_have_attribute("aria-current", "true")
    expect(chips.nth(0)).to_have_text("P1: -5")  # −1 −1 −1 to choose, −2 for the mismatch
    # The choice is kept with the player's settings: the next new game is a two-player one.
    page.goto(f"{server}?game=set&seed=4")
    wait_view(page, "v.players && v.current === 'P1'")
    expect(page.get_by_label("Two players")).to_be_checked()


def test_concentration_timer_runs_from_the_first_card(server, page):
    """RULES §7: the timer stands at 0:00 until the first card is turned, then runs."""
    page.goto(f"{server}?game=concentration&seed=3")
    wait_view(page, "v.board.length === 52")
    timer = page.get_by_role("timer", name="Time")
    expect(timer).to_have_text("0:00")
    assert view(page).get("began") is None
    acted(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    wait_view(page, "typeof v.began === 'number'")
    page.wait_for_function(
        "() => document.querySelector('[role=timer]').textContent !== '0:00'", polling=POLL
    )
    assert re.fullmatch(r"\d+:\d\d", timer.inner_text())


def test_snap_splashes_winner_banner_and_next_round(server, page, cardtable):
    """The page draws what the server sends: an update that ends the round (made here from the
    server's last view) shows the splashes, the winner banner and Next Round, which sends
    `nextRound`."""
    require_game(cardtable, "snap")
    page.add_init_script("""window.__sent = [];
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) { window.__sent.push(data); return send.call(this, data); };""")

    link = Relay(page)
    record_texts(page, ".splash")
    page.goto(f"{server}?game=snap&seed=5")
    wait_view(page, "v.phase === 'playing'", timeout=20000)
    link.frozen = True
    last = view(page)
    players = [
        dict(
            p,
            closedCount=52 if p["name"] == "Ray" else 0,
            openCount=0,
            openTop=None,
            won="1 Won" if p["name"] == "Ray" else p["won"],
            gamesWon=1 if p["name"] == "Ray" else p["gamesWon"],
        )
        for p in last["players"]
    ]
    ending = dict(
        last,
        phase="roundOver",
        status="** Winner: Ray **",
        active=None,
        winner="Ray",
        players=players,
        canTurn=False,
        canSnap=False,
        canStartNextRound=True,
        pause=None,
    )
    version = page.evaluate("window.cardtable.version") + 1
    events = [
        {"type": "snap", "player": "Ray", "result": "correct", "matching": ["Ray", "Lucy"]},
        {"type": "snap", "player": "Lucy", "result": "tooLate"},
        {"type": "roundWon", "player": "Ray", "gamesWon": 1},
    ]
    link.inject(
        {
            "type": "update",
            "game": "snap",
            "seed": 5,
            "version": version,
            "events": events,
            "view": ending,
        }
    )
    # NB: a splash shows for about a second; the recorder sees it however late we look.
    wait_shown(page, ".splash", "Snap!")
    wait_shown(page, ".splash", "Too late!")
    expect(page.locator(".banner-text")).to_have_text("** Winner: Ray **")
    expect(page.get_by_role("group", name="left seat")).to_contain_text("1 Won")
    # The round's summary, in one short line: its number and its time.
    summary = page.locator(".winner-banner .summary-facts")
    expect(summary).to_have_text(re.compile(rf"^Round{last['round']}Time\d+:\d\d$"))
    next_round = page.get_by_role("button", name="Next Round")
    expect(next_round).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function(
        """() => window.__sent.some(text => {
      const m = JSON.parse(text); return m.cmd === 'act' && m.action.type === 'nextRound' && m.action.player === 'You'; })""",
        polling=POLL,
    )


def test_snap_deal_under_reduced_motion_flies_no_cards(server, chromium, cardtable):
    require_game(cardtable, "snap")
    context = chromium.new_context(viewport=DESKTOP, reduced_motion="reduce")
    try:
        pg = context.new_page()
        errors = watch_errors(pg)
        pg.add_init_script("""
          window.__flying = 0;
          new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes)
            if (n.classList?.contains('flying-card')) window.__flying++; })
            .observe(document, { childList: true, subtree: true });""")
        pg.goto(f"{server}?game=snap&seed=5")
        wait_view(pg, "v.phase === 'playing' && v.canTurn", timeout=20000)
        v = acted(pg, lambda: pg.keyboard.press("t"))
        assert next(p for p in v["players"] if p["name"] == "You")["openCount"] == 1
        assert pg.evaluate("window.__flying") == 0
        duration = pg.eval_on_selector(
            ".snap-button", "e => getComputedStyle(e).transitionDuration"
        )
        assert all(float(d.rstrip("s")) == 0 for d in duration.split(","))
        assert not errors
    finally:
        context.close()
