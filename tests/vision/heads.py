"""The model's raw heads for the whole layout, written by hand: decoding tests without a net."""
from __future__ import annotations

import numpy as np

from vision.barrage.labels import MAX_DROPS, OWNERS, PIECES

from .drawn import LAYOUT

INDEX = LAYOUT.box_index()


def logits(readings: dict[str, tuple[dict[str, float], dict[str, float]]], occluded: set[str] = frozenset(),
           drops: dict[str, dict[int, float]] | None = None) -> dict[str, np.ndarray]:
    """Every box plain empty (no drops, drop counts even where ``drops`` says nothing)
    except ``readings`` (box key -> (piece probabilities, owner probabilities)) and
    ``drops`` (lake or headstream key -> drop-count probabilities)."""
    n = len(LAYOUT.boxes)
    piece = np.full((n, len(PIECES)), -20.0, np.float32)
    piece[:, PIECES.index("empty")] = 0.0
    owner = np.zeros((n, len(OWNERS)), np.float32)
    for key, (pieces, owners) in readings.items():
        i = INDEX[key]
        piece[i] = np.log([pieces.get(p, 1e-9) for p in PIECES])
        owner[i] = np.log([owners.get(o, 1e-9) for o in OWNERS])
    counts = np.zeros((n, MAX_DROPS + 1), np.float32)
    for key, p in (drops or {}).items():
        counts[INDEX[key]] = np.log([p.get(d, 1e-9) for d in range(MAX_DROPS + 1)])
    occ = np.full((n, 1), -8.0, np.float32)
    for key in occluded:
        occ[INDEX[key]] = 8.0
    return {"piece": piece, "owner": owner, "drops": counts, "occluded": occ}


class RecordingSession:
    """An ONNX session stand-in for one model: keeps the crops it is fed (``fed``, the last
    run's; ``feeds``, every run's) and reads every crop alike, ``answer`` (output name -> one
    crop's values); what it said last is ``out``."""

    def __init__(self, answer: dict[str, list[float] | np.ndarray]):
        self.answer = answer
        self.fed: np.ndarray | None = None
        self.feeds: list[np.ndarray] = []
        self.out: dict[str, np.ndarray] = {}

    def run(self, names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.fed = feeds["crops"]
        self.feeds.append(self.fed)
        self.out = {k: np.tile(np.asarray(v, np.float32), (len(self.fed), 1)) for k, v in self.answer.items()}
        return [self.out[k] for k in names]
