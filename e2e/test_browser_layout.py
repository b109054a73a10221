"""Snap! fits the screen (issue 11): on a phone on its side and on a short laptop, as on the
usual sizes, every seat, your stack and the Snap! button lie inside the viewport, and the page
scrolls neither way."""
import pytest

from browser import require_game, settle, wait_view

SIZES = [(360, 640), (740, 360), (640, 360), (1024, 600), (1280, 800), (1920, 1080)]


@pytest.mark.parametrize("width,height", SIZES)
def test_snap_seats_and_controls_are_all_in_view(server, chromium, cardtable, width, height):
    require_game(cardtable, "snap")
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"{server}?game=snap&seed=5")
        wait_view(page, "v.phase === 'playing'", timeout=20000)
        settle(page)
        report = page.evaluate("""() => {
          const inside = (sel) => {
            const e = document.querySelector(sel);
            if (!e) return `${sel}: missing`;
            const r = e.getBoundingClientRect();
            const ok = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
            return ok ? null : `${sel}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`;
          };
          const outside = ['.seat-bottom', '.seat-top', '.seat-left', '.seat-right', '.snap-button',
                           '.seat-bottom .stack-button'].map(inside).filter(Boolean);
          const root = document.documentElement;
          return { outside, scrollWidth: root.scrollWidth, scrollHeight: root.scrollHeight };
        }""")
        assert report["outside"] == [], f"{width}×{height}: outside the viewport: {report['outside']}"
        assert report["scrollWidth"] <= width, f"{width}×{height}: scrolls sideways"
        assert report["scrollHeight"] <= height, f"{width}×{height}: scrolls down ({report['scrollHeight']} px)"
    finally:
        context.close()
