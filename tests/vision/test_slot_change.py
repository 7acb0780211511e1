"""lab.synth.pairs (a frame of the same table a turn earlier) and vision.slot_change
(which boxes look different between two frames), on frames our generator renders."""
import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from automa.barrage.state import GameState
from lab.synth.pairs import frame_before, solids_before, table_of
from lab.synth.photo import encode_jpeg
from lab.synth.render import Options, render, set_table, shoot
from lab.turn_eval import truth_map
from vision.barrage.board_state import MapState
from vision.layout import load_layout
from vision.pose import camera_position
from vision.rectify import VIEW_SCALE, canonical_view, plan_crops
from vision.slot_change import MIN_PATCH, MIN_PIXELS, compact, compare, differing_pixels, drop_shapes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
SEED = 930_007
OPTIONS = Options(size=(1280, 720), photo="random", occlusion=0.0)


@cache
def table():
    return set_table(SEED, OPTIONS)


@cache
def after() -> MapState:
    return truth_map(render(SEED, OPTIONS).truth)


H = np.array(render(SEED, OPTIONS).truth["homography"])      # the generator's own: no model, no registration
CAMERA = camera_position(H, (720, 1280, 3))


def view(frame: np.ndarray) -> np.ndarray:
    return canonical_view(frame, H, load_layout())


