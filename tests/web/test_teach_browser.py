"""Step 9 of the wizard in Chromium with the shipped models: the empty printed board saved at
step 5, the pieces to set shown, two camera photos read, each space corrected as a player taps
it, the table taught (issue #79)."""
from __future__ import annotations

import cv2
import pytest

from calibration import teaching
from tests import browser
from tests.web.test_teach_table import COMPANIES, PlannedTable
from vision.barrage.reference_reading import ADAPTED
from vision.barrage.slot_model import DEFAULT_MODEL
from web.app import WebConfig, create_app

pytestmark = [pytest.mark.lab, browser.needs_chromium,
              pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason=f"no shipped model at {DEFAULT_MODEL}")]

# Each row's list set to what the plan put on that space (nothing where it put nothing), as a
# player who set the plan's pieces taps them.
CORRECT = """plan => {
  for (const tr of document.querySelectorAll("#teach-slots tr")) {
    const select = tr.querySelector("select");
    if (!select) continue;
    const slot = tr.querySelector("td").textContent;
    select.value = plan[slot] ?? (select.options[0].value.startsWith("drops") ? "drops:0" : "empty");
  }
}"""


def test_a_player_teaches_the_table_from_two_camera_photos(tmp_path):
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect
    table = PlannedTable(905)
    empty = tmp_path / "empty.jpg"
    cv2.imwrite(str(empty), table.empty())
    app = create_app(WebConfig(data_dir=tmp_path / "data", model=DEFAULT_MODEL))
    live = app.extensions["automa_vision"].live
    plan = teaching.plan(COMPANIES)
    with browser.served(app) as server, browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1500, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server}/calibration/")
        page.fill("#profile-name", "table")
        page.set_input_files("#photo", str(empty))
        expect(page.locator("#result-1")).to_contain_text("empty.jpg")
        page.click("#register-markers")
        expect(page.locator("#result-4")).to_contain_text("Board found")
        page.click("#reference")
        expect(page.locator("#result-5")).to_contain_text("The empty board is saved", timeout=30_000)
        page.uncheck(".teach-company[value=germany]")
        page.click("#teach-plan")
        expect(page.locator("#teach-list li")).to_have_count(len(plan[0]))
        for k in (1, 2):
            image = table.frame(k)[0]
            live.frame = lambda *a, **kw: image          # the camera's frame: photo k
            page.select_option("#teach-photo", str(k))
            expect(page.locator("#teach-list li").first).to_contain_text(next(iter(plan[k - 1])))
            page.click("#teach-snapshot")
            expect(page.locator("#teach-slots h3")).to_have_text(f"Photo {k}", timeout=30_000)
            expect(page.locator("#result-9")).to_contain_text(f"Photo {k} taken")
            page.evaluate(CORRECT, plan[k - 1])
        page.click("#teach")
        expect(page.locator("#result-9")).to_contain_text("Taught from 2 photos", timeout=30_000)
    assert not errors, errors
    assert (app.extensions["automa_vision"].config.profiles_dir / "table" / ADAPTED).exists()
