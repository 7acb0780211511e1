"""Registration alone, against the generator's ground truth: how many frames are
registered, how far the homography (and the lens fitted with it) is from the true one
(at the board's corners, and over a grid of board points through the generator's camera),
how long it takes cold,
and how far from the true camera the pose drawn from it puts the camera. With
``--mirrored`` each frame is flipped left to right first, as a camera set to mirror gives
it: no such frame may be registered, each should be named mirrored, and giving up should
be quick.

    python -m lab.registration_eval data/heldout_hard [--profile P] [--mirrored] [--no-lens-fit]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.barrage.pipeline import Pipeline
from vision.layout import Layout
from vision.pose import camera_position
from vision.radial_lens import RadialLens, to_board

from .evaluate import synthetic_samples
from .synth.camera import Camera


def board_corner_error(H: np.ndarray, H_true: np.ndarray, layout: Layout, lens: RadialLens | None = None) -> float:
    """Max distance (canonical px) between where ``H`` (with the ``lens`` it was fitted with)
    and ``H_true`` put the four board corners."""
    corners = np.float64([[0, 0], [layout.width, 0], [layout.width, layout.height], [0, layout.height]])
    seen = cv2.perspectiveTransform(corners[:, None], np.linalg.inv(H_true)).reshape(-1, 2)
    return float(np.abs(to_board(H, lens, seen) - corners).max())


def board_grid_error(H: np.ndarray, lens: RadialLens | None, camera: Camera, layout: Layout) -> float:
    """Max distance (canonical px) between the points of a 7 x 9 grid over the board and
    where ``H`` and its ``lens`` put the frame px the generator's camera shows them at. Unlike
    the corners' error, it sees what a lens bends between them (a homography fitted to
    the corners is exact there)."""
    gx, gy = np.meshgrid(np.linspace(0, layout.width, 7), np.linspace(0, layout.height, 9))
    grid = np.stack([gx.ravel(), gy.ravel()], 1)
    seen = camera.project(np.column_stack([grid, np.zeros(len(grid))]))
    return float(np.hypot(*(to_board(H, lens, seen) - grid).T).max())


def camera_errors(H: np.ndarray, frame_shape: tuple[int, ...], camera: Camera) -> tuple[float, float]:
    """(nadir error in canonical px, relative camera height error) of the pose from ``H``
    against the generator's camera."""
    true = camera.centre
    x, y, height = camera_position(H, frame_shape)
    return float(np.hypot(x - true[0], y - true[1])), float(abs(height / abs(true[2]) - 1))


def evaluate(folder: Path, pipeline: Pipeline) -> dict:
    errors, grid, nadir, height, cold_ms, images = [], [], [], [], [], 0
    layout = pipeline.profile.layout
    for _, gray, truth in synthetic_samples(folder, cv2.IMREAD_GRAYSCALE):
        pipeline.registrar.reset()
        reg = pipeline.registrar.register(gray)
        images += 1
        cold_ms.append(reg.ms)
        if reg.H is not None:
            errors.append(board_corner_error(reg.H, np.asarray(truth["homography"]), layout, reg.lens))
            record = truth.get("style", {}).get("camera")
            if record:
                camera = Camera.from_record(truth["image_size"], record)
                grid.append(board_grid_error(reg.H, reg.lens, camera, layout))
                n, h = camera_errors(reg.H, gray.shape, camera)
                nadir.append(n)
                height.append(h)
    e, g = np.array(errors or [np.nan]), np.array(grid or [np.nan])
    n, h = np.array(nadir or [np.nan]), np.array(height or [np.nan])
    return {"n_images": images, "registered": len(errors),
            "corner_error_px_median": float(np.median(e)), "corner_error_px_p90": float(np.percentile(e, 90)),
            "corner_error_px_max": float(e.max()), "over_20_px": int((e > 20).sum()),
            "grid_error_px_median": float(np.median(g)), "grid_error_px_p90": float(np.percentile(g, 90)),
            "nadir_error_px_median": float(np.median(n)), "nadir_error_px_p90": float(np.percentile(n, 90)),
            "camera_height_error_median": float(np.median(h)),
            "cold_ms_median": float(np.median(cold_ms or [0.0])),
            "cold_ms_p95": float(np.percentile(cold_ms or [0.0], 95))}


def evaluate_mirrored(folder: Path, pipeline: Pipeline) -> dict:
    registered, named, cold_ms = 0, 0, []
    for _, gray, _ in synthetic_samples(folder, cv2.IMREAD_GRAYSCALE):
        flipped = cv2.flip(gray, 1)
        pipeline.registrar.reset()
        reg = pipeline.registrar.register(flipped)
        cold_ms.append(reg.ms)
        registered += reg.H is not None
        named += reg.H is None and pipeline.registrar.mirrored(flipped)
    return {"n_images": len(cold_ms), "registered": registered, "named_mirrored": named,
            "cold_ms_median": float(np.median(cold_ms or [0.0])),
            "cold_ms_p95": float(np.percentile(cold_ms or [0.0], 95)),
            "cold_ms_max": float(max(cold_ms or [0.0]))}


def print_figures(figures: dict, none_read: str) -> int:
    """Print ``figures`` as one JSON line, floats to two places; the exit status: 2, with
    ``none_read`` on stderr, when no image was read."""
    if figures["n_images"] == 0:
        print(none_read, file=sys.stderr)
        return 2
    print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in figures.items()}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--profile")
    parser.add_argument("--mirrored", action="store_true",
                        help="flip each frame left to right: none may be registered")
    parser.add_argument("--no-lens-fit", action="store_true",
                        help="do not fit the lens's distortion from the markers: one homography")
    args = parser.parse_args(argv)
    pipeline = Pipeline.load(args.profile, fit_lens=not args.no_lens_fit)
    figures = (evaluate_mirrored if args.mirrored else evaluate)(Path(args.dir), pipeline)
    return print_figures(figures, f"no images with ground truth in {args.dir}")


if __name__ == "__main__":
    raise SystemExit(main())
