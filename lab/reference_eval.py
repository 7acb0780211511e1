"""The wizard's reference picture, judged where it is used: finding the board at play time
while its markers are hidden (a hand, a cup, a sleeve over them).

For each synthetic image with ground truth: the wizard registers the board by its markers
and makes its reference picture from the image (``calibration.board``); play time's
registrar sees the image once with its markers, so that it knows the camera's lens as it
would from earlier frames; then the same image with every marker painted over is registered
by matching its features to the reference picture, through that lens, as play time's
registrar does (``FeatureReference.homography``). Printed: how many images the
wizard and the features registered, and the grid error of the features' registration
(``lab.registration_eval.board_grid_error``: canonical px, the largest over a 7 x 9 grid of
board points, through the generator's camera).

By default the reference picture is cut from the very image it is matched to, the easiest
case for matching (same light, same pieces); what is left is the picture's geometry, which a
lens that bends the frame spoils when the wizard does not take it out. ``--empty``: as at a
real table, the wizard's picture is the same table before the game, no piece on the board and
no hand over it (``lab.synth.pairs``, the same camera, light and board; images the
generator cannot make again are skipped and counted). ``--no-lens-fit``: neither the wizard
nor play time fits the lens.

    python -m lab.reference_eval data/turn_random2_wide [--n 40] [--empty] [--no-lens-fit]
"""
from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from calibration import board
from lab.evaluate import synthetic_samples
from lab.registration_eval import board_grid_error, print_figures
from lab.synth.camera import Camera
from lab.synth.pairs import frame_before, table_of
from vision.barrage.board_state import MapState
from vision.layout import Layout, load_layout
from vision.registration import FeatureReference, Registrar

COVER = 1.7          # a marker's square grown by this about its centre covers its white paper too
GREY = 128


def markers_hidden(frame: np.ndarray, truth: dict, camera: Camera) -> np.ndarray:
    """``frame`` with each marker the generator placed painted over in flat grey."""
    out = frame.copy()
    for marker in truth["markers"].get("placed", []):
        corners = np.asarray(marker["corners"], np.float64)
        centre = corners.mean(0)
        square = centre + (corners - centre) * COVER
        seen = camera.project(np.column_stack([square, np.zeros(4)]))
        cv2.fillConvexPoly(out, np.round(seen).astype(np.int32), (GREY,) * out.shape[2] if out.ndim == 3 else GREY)
    return out


def empty_table(path: Path, truth: dict) -> np.ndarray | None:
    """The table of a generated image before the game: its board with no piece and no hand,
    through the same camera and light; None where the generator cannot make the image again."""
    table = table_of(truth, path.read_bytes())
    return None if table is None else frame_before(table, MapState(), 0)


def evaluate(folder: Path, layout: Layout, n: int | None = None, fit_lens: bool = True, empty: bool = False) -> dict:
    images, not_made, wizard, found, errors = 0, 0, 0, 0, []
    for path, frame, truth in synthetic_samples(folder):
        if n is not None and images >= n:
            break
        record = truth.get("style", {}).get("camera")
        if not record or not truth.get("markers", {}).get("placed"):
            continue
        images += 1
        picture = empty_table(path, truth) if empty else frame      # what the wizard was shown
        if picture is None:
            not_made += 1
            continue
        try:
            H, lens = board.register_markers(picture, layout, fit_lens)
        except ValueError:
            continue
        wizard += 1
        reference = FeatureReference.from_image(board.reference_picture(picture, H, layout, lens), layout)
        camera = Camera.from_record(truth["image_size"], record)
        # an earlier frame, its markers seen, gives play time the lens (``Registrar``)
        played = Registrar(layout, fit_lens=fit_lens).register(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)).lens
        H = reference.homography(cv2.cvtColor(markers_hidden(frame, truth, camera), cv2.COLOR_BGR2GRAY), lens=played)
        if H is not None:
            found += 1
            errors.append(board_grid_error(H, played, camera, layout))
    e = np.array(errors or [np.nan])
    return {"n_images": images, "not_made_again": not_made, "wizard_registered": wizard, "features_registered": found,
            "grid_error_px_median": float(np.median(e)), "grid_error_px_p90": float(np.percentile(e, 90)),
            "grid_error_px_max": float(e.max())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--n", type=int, help="only the first N images")
    parser.add_argument("--empty", action="store_true",
                        help="the wizard's picture: the same table before the game, no pieces, no hand")
    parser.add_argument("--no-lens-fit", action="store_true",
                        help="neither the wizard nor play time fits the lens's distortion: one homography")
    args = parser.parse_args(argv)
    figures = evaluate(Path(args.dir), load_layout(), args.n, fit_lens=not args.no_lens_fit, empty=args.empty)
    return print_figures(figures, f"no images with ground truth and markers in {args.dir}")


if __name__ == "__main__":
    raise SystemExit(main())
