"""The Age of Innovation page in real Chromium: a new game, the map editor by tapping hexes, the
Automa's set-up and turns with the cards shown and the target hex highlighted, undo.
Screenshots land in tests/age_of_innovation/artifacts/."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from automa.age_of_innovation.state import GameState
from web.app import WebConfig, create_app
from web.services import services

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's Chromium at /usr/bin/chromium (make browser)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    data = tmp_path_factory.mktemp("web")
    app = create_app(WebConfig(data_dir=data, model=data / "no-model.onnx"))
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}", app
    httpd.shutdown()


@pytest.fixture(scope="module")
def page(site):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        browser.close()
        assert not errors, f"JavaScript errors: {errors}"


def state_of(app, url: str) -> GameState:
    sid = int(url.rstrip("/").split("/")[-1])
    with app.app_context():
        return GameState.from_dict(services().store.steps(sid)[-1].state)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def tap_and_set(page, col: int, row: int, change: str) -> None:
    page.click(f"#hex-{col - 1}-{row - 1} polygon")
    assert page.input_value("#edit-row") == str(row) and page.input_value("#edit-col") == str(col)
    page.select_option("#edit-change", change)
    page.click("#editor button[type=submit]")
    page.wait_for_selector("#map")


def test_a_game_on_the_page(site, page):
    server, app = site
    page.goto(f"{server}/")
    page.click("a[href='/age-of-innovation/']")
    page.select_option("select[name=terrain]", "lake")
    page.select_option("select[name=player_terrain]", "forest")
    page.fill("input[name=seed]", "8")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#done")
    url = page.url
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
