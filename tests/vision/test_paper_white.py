"""The markers' white paper sets the colour balance: a board printed in strong colours
no longer tints the pieces on it."""
import json
import shutil
from pathlib import Path

import cv2
import numpy as np

from lab.training.dataset import build
from vision.paper_white import frame_paper, marker_levels, paper_white
from vision.rectify import crops_from_frame
from vision.registration import Registrar

from .drawn import LAYOUT, MARGIN, board_canvas, camera_view

CAST = np.array([0.6, 0.8, 0.95])     # a camera's white balance, BGR


def _registered(frame: np.ndarray):
    return Registrar(LAYOUT).register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))


def _around(corners: np.ndarray) -> tuple[slice, slice]:
    """The frame rows and columns of a marker's bounding box."""
    x0, y0 = corners.min(0).astype(int)
    x1, y1 = corners.max(0).astype(int)
    return slice(y0, y1), slice(x0, x1)


def test_paper_is_read_from_the_markers_white_cells_under_a_colour_cast():
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, tilt=0.05)
    cast = np.clip(frame * CAST, 0, 255).astype(np.uint8)
    reg = _registered(cast)
    assert reg.markers == 4
    assert np.abs(paper_white(cast, reg.corners) - 255 * CAST).max() < 8
    paper, ink = marker_levels(cast, 0, reg.corners[0])
    assert ink.max() < 30 < paper.min()


def test_the_cached_registration_keeps_the_markers_corners():
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT)
    reg = Registrar(LAYOUT)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    first, second = reg.register(gray), reg.register(gray)
    assert second.source == "cached" and second.markers == 4
    assert all(np.array_equal(first.corners[i], second.corners[i]) for i in range(4))


def test_a_marker_in_a_shadow_washed_out_or_on_coloured_paper_is_left_out():
    frame, _ = camera_view(board_canvas(LAYOUT), LAYOUT, tilt=0.05)
    corners = _registered(frame).corners
    shadowed = frame.copy()
    rows, cols = _around(corners[0])
    shadowed[rows, cols.start:(cols.start + cols.stop) // 2] //= 2   # marker 0's left half: 2 of its 7 white cells
    assert marker_levels(shadowed, 0, corners[0]) is None
    washed = frame.copy()
    box = _around(corners[1])
    washed[box] = 180 + washed[box] // 8               # glare over marker 1: no contrast left
    assert marker_levels(washed, 1, corners[1]) is None
    yellow = frame.copy()
    yellow[_around(corners[2]) + (0,)] //= 3            # marker 2 printed on yellow paper
    assert marker_levels(yellow, 2, corners[2]) is None
    # The others still give the paper. (A shadow over most of a marker's white cells passes
    # the check; the median over the markers outvotes it.)
    assert np.abs(paper_white(shadowed, corners) - 255).max() < 8


def test_no_markers_no_paper():
    frame, _ = camera_view(board_canvas(LAYOUT, markers=False), LAYOUT)
    assert paper_white(frame, {}) is None
    assert frame_paper(frame, LAYOUT) is None


def test_the_paper_keeps_a_grey_piece_grey_on_a_board_printed_in_strong_colours():
    canvas = board_canvas(LAYOUT)
    board = canvas[MARGIN:MARGIN + LAYOUT.height, MARGIN:MARGIN + LAYOUT.width]
    board[:] = np.clip(board * np.array([0.35, 0.7, 1.4]), 0, 255).astype(np.uint8)   # a red-orange print
    box = LAYOUT.slots[[b.id for b in LAYOUT.slots].index("4B")]
    x, y = int(box.x) + MARGIN, int(box.y) + MARGIN
    cv2.rectangle(canvas, (x + 4, y + 4), (x + int(box.w) - 4, y + int(box.h) - 4), (120, 120, 120), -1)
    frame, H = camera_view(canvas, LAYOUT, tilt=0.05)
    frame = np.clip(frame * CAST, 0, 255).astype(np.uint8)
    i = [b.key for b in LAYOUT.boxes].index("4B")

    def spread(paper):
        _, crops = crops_from_frame(frame, H, LAYOUT, paper=paper)
        centre = crops[i, 20:28, 20:28].reshape(-1, 3).mean(0)
        return centre.max() - centre.min()
    assert spread(frame_paper(frame, LAYOUT)) < 10       # grey stays grey
    assert spread(None) > 40                             # the board's median taken for grey tints it


def test_training_crops_are_balanced_by_the_paper_except_a_chosen_share(tmp_path):
    """Training cuts its crops as the pipeline does (paper white from the markers found in
    the image); ``no_paper_share`` of the images stand for frames registered without markers."""
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
    for name in ("clean_00", "clean_01"):
        for ext in (".jpg", ".json"):
            shutil.copy(fixtures / (name + ext), tmp_path / (name + ext))
    with_paper = build(tmp_path, LAYOUT, copies=1, seed=5)
    without = build(tmp_path, LAYOUT, copies=1, seed=5, no_paper_share=1.0)
    n = len(LAYOUT.boxes)
    frame = cv2.imread(str(tmp_path / "clean_00.jpg"))
    H = np.asarray(json.loads((tmp_path / "clean_00.json").read_text())["homography"])
    rng = np.random.default_rng([5, 0])      # build's stream for the folder's first image:
    rng.random()                             # whether it is cut without the paper, then
    jitter = rng.uniform(-2.5, 2.5, (n, 4))  # its crops' jitter
    for crops, paper in ((with_paper.crops, frame_paper(frame, LAYOUT)), (without.crops, None)):
        _, expected = crops_from_frame(frame, H, LAYOUT, jitter, paper=paper)
        assert np.array_equal(crops[:n], expected)
    assert frame_paper(frame, LAYOUT) is not None
    assert not np.array_equal(with_paper.crops, without.crops)
    assert np.array_equal(with_paper.piece, without.piece)
