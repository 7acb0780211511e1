"""What every browser test shares: Debian's Chromium driven by playwright against the app served
on a free port of 127.0.0.1 (docs/web.md, "Tests"). A test module uses it as

    pytestmark = browser.needs_chromium
    site = browser.site_fixture()
    page = browser.page_fixture()
    shot = browser.shooter(__file__)

and a phone's checks (``phone_browser, phone = browser.phone_fixture()``; ``overflow``,
``on_first_screen``, ``too_small_to_tap``).
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from werkzeug.serving import make_server

from web.app import WebConfig, create_app

CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium tries Google's hosts, which this machine refuses.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(),
                                    reason="needs Debian's Chromium at /usr/bin/chromium (make browser)")


@contextmanager
def served(app) -> Iterator[str]:
    """``app`` served on a free port of 127.0.0.1; yields its address."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by playwright (the test is skipped without playwright)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def site_fixture():
    """A module fixture: (address, app) of a fresh app with its own data folder and no model."""
    @pytest.fixture(scope="module")
    def site(tmp_path_factory):
        data = tmp_path_factory.mktemp("web")
        app = create_app(WebConfig(data_dir=data, model=data / "no-model.onnx"))
        with served(app) as address:
            yield address, app
    return site


def page_fixture(width: int = 1500, height: int = 1000):
    """A module fixture: one Chromium page; the module fails if any script on it threw."""
    @pytest.fixture(scope="module")
    def page(site):
        with chromium() as browser:
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            yield page
        assert not errors, f"JavaScript errors: {errors}"
    return page


PHONE = {"width": 390, "height": 844}
TAP = 44                                   # px: the least side of a control a finger hits


def phone_fixture():
    """Two fixtures: ``phone_browser`` (one Chromium a module) and ``phone``, a fresh page a test as a
    phone shows it (390x844, touch, twice the pixels, English); the test fails if a script threw."""
    @pytest.fixture(scope="module")
    def phone_browser():
        with chromium() as browser:
            yield browser

    @pytest.fixture
    def phone(phone_browser):
        page = phone_browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                      locale="en-US")
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        page.close()
        assert not errors, f"JavaScript errors: {errors}"
    return phone_browser, phone


def overflow(page) -> int:
    """How many pixels the page is wider than the phone (> 0: it scrolls sideways)."""
    return page.evaluate("document.documentElement.scrollWidth") - PHONE["width"]


def on_first_screen(page, selector: str) -> bool:
    """Whether ``selector`` shows whole on the phone's first screen, before any scrolling."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def too_small_to_tap(page) -> list[str]:
    """Visible controls (buttons, links, fields, a details' summary) under ``TAP`` px a side: their
    text and size, in the page's current tab."""
    return page.evaluate(f"""[...document.querySelectorAll('button, a, select, input:not([type=hidden]), summary')]
        .filter((e) => e.offsetParent !== null && !e.closest('dialog:not([open])'))
        .map((e) => [e, e.getBoundingClientRect()])
        .filter(([e, r]) => r.width > 0 && (r.width < {TAP} || r.height < {TAP}))
        .map(([e, r]) => `${{e.textContent.trim() || e.id || e.name}} ${{Math.round(r.width)}}x${{Math.round(r.height)}}`)""")


def start_game(page, server: str, game_id: str, fields: dict[str, str], ready: str) -> str:
    """From the home page, the game's link and its new-game form filled (``fields``: a field's
    name -> the value typed or chosen) and sent; waits for ``ready`` on the play page, whose
    address it gives."""
    page.goto(f"{server}/")
    page.click(f"a[href='/{game_id}/']")
    for name, value in fields.items():
        field = f"#new-game [name={name}]"
        if page.locator(field).evaluate("e => e.tagName") == "SELECT":
            page.select_option(field, value)
        else:
            page.fill(field, value)
    page.click("#new-game button[type=submit]")
    page.wait_for_selector(ready)
    return page.url


def shooter(test_file: str) -> Callable[[Any, str], None]:
    """``shot(page, name)``: a full-page screenshot ``name.png`` in the ``artifacts/`` folder
    beside ``test_file`` (a test module's ``__file__``)."""
    folder = Path(test_file).resolve().parent / "artifacts"

    def shot(page, name: str) -> None:
        folder.mkdir(exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    return shot