def decoded(jpeg: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def test_the_seeds_frame_is_what_render_makes_and_its_table_is_found_from_it():
    sample = render(SEED, OPTIONS)
    assert table_of(sample.truth, sample.jpeg) is not None
    assert table_of(sample.truth, sample.jpeg[:-200] + bytes(200)) is None     # not this generator's picture


def test_a_turned_cameras_table_is_found_with_its_turned_camera():
    sample = render(SEED, replace(OPTIONS, placement="turn"))
    t = table_of(sample.truth, sample.jpeg)
    assert t is not None and np.allclose(t.cam.K, sample.truth["style"]["camera"]["K"])


def test_a_table_lit_otherwise_with_other_pieces_is_found_with_its_lights_and_pieces():
    sample = render(SEED, replace(OPTIONS, lighting="lamps", finish="glossy"))
    t = table_of(sample.truth, sample.jpeg)
    assert t is not None and t.options.lighting == "lamps" and t.finish.kind == "glossy"
    assert [light.record() for light in t.lights] == sample.truth["style"]["lighting"]["lights"]
    # A light or a surface this generator does not draw: no table made that picture.
    for key, record in (("finish", {"kind": "velvet"}), ("lighting", "lamps"), ("finish", {})):
        assert table_of(dict(sample.truth, style=dict(sample.truth["style"], **{key: record})), sample.jpeg) is None


def test_a_fixture_rendered_with_other_builds_of_the_libraries_is_still_found():
    # hard_09, rendered again by the code that made it, differs on this project's machines
    # in one 8x8 JPEG block by up to 3 grey levels (numpy and OpenCV are not pinned); on
    # others it is the same byte for byte. Its table is found either way. (The truth file keeps
    # the state format it was written in; the loader reads it as today's state.)
    truth = json.loads((FIXTURES / "hard_09.json").read_text())
    t = table_of(truth, (FIXTURES / "hard_09.jpg").read_bytes())
    assert t is not None and t.state.to_dict() == GameState.from_dict(truth["state"]).to_dict()


def test_the_same_table_with_one_piece_off_is_not_the_seeds_picture():
    now = after()
    conduit = sorted(now.conduits)[0]
    t = table()
    shot = shoot(t, solids_before(t, replace(now, conduits={s: o for s, o in now.conduits.items() if s != conduit})))
    sample = render(SEED, OPTIONS)
    jpeg = encode_jpeg(shot.frame, shot.photo_style.jpeg_quality)
    assert jpeg != sample.jpeg and table_of(sample.truth, jpeg) is None


def test_the_map_before_keeps_every_other_piece_where_it_stood():
    t, now = table(), after()
    same = solids_before(t, now)
    assert sorted(map(id, same)) == sorted(map(id, t.solids))
    conduit = sorted(now.conduits)[0]
    raised = next(s for s, d in sorted(now.dams.items()) if d.pieces > 1)
    headstream = sorted(now.headstreams)[0]
    before = replace(now, conduits={s: o for s, o in now.conduits.items() if s != conduit},
                     dams=dict(now.dams), headstreams=dict(now.headstreams))
    before.dams[raised] = replace(now.dams[raised], pieces=now.dams[raised].pieces - 1)
    before.headstreams[headstream] = now.headstreams[headstream] + 2
    solids = solids_before(t, before)
    assert not any(s.slot == conduit for s in solids)
    assert sorted(s.level for s in solids if s.slot == raised) == list(range(now.dams[raised].pieces - 1))
    key = load_layout().slot(headstream).key
    drops = [s.footprint.mean(0) for s in solids if s.holder == key]
    assert len(drops) == now.headstreams[headstream] + 2
    r = t.piece_style.drop_radius
    assert all(np.linalg.norm(p - q) >= 2 * r - 1e-6 for i, p in enumerate(drops) for q in drops[i + 1:])
    kept = {id(s) for s in t.solids}
    assert sum(id(s) in kept for s in solids) == len(t.solids) - 1 - 1   # the conduit and the top elevation


def test_an_earlier_map_cannot_hold_a_structure_the_table_lacks():
    now = after()
    free = next(s.id for s in load_layout().of_kind("conduit") if s.id not in now.conduits)
    with pytest.raises(ValueError, match="never takes one off"):
        solids_before(table(), replace(now, conduits={**now.conduits, free: "usa"}))


def test_two_frames_of_an_unchanged_table_look_the_same_everywhere():
    """Fresh sensor noise and a few percent of exposure drift change no box."""
    a = view(decoded(render(SEED, OPTIONS).jpeg))
    for seed in range(3):
        b = view(frame_before(table(), after(), seed))
        assert compare(load_layout(), a, b, CAMERA).still == {box.key for box in load_layout().boxes}


def test_a_built_conduit_and_drops_put_on_a_headstream_change_their_boxes_and_few_others():
    now = after()
    conduit = sorted(now.conduits)[0]
    headstream = sorted(now.headstreams)[0]
    before = replace(now, conduits={s: o for s, o in now.conduits.items() if s != conduit},
                     headstreams={**now.headstreams, headstream: now.headstreams[headstream] + 1})
    lay = load_layout()
    still = compare(lay, view(frame_before(table(), before, 0)), view(decoded(render(SEED, OPTIONS).jpeg)), CAMERA).still
    assert conduit not in still and headstream not in still
    assert len(still) >= len(lay.boxes) - 6        # a piece's lean and shadow reach a neighbour at most


def test_a_board_registered_half_a_pixel_off_is_still_and_a_drop_sized_blot_is_not():
    frame = decoded(render(SEED, OPTIONS).jpeg)
    lay = load_layout()
    a = view(frame)
    for shift in ((0, 0.5), (0.5, 0), (0.5, 0.5), (-0.5, 0.5)):      # view px: markers re-found
        moved = canonical_view(frame, np.diag([VIEW_SCALE, VIEW_SCALE, 1]) @ np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]])
                               @ np.diag([1 / VIEW_SCALE, 1 / VIEW_SCALE, 1]) @ H, lay)
        assert compare(lay, a, moved, CAMERA).still == {b.key for b in lay.boxes}, shift
    box = lay.slot(sorted(after().headstreams)[0])
    blot = a.copy()
    centre = (round((box.x + box.w / 2) * VIEW_SCALE), round((box.y + box.h / 2) * VIEW_SCALE))
    cv2.circle(blot, centre, 3, (255, 40, 40), -1)         # a drop's size in the view (radius 3-4 px)
    assert np.count_nonzero(differing_pixels(a, blot)) >= MIN_PIXELS
    assert {b.key for b in lay.boxes} - compare(lay, a, blot, CAMERA).still == {box.key}



