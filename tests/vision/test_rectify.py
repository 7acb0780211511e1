"""Crops: one per slot and lake, fixed size, in the right place, stretched away from the nadir."""
import numpy as np

from vision.rectify import CROP, LEAN, camera_nadir, crops_from_frame, normalise_colour, plan_crops

from .drawn import LAYOUT, board_canvas, camera_view


def test_one_fixed_size_crop_per_box_showing_its_slot():
    red = (20, 20, 230)
    frame, H = camera_view(board_canvas(LAYOUT, {"4B": red, "7L": red}), LAYOUT, tilt=0.05)
    view, crops = crops_from_frame(frame, H, LAYOUT)
    assert crops.shape == (len(LAYOUT.slots) + len(LAYOUT.lakes), CROP, CROP, 3)
    keys = [b.key for b in LAYOUT.boxes]

    def redness(key):
        c = crops[keys.index(key)][CROP // 3:2 * CROP // 3, CROP // 3:2 * CROP // 3].astype(int)
        return (c[..., 2] - c[..., :2].mean(-1)).mean()
    assert redness("4B") > 150 and redness("7L") > 150
    assert redness("4A") < 60 and redness("lake:7L") < 60


def test_crops_stretch_away_from_the_camera_nadir():
    nadir = np.array([500.0, 732.0])
    plain = plan_crops(LAYOUT, nadir, lean={k: 0.0 for k in LEAN})
    leaning = plan_crops(LAYOUT, nadir)
    i = [b.key for b in LAYOUT.boxes].index("1U")          # top-left of the board
    assert leaning.rects[i][0] < plain.rects[i][0] and leaning.rects[i][1] < plain.rects[i][1]
    assert np.allclose(leaning.rects[i][2:], plain.rects[i][2:])


def test_nadir_is_the_canonical_point_under_the_image_centre():
    frame, H = camera_view(board_canvas(LAYOUT), LAYOUT)
    assert np.allclose(camera_nadir(H, frame.shape), [LAYOUT.width / 2, LAYOUT.height / 2], atol=2)


def test_colour_normalisation_removes_a_colour_cast():
    frame, H = camera_view(board_canvas(LAYOUT), LAYOUT)
    cast = np.clip(frame * np.array([0.7, 1.0, 1.2]), 0, 255).astype(np.uint8)
    a, _ = crops_from_frame(frame, H, LAYOUT)
    b, _ = crops_from_frame(cast, H, LAYOUT)
    assert np.abs(a.astype(int) - b).mean() < 6
    assert np.abs(normalise_colour(frame).reshape(-1, 3).mean(0) - 128).max() < 40
