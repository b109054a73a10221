"""The page's addresses (web/js/route.js): what each asks for, read from the address and the
server's catalog alone — a pure function, checked here in the page itself."""

from playwright.sync_api import expect

PARSE = """async ([addresses]) => {
  const { parseRoute } = await import(new URL('route.js', document.querySelector('script[type=module]').src));
  const { games } = await import(new URL('catalog.js', document.querySelector('script[type=module]').src));
  return addresses.map((address) => {
    const route = parseRoute(new URL(address, location.origin), games());
    return { kind: route.kind, game: route.game?.name ?? null, room: route.room ?? null,
             code: route.code ?? null, option: route.option?.name ?? null, seed: route.seed ?? null,
             player: route.player ?? null };
  });
}"""

CASES = [
    ("/", {"kind": "home"}),
    ("/?game=nothing", {"kind": "home"}),
    ("/play/AbCdEfGhIjKlMnOp", {"kind": "room", "room": "AbCdEfGhIjKlMnOp"}),
    ("/scores", {"kind": "scores"}),
    ("/players/AbCdEfGhIjKlMnOp", {"kind": "player", "player": "AbCdEfGhIjKlMnOp"}),
    ("/?join", {"kind": "join", "code": ""}),
    ("/?join=BCDFGH", {"kind": "join", "code": "BCDFGH"}),
    # A game with an option placed `menu` asks it first, unless the address names a choice.
    ("/?game=memory", {"kind": "menu", "game": "memory", "option": "difficulty"}),
    (
        "/?game=memory&seed=42",
        {"kind": "menu", "game": "memory", "option": "difficulty", "seed": "42"},
    ),
    ("/?game=memory&difficulty=giant", {"kind": "menu", "game": "memory", "option": "difficulty"}),
    ("/?game=memory&difficulty=hard", {"kind": "new", "game": "memory"}),
    ("/?game=concentration&seed=3", {"kind": "new", "game": "concentration"}),
    ("/?game=matchismo", {"kind": "new", "game": "matchismo"}),
    # Only a game that plays at a table has a host form.
    ("/?game=snap&table=host", {"kind": "host", "game": "snap"}),
    ("/?game=memory&table=host", {"kind": "host", "game": "memory"}),
    ("/?game=matchismo&table=host", {"kind": "new", "game": "matchismo"}),
]


def test_every_address_asks_for_its_screen(server, page):
    page.goto(server)
    expect(page.get_by_role("heading", name="Your name")).to_be_visible()
    got = page.evaluate(PARSE, [[address for address, _ in CASES]])
    for (address, expected), route in zip(CASES, got, strict=True):
        wanted = {
            "game": None,
            "room": None,
            "code": None,
            "option": None,
            "seed": None,
            "player": None,
        }
        wanted.update(expected)
        assert route == wanted, address


FILL = """async ([game, text, values]) => {
  const { gameInfo, filled } = await import(new URL('catalog.js', document.querySelector('script[type=module]').src));
  return filled(gameInfo(game), text, values);
}"""


def test_help_placeholders_are_filled_as_the_server_fills_them(server, page):
    """web/js/catalog.js `filled` against the examples GameInfo.filled is tested with
    (Tests/GameWireTests/CatalogTests.swift)."""
    page.goto(server)
    expect(page.get_by_role("heading", name="Your name")).to_be_visible()
    cases = [
        (
            "matchismo",
            "{matchBonus|points} and {matchBonus*4|points}",
            {},
            "4 points and 16 points",
        ),
        ("matchismo", "{matchBonus|points}, {matchBonus*4}", {"matchBonus": 1}, "1 point, 4"),
        (
            "matchismo",
            "{mode} at a time, {mode|number}-card",
            {"mode": 3},
            "three at a time, 3-card",
        ),
        ("matchismo", "{nothing} and {matchBonus}", {}, "{nothing} and 4"),
        (
            "snap",
            "{computerSpeed}",
            {"computerSpeed": "quick"},
            "quick speed: each takes 0.15 to 1.15 seconds",
        ),
    ]
    for game, text, values, expected in cases:
        assert page.evaluate(FILL, [game, text, values]) == expected, text