def test_specks_of_noise_scattered_over_a_box_leave_it_still_and_one_patch_does_not():
    """Sensor noise through a webcam's sharpening differs in specks of a few pixels, which add
    up to ``MIN_PIXELS`` over a large box; a thing put there differs as one patch."""
    a, lay = view(decoded(render(SEED, OPTIONS).jpeg)), load_layout()
    box = max((b for b in lay.boxes if b.kind == "dam"), key=lambda b: b.w * b.h)
    x0, y0 = round(box.x * VIEW_SCALE), round(box.y * VIEW_SCALE)
    specks = a.copy()
    for k in range(4):          # 2x2 specks, MIN_PIXELS and more in all, none a patch
        specks[y0 + 3 + 4 * k:y0 + 5 + 4 * k, x0 + 3 + 5 * k:x0 + 5 + 5 * k] = 255 - specks[y0 + 3, x0 + 3]
    differing = differing_pixels(a, specks)
    assert np.count_nonzero(differing) >= MIN_PIXELS and not compact(differing).any()
    assert compare(lay, a, specks, CAMERA).still == {b.key for b in lay.boxes}
    patch = a.copy()
    cv2.circle(patch, (x0 + 8, y0 + 8), 3, (255, 40, 40), -1)
    assert np.count_nonzero(compact(differing_pixels(a, patch))) >= MIN_PATCH
    assert box.key not in compare(lay, a, patch, CAMERA).still

def test_a_drop_put_on_a_headstream_is_seen_coming_and_nothing_comes_on_a_table_left_alone():
    """Rulings V9: the drop the generator puts on headstream C shows as one drop-sized shape
    of change, under fresh sensor noise and exposure drift; with nothing moved, none."""
    now, lay = after(), load_layout()
    a = view(decoded(render(SEED, OPTIONS).jpeg))
    assert now.headstreams["C"] == 1
    before = replace(now, headstreams={**now.headstreams, "C": 0})
    for seed in range(2):
        assert compare(lay, view(frame_before(table(), before, seed)), a, CAMERA).arrived == {"C": 1}
        assert compare(lay, view(frame_before(table(), now, seed)), a, CAMERA).arrived == {}


def test_drop_shapes_are_compact_blobs_of_a_drops_size():
    """Two discs of a drop's size count; a hand's edge (a strip), specks of JPEG ringing, a
    whole tile changed (other light) and a disc too big for a drop do not."""
    tile = np.zeros((61, 101), np.uint8)
    two = tile.copy()
    cv2.circle(two, (20, 20), 7, 1, -1)
    cv2.circle(two, (60, 40), 6, 1, -1)
    assert drop_shapes(two) == 2
    clutter = tile.copy()
    clutter[:, 95:] = 1                                     # a strip along the tile's edge
    clutter[10:12, 40:42] = clutter[50:52, 70:72] = 1       # specks
    cv2.circle(clutter, (50, 30), 20, 1, -1)                # a third of the tile
    assert drop_shapes(clutter) == 0
    assert drop_shapes(np.ones_like(tile)) == 0


def test_views_of_different_sizes_are_refused():
    a = np.zeros((30, 40, 3), np.uint8)
    with pytest.raises(ValueError, match="different shapes"):
        differing_pixels(a, a[:20])


def test_pictures_under_other_light_are_not_compared():
    """A lamp switched on changes every pixel in its own way: no box can be called still."""
    a = view(decoded(render(SEED, OPTIONS).jpeg))
    relit = (255 * (a / 255.0) ** 0.6).astype(np.uint8)
    assert differing_pixels(a, relit).all()
    assert compare(load_layout(), a, relit, CAMERA).still == frozenset()


def test_a_box_blown_out_by_glare_is_never_called_still():
    """Glare clips the view to white: a conduit built there changes nothing in the picture,
    so the picture cannot say the box is the same."""
    a = view(decoded(render(SEED, OPTIONS).jpeg))
    lay = load_layout()
    box = lay.slot(sorted(s.id for s in lay.of_kind("conduit"))[0])
    x0, y0, x1, y1 = np.round(plan_crops(lay, CAMERA).rects[[b.key for b in lay.boxes].index(box.key)]).astype(int)
    glare = a.copy()
    glare[y0:y1, x0:x1] = 255          # the glare spot covers the conduit's whole rectangle
    still = compare(lay, glare, glare.copy(), CAMERA).still
    assert box.key not in still
    assert len(still) >= len(lay.boxes) - 4        # the neighbours it reaches, at most
