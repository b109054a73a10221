"""How to play (from the home tiles and each game's `?` button, with the scoring of the settings
in play), the Sound switch and its effects, and Snap!'s dealing countdown under reduced motion."""

import re

from playwright.sync_api import expect

from browser import (
    DESKTOP,
    POLL,
    face_down,
    more_menu,
    record_sent,
    record_texts,
    reply_to,
    require_game,
    send,
    sent,
    texts_shown,
    wait_view,
    watch_errors,
)

# A phrase of each game's help that its rules (RULES.md) require: the scoring and playing together.
HELP = {
    "Memory": ["The score counts mistakes", "A pair is yours and keeps the turn"],
    "Concentration": [
        "takes no card for one second",
        "the timer starts with the first card you turn",
        "A pair is yours and keeps the turn",
    ],
    "Matchismo": [
        "a suit pair scores 4 points",
        "a rank pair 16 points",
        "cost 2 points",
        "every card you turn up costs 1 point",
        "a game for one",
    ],
    "Set": [
        "a set scores 16 points",
        "it costs 6 points first",
        "Set is a race",
        "+3 deals only when every player has asked for it",
    ],
    "Snap!": [
        "costs the caller one card from their stack to every other player who still has cards",
        "each takes 0.5 to 2.5 seconds to turn a card",
        "for 2 to 4 players in real time",
        "a pause of 5.2 seconds",
    ],
}


def open_and_close_help(page, opener, title):
    """Opens "How to play <title>" with `opener`: the focus moves into the dialog; Escape closes
    it and gives the focus back. Returns the dialog's text."""
    opener.click()
    dialog = page.get_by_role("dialog", name=f"How to play {title}")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    text = dialog.inner_text()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    return text


def test_how_to_play_from_every_home_tile(server, page):
    page.goto(server)
    for title, phrases in HELP.items():
        text = open_and_close_help(
            page, page.get_by_role("button", name=f"How to play {title}"), title
        )
        for phrase in phrases:
            assert phrase in text, f"{title}: {phrase!r} not in {text!r}"


def test_how_to_play_on_a_game_screen_tells_the_scoring_in_play(server, page):
    page.goto(server)
    # The player's own scoring: a new Matchismo game takes it; the help tells its numbers.
    saved = send(
        page,
        {
            "cmd": "settings",
            "settings": {"matchismo": {"matchBonus": 3, "mismatchPenalty": 5, "costToChoose": 0}},
        },
    )
    assert saved["type"] == "answer", saved
    page.goto(f"{server}?game=matchismo&seed=7")
    wait_view(page, "v.settings.matchBonus === 3 && v.table.length === 24")
    text = open_and_close_help(
        page, page.get_by_role("button", name="How to play", exact=True), "Matchismo"
    )
    for phrase in [
        "a suit pair scores 3 points",
        "a rank pair 12 points (4 × 3)",
        "cost 5 points",
        "every card you turn up costs 0 points",
        "2-card mode",
    ]:
        assert phrase in text, f"{phrase!r} not in {text!r}"


def test_snap_keys_do_not_act_behind_the_help(server, page, cardtable):
    require_game(cardtable, "snap")
    record_sent(page)
    page.goto(f"{server}?game=snap&seed=5")
    wait_view(page, "v.phase === 'playing' && v.canSnap", timeout=20000)
    opener = page.get_by_role("button", name="How to play", exact=True)
    opener.click()
    dialog = page.get_by_role("dialog", name="How to play Snap!")
    expect(dialog).to_contain_text("one card from their stack to every other player")
    # S would call Snap! (a wrong one, most likely) on the table behind the dialog.
    page.keyboard.press("s")
    page.keyboard.press("t")
    page.keyboard.press("Escape")
    expect(opener).to_be_focused()
    assert not [m for m in sent(page) if isinstance(m, dict) and m.get("cmd") == "act"]


def wake_audio(page):
    """A key press is the user gesture that lets the page start its audio context."""
    page.keyboard.press("Shift")
    page.wait_for_function("document.body.dataset.soundContext === 'running'", polling=POLL)


def sound_count(page):
    return page.evaluate("Number(document.body.dataset.soundCount ?? 0)")


def test_sound_plays_for_the_events_and_the_switch_mutes_it(server, page):
    page.goto(f"{server}?game=memory&difficulty=easy&seed=42")
    wait_view(page, "v.board.length === 12")
    switch = more_menu(page).get_by_role("switch", name="Sound")
    expect(switch).to_have_attribute("aria-checked", "true")
    page.keyboard.press("Escape")
    wake_audio(page)
    assert sound_count(page) == 0
    reply = reply_to(page, page.get_by_role("button", name=face_down(0), exact=True).click)
    assert [e["type"] for e in reply["events"]] == ["flipped"]
    assert sound_count(page) == 1
    expect(page.locator("body")).to_have_attribute("data-sound-last", "turn")
    reply = reply_to(page, page.get_by_role("button", name=face_down(1), exact=True).click)
    kinds = [e["type"] for e in reply["events"]]
    assert "matched" in kinds or "mismatched" in kinds, kinds
    assert sound_count(page) == 2
    expect(page.locator("body")).to_have_attribute(
        "data-sound-last", "match" if "matched" in kinds else "mismatch"
    )

    # Muted: the next card turns in silence, and the choice is remembered.
    more_menu(page)
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "false")
    wait_view(page, "!v.waiting")
    reply = reply_to(page, page.get_by_role("button", name=face_down(5), exact=True).click)
    assert [e["type"] for e in reply["events"]] == ["flipped"]
    assert sound_count(page) == 2
    page.reload()
    wait_view(page, "v.board.length === 12")
    expect(more_menu(page).get_by_role("switch", name="Sound")).to_have_attribute(
        "aria-checked", "false"
    )
    assert page.evaluate("localStorage.getItem('cardtable.sound')") == "off"


