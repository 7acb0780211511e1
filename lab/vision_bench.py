"""Figures for ``automa-vision bench``: speed on one synthetic 1280x720 frame read
repeatedly, and accuracy on the committed fixture images.

``frame_ms_median`` is the steady state at the table (registration cached,
the board has not moved); ``printed_*`` the same on a held-out printed table, read against
its empty board and by the pipeline alone; ``registration_ms_cold`` is the first frame's
marker detection and homography. ``fixture_*`` compare the readings of the
30 committed fixtures with markers against their ground truth (the issue-4
goal: slot error <= 0.0005, boards fully correct >= 0.99); ``fixture_stability_*``
count the stable states of 10 clean fixtures each seen as two noisy still spells
around a passing hand, and score the first (``lab.stability_eval``). The larger held-out sets are
measured with ``automa-vision eval-sets`` (the goal's nine, ``make bench`` after this), ``automa-vision
eval`` and ``lab.stability_eval`` (docs/benchmarks.md).
"""
from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from vision.barrage.pipeline import Pipeline


def synthetic_frame(seed: int = 7) -> np.ndarray:
    from .synth.render import Options, render  # the generator is only needed to make the test frame

    sample = render(seed, Options(size=(1280, 720), occlusion=0.0))
    return cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_COLOR)


def frame_figures(frames: int = 40, cold_runs: int = 5, frame: np.ndarray | None = None) -> dict:
    frame = synthetic_frame() if frame is None else frame
    pipeline = Pipeline.load()
    cold = [pipeline.register_cold(frame) for _ in range(cold_runs)]
    totals, stages, reading = _steady(pipeline, frame, frames)
    return {
        "frame_ms_median": float(np.median(totals)),
        "frame_ms_p95": float(np.percentile(totals, 95)),
        "registration_ms_cold": float(np.median(cold)),
        "stage_ms_median": {k: float(np.median([s[k] for s in stages])) for k in stages[0]},
        "frame_size": [int(frame.shape[1]), int(frame.shape[0])],
        "registration_source": reading.registration,
    }


# A held-out printed table with a 1280x720 webcam (``lab.reference_tables``), and a game on it.
PRINTED_TABLE, PRINTED_GAME = 940, 3


def reference_frame_figures(frames: int = 40) -> dict:
    """The steady state on a calibrated printed board: a frame of a game on a held-out printed
    table read against its empty board (``automa-vision calibrate``), and by the pipeline
    alone, registration cached."""
    import tempfile

    from calibration.adapt import calibrate
    from vision.barrage.reference_reading import ReferenceReader

    from .reference_tables import TableShots

    shots = TableShots(PRINTED_TABLE)
    frame, _, _ = shots.frame(PRINTED_GAME)
    with tempfile.TemporaryDirectory() as folder:
        calibrate(shots.empty(), Path(folder))
        reader = ReferenceReader.load(folder)
    against, _, _ = _steady(reader, frame, frames, shots.companies)
    alone, _, _ = _steady(Pipeline.load(), frame, frames, shots.companies)
    return {"printed_frame_size": [int(frame.shape[1]), int(frame.shape[0])],
            "printed_reference_frame_ms_median": float(np.median(against)),
            "printed_pipeline_frame_ms_median": float(np.median(alone))}


def _steady(reader, frame: np.ndarray, frames: int, companies=None) -> tuple[list[float], list[dict], object]:
    """Each of ``frames`` readings of ``frame`` timed (ms) after a warm-up, with its stages."""
    for _ in range(3):       # warm-up: onnxruntime allocates its buffers on the first runs
        reader.read_frame(frame, companies)
    totals, stages = [], []
    for _ in range(frames):
        t0 = time.perf_counter()
        reading = reader.read_frame(frame, companies)
        totals.append((time.perf_counter() - t0) * 1000)
        stages.append(reading.timings)
    return totals, stages, reading


FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "synth"


def accuracy_figures(folder: Path = FIXTURES) -> dict:
    """Slot error and boards fully correct on the fixtures with markers (real ONNX inference)."""
    from .evaluate import evaluate_folder, summary

    tally = evaluate_folder(folder, Pipeline.load(), select=lambda p: not p.name.startswith("nomarkers"))
    if tally.images == 0:
        return {}
    figures = summary(tally)
    keep = ("n_images", "slot_error", "boards_fully_correct", "boards_not_found", "drop_count_error",
            "occluded_reported_unknown", "errors_flagged", "boards_with_every_error_flagged")
    return {f"fixture_{k}": figures[k] for k in keep}


def stability_figures(folder: Path = FIXTURES, n: int = 10, spell: int = 10) -> dict:
    """One state per untouched board, or phantom ones (sensor noise; ``lab.stability_eval``),
    and how right the first state is."""
    from .stability_eval import evaluate

    figures = evaluate(folder, n, spell)
    if figures["boards"] == 0:
        return {}
    keep = ("boards", "boards_one_state", "boards_no_state", "boards_phantom_move", "corrections",
            "stable_slot_error")
    return {f"fixture_stability_{k}": figures[k] for k in keep}


if __name__ == "__main__":
    import json
    print(json.dumps(frame_figures() | accuracy_figures() | stability_figures(), indent=1))
