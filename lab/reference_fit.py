"""Fit the default gates of ``vision.barrage.reference_reading`` (``models/reference_gate.npz``).

``python -m lab.reference_fit [--tables N] [--frames K]``: N tables of the sampled looks the
nets were trained on (never the held-out printed look), each calibrated on its empty board
and read in K games under a light 0.65-1.35 times the empty board's; every box's difference from the empty board, labelled by whether the
game puts something there, fits one logistic gate per box kind. A few minutes on two cores.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from calibration.adapt import box_labels
from vision.barrage.pipeline import Pipeline
from vision.barrage.reference_reading import GATE_FILE, GATE_KINDS, Heads, ReferenceReader, fit_logistic
from vision.paper_white import paper_white
from vision.rectify import canonical_view

from .reference_tables import TableShots

FIRST_SEED = 400          # tables 400.. (the printed-look measurement uses 900..)
EXPOSURES = (0.65, 1.35)  # the games' light against the empty board's, drawn per table


def table_evidence(shots: TableShots, frames: int, reader) -> list[tuple]:
    """Each of ``frames`` games on ``shots``'s table read against its empty board (with
    ``reader``, whose empty view is replaced by this table's): (evidence, state) pairs."""
    pipeline = reader.pipeline
    pipeline.registrar.reset()
    empty = shots.empty()
    frame, _, reg = pipeline.register(empty)
    reader.empty_view = canonical_view(frame, reg.H, pipeline.profile.layout, paper_white(frame, reg.corners), reg.lens)
    out = []
    for k in range(1, frames + 1):
        image, _, state = shots.frame(k)
        pipeline.registrar.reset()
        ev = reader.evidence(image, shots.companies)
        if ev is not None:
            out.append((ev, state))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=8)
    p.add_argument("--frames", type=int, default=3)
    p.add_argument("--out", default=str(GATE_FILE))
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    reader = ReferenceReader(Pipeline.load(), np.zeros((1, 1, 3), np.uint8), Heads({}))
    examples = []
    for seed in range(FIRST_SEED, FIRST_SEED + args.tables):
        # the games in another light than the empty board on most tables: a lamp turned on or
        # off, the day going (the gates must not take the light for a piece)
        exposure = float(np.random.default_rng([seed, 21]).uniform(*EXPOSURES))
        examples += table_evidence(TableShots(seed, printed=False, exposure=exposure), args.frames, reader)
    layout = reader.pipeline.profile.layout
    kinds = np.array(layout.kinds)
    x = np.concatenate([ev.gate_inputs for ev, _ in examples])
    y = np.concatenate([box_labels(state, layout)[0] for _, state in examples])
    k = np.tile(kinds, len(examples))
    gates = {kind: fit_logistic(x[k == kind], y[k == kind], l2=1.0) for kind in GATE_KINDS}
    for kind, gate in gates.items():
        rows = k == kind
        right = ((gate.chance(x[rows]) >= 0.5) == y[rows]).mean()
        print(f"{kind}: {rows.sum()} boxes, {y[rows].mean():.2f} changed, {100 * right:.1f} % right on the fit")
    Heads(gates).save(Path(args.out))
    print(f"wrote {args.out} ({len(examples)} frames, {time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
