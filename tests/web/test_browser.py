"""The pages in real Chromium: a newcomer's calibration and two Automa turns of the demo game.

Every test runs in English and in Brazilian Portuguese (the browser's language, as a player's
browser says it): the texts expected are the catalogues' own translations (``say``).
Screenshots land in tests/web/artifacts/ for a person to look at.
"""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from babel.support import Translations

from automa.barrage.names import in_words, with_code
from automa.barrage.state import GameState
from tests.browser import chromium, needs_chromium, site_fixture
from vision.barrage.board_state import MapState
from vision.barrage.pipeline import Reading
from vision.layout import load_layout
from vision.reader import Flag, SlotReading
from web import i18n
from web.barrage import game
from web.barrage.live import Live, Look, StableView
from web.services import services

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "synth" / "clean_01.jpg"
pytestmark = needs_chromium
LANGS = ["en", "pt_BR"]
A_FRAME = np.zeros((8, 8, 3), np.uint8)     # a picture from the camera: a reading is taken only with one (issue 82)
CATALOGUES = [i18n.HERE / "translations", i18n.HERE / "barrage" / "translations"]


def say(lang: str, text: str, **values) -> str:
    """``text`` as the page shows it in ``lang``: a script's text has ``{name}`` fields, a
    template's or Python's ``%(name)s`` ones; a text no catalogue of ``lang`` translates fails."""
    said = text
    if lang != "en":
        found = [Translations.load(str(folder), [lang], domain)._catalog.get(text)
                 for domain in ("js", "messages") for folder in CATALOGUES]
        said = next((f for f in found if f), None)
        assert said, f"{text!r} is in no catalogue of {lang}"
    if not values:
        return said
    return said.format(**values) if "{" in text else said % values


site = site_fixture()              # (address, Flask app) of a live server without a model file


@pytest.fixture(scope="module")
def server(site):
    return site[0]


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(params=LANGS)
def lang(request):
    return request.param


@pytest.fixture
def page(browser, lang):
    """A tab whose browser asks for ``lang`` first (Accept-Language, navigator.language)."""
    page = browser.new_page(viewport={"width": 1600, "height": 1000}, locale=lang.replace("_", "-"))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    page.close()
    assert not errors, f"JavaScript errors: {errors}"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    lang = page.evaluate("document.documentElement.lang")
    page.screenshot(path=str(ARTIFACTS / (f"{name}.png" if lang == "en" else f"{name}-{lang}.png")), full_page=True)


def test_new_user_calibrates_on_a_photo(server, page, lang):
    if not FIXTURE.exists():
        pytest.skip("no synthetic fixture image (tests/fixtures/synth/clean_01.jpg)")
    page.goto(f"{server}/calibration/")
    page.fill("#profile-name", "kitchen-table")
    page.set_input_files("#photo", str(FIXTURE))
    page.wait_for_selector("#step-1.done")
    page.click("#check-markers")
    page.wait_for_selector("#result-3.ok")
    assert "all four markers found" in page.inner_text("#result-3")
    page.click("#register-markers")
    page.wait_for_selector("#step-4.done")
    assert "Dam heights: one elevation moves a dam's top by" in page.inner_text("#result-4")
    page.set_input_files("#photo", str(FIXTURE.with_name("clean_02.jpg")))    # a new picture: find the board again
    page.wait_for_selector("#result-4.bad")
    assert page.inner_text("#result-4") == say(lang, "{why}: find the board on it again.", why=say(lang, "A new picture"))
    page.click("#register-markers")
    page.wait_for_selector("#step-4.done")
    page.click("#reference")
    page.wait_for_selector("#step-5.done")
    page.click("#show-layout")
    slot = page.wait_for_selector('#layout-editor rect[data-slot="1U"]')
    slot.scroll_into_view_if_needed()         # step 5's answer above may push it below the window
    box = slot.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 6, box["y"] + box["height"] / 2 + 3, steps=3)
    page.mouse.up()
    page.click("#save-layout")
    page.wait_for_selector("#step-6.done")
    assert page.inner_text("#result-6") == say(lang, "Layout saved: {n} slots moved from the standard layout.", n=1)
    page.click("#recognition")
    page.wait_for_function("document.getElementById('result-7').textContent.length > 0")
    assert page.inner_text("#result-7") == NO_MODEL(lang)
    page.click("#save")
    page.wait_for_selector("#step-8.done")
    shot(page, "calibration")
    page.goto(f"{server}/barrage/")
    assert page.locator('select[name="profile"] option', has_text="kitchen-table").count() == 1


