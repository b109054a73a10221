"""`cardtable play` in real tmux at 80×24: every game played to its end from key presses, a
mouse click, resizes, quitting with and without asking, a terminal left as it was found after
SIGTERM and a crash, `--resume` after SIGKILL, and the colour and ASCII fallbacks."""

import collections
import json
import os
import pathlib
import re
import signal
import subprocess

import pytest
from terminal import Tmux, cards, face

from browser import WEB
from games import memory_pairs, memory_table_board
from server import running_server


@pytest.fixture
def tmux_factory(tmp_path):
    made = []

    def make(arguments, cardtable, data=None, **kwargs):
        data = data or tmp_path / "data"
        session = Tmux(f"{cardtable} {arguments} --data {data}", tmp_path, **kwargs)
        made.append(session)
        return session

    yield make
    for session in made:
        session.close()


def go_to(tmux, index):
    """Moves the cursor to card `index` from the first card: Home, then → `index` times."""
    tmux.keys("Home", *(["Right"] * index))


def not_waiting(screen):
    return "(wait)" not in screen.split("\n")[1]


def flip_pair(tmux, a, b):
    """Turns cards `a` and `b` once the table takes cards again (a pair leaving, a mismatch
    turning back: the status line says "(wait)" meanwhile)."""
    tmux.wait_for(not_waiting, what="the table ready")
    go_to(tmux, a)
    tmux.keys("Enter")
    go_to(tmux, b)
    tmux.keys("Enter")


def test_memory_easy_played_to_its_end_from_keys(cardtable, tmux_factory):
    pairs = memory_pairs(cardtable, seed=42)
    tmux = tmux_factory("play memory --difficulty easy --seed 42", cardtable)
    tmux.wait_for("Pairs found: 0 of 6")
    for found, (a, b) in enumerate(pairs, start=1):
        flip_pair(tmux, a, b)
        tmux.wait_for(f"Pairs found: {found} of 6")
    screen = tmux.wait_for("You won with score: 0!")
    assert "Game over" in screen
    tmux.keys("q")
    assert tmux.wait_exit() == 0
    after = tmux.screen()
    # NB: the final line is printed on the main screen, after the alternate one is left.
    assert re.search(r"Memory: You won with score: 0! \(\d+:\d\d\) — room [A-Za-z0-9_-]{16}", after)
    assert "icanon" in tmux.stty_settings() and "-icanon" not in tmux.stty_settings()


