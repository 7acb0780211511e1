"""A reading's confidence as the chance that it is right: the decoder's share, calibrated.

The decoder's confidence is a reading's share of the heads' chances (``vision.barrage.slot_model.decode``).
Read over the tuning frames, that share means different things for different readings: a
company dam read at 0.8-0.85 is wrong one time in seven, an empty conduit space one time in
thirty (docs/benchmarks.md, "Confidences that mean the same for every reading"). The page asks
the players about readings under one line, so a share that says more for one kind of reading
than another asks about the wrong ones. Here each reading's share becomes its chance of being
right, by a logistic fit (Platt scaling) per reading class, with two things the share does not
know of:

- how unsure the rest of its frame is: in a frame with many unsure readings (glare, blur, a
  dark room) the sure ones are wrong more often too;
- for a company dam, how far one elevation moves its top in the camera's picture (its lean,
  ``vision.barrage.height_cues``): near the point under the camera a height hardly shows.

The fit is data (``models/barrage_confidence.json``, written by ``python -m lab.training.fit_confidence``
from the tuning frames, never from the goal sets); the logic is here. What is read does not
change, only how sure it is said to be.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ..reader import SlotReading
from ..runner import ModelFileError

CONFIDENCE_FILE = Path(__file__).resolve().parents[2] / "models" / "barrage_confidence.json"

# A reading counts toward its frame's unsure share under this raw (decoder's) confidence: the
# page's line before calibration, kept fixed so that the feature does not move with the line.
UNSURE_SHARE_LINE = 0.8
# Offsets that keep the logarithms finite: a frame with no unsure reading, a dam under the camera.
SHARE_FLOOR = 0.01
LEAN_FLOOR = 0.3           # camera px
# A confidence is kept off 0 and 1 before its logit is taken.
EPS = 1e-6

COMPANY_DAMS = ("dam base", "dam base+1", "dam base+2")
CLASSES = ("conduit empty", "conduit piece", "powerhouse empty", "powerhouse piece", "headstream",
           "dam empty", "dam neutral") + COMPANY_DAMS


def reading_class(r: SlotReading) -> str:
    """Which calibration a visible reading takes: its kind and what was read (empty or a
    piece; for a dam space: empty, the neutral dam, or a company dam by its height)."""
    if r.kind == "headstream":
        return "headstream"
    if r.piece in (None, "empty"):
        return f"{r.kind} empty"
    if r.kind == "dam":
        return "dam neutral" if r.owner == "neutral" else f"dam {r.piece}"
    return f"{r.kind} piece"


def logit(p: np.ndarray | float) -> np.ndarray:
    p = np.clip(np.asarray(p, np.float64), EPS, 1 - EPS)
    return np.log(p / (1 - p))


def unsure_share(readings: Sequence[SlotReading]) -> float:
    """The share of a frame's visible readings whose raw confidence is under ``UNSURE_SHARE_LINE``."""
    seen = [r for r in readings if not r.unknown]
    return sum(r.confidence < UNSURE_SHARE_LINE for r in seen) / len(seen) if seen else 0.0


def features(readings: Sequence[SlotReading], lean: Mapping[str, float]) -> tuple[list[int], np.ndarray]:
    """The visible readings' indices and their features, one row each: per class, the logit of
    the raw confidence and a 1 (``2 * len(CLASSES)`` columns), then the log of the frame's
    unsure share, then the log of the lean (company dams only; ``lean``: dam space -> camera
    px one elevation moves a top there, ``vision.barrage.height_cues.lean_over_map``)."""
    share = np.log(unsure_share(readings) + SHARE_FLOOR)
    rows, index = [], []
    for i, r in enumerate(readings):
        if r.unknown:
            continue
        c = CLASSES.index(reading_class(r))
        row = np.zeros(2 * len(CLASSES) + 2)
        row[2 * c], row[2 * c + 1], row[-2] = logit(r.confidence), 1.0, share
        if CLASSES[c] in COMPANY_DAMS and r.id in lean:
            row[-1] = np.log(lean[r.id] + LEAN_FLOOR)
        rows.append(row)
        index.append(i)
    return index, np.array(rows).reshape(-1, 2 * len(CLASSES) + 2)


@dataclass(frozen=True)
class ConfidenceCalibration:
    """The fitted weights, in ``features``' column order."""
    weights: np.ndarray

    @classmethod
    def identity(cls) -> "ConfidenceCalibration":
        """Every confidence as the decoder gives it (slope 1, nothing else)."""
        w = np.zeros(2 * len(CLASSES) + 2)
        w[0:2 * len(CLASSES):2] = 1.0
        return cls(w)

    @classmethod
    def load(cls, path: str | Path = CONFIDENCE_FILE) -> "ConfidenceCalibration":
        """ModelFileError (so that the page says recognition is unavailable, and why) for a file
        that is not one, or whose weights would turn a surer share into a less sure chance."""
        try:
            doc = json.loads(Path(path).read_text())
            w = [[doc["classes"][c]["slope"], doc["classes"][c]["offset"]] for c in CLASSES]
            weights = np.array(sum(w, []) + [doc["unsure_share"], doc["lean"]], np.float64)
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, ValueError):
            raise ModelFileError(f"{path}: not a confidence calibration (python -m lab.training.fit_confidence writes one)") from None
        if not np.isfinite(weights).all() or (weights[0:2 * len(CLASSES):2] <= 0).any():
            raise ModelFileError(f"{path}: every class needs a finite, positive slope")
        return cls(weights)

    def to_dict(self) -> dict:
        w = [round(float(x), 5) for x in self.weights]
        return {"classes": {c: {"slope": w[2 * i], "offset": w[2 * i + 1]} for i, c in enumerate(CLASSES)},
                "unsure_share": w[-2], "lean": w[-1]}

    def chances(self, x: np.ndarray) -> np.ndarray:
        """Each row of ``features``' ``x``: its chance of being right."""
        return 1.0 / (1.0 + np.exp(-(x @ self.weights)))

    def apply(self, readings: Sequence[SlotReading], lean: Mapping[str, float]) -> list[SlotReading]:
        """``readings`` (one frame's) with each visible one's confidence its calibrated chance
        of being right, its ``share`` the decoder's confidence it was calibrated from; unknown
        ones as they are."""
        out = list(readings)
        index, x = features(readings, lean)
        for i, p in zip(index, self.chances(x)):
            out[i] = replace(out[i], confidence=float(p), share=out[i].confidence)
        return out


def board_chance(readings: Sequence[SlotReading]) -> float:
    """The chance that every visible reading of a frame is right: their chances multiplied, as
    if each erred alone. Calibrated chances make it an honest figure (on the goal sets, boards
    given 0.9 or more are read fully right 94 % of the time, docs/benchmarks.md); slots read
    hidden say nothing and count for nothing."""
    return float(np.prod([r.confidence for r in readings if not r.unknown]))


def fit(x: np.ndarray, right: np.ndarray, prior: float = 1.0, steps: int = 50) -> ConfidenceCalibration:
    """The weights that best predict ``right`` (one bool per row of ``features``' ``x``): a
    logistic regression by Newton's method, pulled toward ``ConfidenceCalibration.identity``
    by a Gaussian prior of weight ``prior``, so that a class with few readings keeps its
    confidences nearly as they are."""
    start = ConfidenceCalibration.identity().weights
    w = start.copy()
    y = np.asarray(right, np.float64)
    for _ in range(steps):
        p = ConfidenceCalibration(w).chances(x)
        grad = x.T @ (p - y) + prior * (w - start)
        hess = (x * (p * (1 - p))[:, None]).T @ x + prior * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return ConfidenceCalibration(w)
