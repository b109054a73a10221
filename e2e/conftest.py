"""The end-to-end tests' fixtures: the built `cardtable` binary, one `cardtable serve` for the
whole run (and one per test for tests that restart it), and headless Chromium pages.

The server binary is `$CARDTABLE_BIN` or the one `swift build --show-bin-path` names; the
browser tests' server serves `<repo>/web` and keeps its data in a temporary folder, never the
user's own. Chromium is Debian's headless shell, `/usr/bin/chromium-headless-shell` (or
`$CHROMIUM`, e.g. `/usr/bin/chromium`), driven by Playwright: the same Blink without the
browser's windows, about 40 % less CPU for the same tests, which is most of the suite's time on
a machine of two cores. Plain helpers live in browser.py.
"""

import os
import pathlib
import subprocess

import pytest
from playwright.sync_api import expect, sync_playwright

from browser import DESKTOP, PHONE, WEB, send, watch_errors
from server import Server

# NB: `CARDTABLE_CPU_REPORT=<file>` records each test's CPU (cpu_report.py).
pytest_plugins = ["cpu_report"]

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def cardtable() -> str:
    """Path of the debug `cardtable` binary (built by `make test`)."""
    path = os.environ.get("CARDTABLE_BIN")
    if not path:
        bin_dir = subprocess.run(
            ["swift", "build", "--show-bin-path"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        path = os.path.join(bin_dir, "cardtable")
    assert os.access(path, os.X_OK), f"build cardtable first: {path}"
    return path


@pytest.fixture(scope="session")
def server(cardtable, tmp_path_factory):
    """Starts `cardtable serve --port 0 --web <repo>/web --data <a tmp dir>` once; yields its
    base URL."""
    running = Server(cardtable, WEB, tmp_path_factory.mktemp("server") / "data")
    running.start()
    try:
        yield running.url
    finally:
        running.stop()


@pytest.fixture
def own_server(cardtable, tmp_path):
    """A server of the test's own, on fresh data, for tests that restart it or count records."""
    running = Server(cardtable, WEB, tmp_path / "data")
    running.start()
    try:
        yield running
    finally:
        running.stop()


# How many times faster than real time the pages' animations run (CSS transitions and
# animations, Web Animations: the document timeline's playback rate, set through the DevTools
# protocol).
#
# NB: headless Chromium draws every frame of an animation in software: a Snap! page's 5 s deal
# of flying cards cost its processes 3.8–4.3 s of CPU at 1280×800, 1.3–1.6 s at ten times the
# rate. The animations still run, end and fire their events as they do for a player; only
# fewer frames of them are drawn. A test of what an animation shows while it runs would set its
# page's rate back to 1; none needs to (the splash test seeks its animation's time itself).
ANIMATION_RATE = 10


class _Browser:
    """The Playwright browser, whose contexts run their pages' animations at `ANIMATION_RATE`."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.on("page", _speed_up)
        return context


def _speed_up(page):
    page.context.new_cdp_session(page).send(
        "Animation.setPlaybackRate", {"playbackRate": ANIMATION_RATE}
    )


class Chromium:
    """Playwright and one headless Debian Chromium, started when a test first asks for it and
    kept for the next modules of pages (starting them costs a worker more than a second of CPU,
    and the parallel workers each run a part of every module), until `stop`."""

    def __init__(self):
        self.playwright = None
        self.browser = None

    def get(self):
        if self.browser is None:
            self.playwright = sync_playwright().start()
            self.browser = _Browser(
                self.playwright.chromium.launch(
                    executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
                )
            )
        return self.browser

    def stop(self):
        if self.browser is not None:
            self.browser.close()
            self.playwright.stop()
            self.browser = self.playwright = None


@pytest.fixture(scope="session")
def chromium_process():
    running = Chromium()
    yield running
    running.stop()


def pytest_collection_finish(session):
    """Notes the modules with a test that uses Chromium (directly or through a fixture)."""
    session.config.chromium_modules = {
        item.module for item in session.items if "chromium" in item.fixturenames
    }


@pytest.fixture(autouse=True)
def no_chromium_elsewhere(request, chromium_process):
    """Stops Chromium before a test of a module that never uses it.

    NB: the sync Playwright API runs an asyncio loop while it is started, and the modules
    without pages (the server tests) run their own loops with asyncio.run, which refuses to
    start inside another's.
    """
    if request.module not in request.config.chromium_modules:
        chromium_process.stop()


@pytest.fixture(scope="module")
def chromium(chromium_process):
    """Headless Debian Chromium for one test module (the same one for the next modules that use
    it, see `Chromium`)."""
    return chromium_process.get()


@pytest.fixture
def page(chromium):
    """A desktop-size page (1280×800) that fails the test on any page error or console.error."""
    context = chromium.new_context(viewport=DESKTOP)
    pg = context.new_page()
    errors = watch_errors(pg)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def phone(chromium):
    """A 360×740 touch phone page that fails the test on any page error or console.error."""
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pg = context.new_page()
    errors = watch_errors(pg)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture()
def web_root(tmp_path):
    """A stand-in web client (one index.html), for tests of the server rather than the page."""
    root = tmp_path / "web"
    root.mkdir()
    (root / "index.html").write_text("<!doctype html><title>CardTable</title>")
    return root


# The longest tests (pytest's --durations), started first so that parallel workers do not end
# waiting on one of them: a list of test names, longest first.
LONGEST_FIRST = [
    "test_scores_screen_sorts_by_date_score_and_duration_and_marks_the_extremes",
    "test_a_game_between_two_people_moves_their_ratings_shown_on_a_page_by_choice",
    "test_no_serious_or_critical_violation_on_any_screen",
    "test_concentration_played_to_its_end",
    "test_reload_continues_every_game_from_the_same_position",
    "test_two_calls_sent_together_make_one_winner_and_one_too_late_every_time",
    "test_memory_ends_with_a_summary_play_again_and_a_new_best",
    "test_a_memory_table_with_a_perfect_computer_player",
    "test_snap_round_with_a_wrong_call_and_a_right_one",
    "test_whoever_goes_frees_the_seat_and_the_others_play_again",
    "test_the_load_benchmark_compares_the_store_with_the_store_off",
    "test_two_play_snap_with_receipts_and_leave",
    "test_plus_three_disabled_on_an_empty_deck",
    "test_memory_easy_played_to_the_win_dialog",
    "test_history_dialog_keeps_its_size_while_scrubbing",
    "test_a_finished_terminal_game_counts_in_the_statistics",
]


def pytest_collection_modifyitems(items):
    """Puts the longest tests first (a stable sort: the others keep their order)."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.originalname, len(rank)))


@pytest.fixture
def people(chromium):
    """Makes people: each a page in a browser context of their own (their own localStorage, so
    their own player token), named `name` (None: a first-time guest who never gave one); fails
    the test on any JavaScript error of any of them."""
    made = []

    def person(url, name):
        context = chromium.new_context(viewport=DESKTOP)
        page = context.new_page()
        errors = watch_errors(page)
        # NB: keeps the page's WebSockets, so that a test can drop its connection (`drop`).
        page.add_init_script("""(() => {
          const Native = window.WebSocket;
          window.__sockets = [];
          window.WebSocket = class extends Native {
            constructor(...args) { super(...args); window.__sockets.push(this); }
          };
        })();""")
        made.append((context, errors, name))
        page.goto(url)
        expect(page.locator(".your-games, .name-form").first).to_be_attached()
        if name is not None:
            reply = send(page, {"cmd": "settings", "settings": {"name": name}})
            assert reply["settings"]["name"] == name
        page.person = name
        return page

    yield person
    for context, _, _ in made:
        context.close()
    failed = {name: errors for _, errors, name in made if errors}
    assert not failed, f"JavaScript errors: {failed}"