def test_concentration_played_to_its_end(cardtable, tmux_factory):
    [reply] = json.loads(
        "["
        + subprocess.run(
            [cardtable, "engine"],
            input=json.dumps({"cmd": "new", "game": "concentration", "seed": 3}) + "\n",
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        + "]"
    )
    by_rank = collections.defaultdict(list)
    for index, place in enumerate(reply["state"]["board"]):
        by_rank[place["card"][:-1]].append(index)
    pairs = [spots[i : i + 2] for spots in by_rank.values() for i in (0, 2)]
    tmux = tmux_factory("play concentration --seed 3", cardtable)
    tmux.wait_for("Pairs found: 0 of 26")
    for found, (a, b) in enumerate(pairs[:-1], start=1):
        flip_pair(tmux, a, b)
        tmux.wait_for(f"Pairs found: {found} of 26")
    flip_pair(tmux, *pairs[-1])
    screen = tmux.wait_for("Game over")
    assert "Cleared!" in screen


def test_matchismo_to_its_end_and_its_mode(cardtable, tmux_factory, tmp_path):
    # Seed 5 with two cards on the table: 8♣ and K♣, a match of suits.
    tmux = tmux_factory("play matchismo --cards 2 --seed 5", cardtable)
    tmux.wait_for("M 3-card mode")
    tmux.keys("a", "b")
    screen = tmux.wait_for("Game over")
    assert "Matched 8♣ K♣ for 4 points." in screen
    tmux.keys("Escape", "H")
    history = tmux.wait_for("History")
    assert "8♣" in history
    # In 3-card mode two cards hold no match: the game is over at once (RULES §1).
    three = tmux_factory("play matchismo --cards 2 --seed 5", cardtable, data=tmp_path / "other")
    three.wait_for("M 3-card mode")
    three.keys("M")
    screen = three.wait_for("Game over")
    assert "M 2-card mode" in screen


class Engine:
    """`cardtable engine` beside the terminal, on the same seed: it says where the sets are."""

    def __init__(self, cardtable, game, seed):
        self.proc = subprocess.Popen(
            [cardtable, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.state = self.ask({"cmd": "new", "game": game, "seed": seed})["state"]

    def ask(self, command):
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        if "state" in reply:
            self.state = reply["state"]
        return reply

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


LETTERS = "abcdefghijklmnoprstuvwxyz"


def test_set_played_to_game_over(cardtable, tmux_factory):
    engine = Engine(cardtable, "set", 5)
    tmux = tmux_factory("play set --seed 5", cardtable, width=120, height=40)
    tmux.wait_for("+ three more")
    try:
        while not engine.state["over"]:
            hint = engine.ask({"cmd": "hint"})["cards"]
            if not hint:
                engine.ask({"cmd": "act", "action": {"type": "dealThree"}})
                tmux.keys("+")
            else:
                for index in hint:
                    engine.ask({"cmd": "act", "action": {"type": "choose", "card": index}})
                    if index < len(LETTERS):
                        tmux.keys(LETTERS[index])
                    else:
                        go_to(tmux, index)
                        tmux.keys("Enter")
            score = engine.state["score"]
            deck = engine.state["deckCount"]
            tmux.wait_for(f"Score {score}  Deck {deck} ", what=f"score {score}, deck {deck}")
        screen = tmux.wait_for("Game over")
        assert f"Score {engine.state['score']}" in screen
    finally:
        engine.close()


def open_tops(screen):
    return [face(card) for card in cards(screen) if face(card)]


def test_snap_round_with_a_wrong_call_and_a_right_one(cardtable, tmux_factory):
    tmux = tmux_factory("play snap --seed 5 --computer-speed relaxed", cardtable)
    tmux.wait_for("Your turn", timeout=30)
    tmux.keys("t")
    # A call with no match showing is wrong: one card turned can match nothing.
    tmux.wait_for(lambda s: len(open_tops(s)) == 1, what="the first card turned")
    tmux.keys("s")
    tmux.wait_for(
        lambda s: "You: Snap! wrong" in s or "You: Snap! too late" in s, what="a wrong call"
    )
    # Then play on, turning when it is our turn, until a match shows, and call it.
    for _ in range(400):
        screen = tmux.screen()
        if "You: Snap! right" in screen:
            break
        tops = [t[:-1] for t in open_tops(screen)]
        if len(tops) != len(set(tops)):
            tmux.keys("s")
            tmux.wait_for(lambda s: s != screen, what="the call answered")
            continue
        if "Your turn" in screen:
            tmux.keys("t")
        tmux.wait_for(lambda s: s != screen, timeout=30, what="the table to move")
    else:
        pytest.fail("no right Snap! call in 400 moves")
    tmux.keys("R")
    receipts = tmux.wait_for("Receipts")
    assert "You: Snap! wrong" in receipts or "You: Snap! too late" in receipts


def dealt_memory(tmux):
    """The screen once an easy Memory deal is drawn whole: its status line and all 12 cards.

    NB: a frame is one write, but the terminal may show it before the whole of it has been read
    (the status line drawn, some cards not yet)."""
    return tmux.wait_for(
        lambda s: "Pairs found: 0 of 6" in s and len(cards(s)) == 12, what="the dealt table"
    )


def test_a_mouse_click_turns_the_card_under_it(cardtable, tmux_factory):
    tmux = tmux_factory("play memory --seed 42", cardtable)
    screen = dealt_memory(tmux)
    places = cards(screen)
    x, y, width, inner = places[5]
    tmux.click(x + width // 2, y + 2)
    screen = tmux.wait_for(lambda s: face(cards(s)[5]) is not None, what="card 6 face up")
    assert "Pairs found: 0 of 6" in screen


def test_resizing_redraws_and_a_small_window_says_the_size_needed(cardtable, tmux_factory):
    tmux = tmux_factory("play concentration --seed 3", cardtable, width=120, height=40)
    big = cards(
        tmux.wait_for(
            lambda s: "Pairs found: 0 of 26" in s and len(cards(s)) == 52, what="52 cards"
        )
    )
    tmux.resize(80, 24)
    small = tmux.wait_for(lambda s: len(cards(s)) == 52 and cards(s)[0][2] < big[0][2])
    assert "Pairs found: 0 of 26" in small
    tmux.resize(60, 20)
    message = tmux.wait_for("needs a window of at least 80×24")
    assert "this one is 60×20" in message
    tmux.resize(120, 40)
    tmux.wait_for(lambda s: len(cards(s)) == 52 and cards(s)[0][2] == big[0][2])


def test_q_asks_first_in_an_unfinished_game_and_resume_brings_it_back(cardtable, tmux_factory):
    pairs = memory_pairs(cardtable, seed=42)
    tmux = tmux_factory("play memory --seed 42", cardtable)
    tmux.wait_for("Pairs found: 0 of 6")
    flip_pair(tmux, *pairs[0])
    tmux.wait_for("Pairs found: 1 of 6")
    tmux.keys("q")
    tmux.wait_for("Leave this game?")
    tmux.keys("n")
    tmux.wait_for(lambda s: "Leave this game?" not in s)
    tmux.keys("q")
    tmux.wait_for("Leave this game?")
    tmux.keys("y")
    assert tmux.wait_exit() == 0
    assert "cardtable play --resume" in tmux.screen()
    again = tmux_factory("play --resume", cardtable)
    again.wait_for("Pairs found: 1 of 6")
    again.keys("q")
    again.wait_for("Leave this game?")
    again.keys("y")
    assert again.wait_exit() == 0
    # The menu offers it too, first.
    menu = tmux_factory("play", cardtable)
    screen = menu.wait_for("Continue Memory")
    assert screen.index("Continue Memory") < screen.index("Concentration")
    menu.keys("Enter")
    menu.wait_for("Pairs found: 1 of 6")


def test_help_opens_over_the_game_and_esc_closes_it(cardtable, tmux_factory):
    tmux = tmux_factory("play snap --seed 5", cardtable)
    tmux.wait_for("Space/t turn")
    tmux.keys("?")
    screen = tmux.wait_for("How to play Snap!")
    assert "call Snap!" in screen and "s (or a click on [ Snap! ]): call Snap!" in screen
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "How to play" not in s, what="the help closed")


def test_ctrl_z_gives_the_terminal_back_and_fg_redraws(cardtable, tmux_factory):
    tmux = tmux_factory("play memory --seed 42", cardtable)
    tmux.wait_for("Pairs found: 0 of 6")
    pid = tmux.pid()
    # NB: what Ctrl-Z and a shell's fg send; the pane's sh -c has no job control of its own.
    os.kill(pid, signal.SIGTSTP)
    tmux.wait_for(lambda s: "Pairs found" not in s, what="the main screen back")
    assert pathlib.Path(f"/proc/{pid}/stat").read_text().split()[2] == "T"
    os.kill(pid, signal.SIGCONT)
    tmux.wait_for("Pairs found: 0 of 6")
    tmux.keys("Enter")
    tmux.wait_for(lambda s: face(cards(s)[0]) is not None, what="a card turned after fg")


def test_resume_after_sigkill(cardtable, tmux_factory):
    pairs = memory_pairs(cardtable, seed=42)
    tmux = tmux_factory("play memory --seed 42", cardtable)
    tmux.wait_for("Pairs found: 0 of 6")
    for found, (a, b) in enumerate(pairs[:2], start=1):
        flip_pair(tmux, a, b)
        tmux.wait_for(f"Pairs found: {found} of 6")
    os.kill(tmux.pid(), signal.SIGKILL)
    tmux.wait_exit()
    again = tmux_factory("play --resume", cardtable)
    again.wait_for("Pairs found: 2 of 6")


@pytest.mark.parametrize("how", ["SIGTERM", "SIGHUP", "crash"])
def test_the_terminal_is_restored_after_a_signal_or_a_crash(cardtable, tmux_factory, how):
    # NB: a crash is a real Swift trap (a debug build's Ctrl-\ when CARDTABLE_TERMINAL_CRASH=1);
    # Swift's backtracer then prints on the restored terminal, not interactively.
    tmux = tmux_factory(
        "play memory --seed 42",
        cardtable,
        env={"SWIFT_BACKTRACE": "interactive=no", "CARDTABLE_TERMINAL_CRASH": "1"},
    )
    tmux.wait_for("Pairs found: 0 of 6")
    if how == "crash":
        tmux.keys("C-\\")
    else:
        os.kill(tmux.pid(), getattr(signal, how))
    status = tmux.wait_exit(timeout=60)
    assert status != 0 if how == "crash" else status == 0
    settings = tmux.stty_settings()
    assert re.search(r"(?<!-)icanon", settings) and re.search(r"(?<!-)echo\b", settings)
    screen = tmux.screen()
    # The main screen is back: the game's top bar is gone with the alternate screen.
    assert "Pairs found" not in screen


def test_no_color_writes_no_colour_and_lang_c_draws_ascii(cardtable, tmux_factory, tmp_path):
    colourless = tmux_factory("play memory --seed 42", cardtable, env={"NO_COLOR": "1"})
    colourless.wait_for("Pairs found: 0 of 6")
    colourless.keys("Enter")
    styled = colourless.wait_for(lambda s: face(cards(s)[0]) is not None)
    styled = colourless.screen(styles=True)
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;)[0-9;]*m", styled)
    ascii_only = tmux_factory(
        "play set --seed 5", cardtable, data=tmp_path / "ascii", env={"LANG": "C", "LC_ALL": "C"}
    )
    screen = ascii_only.wait_for("+ three more")
    assert all(ord(c) < 128 for c in screen)
    assert "+-" in screen and "|" in screen


def test_a_finished_terminal_game_counts_in_the_statistics(cardtable, tmux_factory, tmp_path):
    """Dealt without a seed, so it counts: played as a player would, remembering every card
    seen on screen, then `cardtable stats` on the same data counts it."""
    tmux = tmux_factory("play memory", cardtable)
    screen = dealt_memory(tmux)
    spots = [(x, y) for x, y, _, _ in cards(screen)]

    def face_at(index):
        def shown(s):
            here = {(x, y): card for card in cards(s) for x, y in [card[:2]]}
            card = here.get(spots[index])
            return card is not None and face(card) is not None

        screen = tmux.wait_for(shown, what=f"card {index} face up")
        here = {card[:2]: card for card in cards(screen)}
        return face(here[spots[index]])

    def turn(index):
        go_to(tmux, index)
        tmux.keys("Enter")
        return face_at(index)

    unseen = list(range(12))
    known = {}
    found = 0
    while found < 6:
        tmux.wait_for(not_waiting, what="the table ready")
        pair = next((spots_ for spots_ in known.values() if len(spots_) == 2), None)
        if pair:
            turn(pair[0])
            turn(pair[1])
        else:
            first = unseen.pop(0)
            card = turn(first)
            if card in known:
                turn(known[card][0])
                pair = [known[card][0], first]
            else:
                known[card] = [first]
                second = unseen.pop(0)
                other = turn(second)
                known.setdefault(other, []).append(second)
                if other == card:
                    pair = known[card]
                else:
                    continue
        found += 1
        known = {card: where for card, where in known.items() if where != pair}
        tmux.wait_for(
            "You won with score" if found == 6 else f"Pairs found: {found} of 6",
            what=f"{found} pairs",
        )
    tmux.keys("q")
    assert tmux.wait_exit() == 0
    stats = subprocess.run(
        [cardtable, "stats", "--data", str(tmp_path / "data"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    [player] = json.loads(stats)["players"]
    [memory] = player["stats"]
    assert memory["game"] == "memory" and memory["options"] == "difficulty easy"
    assert memory["played"] == 1 and memory["won"] == 1


def test_e_ends_the_game_asked_first_and_it_is_not_continued(cardtable, tmux_factory):
    tmux = tmux_factory("play memory --seed 42", cardtable)
    tmux.wait_for("Pairs found: 0 of 6")
    tmux.keys("Enter")
    tmux.keys("E")
    tmux.wait_for("End this game?")
    tmux.keys("n")
    tmux.wait_for(lambda s: "End this game?" not in s)
    tmux.keys("E")
    tmux.wait_for("End this game?")
    tmux.keys("y")
    assert tmux.wait_exit() == 0
    assert "Memory ended; it is recorded as abandoned" in tmux.screen()
    again = tmux_factory("play --resume", cardtable)
    again.wait_for("No unfinished game to continue")


def test_play_goes_through_the_server_that_holds_the_data(cardtable, tmux_factory, tmp_path):
    data = tmp_path / "served"
    with running_server(cardtable, WEB, data=data) as (url, _):
        pairs = memory_pairs(cardtable, seed=42)
        tmux = tmux_factory("play memory --seed 42", cardtable, data=data)
        tmux.wait_for("Pairs found: 0 of 6")
        flip_pair(tmux, *pairs[0])
        tmux.wait_for("Pairs found: 1 of 6")
        tmux.keys("q")
        tmux.wait_for("Leave this game?")
        tmux.keys("y")
        assert tmux.wait_exit() == 0
        # The room is the server's, at its own link, with both flips kept.
        base = url.rstrip("/")
        room = re.search(rf"{re.escape(base)}/play/([A-Za-z0-9_-]{{16}})", tmux.screen()).group(1)
        saved = subprocess.run(
            [cardtable, "export", room, "--data", str(data)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert saved.count('"flip"') == 2


def test_memory_alone_against_the_computer_from_the_menu_and_the_command_line(
    cardtable, tmux_factory
):
    board = memory_table_board(cardtable, 5)
    other = next(i for i in range(1, len(board)) if board[i] != board[0])
    tmux = tmux_factory("play memory --opponent perfect --seed 5", cardtable)
    tmux.wait_for("Your turn. Pairs: You 0, Ray 0")
    flip_pair(tmux, 0, other)
    # Ray takes his turn by himself, on the server's clock, and hands it back on a mismatch.
    tmux.wait_for("Ray's turn")
    screen = tmux.wait_for(lambda s: "Your turn" in s or "wins" in s or "tie" in s, timeout=60)
    assert "Ray" in screen
    tmux.keys("q")
    tmux.wait_for("Quit")
    tmux.keys("y")
    assert tmux.wait_exit() == 0
    # In the menu (under the game just left), o chooses the opponent of the game chosen.
    menu = tmux_factory("play", cardtable)
    menu.wait_for("Continue Memory")
    menu.keys("Down", "o")
    menu.wait_for("vs Forgetful computer")
    menu.keys("o")
    menu.wait_for("vs Good computer")
    menu.keys("Enter")
    menu.wait_for("Your turn. Pairs: You 0, Ray 0")
