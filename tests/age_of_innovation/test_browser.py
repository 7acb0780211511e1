"""The Age of Innovation page in real Chromium: a new game, the map editor by tapping hexes, the
Automa's set-up and turns with the cards shown and the target hex highlighted, undo.
Screenshots land in tests/age_of_innovation/artifacts/."""
from __future__ import annotations

from tests import browser
from tests.pages import state_of

pytestmark = browser.needs_chromium
site = browser.site_fixture()
page = browser.page_fixture()
shot = browser.shooter(__file__)


def tap_and_set(page, col: int, row: int, change: str) -> None:
    page.click(f"#hex-{col - 1}-{row - 1} polygon")
    assert page.input_value("#edit-row") == str(row) and page.input_value("#edit-col") == str(col)
    page.select_option("#edit-change", change)
    page.click("#editor button[type=submit]")
    page.wait_for_selector("#map")


def test_a_game_on_the_page(site, page):
    server, app = site
    url = browser.start_game(page, server, "age-of-innovation", {"terrain": "lake", "player_terrain": "forest", "seed": "8"},
                             "#done")
    assert page.locator("#map g.hex").count() == 117
    # the players put the Automa's initial workshops where the setup card says, by tapping hexes
    tap_and_set(page, 5, 2, "building:automa:workshop:marked")
    tap_and_set(page, 5, 6, "building:automa:workshop")
    tap_and_set(page, 2, 4, "building:player:workshop")
    s = state_of(app, url)
    assert len(s.board.owned("automa")) == 2 and len(s.board.owned("player")) == 1
    assert page.locator("#map .power-token").count() == 1
    page.click("#done")                                    # the set-up instruction carried out
    page.wait_for_selector("#action-card")
    shot(page, "aoi_first_turn")
    for _ in range(8):
        if page.locator("#map g.hex.target").count():
            break
        page.click("#done")
        page.wait_for_selector("#map")
    assert page.locator("#map g.hex.target").count() == 1, "a build or an upgrade highlights its hex"
    target = page.locator("#map g.hex.target")
    row, col = target.get_attribute("data-row"), target.get_attribute("data-col")
    assert f"row {row}, hex {col}" in page.inner_text("#instruction")
    page.click("#why summary")
    assert "directional selection" in page.inner_text("#why") or "left" in page.inner_text("#why")
    shot(page, "aoi_target")
    before = state_of(app, url)
    page.click("#done")
    page.wait_for_selector("#map")
    assert state_of(app, url).automa.turns == before.automa.turns + 1
    page.click("#undo")
    page.wait_for_selector("#map")
    assert state_of(app, url).automa.turns == before.automa.turns
