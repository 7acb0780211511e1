"""The Age of Innovation page on a phone (390x844, touch): the new-game page and the play page
never scroll sideways (the terrain priority table scrolls in its own box), every control is at
least 44 px to tap, and the Automa's instruction and "Done" are on the first screen, turn
after turn."""
from __future__ import annotations

from tests import browser
from tests.browser import on_first_screen, overflow, too_small_to_tap

pytestmark = browser.needs_chromium
site = browser.site_fixture()
phone_browser, phone = browser.phone_fixture()
shot = browser.shooter(__file__)


def test_the_turn_is_on_a_phones_first_screen(site, phone):
    server, _ = site
    phone.goto(f"{server}/age-of-innovation/")
    assert overflow(phone) <= 0 and too_small_to_tap(phone) == []
    browser.start_game(phone, server, "age-of-innovation", {"terrain": "lake", "player_terrain": "forest", "seed": "8"},
                       "#done")
    for turn in range(4):                                  # the set-up, then the Automa's turns
        assert overflow(phone) <= 0, turn
        assert on_first_screen(phone, "#instruction") and on_first_screen(phone, "#done"), \
            (turn, phone.inner_text("#instruction"))
        assert too_small_to_tap(phone) == [], turn
        if turn == 1:
            shot(phone, "aoi_phone_turn")
        seq = phone.get_attribute("input[name=seq]", "value")
        phone.click("#done")
        phone.wait_for_selector(f"input[name=seq]:not([value='{seq}'])", state="attached")
