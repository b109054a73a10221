"""Helpers for the browser tests (the fixtures are in conftest.py).

Waiting: after a player's action, a test waits for the page to have handled the server's
reply to the request that action sent (`acted`, `reply_to`: by request id, through the page's
`window.cardtable` hook); for what a timer pushes later (Memory's 1 s / 2 s, Snap!'s
computer players), it waits for the exact state the timer must produce (`wait_view`).
"""

import functools
import json
import os
import pathlib
import re
import subprocess

import pytest
from playwright.sync_api import expect

ROOT = pathlib.Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
# NB: the README's pictures are refreshed with `make screenshots`, which names their folder; an
# ordinary test run takes none (each costs Chromium about 0.4 s of CPU for a picture nobody
# looks at), but still waits for the rest each one would have waited for.
SCREENSHOTS = os.environ.get("CARDTABLE_SCREENSHOTS")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
# How often a `wait_for_function` checks its condition, in ms: no less often than a frame at
# 60 Hz. NB: not Playwright's default, "raf": a check in every animation frame makes an idle
# page draw 60 frames a second while it waits (a Memory timer, a computer player's move),
# about 2.5 times the CPU of checking on a timer. A test that must see a state for the one
# frame it is drawn asks for "raf" itself.
POLL = 16


def require_game(cardtable, name):
    """Skips the test when this build's engine does not know the game yet."""
    [reply] = engine(cardtable, {"cmd": "games"})
    if name not in reply.get("games", []):
        pytest.skip(f"this cardtable has no {name} engine yet (games: {reply.get('games')})")


# Chromium's own line when a WebSocket cannot connect (the server restarting, the page
# offline): a network condition the page recovers from by reconnecting, not a script's error.
# A test that cuts the connection checks the recovery itself; whether a reconnect attempt
# falls into the gap depends on timing.
NETWORK_FAILURE = re.compile(
    r"^WebSocket connection to '[^']+' failed: Error in connection establishment: net::ERR_"
)


def watch_errors(pg):
    """Collects the page's uncaught errors and `console.error` messages into the returned list
    (but Chromium's own line for a WebSocket that could not connect)."""
    errors = []
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))

    def console(message):
        if message.type == "error" and not NETWORK_FAILURE.match(message.text):
            errors.append(f"console.error: {message.text}")

    pg.on("console", console)
    return errors


