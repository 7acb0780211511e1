"""How often the page lists exactly the move a player made: one turn per held-out image.

Each synthetic frame stands for the table just after a turn. The game knew the table
before it: the frame's true map less one structure of a company (a whole conduit,
powerhouse or bare dam, or a raised dam's top elevation), drawn at random; that company
built it, on its turn. The page reads the frame knowing the game's companies (rulings V4)
and lists the moves from what the game knew, the changes the rules never make put back
and a new piece taken as the builder's (``web.game.read_against``, rulings V3). A turn is
right when the list is exactly that move (with the drops a new dam holds). For comparison,
the same frames read blind and taken as read. Water counts: a drop misread is a wrong list.

    python -m web.turn_eval data/heldout_random2 [--n 200] [--seed 0]
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

from automa.barrage.state import Dam
from vision.board_state import MapState, build_map
from vision.changes import Move, diff
from vision.evaluate import synthetic_samples, truth_companies, truth_piece
from vision.labels import dam_pieces
from vision.pipeline import Pipeline
from vision.stability import MotionDetector, StabilityFilter

from .game import read_against


def truth_map(truth: dict) -> MapState:
    """The map a synthetic image shows, from its ground truth."""
    out = MapState()
    for s in truth["slots"]:
        piece = truth_piece(s)
        if s["kind"] == "headstream":
            out.headstreams[s["id"]] = s["drops"] or 0
        elif s["kind"] == "dam" and piece != "empty":
            out.dams[s["id"]] = Dam(s["owner"], dam_pieces(piece), s["drops"] or 0)
        elif piece != "empty":
            (out.conduits if s["kind"] == "conduit" else out.powerhouses)[s["id"]] = s["owner"]
    return out


def before_the_turn(after: MapState, rng: random.Random) -> tuple[MapState, str] | None:
    """The map one company's build earlier, and that company; None when no company has built."""
    built = ([("dam", s, d.owner) for s, d in after.dams.items() if d.owner != "neutral"]
             + [("conduit", s, o) for s, o in after.conduits.items()]
             + [("powerhouse", s, o) for s, o in after.powerhouses.items()])
    if not built:
        return None
    kind, space, owner = rng.choice(sorted(built))
    before = replace(after, dams=dict(after.dams), conduits=dict(after.conduits), powerhouses=dict(after.powerhouses))
    if kind == "dam" and after.dams[space].pieces > 1:
        before.dams[space] = replace(after.dams[space], pieces=after.dams[space].pieces - 1)
    elif kind == "dam":
        del before.dams[space]
    else:
        del (before.conduits if kind == "conduit" else before.powerhouses)[space]
    return before, owner


def _read(pipeline: Pipeline, frame, companies: list[str] | None) -> MapState | None:
    """One frame read afresh (no motion or stable state carried over)."""
    pipeline.motion, pipeline.stability = MotionDetector(), StabilityFilter()
    reading = pipeline.read_frame(frame, companies)
    return None if reading.map is None else build_map(reading.slots)[0]


def evaluate(folder: Path, n: int, seed: int = 0, profile: str | None = None) -> dict:
    rng = random.Random(seed)
    pipeline = Pipeline.load(profile)
    counts = {"turns": 0, "not_registered": 0}
    for way in ("blind", "session"):
        counts |= {f"{way}_exact": 0, f"{way}_move_missed": 0, f"{way}_extra_moves": 0, f"{way}_extra_by_kind": {}}
    for _, frame, truth in itertools.islice(synthetic_samples(folder), n):
        after = truth_map(truth)
        picked = before_the_turn(after, rng)
        if picked is None:
            continue
        known, builder = picked
        made = diff(known, after)         # the build, and the drops a new dam holds
        counts["turns"] += 1
        blind, seen = _read(pipeline, frame, None), _read(pipeline, frame, truth_companies(truth))
        if blind is None or seen is None:
            counts["not_registered"] += 1
            continue
        listed = {"blind": diff(known, blind), "session": diff(known, read_against(known, seen, builder)[0])}
        for way, moves in listed.items():
            _count(counts, way, made, moves)
    return counts


def _count(counts: dict, way: str, made: list[Move], moves: list[Move]) -> None:
    counts[f"{way}_exact"] += moves == made
    counts[f"{way}_move_missed"] += made[0] not in moves
    extra = [m for m in moves if m not in made]
    counts[f"{way}_extra_moves"] += len(extra)
    for m in extra:
        by_kind = counts[f"{way}_extra_by_kind"]
        by_kind[m.kind] = by_kind.get(m.kind, 0) + 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--n", type=int, default=200, help="images of the folder to use")
    parser.add_argument("--seed", type=int, default=0, help="which structure each turn built")
    parser.add_argument("--profile")
    args = parser.parse_args(argv)
    figures = evaluate(Path(args.dir), args.n, args.seed, args.profile)
    if figures["turns"] == 0:
        print(f"no turn to read in {args.dir}: no image with ground truth and a company's structure", file=sys.stderr)
        return 2
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
