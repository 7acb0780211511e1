"""The Expeditions page in real Chromium: a new game, Automa turns carried out, a player's turn
with a flipped tile entered, undo. Screenshots land in tests/expeditions/artifacts/."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from automa.expeditions.state import load
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


def state_of(app, url: str):
    sid = int(url.rstrip("/").split("/")[-1])
    with app.app_context():
        return load(services().store.steps(sid)[-1].state)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_play_a_few_turns(site, page):
    server, app = site
    page.goto(f"{server}/")
    page.click("a[href='/expeditions/']")
    page.select_option("select[name=first]", "automa")
    page.fill("input[name=seed]", "12")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#automa-done")
    shot(page, "expeditions_start")
    url = page.url
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