def engine(cardtable, *commands):
    """Runs `cardtable engine` on the given command objects; returns the replies."""
    result = subprocess.run(
        [cardtable, "engine"],
        input="".join(json.dumps(c) + "\n" for c in commands),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return [json.loads(line) for line in result.stdout.splitlines()]


def reply_to(page, do, timeout=15000):
    """Runs `do()` — a click, tap or key press that makes the page send a request — and waits
    until the page has handled the server's reply to that request; returns the reply (the
    update, answer or error message that carries the request's id as `reply`).

    NB: by request id, not by "a newer view": a timer's push or a computer player's move
    arriving in between is not mistaken for the reply.
    """
    before = page.evaluate("window.cardtable.lastRequest")
    do()
    return page.wait_for_function(
        """(before) => {
          const table = window.cardtable, id = table.lastRequest;
          return id > before && table.replied(id) ? table.reply(id) : null;
        }""",
        arg=before,
        polling=POLL,
        timeout=timeout,
    ).json_value()


def acted(page, do, timeout=15000):
    """Like `reply_to`, for an action the server must accept: returns the reply's view."""
    reply = reply_to(page, do, timeout)
    assert reply["type"] == "update", f"the action was answered with {reply}"
    return reply["view"]


def wait_view(page, condition, timeout=15000):
    """Waits until `condition` (a JS expression over `v`, the latest view) holds: for the state
    a timer must produce, or the first view of a page just opened."""
    page.wait_for_function(
        f"() => {{ const v = window.cardtable && window.cardtable.lastView; return !!v && ({condition}); }}",
        polling=POLL,
        timeout=timeout,
    )


def record_texts(page, selector):
    """Call before the page loads: keeps every text that the elements at `selector` show, in
    order, so that a state shown only for a moment (a status line between two timers, a
    splash) is not missed. Read them with `texts_shown` or wait with `wait_shown`."""
    page.add_init_script(f"""(() => {{
      const selector = {json.dumps(selector)};
      const shown = (window.__texts ??= {{}})[selector] = [];
      const last = new WeakMap();
      new MutationObserver(() => {{
        for (const node of document.querySelectorAll(selector)) {{
          if (last.get(node) !== node.textContent) {{ last.set(node, node.textContent); shown.push(node.textContent); }}
        }}
      }}).observe(document, {{ childList: true, subtree: true, characterData: true }});
    }})();""")


def texts_shown(page, selector):
    """The texts the elements at `selector` have shown so far (see `record_texts`)."""
    return page.evaluate("(selector) => window.__texts[selector]", selector)


def wait_shown(page, selector, text, timeout=15000):
    """Waits until an element at `selector` has shown `text` (see `record_texts`)."""
    page.wait_for_function(
        "([selector, text]) => window.__texts[selector].includes(text)",
        arg=[selector, text],
        polling=POLL,
        timeout=timeout,
    )


def view(page):
    """The latest view the page received."""
    return page.evaluate("window.cardtable.lastView")


# The top bar has been fitted to its width and no fit is due (js/topbar.js fits it in the next
# frame after a button or the title changes; a script reading the page between the change and
# that frame sees the bar overflowing).
BAR_FITTED = (
    "(() => { const bar = document.querySelector('.topbar');"
    " return !bar || bar.dataset.fitted === String(bar.clientWidth); })()"
)


def settle(page, timeout=10000):
    """Waits until every finite animation and transition on the page has finished and the top
    bar has been fitted to the window."""
    page.wait_for_function(
        f"""() => document.getAnimations().every(a => a.playState !== 'running'
                 || a.effect?.getComputedTiming().iterations === Infinity) && {BAR_FITTED}""",
        polling=POLL,
        timeout=timeout,
    )


# The impacts an audit fails on.
GRAVE = {"serious", "critical"}


@functools.cache
def _axe_script():
    """axe-core's script (PyPI `axe-playwright-python` bundles it), read when a test first
    audits."""
    from axe_playwright_python.sync_playwright import Axe

    return Axe().axe_script


def grave_violations(page, label, context=None):
    """The serious and critical violations axe-core finds on the page, or in the part of it that
    `context` selects (a CSS selector), once its animations have come to rest (a dialog fading
    in has no contrast yet): one line each, `label` first.

    NB: axe's 0.5 MB script is sent into a document only if it is not there yet (a dialog or
    menu opened on the same screen keeps it): sending it costs the test's processes about
    0.2 s of CPU, as much as a run of the audit."""
    settle(page)
    if page.evaluate("typeof window.axe === 'undefined'"):
        page.evaluate(_axe_script())
    violations = page.evaluate(
        "(context) => axe.run(context ?? document, { resultTypes: ['violations'] })"
        ".then((results) => results.violations)",
        context,
    )
    return [
        f"{label}: {v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in violations
        if v["impact"] in GRAVE
    ]


def screenshot(page, name):
    """Saves SCREENSHOTS/NAME once the page's animations have come to rest (when `make
    screenshots` names SCREENSHOTS)."""
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    if SCREENSHOTS:
        folder = pathlib.Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / name))


def tab_to(page, js_condition, limit=80, key="Tab"):
    """Presses Tab (or `key`) until `js_condition` (over `e`, the focused element) holds."""
    for _ in range(limit):
        if page.evaluate(
            f"(() => {{ const e = document.activeElement; return !!e && ({js_condition}); }})()"
        ):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached an element where {js_condition}")