def test_the_board_corners_are_clicked_on_the_picture_at_its_own_size(site, page, lang):
    """The preview is shrunk to 960 px: clicked there, a 1280 px picture's corners are chosen in
    steps of 1.3 px. In corner mode it is shown full size, so a click is a picture px."""
    if not FIXTURE.exists():
        pytest.skip("no synthetic fixture image (tests/fixtures/synth/clean_01.jpg)")
    server, app = site
    page.set_viewport_size({"width": 2400, "height": 1200})     # the whole picture in view: no scrolling to click
    page.goto(f"{server}/calibration/")
    page.fill("#profile-name", "clicked-table")
    page.set_input_files("#photo", str(FIXTURE))
    page.wait_for_selector("#step-1.done")
    page.wait_for_function("document.getElementById('preview').naturalWidth === 960")     # shrunk to preview
    page.click("#corners-mode")
    page.wait_for_function("(() => { const img = document.getElementById('preview');"
                           " return img.complete && img.naturalWidth === 1280"
                           " && Math.abs(img.getBoundingClientRect().width - 1280) < 0.5; })()")
    points = [(181, 95), (842, 88), (860, 690), (170, 702)]
    for x, y in points[:3]:
        page.locator("#preview").click(position={"x": x, "y": y})
    image = page.locator("#preview").bounding_box()
    marks = [m.bounding_box() for m in page.locator(".corner-mark").all()]
    assert len(marks) == 3                                 # each click marked where it landed
    shot(page, "calibration-corners")
    for (x, y), m in zip(points, marks):
        assert abs(m["x"] + m["width"] / 2 - image["x"] - x) <= 1.5 and abs(m["y"] + m["height"] / 2 - image["y"] - y) <= 1.5
    page.locator("#preview").click(position={"x": points[3][0], "y": points[3][1]})
    page.wait_for_selector("#step-4.done")
    assert say(lang, "Board found ({method}).", method=say(lang, "corners")) in page.inner_text("#result-4")
    page.wait_for_function("!document.querySelector('.preview').classList.contains('zoomed')")
    assert page.locator(".corner-mark").count() == 0
    wizard = app.extensions["automa_vision"].config.profiles_dir / "clicked-table" / "wizard.json"
    H = np.asarray(json.loads(wizard.read_text())["homography"])
    layout = load_layout()
    board = np.float32([[0, 0], [layout.width, 0], [layout.width, layout.height], [0, layout.height]])
    clicked = cv2.perspectiveTransform(board.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(4, 2)
    assert np.abs(clicked - np.float32(points)).max() <= 1.0, clicked


def test_corners_are_not_clicked_before_there_is_a_picture(site, page, lang):
    server, _ = site
    page.goto(f"{server}/calibration/")
    page.fill("#profile-name", "no-picture-yet")
    page.click("#corners-mode")
    page.wait_for_function("document.getElementById('result-4').textContent.length > 0")
    assert page.inner_text("#result-4") == say(lang, "take a snapshot or upload a photo first (step 1)")
    assert not page.locator(".preview").first.evaluate("e => e.classList.contains('zoomed')")


def test_two_automa_turns_on_the_demo_replay(server, page, lang):
    page.goto(server)
    shot(page, "home")
    page.click('[data-game="barrage"] a')        # the game picker
    shot(page, "barrage")
    page.click("#demo-game")
    page.wait_for_selector("#instruction")
    first = page.inner_text("#instruction")
    red_plays = say(lang, "{colour} Automa ({company}) plays", colour=say(lang, "red"), company="usa")
    assert page.inner_text(".who").strip() == red_plays[0].upper() + red_plays[1:] and "8U" in first
    # the map is drawn once its layout has loaded, which may come after the instruction
    page.wait_for_selector('#map [data-target="8U"]', state="attached")
    assert page.locator('#map [data-target="8U"]').count() == 1           # the target on the map
    assert page.inner_text("#recognition") == NO_MODEL(lang)
    page.wait_for_function("document.getElementById('camera').naturalWidth > 0")
    page.click("#why summary")
    # the trace in the page's language: its first line says which tile was flipped
    flipped = say(lang, "flipped tile {flipped}: Actions side of tile {actions}, Criteria side of tile {flipped}")
    assert page.inner_text("#why pre").startswith(flipped.split("{")[0])
    shot(page, "automa-turn-1")
    page.click("#automa-done")
    page.wait_for_selector("#human-done")
    # the human built a dam on 1U (frame 2 of the replay); without recognition, they say so on the map
    page.click('#map [data-slot="1U"]')
    page.select_option('#slot-form select[name="piece"]', "base")
    page.select_option('#slot-form select[name="owner"]', "germany")
    page.click("#slot-save")
    page.wait_for_selector('#map [data-piece="1U"]')
    shot(page, "human-turn")
    page.click("#human-done")
    page.wait_for_selector("#automa-done")
    second = page.inner_text("#instruction")
    assert second != first and page.inner_text(".who").strip() == red_plays[0].upper() + red_plays[1:]
    shot(page, "automa-turn-2")
    page.click("#automa-done")
    page.wait_for_selector("#human-done")
    assert page.locator("#history li").count() == 5     # start, Automa, correction, human, Automa
    page.click("#undo")
    page.wait_for_selector("#automa-done")
    assert page.inner_text("#instruction") == second



def NO_MODEL(lang: str) -> str:
    """The banner of a server without the model file (the tests' server)."""
    return say(lang, "Recognition unavailable: the model file %(file)s is missing (train it with `automa-vision train`). "
                     "Confirm moves by hand on the map.", file="no-model.onnx")


def demo_game_opened(site, page, automa_done: bool = False):
    """The demo game opened (its Automa's first turn confirmed with ``automa_done``): the
    session, its last step and the app's camera side."""
    url, app = site
    page.goto(f"{url}/barrage/")
    page.click("#demo-game")
    page.wait_for_selector("#automa-done")
    if automa_done:
        page.click("#automa-done")
        page.wait_for_selector("#human-done")
    sid = int(page.url.rstrip("/").split("/")[-1])
    with app.app_context():
        return sid, services().store.last(sid), services().live


def germany_to_play(site, page):
    """The demo game with germany, the human, to play."""
    return demo_game_opened(site, page, automa_done=True)


def test_a_misreading_the_rules_forbid_is_shown_apart_on_a_human_turn(site, page, monkeypatch):
    """With recognition on, a human's turn lists the moves the camera sees and draws them on
    the map; a piece the camera misses (a neutral dam read as gone) is listed apart, as not
    taken, and stays on the map; a slot read unsure is listed and ringed."""
    sid, step, live = germany_to_play(site, page)
    seen = game.map_of(GameState.from_dict(step.state))
    neutral = next(s for s, d in seen.dams.items() if d.owner == "neutral")
    del seen.dams[neutral]
    seen.conduits["1A"] = "germany"
    monkeypatch.setattr(Live, "recognition_problem", property(lambda self: None))
    unsure = (Flag("6U", "low confidence (0.62)"),)
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(A_FRAME, None, None, "aruco", seen,
                                                           stable_flags=unsure))
    page.reload()
    page.wait_for_selector("#refused")
    detected = page.inner_text("#detected")
    assert in_words("germany built a conduit on 1A") in detected and in_words(f"the dam on {neutral} was removed") in detected
    # the move is drawn on the map, ringed, as confirming would leave it; the misreading is not
    page.wait_for_selector('#map [data-seen="1A"]', state="attached")
    assert page.locator('#map [data-piece="1A"]').count() == 1
    assert page.locator("#map [data-seen]").count() == 1
    assert page.locator(f'#map [data-piece="{neutral}"]').count() == 1
    shot(page, "human-turn-refused")
    # a slot the camera is unsure of is listed and ringed for the players to look at
    assert f"{with_code('6U')}: low confidence (0.62)" in page.inner_text("#detected")
    assert page.locator("#map [data-unsure]").count() == 1 and page.locator('#map [data-unsure="6U"]').count() == 1
    # clicked, the slot's form starts from what the map shows there
    page.click('#map [data-slot="1A"]')
    assert page.input_value('#slot-form select[name="piece"]') == "conduit"
    assert page.input_value('#slot-form select[name="owner"]') == "germany"


