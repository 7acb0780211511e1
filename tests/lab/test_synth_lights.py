"""The light on the synthetic pieces: one distant light (the training images'), lamps
near the table, each casting its own shadow, or the one light brought down low."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from automa.barrage.setup import new_game
from automa.barrage.state import Dam
from lab.elevation_cues import elevation_cues
from lab.synth import pieces
from lab.synth.camera import Camera
from lab.synth.lights import LOW, Lamp, Sun, from_record, lamps, lighting
from lab.synth.render import Options, render
from vision.layout import load_layout

from .test_synth import decode

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


def test_a_distant_light_casts_every_shadow_the_same_way():
    sun = Sun(azimuth=0.0, elevation=45.0, shadow=0.3)
    # 45 degrees up, a point h up throws its shadow h along the board, away from the light (+x).
    tops = np.array([[100.0, 50.0, -20.0], [700.0, 900.0, -20.0], [5.0, 5.0, 0.0]])
    assert np.allclose(sun.ground(tops), [[80.0, 50.0], [680.0, 900.0], [5.0, 5.0]])
    assert np.allclose(sun.towards(tops[0]), sun.towards(tops[1]))


def test_a_lamps_shadows_fan_out_from_under_it_longer_the_farther_the_piece():
    lamp = Lamp((0.0, 0.0, -1000.0), share=1.0, shadow=0.3, blur=2.0)
    # Similar triangles: a top h up, d from the lamp's foot, is shadowed at d * H / (H - h).
    tops = np.array([[0.0, 0.0, -20.0], [100.0, 0.0, -20.0], [0.0, -400.0, -20.0]])
    ground = lamp.ground(tops)
    assert np.allclose(ground, [[0.0, 0.0], [100.0 * 1000 / 980, 0.0], [0.0, -400.0 * 1000 / 980]])
    reach = np.linalg.norm(ground - tops[:, :2], axis=1)
    assert reach[0] == pytest.approx(0.0) and reach[2] > reach[1] > 0
    assert np.allclose(lamp.towards(np.array([0.0, 0.0, 0.0])), [0.0, 0.0, -1.0])


def test_lamps_share_the_light_and_stand_above_the_table():
    for seed in range(30):
        drawn = lamps(np.random.default_rng(seed), (500.0, 732.0), 887.0, 1280)
        assert 2 <= len(drawn) <= 3
        assert sum(lamp.share for lamp in drawn) == pytest.approx(1.0, abs=1e-3)
        # Each lamp's shadows darken by its share of the whole darkness.
        darkness = sum(lamp.shadow for lamp in drawn)
        assert 0.3 - 1e-3 <= darkness <= 0.75 + 1e-3
        assert all(lamp.shadow == pytest.approx(darkness * lamp.share, abs=1e-3) for lamp in drawn)
        for lamp in drawn:
            x, y, z = lamp.position
            assert -2500 <= z <= -640 and math.hypot(x - 500, y - 732) <= 1.5 * 887 + 1e-6
            assert 2.0 <= lamp.blur <= 7.0
    assert lamps(np.random.default_rng(4), (500.0, 732.0), 887.0, 640)[0].blur == \
        pytest.approx(lamps(np.random.default_rng(4), (500.0, 732.0), 887.0, 1280)[0].blur / 2, abs=1e-3)


def _one_tall_dam_seen_from_above() -> tuple[list[pieces.Solid], Camera, np.ndarray]:
    """A three-piece dam on 6U, a camera straight above it whose 400x400 picture shows the
    board 1:1 around it, and the dam's centre on the board."""
    state = new_game(1, 1, 0)
    state.dams = {"6U": Dam(next(iter(state.companies)), 3, 0)}
    state.headstreams = {h: 0 for h in "ABCD"}
    style = pieces.sample_style(np.random.default_rng(5))
    style.jitter_px, style.jitter_deg = 0.0, 0.0
    cx, cy = load_layout().slot("6U").centre
    # World z points into the table, so a camera looking down has the world's own axes.
    cam = Camera((400, 400), np.array([[2000.0, 0, 200], [0, 2000.0, 200], [0, 0, 1]]), np.eye(3),
                 np.array([-cx, -cy, 2000.0]), 0.0)
    solids = pieces.build_solids(state, style, np.random.default_rng(5))
    return solids, cam, np.mean([s.verts[:, :2].mean(0) for s in solids], axis=0)


