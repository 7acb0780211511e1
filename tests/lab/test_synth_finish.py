"""The pieces' surfaces in the synthetic frames: matte (the training images'), glossy
plastic that glints where a face mirrors a light towards the camera, or clear water drops
that let the board show through."""
from __future__ import annotations

import json

import numpy as np
import pytest

from automa_vision.cli import main as cli_main
from lab.synth import pieces
from lab.synth.camera import Camera
from lab.synth.finish import MATTE, Finish, finish
from lab.synth.lights import Sun
from lab.synth.render import Options, render
from vision.layout import load_layout

from .test_synth_lights import _one_tall_dam_seen_from_above

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

OVERHEAD = Sun(azimuth=0.0, elevation=90.0, shadow=0.3)
UP = np.array([0.0, 0.0, -1.0])          # a top face's normal: z points into the table


def test_a_face_that_mirrors_the_light_at_the_camera_takes_the_whole_gloss():
    glossy = Finish("glossy", gloss=0.8, shininess=20.0, glint=0.5)
    centre, eye = np.zeros(3), np.array([0.0, 0.0, -2000.0])
    assert glossy.shine(UP, centre, eye, [OVERHEAD]) == pytest.approx(0.8)
    # A light 30 degrees up: the half-vector leans 30 degrees off the top face's normal,
    # and cos(30)^20 ~ 0.056 of the gloss is left.
    low = Sun(azimuth=0.0, elevation=30.0, shadow=0.3)
    assert glossy.shine(UP, centre, eye, [low]) == pytest.approx(0.8 * np.cos(np.radians(30)) ** 20, rel=1e-6)
    sharper = Finish("glossy", gloss=0.8, shininess=40.0, glint=0.5)
    assert sharper.shine(UP, centre, eye, [low]) < glossy.shine(UP, centre, eye, [low])
    # A face turned away from the half-vector takes none; a matte one never does.
    assert glossy.shine(np.array([1.0, 0.0, 0.0]), centre, eye, [OVERHEAD]) == 0.0
    assert MATTE.shine(UP, centre, eye, [OVERHEAD]) == 0.0


def test_lights_share_the_glint():
    glossy = Finish("glossy", gloss=0.6, shininess=10.0, glint=0.5)
    centre, eye = np.zeros(3), np.array([0.0, 0.0, -2000.0])
    half = Sun(azimuth=0.0, elevation=90.0, shadow=0.3, share=0.5)
    assert glossy.shine(UP, centre, eye, [half]) == pytest.approx(0.3)
    assert glossy.shine(UP, centre, eye, [half, half]) == pytest.approx(0.6)


def test_a_glossy_dam_glints_inside_its_top_face_only():
    solids, cam, _ = _one_tall_dam_seen_from_above()
    glossy = Finish("glossy", gloss=0.9, shininess=10.0, glint=0.5)
    style = pieces.sample_style(np.random.default_rng(5))

    def drawn(surface: Finish) -> np.ndarray:
        img = np.full((400, 400, 3), 90, np.uint8)
        pieces.draw_solids(img, cam, solids, style, [OVERHEAD], surface)
        return img.astype(int)

    matte, shiny = drawn(MATTE), drawn(glossy)
    changed = np.abs(shiny - matte).max(2) > 0
    assert changed.any()
    # The glint lies within the dam's outline (pixels off the dam stay the board's), and it
    # is brighter: towards white.
    assert (matte[changed] != 90).any(axis=1).all()
    assert (shiny[changed].sum(1) > matte[changed].sum(1)).all()
    # Half the top face's outline across: about a quarter of its area, not all of it.
    top = solids[-1]
    px = cam.ideal(top.verts[top.verts[:, 2] == top.verts[:, 2].min()])
    area = 0.5 * abs(np.cross(px[1] - px[0], px[2] - px[0])) + 0.5 * abs(np.cross(px[2] - px[0], px[3] - px[0]))
    assert 0.15 * area < changed.sum() < 0.45 * area


def _one_drop_seen_from_above(background: int, surface: Finish) -> tuple[np.ndarray, tuple[int, int]]:
    """A drop on headstream A drawn over a plain ``background``, seen 1:1 from straight above;
    its centre's pixel."""
    box = load_layout().slot("A")
    style = pieces.sample_style(np.random.default_rng(2))
    drop = pieces.add_drops(box, 1, style, np.random.default_rng(2), built=[])
    x, y = drop[0].footprint.mean(0)
    cam = Camera((200, 200), np.array([[2000.0, 0, 100], [0, 2000.0, 100], [0, 0, 1]]), np.eye(3),
                 np.array([-x, -y, 2000.0]), 0.0)
    img = np.full((200, 200, 3), background, np.uint8)
    pieces.draw_solids(img, cam, drop, style, [OVERHEAD], surface)
    return img.astype(int), (100, 100)


def test_a_clear_drop_lets_the_board_show_through():
    clear = Finish("clear", drop_opacity=0.4)
    (dark, c), (light, _) = (_one_drop_seen_from_above(b, clear) for b in (0, 250))
    # Through a drop 40 % opaque, 60 % of what lies under it shows.
    assert light[c[1], c[0]] - dark[c[1], c[0]] == pytest.approx(np.full(3, 0.6 * 250), abs=2)
    (dark, _), (light, _) = (_one_drop_seen_from_above(b, MATTE) for b in (0, 250))
    assert (light[c[1], c[0]] == dark[c[1], c[0]]).all()
    # Away from the drop, the board is untouched either way.
    assert (light[0, 0] == 250).all() and (dark[0, 0] == 0).all()


def test_the_same_seed_shows_the_same_scene_with_other_pieces():
    plain = render(31, Options(size=(640, 480)))
    for kind in ("glossy", "clear"):
        other = render(31, Options(size=(640, 480), finish=kind))
        record = other.truth["style"].pop("finish")
        assert record["kind"] == kind and Finish(**record) == finish(kind, np.random.default_rng([31, 9]))
        assert other.truth == plain.truth and other.jpeg != plain.jpeg
    assert "finish" not in plain.truth["style"]


def test_matte_draws_nothing_and_unknown_finishes_are_refused():
    rng = np.random.default_rng(0)
    assert finish("matte", rng) is MATTE
    assert rng.random() == np.random.default_rng(0).random()
    with pytest.raises(ValueError, match="finish must be one of"):
        finish("velvet", rng)
    with pytest.raises(ValueError, match="finish must be one of"):
        Options(finish="velvet")


def test_cli_gives_the_pieces_the_finish_asked(tmp_path):
    assert cli_main(["synth", "--n", "1", "--out", str(tmp_path), "--seed", "12", "--size", "640x480",
                     "--finish", "glossy"]) == 0
    assert (tmp_path / "0000.jpg").read_bytes() == render(12, Options(size=(640, 480), finish="glossy")).jpeg
    assert json.loads((tmp_path / "0000.json").read_text())["style"]["finish"]["kind"] == "glossy"
