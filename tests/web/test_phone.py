"""The pages on a phone (390x844, Chromium, touch): nothing overflows sideways, the turn's
instruction, where it goes on the map and "Done" are on the first screen, the camera and the
map a tab away, every control at least 44 px to tap, and a whole demo game played through
the page loses no step and shows every Automa turn (issue 82).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests import browser
from tests.browser import TAP, on_first_screen, overflow, too_small_to_tap

pytestmark = browser.needs_chromium
site = browser.site_fixture()
phone_browser, phone = browser.phone_fixture()
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def start_demo(page, server: str) -> None:
    page.goto(f"{server}/barrage/")
    page.click("#demo-game")
    page.wait_for_selector("#instruction")


def test_no_page_overflows_a_phone_sideways(site, phone):
    server, _ = site
    for path in ("/", "/barrage/", "/calibration/"):
        phone.goto(server + path)
        assert overflow(phone) <= 0, path
    start_demo(phone, server)
    assert overflow(phone) <= 0


def test_the_turn_is_on_the_first_screen_and_the_rest_a_tab_away(site, phone):
    server, _ = site
    start_demo(phone, server)
    for part in ("#instruction", "#targets", "#automa-done"):
        assert on_first_screen(phone, part), part
    targets = phone.inner_text("#targets")
    assert "the red-outlined dam space of basin 8, Plains (8U)" in targets       # a place, the code a hint
    assert not phone.locator("#camera").is_visible() and not phone.locator("#map").is_visible()
    assert too_small_to_tap(phone) == []
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-turn.png"))
    phone.click('#tabs [data-tab="map"]')
    phone.wait_for_selector("#map svg")
    assert not phone.locator("#instruction").is_visible()
    hits = phone.evaluate("""[...document.querySelectorAll('#map .slot-hit')].map((r) => {
        const b = r.getBoundingClientRect(); return [r.dataset.slot, b.width, b.height]; })""")
    assert len(hits) == 67
    small = [h for h in hits if min(h[1], h[2]) < TAP]
    assert small == [], small[:5]
    assert overflow(phone) <= 0                        # the map scrolls in its own box, not the page
    phone.screenshot(path=str(ARTIFACTS / "phone-map.png"))
    phone.click('#tabs [data-tab="camera"]')
    assert phone.locator("#camera").is_visible()
    phone.click('#tabs [data-tab="game"]')
    assert phone.locator("#history").is_visible() and too_small_to_tap(phone) == []


def test_a_whole_demo_game_is_played_on_a_phone(site, phone):
    """Every step by the page's own buttons; each Automa turn shown, instruction and Done on the
    first screen, before it is done; at the end the history holds every step pressed."""
    server, app = site
    start_demo(phone, server)
    pressed = automa_turns = 0
    for _ in range(400):
        if phone.locator(".who", has_text="Game over").count():
            break
        seq = phone.evaluate("view.seq")
        if phone.locator("#automa-done").count():
            assert on_first_screen(phone, "#instruction") and on_first_screen(phone, "#automa-done"), (
                phone.inner_text("#instruction"), phone.locator("#automa-done").bounding_box())
            phone.click("#automa-done")
            automa_turns += 1
        elif phone.locator("#round-end").count():
            phone.click("#round-end")
        else:
            assert on_first_screen(phone, "#pass")
            phone.click("#pass")
        pressed += 1
        phone.wait_for_function(f"view.seq === {seq + 1}")
    else:
        pytest.fail("the game did not end in 400 steps")
    assert automa_turns >= 10
    history = phone.evaluate("view.history.length")
    assert history == pressed + 1                       # the start, then one step a press: none lost
    phone.screenshot(path=str(ARTIFACTS / "phone-over.png"))
