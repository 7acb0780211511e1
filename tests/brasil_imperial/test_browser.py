"""The Brasil Imperial page in real Chromium: a card set made in the editor, a new game with it,
the Autômato's turns carried out with the compass drawn where the state has it, undo.
Screenshots land in tests/brasil_imperial/artifacts/."""
from __future__ import annotations

from tests import browser
from tests.pages import state_of, steps_of

pytestmark = browser.needs_chromium
site = browser.site_fixture()
page = browser.page_fixture()
shot = browser.shooter(__file__)


def test_edit_cards_then_play_a_few_turns(site, page):
    server, app = site
    page.goto(f"{server}/")
    page.click("a[href='/brasil-imperial/']")
    page.click("#card-editor")
    page.fill("#copy-cards input[name=name]", "my cards")
    page.click("#copy-cards button")
    page.wait_for_selector("#save-cards")
    first = page.locator("#editor table").first
    first.locator("select").first.select_option("summon:1")
    page.click("#save-cards")
    page.wait_for_selector("#saved")
    shot(page, "brasil_imperial_editor")

    url = browser.start_game(page, server, "brasil-imperial", {"cards": "my cards", "seed": "3"}, "#automa-done")
    s = state_of(app, url)
    assert page.get_attribute("#compass", "data-at") == f"{s.compass_at[0]},{s.compass_at[1]}"
    shot(page, "brasil_imperial_start")
    for _ in range(3):
        if page.locator("#automa-done").count() == 0:
            break
        page.click("#automa-done")
        page.wait_for_load_state()
    s = state_of(app, url)
    assert s.turns >= 1
    assert page.get_attribute("#compass", "data-at") == f"{s.compass_at[0]},{s.compass_at[1]}"
    assert page.get_attribute("#compass", "data-heading") == str(s.heading)
    shot(page, "brasil_imperial_after_turns")
    before = len(steps_of(app, url))
    page.click("#undo")
    page.wait_for_load_state()
    assert len(steps_of(app, url)) == before - 1, "undo took back the last step"
    assert page.locator("#history li").count() == before - 1