def test_the_best_legal_move_is_one_tap_from_confirmed_and_the_runner_ups_one_tap_away(site, page, monkeypatch):
    """Moves, not boards: the move the camera's reading best explains is a button with its
    chance, two runner-ups beside it, a change no legal move explains flagged; one tap confirms."""
    sid, step, live = germany_to_play(site, page)
    seen = game.map_of(GameState.from_dict(step.state))
    seen.conduits["1A"] = "germany"
    seen.conduits["2B"] = "usa"                # not Germany's: no move of Germany's turn makes it
    seen.confidence = {"1A": 0.95, "2B": 0.9}
    monkeypatch.setattr(Live, "recognition_problem", property(lambda self: None))
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(A_FRAME, None, None, "aruco", seen))
    page.reload()
    page.wait_for_selector("#confirm-best")
    assert page.get_attribute("#confirm-best", "data-move") == "conduit:1A"
    assert in_words("germany built a conduit on 1A") in page.inner_text("#confirm-best")
    assert page.locator("#runner-ups button").count() == 2
    assert with_code("2B") in page.inner_text("#detected") and "no legal move of germany's" in page.inner_text("#detected")
    shot(page, "human-turn-ranked")
    page.click("#confirm-best")
    page.wait_for_selector("#automa-done")                        # the USA Automa's turn next
    with site[1].app_context():
        last = services().store.last(sid)
    assert last.payload["chosen"] == "conduit:1A"
    assert [c["space"] for c in last.state["map"]["conduits"]] == ["1A"]      # the flagged 2B not applied


