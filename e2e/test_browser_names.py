"""Guests' names at a table (issue 21): a first-time guest who opens a table's link is asked
for a name in the lobby, anyone seated may rename themselves until the host starts, the name is
kept for the next table, and names that would draw outside their place or turn the text
around them are refused with the server's reason (docs/PROTOCOL.md "Names")."""

from playwright.sync_api import expect
from test_browser_together import host, seats_shown, start

from browser import send


def test_a_first_time_guest_is_asked_for_a_name_and_may_rename_until_the_start(server, people):
    ann = people(server, "Ann")
    table = host(ann, server, "snap")
    guest = people(server, None)
    guest.goto(server.rstrip("/") + f"/play/{table['room']}")
    expect(guest.locator(".lobby-status")).to_have_text("Waiting for game to start...")
    expect(guest.locator(".seat-item.you")).to_contain_text("Player 2 (you)")
    name = guest.get_by_label("Your name")
    expect(name).to_be_focused()
    expect(name).to_have_value("")
    expect(guest.locator(".name-prompt")).to_contain_text("What should the others call you?")

    name.fill("Bob")
    guest.get_by_role("button", name="Save name").click()
    expect(guest.locator(".name-note")).to_have_text("You sit as Bob.")
    expect(guest.locator(".seat-item.you")).to_contain_text("Bob (you)")
    expect(ann.locator(".seat-list .seat-text")).to_have_text(["Ann (host, you)", "Bob"])
    assert seats_shown(guest) == ["Ann (host)", "Bob (you)"]

    # NB: a right-to-left override would turn "Ann: 0 pairs" into "sriap 0 :XnnA".
    name.fill("Bo\u202eb")
    guest.get_by_role("button", name="Save name").click()
    expect(guest.locator(".name-note")).to_contain_text("right-to-left")
    name.fill("Ann")
    guest.get_by_role("button", name="Save name").click()
    expect(guest.locator(".name-note")).to_have_text("Another seat at this table is called Ann.")
    heavy = send(guest, {"cmd": "rename", "name": "A" + "\u0301" * 5000})
    assert heavy["type"] == "error" and heavy["error"]["code"] == "name-too-long", heavy
    expect(guest.locator(".seat-item.you")).to_contain_text("Bob (you)")

    guest.reload()
    expect(guest.get_by_label("Your name")).to_have_value("Bob")
    expect(guest.locator(".name-prompt")).to_contain_text("you can change it until the game starts")

    ann.get_by_label("Your name").fill("Annie")
    ann.get_by_role("button", name="Save name").click()
    expect(guest.locator(".seat-list")).to_contain_text("Annie (host)")
    start(ann, [guest])
    expect(guest.locator(".lobby-name")).to_be_hidden()
    expect(guest.locator(".table-seats")).to_contain_text("Annie")
    expect(guest.locator(".table-seats")).to_contain_text("Bob (you)")