def focused(page, expression="e.getAttribute('aria-label') || e.textContent"):
    """Evaluates `expression` over the focused element `e`."""
    return page.evaluate(f"(() => {{ const e = document.activeElement; return {expression}; }})()")


def assert_phone_layout(page):
    """No sideways scrolling; every card lies within the width and shows a clickable point; every
    visible button (cards included) and control is at least 44 px tall."""
    width = page.viewport_size["width"]
    settle(page)
    report = page.evaluate(
        """(width) => {
      const boxes = (sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');
      const small = boxes('button, a.btn, select, label.toggle, a.menu-button')
        // NB: half a pixel of slack: layout rounding can leave a 44 px button at 43.99 px.
        .filter(e => e.getBoundingClientRect().height < 43.5)
        .map(e => `${e.getAttribute('aria-label') || e.textContent.trim()}: ${e.getBoundingClientRect().height.toFixed(1)} px`);
      const cards = boxes('button.card');
      const outside = cards.filter(c => { const r = c.getBoundingClientRect(); return r.left < 0 || r.right > width; })
        .map(c => c.getAttribute('aria-label'));
      // Overlapping (tilted) cards: some point of each card must be its own, not a neighbour's.
      const covered = cards.filter(c => {
        c.scrollIntoView({ block: 'center' });
        const r = c.getBoundingClientRect();
        for (const fx of [.2, .5, .8]) for (const fy of [.15, .3, .5, .7, .85]) {
          if (document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height)?.closest('button.card') === c) return false;
        }
        return true;
      }).map(c => c.getAttribute('aria-label'));
      window.scrollTo(0, 0);
      return { scrollWidth: document.documentElement.scrollWidth, small, outside, covered, cards: cards.length };
    }""",
        width,
    )
    assert report["scrollWidth"] <= width, f"sideways scrolling: {report['scrollWidth']} px wide"
    assert report["cards"] > 0, "no cards"
    assert not report["outside"], f"cards outside the screen: {report['outside']}"
    assert not report["covered"], f"cards with no point of their own to tap: {report['covered']}"
    assert not report["small"], f"targets under 44 px tall: {report['small']}"


SUITS = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
NUMBERS = {1: "one", 2: "two", 3: "three"}


def card_name(text):
    """The accessible name of a face-up card (web/js/cards.js): `A of hearts`, `two red striped ovals`."""
    if ":" in text:
        symbol, color, shading, number = text.split(":")
        n = int(number)
        return f"{NUMBERS[n]} {color} {shading} {symbol}{'s' if n > 1 else ''}"
    return f"{text[:-1]} of {SUITS[text[-1]]}"


def face_down(index):
    """The accessible name of the face-down card at 0-based board `index` (names are 1-based)."""
    return f"face-down card {index + 1}"


def assert_card_names(page):
    """Every card button has a non-empty accessible name that follows the convention."""
    names = page.eval_on_selector_all(
        "button.card", "bs => bs.map(b => b.getAttribute('aria-label') || '')"
    )
    assert names, "no card buttons"
    pattern = re.compile(
        r"^(face-down card \d+|(A|[2-9]|10|J|Q|K) of (spades|hearts|diamonds|clubs)"
        r"|(one|two|three) (red|green|purple) (solid|striped|open) (diamond|squiggle|oval)s?)$"
    )
    bad = [n for n in names if not pattern.match(n)]
    assert not bad, f"card buttons with bad accessible names: {bad}"


def more_menu(page):
    """Opens the top bar's More menu (Sound, Large cards, Dark theme, Scores, and the buttons the
    bar had no room for) unless it is open; returns its panel."""
    button = page.get_by_role("button", name="More", exact=True)
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    panel = page.locator("#more-panel")
    expect(panel).to_be_visible()
    return panel


def bar_button(page, name):
    """The top bar's button `name`: on the bar, or in More where the bar has no room for it (a
    phone), once the bar has been fitted to the window."""
    page.wait_for_function(f"() => {BAR_FITTED}", polling=POLL)
    on_bar = page.locator("#toolbar-end").get_by_role("button", name=name, exact=True)
    if on_bar.count():
        return on_bar
    return more_menu(page).get_by_role("button", name=name, exact=True)