def test_a_change_the_camera_cannot_read_is_named_on_a_human_turn(site, page, lang, monkeypatch):
    """Rulings V8: the camera reads no move, but the picture changed on a slot since the game
    last read the table (a raised dam read at its old height, say): the page names the slot
    for the players to check."""
    sid, step, live = germany_to_play(site, page)
    known = game.map_of(GameState.from_dict(step.state))
    box = live.layout(None).slot("6U")
    picture = np.random.default_rng(2).integers(0, 255, (732, 500, 3)).astype(np.uint8)
    raised = picture.copy()
    raised[round(box.y / 2):round((box.y + box.h) / 2), round(box.x / 2):round((box.x + box.w) / 2)] = 0
    camera = np.array([500.0, 700.0, 2000.0])
    with site[1].app_context():     # germany's turn reached by the camera, its picture kept
        store = services().store
    store.undo_to(sid, 0)
    store.append(sid, game.automa_done(store.last(sid)), 0, picture=StableView(picture, camera).encode())
    monkeypatch.setattr(Live, "recognition_problem", property(lambda self: None))
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(A_FRAME, None, None, "aruco", known, None,
                                                           StableView(raised, camera)))
    page.reload()
    page.wait_for_selector("#unread")
    before, after = say(lang, "The picture changed on {slots} but the camera reads no move there: "
                              "check those slots and correct the map if needed.").split("{slots}")
    unread = page.inner_text("#unread")
    assert unread.startswith(before) and unread.endswith(after) and "6U" in unread[len(before):-len(after)]
    page.wait_for_selector('#map [data-check="6U"]')          # and ringed on the map
    shot(page, "human-turn-unread")


