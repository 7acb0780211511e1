"""The Brasil Imperial page in real Chromium: a card set made in the editor, a new game with it,
the Autômato's turns carried out with the compass drawn where the state has it, undo.
Screenshots land in tests/brasil_imperial/artifacts/."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from automa.brasil_imperial.state import load
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

    page.goto(f"{server}/brasil-imperial/")
    page.select_option("select[name=cards]", "my cards")
    page.fill("input[name=seed]", "3")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#automa-done")
    url = page.url
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
    before = len(steps(app, url))
    page.click("#undo")
    page.wait_for_load_state()
    assert len(steps(app, url)) == before - 1, "undo took back the last step"
    assert page.locator("#history li").count() == before - 1


def steps(app, url):
    sid = int(url.rstrip("/").split("/")[-1])
    with app.app_context():
        return services().store.steps(sid)