def send(page, message, timeout=15000):
    """Sends `message` on the page's own connection (the `window.cardtable.send` hook) and
    returns the server's reply to it."""
    request = page.evaluate("(m) => window.cardtable.send(m)", message)
    return wait_reply(page, request, timeout)


def wait_reply(page, request, timeout=15000):
    """Waits until the page has handled the reply to request id `request`; returns it."""
    return page.wait_for_function(
        "(id) => window.cardtable.replied(id) ? window.cardtable.reply(id) : null",
        arg=request,
        polling=POLL,
        timeout=timeout,
    ).json_value()


def room_of(page, timeout=15000):
    """The room on screen, once the page's address has become its link (`/play/ROOM`)."""
    return page.wait_for_function(
        """() => { const room = window.cardtable && window.cardtable.room;
                   return room && location.pathname === '/play/' + encodeURIComponent(room) ? room : null; }""",
        polling=POLL,
        timeout=timeout,
    ).json_value()


def without_clock(view):
    """A view without its `clock` (seconds on the game's clock, which runs while it is open)."""
    return {key: value for key, value in view.items() if key != "clock"}


def wait_version(page, version, timeout=15000):
    """Waits until the page has drawn the update of `version` (the first view of a page just
    opened or reconnected); returns that view."""
    page.wait_for_function(
        "(v) => window.cardtable && window.cardtable.version === v && !!window.cardtable.lastView",
        arg=version,
        polling=POLL,
        timeout=timeout,
    )
    return view(page)


def record_sent(page):
    """Call before the page loads: keeps every message the page sends on its WebSockets, parsed,
    in `window.__sent`; read them with `sent(page)`."""
    page.add_init_script("""(() => {
      window.__sent = [];
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        try { window.__sent.push(JSON.parse(data)); } catch { window.__sent.push(String(data)); }
        return send.call(this, data);
      };
    })();""")


def sent(page):
    """The messages the page has sent so far (see `record_sent`), oldest first."""
    return page.evaluate("window.__sent")


class Relay:
    """The page's WebSocket through the test (from before the page opens): every message passes
    both ways, but the server's are held back while `frozen` and may be changed on their way by
    `rewrite` (text to text); `inject` sends the page a message of the test's own."""

    def __init__(self, page, rewrite=None):
        self.frozen = False
        self.rewrite = rewrite
        self.ws = None
        page.route_web_socket(re.compile(r"/ws(\?.*)?$"), self._route)

    def _route(self, ws):
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)
        upstream.on_message(self._down)
        self.ws = ws

    def _down(self, text):
        if self.frozen:
            return
        self.ws.send(self.rewrite(text) if self.rewrite else text)

    def inject(self, message):
        self.ws.send(json.dumps(message))


def clear_concentration(page, relay, seconds):
    """Sends the page, through `relay`, an update that clears its Concentration table: the view
    on screen with every card matched, `seconds` after its first card (the page draws what the
    server sends; playing 26 pairs takes half a minute). The update keeps the version on screen,
    so that stepping through asks the server only for versions it has."""
    v = view(page)
    board = [
        dict(spot, card=spot["card"] or "A♠", faceUp=True, matched=True) for spot in v["board"]
    ]
    cleared = dict(
        v,
        board=board,
        over=True,
        pairsFound=26,
        moves=26,
        flips=52,
        waiting=False,
        title="Cleared!",
        status="All 26 pairs found in 26 moves.",
        clock=(v.get("began") or 0) + seconds,
    )
    relay.inject(
        {
            "type": "update",
            "game": "concentration",
            "seed": page.evaluate("window.cardtable.seed"),
            "version": page.evaluate("window.cardtable.version"),
            "events": [{"type": "finished"}],
            "view": cleared,
        }
    )
