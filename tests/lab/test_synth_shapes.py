"""The structures' shapes in the synthetic frames: blocks (the training images') or moulded,
arched dam walls and round pipes (``lab.synth.shapes``)."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from automa.barrage.setup import new_game
from automa.barrage.state import Dam
from automa_vision.cli import main as cli_main
from lab.synth import pieces
from lab.synth.pairs import solids_before, table_of
from lab.synth.render import Options, render
from lab.synth.shapes import ARCH_SEGMENTS, BLOCKS, PIPE_SIDES, Shapes, arch_outlines, pipe, shapes
from lab.turn_eval import truth_map

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


def _convex(outline: np.ndarray) -> bool:
    edges = np.roll(outline, -1, 0) - outline
    turns = np.cross(edges, np.roll(edges, -1, 0))
    return bool((turns > 0).all() or (turns < 0).all())


def _area(outline: np.ndarray) -> float:
    x, y = outline.T
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def test_an_arch_spans_the_dam_and_bulges_by_its_sagitta():
    arch = Shapes("moulded", bend=0.25, wall=0.5, side=1)
    w, d = 60.0, 20.0
    parts = arch_outlines(0.0, 0.0, w, d, 0.0, arch)
    assert len(parts) == ARCH_SEGMENTS and all(_convex(p) for p in parts)
    points = np.vstack(parts)
    # Every corner lies on the wall's two faces: circles about one centre, half the thickness
    # (0.5 d / 2 = 5) either side of the centre line, whose radius makes a chord of w with a
    # sagitta of 0.25 w = 15, the crown 7.5 past the space's centre and the ends 7.5 short of it.
    radius = (w * w / 4 + 15.0 ** 2) / 30.0
    thick = 10.0
    centre = np.array([0.0, 7.5 - radius])
    ring = np.linalg.norm(points - centre, axis=1)
    assert np.isclose(ring, radius - thick / 2).sum() == np.isclose(ring, radius + thick / 2).sum() == len(points) / 2
    half = math.asin(w / 2 / radius)
    turns = np.arctan2(*(points - centre).T)
    assert turns.min() == pytest.approx(-half) and turns.max() == pytest.approx(half)
    assert points[:, 0].max() == pytest.approx((radius + thick / 2) * (w / 2) / radius)
    # Its area: five ring sectors cut along their chords, each a difference of two triangles.
    sector = 0.5 * ((radius + thick / 2) ** 2 - (radius - thick / 2) ** 2) * math.sin(2 * half / ARCH_SEGMENTS)
    assert sum(_area(p) for p in parts) == pytest.approx(ARCH_SEGMENTS * sector)
    assert ARCH_SEGMENTS * sector == pytest.approx(2 * half * radius * thick, rel=0.03)     # about the arc's length x thickness
    # Bulging the other way mirrors it across the dam's long axis; turning and moving it
    # moves every point alike.
    other = np.vstack(arch_outlines(0.0, 0.0, w, d, 0.0, Shapes("moulded", bend=0.25, wall=0.5, side=-1)))
    assert other == pytest.approx(points * (1, -1))
    moved = np.vstack(arch_outlines(100.0, 50.0, w, d, math.pi / 2, arch))
    assert np.linalg.norm(moved - (100.0, 50.0), axis=1) == pytest.approx(np.linalg.norm(points, axis=1))


def test_a_pipe_lies_on_the_board_along_its_axis():
    verts, faces = pipe(10.0, 20.0, 40.0, 6.0, math.pi / 2)
    assert verts.shape == (2 * PIPE_SIDES, 3) and len(faces) == 2 + PIPE_SIDES
    # Up is -z: it touches the board (z 0) and stands a diameter tall.
    assert verts[:, 2].max() == pytest.approx(0.0, abs=1e-9) and verts[:, 2].min() == pytest.approx(-12.0)
    # Turned a quarter, its length runs along y, its width along x.
    assert np.ptp(verts[:, 1]) == pytest.approx(40.0) and np.ptp(verts[:, 0]) == pytest.approx(12.0)
    assert verts[:, :2].mean(0) == pytest.approx((10.0, 20.0))


def test_blocks_draw_nothing_and_unknown_shapes_are_refused():
    rng = np.random.default_rng(0)
    assert shapes("blocks", rng) is BLOCKS and not BLOCKS.moulded
    assert rng.random() == np.random.default_rng(0).random()
    with pytest.raises(ValueError, match="shapes must be one of"):
        shapes("clay", rng)


def _game_with_a_raised_dam_and_a_conduit():
    state = new_game(1, 1, 0)
    company = next(iter(state.companies))
    state.dams = {"6U": Dam(company, 3, 2)}
    state.conduits = {"6A": company}
    state.headstreams = {h: 1 for h in "ABCD"}
    style = pieces.sample_style(np.random.default_rng(5))
    style.conduit_shape = "bar"
    return state, style


def test_moulded_pieces_stand_where_blocks_do():
    state, style = _game_with_a_raised_dam_and_a_conduit()
    blocks = pieces.build_solids(state, style, np.random.default_rng(3))
    moulded = pieces.build_solids(state, style, np.random.default_rng(3), Shapes("moulded", 0.2, 0.6, 1))
    # Each of the dam's three pieces is an arch of segments, at its level, without painted seams.
    for level in range(3):
        block = [s for s in blocks if s.slot == "6U" and s.level == level]
        arch = [s for s in moulded if s.slot == "6U" and s.level == level]
        assert len(block) == 1 and len(arch) == ARCH_SEGMENTS and not any(s.outlined for s in arch)
        # Same place and the same top: a moulded piece is no taller than a block one.
        centre = np.vstack([s.verts for s in arch])[:, :2].mean(0)
        assert centre == pytest.approx(block[0].verts[:, :2].mean(0), abs=6.0)
        assert min(s.verts[:, 2].min() for s in arch) == pytest.approx(block[0].verts[:, 2].min())
    # The conduit is a pipe a conduit's width round, where the bar lay.
    bar, = (s for s in blocks if s.slot == "6A")
    tube, = (s for s in moulded if s.slot == "6A")
    assert len(tube.verts) == 2 * PIPE_SIDES and tube.verts[:, 2].min() == pytest.approx(-style.conduit_width)
    assert tube.verts[:, :2].mean(0) == pytest.approx(bar.verts[:, :2].mean(0))
    # The random draws do not move: the drops stand on the same spots.
    assert pieces.drop_footprints(moulded).keys() == pieces.drop_footprints(blocks).keys()
    for key, spots in pieces.drop_footprints(blocks).items():
        assert np.array(pieces.drop_footprints(moulded)[key]) == pytest.approx(np.array(spots))


def test_the_same_seed_shows_the_same_scene_with_moulded_pieces():
    plain = render(31, Options(size=(640, 480)))
    other = render(31, Options(size=(640, 480), shapes="moulded"))
    record = other.truth["style"].pop("shapes")
    assert record["kind"] == "moulded" and Shapes(**record) == shapes("moulded", np.random.default_rng([31, 13]))
    assert other.truth == plain.truth and other.jpeg != plain.jpeg
    assert "shapes" not in plain.truth["style"]


def test_cli_shapes_the_pieces_as_asked(tmp_path):
    assert cli_main(["synth", "--n", "1", "--out", str(tmp_path), "--seed", "12", "--size", "640x480",
                     "--shapes", "moulded"]) == 0
    assert (tmp_path / "0000.jpg").read_bytes() == render(12, Options(size=(640, 480), shapes="moulded")).jpeg
    assert json.loads((tmp_path / "0000.json").read_text())["style"]["shapes"]["kind"] == "moulded"


def test_a_moulded_pictures_table_is_found_and_an_earlier_map_lifts_whole_arches():
    sample = render(930_005, Options(placement="turn", shapes="moulded"))
    table = table_of(sample.truth, sample.jpeg)
    assert table is not None and table.options.shapes == "moulded"
    now = truth_map(sample.truth)
    raised = next(s for s, d in sorted(now.dams.items()) if d.pieces > 1)
    before = replace(now, dams={**now.dams, raised: replace(now.dams[raised], pieces=1)})   # a bare base then
    kept = [s for s in solids_before(table, before) if s.slot == raised]
    assert len(kept) == ARCH_SEGMENTS and {s.level for s in kept} == {0}
    assert table_of({**sample.truth, "style": {**sample.truth["style"], "shapes": {"kind": "clay"}}}, sample.jpeg) is None


def test_pieces_drawn_per_space_stand_where_they_stood_when_another_is_built():
    """A game's turns: each space's pieces from its own stream, so a new conduit leaves every
    other piece (and the drops) where it was; one stream for all moves them all."""
    state, style = _game_with_a_raised_dam_and_a_conduit()
    later = state.copy()
    later.conduits["1A"] = next(iter(state.companies))

    def per_space(space: str) -> np.random.Generator:
        return np.random.default_rng([7, sum(map(ord, space))])

    def places(solids) -> list:
        return sorted((str(s.slot), s.level, str(s.holder), s.verts.tobytes()) for s in solids if s.slot != "1A")
    before = places(pieces.build_solids(state, style, np.random.default_rng(3), per_space=per_space))
    after = places(pieces.build_solids(later, style, np.random.default_rng(4), per_space=per_space))
    assert before == after
    shared = places(pieces.build_solids(later, style, np.random.default_rng(3)))
    assert shared != places(pieces.build_solids(state, style, np.random.default_rng(3)))
