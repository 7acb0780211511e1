"""The held-out printed look read cold, after calibration and after teaching.

``python -m lab.printed_eval [--tables 5] [--frames 6] [--teach 2] [--json]``: for each of
``--tables`` tables of the printed look (``lab.synth.printed_look``, which no net or gate is
fitted on), the empty board calibrates a profile (``automa-vision calibrate``), ``--teach``
games on the table teach it (``automa-vision adapt``), and ``--frames`` other games on the
same table are read three ways, knowing the game's companies (``--blind``: not):

- cold: the pipeline alone, as a new user's first frame is read today;
- calibrated: against the empty board with the default gates (``vision.barrage.reference_reading``);
- adapted: against the empty board with the heads taught on the ``--teach`` photos.

Each way prints the visible slots read wrong, the boards read fully right, and the empty
printed spaces (structure spaces and headstream tiles with nothing on them) read as a piece
or drops with a confidence of 0.8 or more.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from calibration.adapt import adapt, calibrate
from vision.barrage.pipeline import Pipeline
from vision.barrage.reference_reading import ReferenceReader

from .evaluate import Tally, score_image
from .reference_tables import TableShots, add_table_options, evaluated, light_words

FIRST_SEED = 900          # the printed tables (the default gates are fitted on 400..)
SURE = 0.8


def phantoms(truth: dict, slots: list) -> tuple[int, int]:
    """(empty printed spaces visible, of them read as something at ``SURE`` or surer)."""
    by_id = {r.id: r for r in slots}
    spaces = sure = 0
    for t in truth["slots"]:
        empty = (t["drops"] or 0) == 0 if t["kind"] == "headstream" else (t["piece"] or "empty") == "empty"
        r = by_id.get(t["id"])
        if not empty or t.get("occluded") or r is None or r.unknown:
            continue
        spaces += 1
        something = (r.drops or 0) > 0 if t["kind"] == "headstream" else (r.piece or "empty") != "empty"
        sure += something and r.confidence >= SURE
    return spaces, sure


def evaluate(tables: int, frames: int, teach: int, work: Path, first: int = FIRST_SEED,
             exposure: float | tuple[float, float, float] = 1.0, blind: bool = False,
             taught_at_calibration: bool = False) -> dict:
    tallies = {mode: Tally() for mode in ("cold", "calibrated", "adapted")}
    ghosts: dict[str, Counter] = {mode: Counter() for mode in tallies}
    timings: dict[str, list[float]] = {mode: [] for mode in tallies}
    teaching: list[float] = []
    cold = Pipeline.load()
    for seed in range(first, first + tables):
        shots = TableShots(seed, printed=True, exposure=exposure)
        folder = work / f"table{seed}"
        calibrate(shots.empty(), folder)
        calibrated = ReferenceReader.load(folder)
        taught = [shots.teacher(taught_at_calibration).frame(k) for k in range(1, teach + 1)]
        done = adapt(folder, [(image, state) for image, _, state in taught])
        teaching.append(done["seconds"])
        adapted = ReferenceReader.load(folder)
        readers = {"cold": lambda f, c: cold.read_frame(f, c), "calibrated": calibrated.read, "adapted": adapted.read}
        for k in range(teach + 1, teach + frames + 1):
            image, truth, _ = shots.frame(k)
            for mode, read in readers.items():
                for pipe in (cold, calibrated.pipeline, adapted.pipeline):
                    pipe.registrar.reset()
                t0 = time.perf_counter()
                reading = read(image, None if blind else shots.companies)
                timings[mode].append((time.perf_counter() - t0) * 1000)
                score_image(tallies[mode], truth, reading.slots, f"{seed}/{k}")
                spaces, sure = phantoms(truth, reading.slots)
                ghosts[mode]["spaces"] += spaces
                ghosts[mode]["sure"] += sure
    out = {"first": first, "exposure": exposure, "taught_at_calibration": taught_at_calibration, "blind": blind,
           "tables": tables, "frames": tables * frames, "teach": teach,
           "adapt_seconds_max": round(max(teaching), 2)}
    for mode, t in tallies.items():
        out[mode] = {"visible_slots": t.slots, "wrong": t.slot_errors,
                     "wrong_pct": round(100 * t.slot_errors / max(t.slots, 1), 2),
                     "boards_right_pct": round(100 * t.boards_right / max(t.images, 1), 1),
                     "empty_spaces": ghosts[mode]["spaces"], "empty_read_sure": ghosts[mode]["sure"],
                     "by_cause": dict(t.by_cause.most_common(8)),
                     "read_ms_median": round(statistics.median(timings[mode]), 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_table_options(p, tables=5, first=FIRST_SEED)
    p.add_argument("--frames", type=int, default=6, help="games read on each table")
    p.add_argument("--blind", action="store_true", help="read without the game's companies")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out = evaluated(lambda work: evaluate(args.tables, args.frames, args.teach, work, args.first, args.exposure, args.blind,
                                          args.taught_at_calibration))
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{out['frames']} frames on {out['tables']} printed tables (seeds {out['first']}..), taught with {out['teach']} photos each, "
          f"{light_words(out)}, "
          f"{'read blind' if out['blind'] else 'the companies known'} "
          f"(adaptation at most {out['adapt_seconds_max']} s); {out['seconds']} s in all")
    for mode in ("cold", "calibrated", "adapted"):
        m = out[mode]
        print(f"{mode:>10}: {m['wrong']}/{m['visible_slots']} visible slots wrong ({m['wrong_pct']} %), "
              f"{m['boards_right_pct']} % boards fully right, {m['empty_read_sure']}/{m['empty_spaces']} empty printed "
              f"spaces read as something at >= {SURE}; {m['read_ms_median']} ms a frame")
        print(f"{'':>12}{m['by_cause']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
