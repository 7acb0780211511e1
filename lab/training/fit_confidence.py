"""Fit the readings' confidence calibration (``vision.barrage.confidence``) on the tuning frames.

Reads every frame of the held-out sets named (by default the tuning group of
``lab/heldout_sets.json``, made first where missing; never the goal sets, which judge it)
through the pipeline with the decoder's confidences, as ``automa-vision eval`` reads them
(blind, one frame at a time), scores each visible reading against the ground truth, fits the
calibration and writes it:

    python -m lab.training.fit_confidence                  # ~1 min on 2 cores; writes models/barrage_confidence.json

It prints, for the fitted frames, how many readings a board the page would ask about under
each line and how many wrong readings it would not ask about, with the decoder's shares and
with the calibrated chances: the page's line (``vision.reader.LOW_CONFIDENCE``) is chosen
from that table so that the players are asked about as many readings as before.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from lab.evaluate import error_cause, synthetic_samples
from lab.heldout_sets import ensure, load_sets, select
from vision.barrage.board_state import build_map
from vision.barrage.confidence import CONFIDENCE_FILE, ConfidenceCalibration, features, fit
from vision.barrage.height_cues import lean_over_map
from vision.barrage.pipeline import Pipeline
from vision.reader import LOW_CONFIDENCE

LINES = (0.8, 0.82, 0.84, 0.85, 0.86, 0.87, 0.875, 0.88, 0.9)


def frame_rows(pipeline: Pipeline, folders: list[Path]):
    """For each readable frame: its features, whether each visible reading is right, and for the
    table whether each is flagged by a rule (the page asks about it whatever its confidence)."""
    layout = pipeline.profile.layout
    for folder in folders:
        print(f"reading {folder}", file=sys.stderr, flush=True)
        for _, frame, truth in synthetic_samples(folder):
            pipeline.registrar.reset()
            reading = pipeline.read_frame(frame)
            if reading.homography is None:
                continue
            lean = lean_over_map(reading.homography, frame.shape, layout, camera=reading.camera)
            index, x = features(reading.slots, lean)
            truth_of = {t["id"]: t for t in truth["slots"]}
            _, flags = build_map(reading.slots)
            ruled_ids = {f.slot for f in flags if not f.problem.startswith("low confidence")}
            kept = [k for k, i in enumerate(index) if not truth_of[reading.slots[i].id].get("occluded")]
            slots = [reading.slots[index[k]] for k in kept]
            right = np.array([error_cause(truth_of[r.id], r) is None for r in slots])
            ruled = np.array([r.id in ruled_ids for r in slots])
            yield x[kept], right, ruled


def asked_table(conf: np.ndarray, right: np.ndarray, ruled: np.ndarray, boards: int) -> list[str]:
    """Per line: readings asked about a board, and wrong readings not asked about."""
    return [f"{line:g}: {((conf < line) | ruled).sum() / boards:.2f} asked a board, "
            f"{(~right & (conf >= line) & ~ruled).sum()} wrong not asked" for line in LINES]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("sets", nargs="*", default=["tuning"], help="held-out sets or groups to fit on (default: tuning)")
    p.add_argument("--data", default="data", help="folder holding the sets")
    p.add_argument("--prior", type=float, default=1.0, help="pull toward the decoder's own confidences")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes making a missing set")
    p.add_argument("--out", type=Path, default=CONFIDENCE_FILE)
    args = p.parse_args(argv)
    chosen = select(load_sets(), args.sets)
    if any(h.group == "goal" for h in chosen):
        p.error("the goal sets judge the calibration: fit it on others")
    ensure(chosen, Path(args.data), args.jobs)
    pipeline = Pipeline.load(confidence=None)
    rows = list(frame_rows(pipeline, [Path(args.data) / h.name for h in chosen]))
    boards = len(rows)
    x, right, ruled = (np.concatenate(column) for column in zip(*rows))
    calibration = fit(x, right, args.prior)
    raw, calibrated = ConfidenceCalibration.identity().chances(x), calibration.chances(x)
    command = " ".join(["python -m lab.training.fit_confidence", *args.sets] + (["--prior", str(args.prior)] if args.prior != 1.0 else []))
    args.out.write_text(json.dumps({
        "what": "each visible reading's confidence -> its chance of being right (vision.barrage.confidence): per reading "
                "class sigmoid(slope * logit(confidence) + offset), plus unsure_share * log(the frame's unsure share "
                "+ 0.01) and, for a company dam, lean * log(its lean in camera px + 0.3)",
        "command": command, "sets": [h.name for h in chosen], "frames": boards, "readings": int(len(right)),
        "wrong": int((~right).sum()), "prior": args.prior, **calibration.to_dict()}, indent=1) + "\n")
    print(f"wrote {args.out}: {boards} frames, {len(right)} visible readings, {(~right).sum()} wrong")
    print("the decoder's shares (visible slots read hidden left out: the page asks about each):")
    print("\n".join("  " + line for line in asked_table(raw, right, ruled, boards)))
    print(f"calibrated (the page's line: {LOW_CONFIDENCE}):")
    print("\n".join("  " + line for line in asked_table(calibrated, right, ruled, boards)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