def test_each_lamp_casts_its_own_shadow():
    solids, cam, (x, y) = _one_tall_dam_seen_from_above()
    east = Lamp((x + 300.0, y, -400.0), share=0.5, shadow=0.4, blur=2.0)
    west = Lamp((x - 300.0, y, -400.0), share=0.5, shadow=0.4, blur=2.0)

    def shadowed(lights: list[Lamp]) -> np.ndarray:
        img = np.full((400, 400, 3), 200, np.uint8)
        pieces.draw_shadows(img, cam, solids, lights)
        return img[..., 0]

    # The picture is the board 1:1 around the dam; its base's footprint spans x0..x1.
    base = solids[0].verts
    x0, x1 = base[:, 0].min() - x + 200, base[:, 0].max() - x + 200
    xs = np.nonzero(shadowed([east]) < 190)[1]
    assert xs.min() < x0 - 10 and xs.max() < x1 + 4             # away from the lamp: to the west only
    both = shadowed([east, west])
    xs = np.nonzero(both < 190)[1]
    assert xs.min() < x0 - 10 and xs.max() > x1 + 10            # and to the east, from the other lamp
    # Under the dam both shadows fall: darkened by each lamp's 0.4 in turn.
    assert both[200, 200] == pytest.approx(200 * 0.6 * 0.6, abs=3)


def test_lamps_light_the_same_scene_and_the_truth_says_so():
    one = render(930_003, Options(size=(640, 480), occlusion=0.0))
    lit = render(930_003, Options(size=(640, 480), occlusion=0.0, lighting="lamps"))
    assert "lighting" not in one.truth["style"]
    record = lit.truth["style"]["lighting"]
    assert record["kind"] == "lamps" and 2 <= len(record["lights"]) <= 3
    assert all(isinstance(from_record(light), Lamp) for light in record["lights"])
    # Everything but the light is the seed's: state, camera, slots.
    for key in ("state", "slots", "homography"):
        assert lit.truth[key] == one.truth[key]
    difference = cv2.absdiff(decode(one.jpeg), decode(lit.jpeg))
    assert difference.max() > 60                     # pieces lit and shadowed otherwise
    assert render(930_003, Options(size=(640, 480), occlusion=0.0, lighting="lamps")).jpeg == lit.jpeg
    with pytest.raises(ValueError, match="lighting"):
        Options(lighting="candles")


def test_a_lamp_lit_truth_has_a_lean_but_no_one_shadow():
    one = render(930_004, Options(size=(640, 480), occlusion=0.0)).truth
    lit = render(930_004, Options(size=(640, 480), occlusion=0.0, lighting="lamps")).truth
    a, b = elevation_cues(one, "6U"), elevation_cues(lit, "6U")
    assert b.lean == pytest.approx(a.lean) and a.shadow is not None and b.shadow is None
    # A lighting record that is not the generator's gives no cues, as any other such truth.
    lit["style"]["lighting"]["lights"] = ["a lamp"]
    assert elevation_cues(lit, "6U") is None


def test_a_low_light_is_the_styles_own_brought_down():
    style = pieces.sample_style(np.random.default_rng(2))
    (low,) = lighting("low", np.random.default_rng(0), style.sun, (500.0, 732.0), 887.0, 1280)
    assert LOW[0] <= low.elevation <= LOW[1] < style.light_elevation
    assert (low.azimuth, low.shadow, low.blur) == (style.light_azimuth, style.shadow, 2.0)
    assert lighting("one", np.random.default_rng(0), style.sun, (500.0, 732.0), 887.0, 1280) == (style.sun,)
    with pytest.raises(ValueError, match="lighting"):
        lighting("candles", np.random.default_rng(0), style.sun, (500.0, 732.0), 887.0, 1280)


def test_lights_come_back_from_their_records():
    lights = (Sun(30.0, 20.0, 0.4), *lamps(np.random.default_rng(1), (500.0, 732.0), 887.0, 1280))
    assert tuple(from_record(light.record()) for light in lights) == lights
    for bad in ({"torch": {}}, "lamp", {}, {"sun": {}, "lamp": {}}):
        with pytest.raises(ValueError, match="not a light"):
            from_record(bad)


def test_under_a_low_light_a_dams_shadow_reaches_farther():
    one = render(930_005, Options(size=(640, 480), occlusion=0.0)).truth
    low = render(930_005, Options(size=(640, 480), occlusion=0.0, lighting="low")).truth
    assert low["style"]["lighting"]["kind"] == "low" and low["slots"] == one["slots"]
    a, b = elevation_cues(one, "6U"), elevation_cues(low, "6U")
    assert b.lean == pytest.approx(a.lean) and b.shadow > a.shadow
