"""Stable states under sensor noise: does a still board give one state, and only one?

Each synthetic frame stands for a board nobody touches: a still spell of ``--spell``
copies with fresh sensor noise (sigma 3 grey levels, JPEG quality 85), one frame with
a hand over the middle of the board, and a second still spell. The right outcome is
exactly one stable state; none means the board never settled. A later state that
differs in a slot known in both gives moves nobody made: a *correction* when the slot
now reads as the ground truth has it (an uncertain first reading put right), a
*phantom move* when it does not. The first stable state is also scored against the
ground truth (``stable_slot_error``, ``stable_boards_fully_correct``), as ``eval`` scores
single frames.

    python -m lab.stability_eval data/heldout_random [--n 40] [--spell 40] [--game-companies] [--no-mirrored]
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.barrage.changes import diff
from vision.barrage.pipeline import Pipeline
from vision.stability import StabilityFilter

from .evaluate import Tally, score_image, slot_right, summary, synthetic_samples, truth_companies

NOISE = 3.0
JPEG_QUALITY = 85


def noisy(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.clip(frame.astype(np.float32) + rng.normal(0, NOISE, frame.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1], cv2.IMREAD_COLOR)


def with_hand(frame: np.ndarray) -> np.ndarray:
    out = frame.copy()
    h, w = out.shape[:2]
    out[h // 4:3 * h // 4, w // 4:3 * w // 4] = (150, 170, 210)
    return out


def states_for(frame: np.ndarray, truth: dict, pipeline: Pipeline, spell: int, rng: np.random.Generator,
               game_companies: bool = False, scores: Tally | None = None) -> tuple[int, int, int] | None:
    """(stable states, phantom moves, corrections) given by two still spells of ``frame``
    around a passing hand; None when the board is not found. ``game_companies``: read
    knowing the game's companies, as a session does (rulings V4). ``scores``: the first
    stable state is scored into it against the ground truth."""
    companies = truth_companies(truth) if game_companies else None
    stream = [noisy(frame, rng) for _ in range(spell)] + [with_hand(frame)] + [noisy(frame, rng) for _ in range(spell)]
    readings = [pipeline.read_frame(f, companies) for f in stream]
    if readings[0].homography is None:
        return None
    states = [r for r in readings if r.stable]
    if scores is not None and states:
        score_image(scores, truth, states[0].slots, "stable")
    truth_of = {t["id"]: t for t in truth["slots"]}
    phantom = corrected = 0
    for before, after in zip(states, states[1:]):
        now = {r.id: r for r in after.slots}
        for move in diff(before.map, after.map):
            right = slot_right(truth_of[move.space], now[move.space])
            corrected += right
            phantom += not right
    return len(states), phantom, corrected


def evaluate(folder: Path, n: int, spell: int, profile: str | None = None, seed: int = 0,
             game_companies: bool = False, mirrored: bool = True) -> dict:
    """``mirrored`` False: each stable state read from its frames' crops as cut alone
    (``Pipeline.read_mirrored`` off), as before the mirrored looks."""
    rng = np.random.default_rng(seed)
    counts, scores = [], Tally()
    for _, frame, truth in itertools.islice(synthetic_samples(folder), n):
        pipeline = Pipeline.load(profile)        # a fresh pipeline: no state carried over
        pipeline.read_mirrored = mirrored
        found = states_for(frame, truth, pipeline, spell, rng, game_companies, scores)
        if found is not None:
            counts.append(found)
    c, m, k = np.array(counts, int).reshape(-1, 3).T
    stable = summary(scores)
    return {"boards": len(counts), "spell_frames": spell, "stability_frames": StabilityFilter().frames,
            "stable_slot_error": stable["slot_error"], "stable_boards_fully_correct": stable["boards_fully_correct"],
            "boards_one_state": int((c == 1).sum()), "boards_no_state": int((c == 0).sum()),
            "boards_phantom_state": int((c > 1).sum()), "phantom_states": int(np.maximum(c - 1, 0).sum()),
            "boards_phantom_move": int((m > 0).sum()), "phantom_moves": int(m.sum()), "corrections": int(k.sum())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--n", type=int, default=40, help="frames of the folder to use")
    parser.add_argument("--spell", type=int, default=40, help="frames per still spell")
    parser.add_argument("--profile")
    parser.add_argument("--game-companies", action="store_true",
                        help="read knowing each board's companies (from its ground truth), as a session does")
    parser.add_argument("--no-mirrored", action="store_true",
                        help="read each stable state from its frames' crops as cut alone, without the mirrored looks")
    args = parser.parse_args(argv)
    figures = evaluate(Path(args.dir), args.n, args.spell, args.profile, game_companies=args.game_companies,
                       mirrored=not args.no_mirrored)
    if figures["boards"] == 0:
        print(f"no board to watch in {args.dir}: no readable image with ground truth, or none registered",
              file=sys.stderr)
        return 2
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
