"""Crops: one per slot and lake, fixed size, in the right place, stretched away from the\ncamera's nadir as far as pieces lean."""
import numpy as np

from vision.rectify import CROP, HEIGHT, MAX_GAIN, VIEW_SCALE, crops_from_frame, normalise_colour, plan_crops

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


def test_crops_stretch_away_from_the_camera_as_far_as_the_tallest_piece_leans():
    camera = np.array([500.0, 732.0, 2000.0])        # over the board's centre, 2000 px up
    plain = plan_crops(LAYOUT, camera, heights={k: 0.0 for k in HEIGHT})
    leaning = plan_crops(LAYOUT, camera)
    i = [b.key for b in LAYOUT.boxes].index("1U")          # top-left of the board
    box = LAYOUT.boxes[i]
    expected = (np.array(box.centre) - camera[:2]) * HEIGHT["dam"] / (2000 - HEIGHT["dam"]) * VIEW_SCALE
    assert np.allclose(leaning.rects[i][:2] - plain.rects[i][:2], expected, atol=1e-3)
    assert np.allclose(leaning.rects[i][2:], plain.rects[i][2:])
    higher = plan_crops(LAYOUT, camera * [1, 1, 2])         # twice as high: half the lean
    assert np.allclose(higher.rects[i][:2] - plain.rects[i][:2], expected / 2, rtol=0.05)


def test_colour_normalisation_removes_a_colour_cast():
    frame, H = camera_view(board_canvas(LAYOUT), LAYOUT)
    cast = np.clip(frame * np.array([0.7, 1.0, 1.2]), 0, 255).astype(np.uint8)
    a, _ = crops_from_frame(frame, H, LAYOUT)
    b, _ = crops_from_frame(cast, H, LAYOUT)
    assert np.abs(a.astype(int) - b).mean() < 6
    assert np.abs(normalise_colour(frame).reshape(-1, 3).mean(0) - 128).max() < 40


def test_a_dark_frame_is_lifted_at_most_max_gain():
    """A dark frame's median is not lifted all the way to mid-grey: what is bright in it
    would be clipped to white. A frame of ordinary exposure is normalised as before."""
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT)
    assert np.array_equal(normalise_colour(frame), normalise_colour(frame, max_gain=np.inf))
    dark = (frame * 0.3).astype(np.uint8)
    lifted = normalise_colour(dark)
    assert abs(lifted.astype(float).mean() / dark.astype(float).mean() - MAX_GAIN) < 0.05
    assert (lifted == 255).mean() < (normalise_colour(dark, max_gain=np.inf) == 255).mean()