def test_each_event_has_its_effect(server, page):
    page.goto(server)
    # NB: the effects are the catalog's: the home screen is drawn once `welcome` brought it.
    expect(page.get_by_role("heading", name="Your name")).to_be_visible()
    effects = page.evaluate("""async () => {
      const { effectOf } = await import(new URL('sound.js', document.querySelector('script[type=module]').src));
      const of = (game, ...types) => effectOf({ game, events: types.map((type) => ({ type })) });
      return {
        flipped: of('memory', 'flipped'), chosen: of('set', 'chosen'), turned: of('snap', 'activated', 'turned'),
        matched: of('matchismo', 'chosen', 'matched'), mismatched: of('memory', 'flipped', 'mismatched'),
        snap: of('snap', 'snap'), finished: of('memory', 'matched', 'finished'), setOver: of('set', 'matched', 'gameOver'),
        roundWon: of('snap', 'pileWon', 'roundWon'), hostLeft: of('snap', 'gameOver'), nothing: of('snap', 'activated'),
      };
    }""")
    assert effects == {
        "flipped": "turn",
        "chosen": "turn",
        "turned": "turn",
        "matched": "match",
        "mismatched": "mismatch",
        "snap": "call",
        "finished": "win",
        "setOver": "win",
        "roundWon": "win",
        "hostLeft": None,
        "nothing": None,
    }


def test_reduced_motion_starts_muted(server, chromium):
    context = chromium.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{server}?game=memory&difficulty=easy&seed=42")
        wait_view(page, "v.board.length === 12")
        switch = more_menu(page).get_by_role("switch", name="Sound")
        expect(switch).to_have_attribute("aria-checked", "false")
        page.keyboard.press("Escape")
        page.keyboard.press("Shift")
        reply = reply_to(page, page.get_by_role("button", name=face_down(0), exact=True).click)
        assert [e["type"] for e in reply["events"]] == ["flipped"]
        assert sound_count(page) == 0
        # Turned on, by the player's choice: the next card is heard.
        more_menu(page)
        switch.click()
        expect(switch).to_have_attribute("aria-checked", "true")
        page.wait_for_function("document.body.dataset.soundContext === 'running'", polling=POLL)
        reply = reply_to(page, page.get_by_role("button", name=face_down(3), exact=True).click)
        kinds = [e["type"] for e in reply["events"]]
        assert "matched" in kinds or "mismatched" in kinds, kinds
        assert sound_count(page) == 1
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_snap_dealing_counts_down_under_reduced_motion(server, chromium, cardtable):
    require_game(cardtable, "snap")
    context = chromium.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    errors = watch_errors(page)
    record_texts(page, ".deal-countdown")
    try:
        page.goto(f"{server}?game=snap&seed=5")
        wait_view(page, "v.phase === 'dealing'")
        countdown = page.get_by_role("timer")
        expect(countdown).to_be_visible()
        expect(countdown).to_have_text(re.compile(r"^Play starts in [1-5]$"))
        expect(page.locator(".snap-status")).to_have_text("Dealing...")
        wait_view(page, "v.phase === 'playing'", timeout=20000)
        expect(countdown).to_be_hidden()
        shown = [text for text in texts_shown(page, ".deal-countdown") if text]
        assert shown == [f"Play starts in {n}" for n in range(5, 0, -1)], shown
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_at_a_snap_table_the_help_and_the_countdown_stay(server, page, cardtable):
    require_game(cardtable, "snap")
    record_texts(page, ".deal-countdown")
    page.goto(f"{server}?game=snap&table=host")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Computer players’ speed").select_option("quick")
    table = reply_to(page, page.get_by_role("button", name="Host table").click)
    assert table["type"] == "table", table
    reply_to(page, page.get_by_role("button", name="Add computer player").click)
    started = reply_to(page, page.get_by_role("button", name="Start", exact=True).click)
    assert started["type"] == "update" and started["view"]["phase"] == "dealing", started
    # Only Leave, Help and Step through stay in a table's top bar — and How to play.
    text = open_and_close_help(
        page, page.get_by_role("button", name="How to play", exact=True), "Snap!"
    )
    assert "play at quick speed: each takes 0.15 to 1.15 seconds" in text
    wait_view(page, "v.phase === 'playing'", timeout=20000)
    expect(page.get_by_role("timer")).to_be_hidden()
    shown = [t for t in texts_shown(page, ".deal-countdown") if t]
    assert shown and shown[0] == "Play starts in 5" and shown[-1] == "Play starts in 1", shown