def test_the_registration_pill_says_why_the_board_is_not_found(site, page, monkeypatch):
    """A camera set to mirror its picture: the pill names it instead of "board: none"."""
    sid, step, live = germany_to_play(site, page)
    problem = "board not found: the picture is mirrored; turn off the camera's mirror setting"
    reading = Reading(None, [], [Flag("board", problem)], "none", None, {})
    monkeypatch.setattr(Live, "recognition_problem", property(lambda self: None))
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(None, reading, None, "none"))
    page.reload()
    page.wait_for_function("document.getElementById('registration').textContent.includes('mirrored')")
    assert page.inner_text("#registration") == problem
    assert "bad" in page.get_attribute("#registration", "class")


def test_a_small_webcam_is_named_under_its_picture(site, page, monkeypatch):
    """Frames come from a webcam that gives 640x480: the page says so under the camera's
    picture while they come, and says nothing once full-size frames come."""
    sid, step, live = germany_to_play(site, page)
    assert page.is_hidden("#camera-note")                     # the demo's frames are full size
    note = "camera 0: gives 640x480 frames, smaller than 1280x720: pieces are read less reliably at this size"
    frame = np.random.default_rng(3).integers(0, 255, (480, 640, 3)).astype(np.uint8)
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(frame, None, None, "none", camera_note=note))
    page.reload()
    page.wait_for_function("document.getElementById('camera-note').textContent.includes('640x480')")
    assert page.is_visible("#camera-note") and page.inner_text("#camera-note") == note
    shot(page, "small-webcam-note")
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(frame, None, None, "none"))
    page.wait_for_selector("#camera-note", state="hidden")


def test_how_likely_the_whole_board_was_read_right_is_said_under_the_picture(site, page, lang, monkeypatch):
    """A frame read: under its picture, the chance that every visible slot was read right (the
    slots' chances multiplied, a hidden one left out); no reading, nothing said."""
    _, _, live = demo_game_opened(site, page)
    slots = [SlotReading("1U", "dam", "empty", None, 0, 0.9), SlotReading("A", "headstream", None, None, 1, 0.5),
             SlotReading("2U", "dam", None, None, None, 0.1, unknown=True)]
    reading = Reading(MapState(), slots, [], "aruco", np.eye(3), {})
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(None, reading, np.eye(3), "aruco", problem="test: no frame"))
    page.reload()
    page.wait_for_function("document.getElementById('board-chance').textContent.includes('45 %')")
    assert page.inner_text("#board-chance") == say(lang, "whole board read right: {p} likely", p="45 %")
    shot(page, "board-chance")
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(None, None, None, "aruco", problem="test: no frame"))
    page.wait_for_selector("#board-chance", state="hidden")


def test_an_automa_turn_says_what_the_camera_does_not_see_done_yet(site, page, lang, monkeypatch):
    _, step, live = demo_game_opened(site, page)
    seen = game.map_of(GameState.from_dict(step.state))            # the table as it was: nothing done yet
    monkeypatch.setattr(Live, "recognition_problem", property(lambda self: None))
    monkeypatch.setattr(live, "look", lambda *a, **k: Look(A_FRAME, None, None, "aruco", seen))
    page.reload()
    page.wait_for_selector("#waiting li")
    assert say(lang, "Not seen done yet:") in page.inner_text("#waiting")
    assert ("the red-outlined dam space of basin 8, Plains (8U): usa's dam of 1 piece; the camera sees nothing there"
            in page.inner_text("#waiting"))
    shot(page, "automa-turn-waiting")
