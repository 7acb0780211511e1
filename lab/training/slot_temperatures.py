"""Honest chances for the slot model: one temperature per head, fitted on validation crops.

Each head of the slot model is overconfident or shy in its own way (the shipped model on its
60 validation images: the piece head says more than it knows, T 1.26; the owner head nearly
honest, T 1.07; the drop head loud, T 1.20; the occluded head too shy, T 0.76). The page flags a slot whose whole reading, the product of its heads' chances, is
below ``vision.reader.LOW_CONFIDENCE``, so one loud head hides the slot's mistakes and
one shy head flags right readings. ``automa-vision train`` fits the four temperatures on its
validation images and writes them into the exported graph; for a model file that has none::

    python -m lab.training.slot_temperatures --model models/barrage_slots.onnx --val data/synth/val
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from lab.evaluate import image_pairs
from vision.barrage.labels import KINDS, piece_mask
from vision.barrage.slot_model import OUTPUTS, to_input
from vision.layout import load_layout
from vision.runner import cpu_session

from .dataset import IGNORE, CropSet, build
from .temperature import fit_temperature, nll, scale_outputs

VAL_SEED = 200_000        # the validation images' first seed (lab/training/cli.py image_sets)


def head_logits(model: Path, data: CropSet, batch: int = 512) -> dict[str, np.ndarray]:
    """The exported model's four heads on every crop of ``data``."""
    session = cpu_session(model)
    parts: dict[str, list[np.ndarray]] = {h: [] for h in OUTPUTS}
    for i in range(0, len(data.crops), batch):
        out = session.run(list(OUTPUTS), {"crops": to_input(data.crops[i:i + batch], data.context[i:i + batch])})
        for head, value in zip(OUTPUTS, out):
            parts[head].append(value)
    return {h: np.concatenate(v) for h, v in parts.items()}


def fit(logits: dict[str, np.ndarray], data: CropSet) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Per head, the temperature and the validation NLL before and after it. The piece head
    is fitted where it chooses (its kind allows more than one piece), as the decoder reads
    it; the occluded head is a two-way choice (logit 0 against its own)."""
    masks = np.stack([piece_mask(k) for k in KINDS])[data.kind]
    choosing = (masks > -1).sum(1) > 1
    z = logits["occluded"].reshape(-1, 1)
    cases = {"piece": (logits["piece"] + masks, data.piece, choosing),
             "owner": (logits["owner"], data.owner, True),
             "drops": (logits["drops"], data.drops, True),
             "occluded": (np.hstack([np.zeros_like(z), z]), data.occluded.astype(np.int64), True)}
    temperatures, losses = {}, {}
    for head, (x, y, where) in cases.items():
        keep = (y != IGNORE) & where
        x, y = x[keep], y[keep]
        t = fit_temperature(x, y)
        temperatures[head] = t
        losses[head] = {"raw": round(nll(x, y), 4) if len(y) else 0.0,
                        "scaled": round(nll(x, y, t), 4) if len(y) else 0.0}
    return temperatures, losses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True, help="the slot model; its outputs are divided in place")
    parser.add_argument("--val", type=Path, required=True, help="validation images with ground truth")
    parser.add_argument("--seed", type=int, default=VAL_SEED, help="crop jitter seed, as training cuts them")
    args = parser.parse_args(argv)
    if not args.model.is_file():
        print(f"no model file at {args.model}", file=sys.stderr)
        return 2
    if not image_pairs(args.val):
        print(f"no images with ground truth in {args.val}", file=sys.stderr)
        return 2
    data = build(args.val, load_layout(), copies=1, seed=args.seed, progress="cutting validation crops")
    temperatures, losses = fit(head_logits(args.model, data), data)
    try:
        scale_outputs(args.model, temperatures)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    for head, t in temperatures.items():
        print(f"{head}: T {t:.3f}, validation NLL {losses[head]['raw']} -> {losses[head]['scaled']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
