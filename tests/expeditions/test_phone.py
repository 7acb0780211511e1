"""The Expeditions page on a phone (390x844, touch): the new-game page and the play page never
scroll sideways, every control is at least 44 px to tap, and on each Automa turn its instructions
and "Done" are on the first screen; the player's turn's controls come first too."""
from __future__ import annotations

from tests import browser
from tests.browser import on_first_screen, overflow, too_small_to_tap

pytestmark = browser.needs_chromium
site = browser.site_fixture()
phone_browser, phone = browser.phone_fixture()
shot = browser.shooter(__file__)


def test_the_turn_is_on_a_phones_first_screen(site, phone):
    server, _ = site
    phone.goto(f"{server}/expeditions/")
    assert overflow(phone) <= 0 and too_small_to_tap(phone) == []
    browser.start_game(phone, server, "expeditions", {"first": "automa", "seed": "12"}, "#automa-done")
    for turn in range(2):
        assert overflow(phone) <= 0, turn
        assert on_first_screen(phone, "#instruction") and on_first_screen(phone, "#automa-done"), turn
        assert too_small_to_tap(phone) == [], turn
        if turn == 0:
            shot(phone, "expeditions_phone_automa")
        phone.click("#automa-done")
        phone.wait_for_selector("#player-turn")
        assert on_first_screen(phone, "#move button") and on_first_screen(phone, "#end-turn")
        assert overflow(phone) <= 0 and too_small_to_tap(phone) == []
        phone.click("#end-turn")
        phone.wait_for_selector("#automa-done")
