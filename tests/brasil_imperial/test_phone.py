"""The Brasil Imperial page on a phone (390x844, touch): the new-game page, the card editor and
the play page never scroll sideways (a card's table scrolls in its own box), every control is at
least 44 px to tap, and the Autômato's steps and "Done" are on the first screen, turn after turn."""
from __future__ import annotations

from tests import browser
from tests.browser import on_first_screen, overflow, too_small_to_tap

pytestmark = browser.needs_chromium
site = browser.site_fixture()
phone_browser, phone = browser.phone_fixture()
shot = browser.shooter(__file__)


def test_the_card_editor_fits_a_phone(site, phone):
    server, _ = site
    phone.goto(f"{server}/brasil-imperial/")
    assert overflow(phone) <= 0 and too_small_to_tap(phone) == []
    phone.click("#card-editor")
    phone.fill("#copy-cards input[name=name]", "phone cards")
    phone.click("#copy-cards button")
    phone.wait_for_selector("#save-cards")
    assert overflow(phone) <= 0
    phone.click("#save-cards")                          # not covered by a table
    phone.wait_for_selector("#saved")


def test_the_turn_is_on_a_phones_first_screen(site, phone):
    server, _ = site
    browser.start_game(phone, server, "brasil-imperial", {"seed": "3"}, "#automa-done")
    for turn in range(3):
        assert overflow(phone) <= 0, turn
        assert on_first_screen(phone, "#instruction") and on_first_screen(phone, "#automa-done"), \
            (turn, phone.inner_text("#instruction"))
        assert too_small_to_tap(phone) == [], turn
        if turn == 0:
            shot(phone, "brasil_imperial_phone_turn")
        seq = phone.get_attribute("input[name=seq]", "value")
        phone.click("#automa-done")
        phone.wait_for_selector(f"input[name=seq]:not([value='{seq}'])", state="attached")
        if not phone.locator("#automa-done").count():
            break
