"""The Expeditions page in real Chromium: a new game, Automa turns carried out, a player's turn
with a flipped tile entered, undo. Screenshots land in tests/expeditions/artifacts/."""
from __future__ import annotations

from tests import browser
from tests.pages import state_of
from web.services import services

pytestmark = browser.needs_chromium
site = browser.site_fixture()
page = browser.page_fixture()
shot = browser.shooter(__file__)


def test_play_a_few_turns(site, page):
    server, app = site
    url = browser.start_game(page, server, "expeditions", {"first": "automa", "seed": "12"}, "#automa-done")
    shot(page, "expeditions_start")
    assert page.locator("#map .loc").count() == 20
    north_before = state_of(app, url).mechs["north"]
    assert page.get_attribute("#mech-north-at", "data-at") == north_before, "the North mech is drawn where it stands"
    instruction = page.inner_text("#mech-north")
    page.click("#automa-done")
    page.wait_for_selector("#player-turn")
    s = state_of(app, url)
    assert s.turn == "player" and s.mechs["north"] in instruction
    assert page.get_attribute("#mech-north-at", "data-at") == s.mechs["north"]
    assert page.get_attribute("#mech-central-at", "data-at") == s.mechs["central"]

    target = next(p for p in ("C3", "C2", "C4") if p not in s.mechs.values())
    page.select_option("#move select[name=to]", target)
    page.click("#move button")
    page.wait_for_selector(f"#reveal-{target}")
    page.fill(f"#reveal-{target} input[name=tile]", "10")
    page.fill(f"#reveal-{target} input[name=tokens]", "4o 3t")
    page.click(f"#reveal-{target} button")
    page.wait_for_selector(f"#loc-{target}[data-tile='10']")
    assert page.get_attribute("#mech-player-at", "data-at") == target
    page.click("#end-turn")
    page.wait_for_selector("#automa-done")
    page.click("#automa-done")
    page.wait_for_selector("#player-turn")
    shot(page, "expeditions_after_two_automa_turns")
    turns = state_of(app, url).turns
    assert turns == 3
    page.click("#undo")
    page.wait_for_selector("#automa-done")
    assert state_of(app, url).turns == 2, "undo took back the Automa's second turn"
    assert page.locator("#history li").count() == len(services_steps(app, url))


def services_steps(app, url):
    sid = int(url.rstrip("/").split("/")[-1])
    with app.app_context():
        return services().store.steps(sid)
