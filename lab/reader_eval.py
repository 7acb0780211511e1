"""The dam-height reader judged alone: how often it reads a company dam's height wrong.

``automa-vision eval`` judges the whole pipeline, where the reader's heights are weighed
with the slot model's chance that a dam stands and with the lake's drops. This reads the
reader's own likeliest height for each visible standing company dam of a folder of
synthetic images, cut as its training cuts them (``vision.barrage.dam_heights.truth_dams``: the
true homography), and counts the wrong ones by true height and by lean ratio (distance
from the nadir / camera height; a raised dam's top leans out in proportion). A set takes
seconds, not the minutes of ``eval``, so it says where the reader errs; whether a file
reads a frame better is still ``automa-vision eval-sets``' to say: a reader that errs less
here can err as much there, the decoder overruling it (docs/benchmarks.md, "Why the reader
misses raised dams").

``--references`` also reads each company dam once more with every other company dam of
its frame given as a reference at its true height, as a neutral dam is given (rulings
V1): how much the reader would gain from knowing the others' heights (a session knows
those the game has seen).

    python -m lab.reader_eval data/turn_random2 data/turn_hard2 [--heights FILE] [--references] [--json]
    python -m lab.reader_eval tuning late --heights FILE    # held-out sets or groups by name

A reader is best judged on early and late games together (the ``tuning`` and ``late`` groups):
one that guesses "base" more often reads early games better and late ones, most of whose dams
are raised, worse (docs/benchmarks.md, "No GPU lent: second CPU rounds").
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np
import onnxruntime as ort

from vision.barrage.dam_heights import DEFAULT_HEIGHTS_MODEL, HEIGHTS, to_input
from vision.layout import load_layout
from vision.runner import cpu_session

from .bands import band
from .evaluate import map_samples, pooled
from .heldout_sets import SetError, ensure, load_sets, select
from .synth.cli import count
from .truth_view import FrameDams, truth_dams

# Lean ratio bands (top, name): under ~0.15 an elevation moves a dam's top by under a view px.
LEAN_BANDS = ((0.15, "< 0.15"), (0.3, "0.15-0.3"), (0.5, "0.3-0.5"), (float("inf"), ">= 0.5"))


@dataclass
class ReaderTally:
    """Company dams read, and read wrong, by (true height, lean band)."""
    dams: Counter = field(default_factory=Counter)
    wrong: Counter = field(default_factory=Counter)
    wrong_with_references: Counter = field(default_factory=Counter)
    frames: int = 0


def read_heights(session: ort.InferenceSession, x: np.ndarray, roles: np.ndarray) -> np.ndarray:
    """The reader's likeliest height (index into HEIGHTS) of each dam of one frame."""
    return session.run(["heights"], {"dams": x, "roles": roles.astype(np.int64)})[0].argmax(1)


def tally_frame(tally: ReaderTally, session: ort.InferenceSession, dams: FrameDams, references: bool) -> None:
    """Count one frame's company dams; ``references``: read each again knowing the others."""
    crops, leans, heights, roles = (np.asarray(part) for part in dams)
    company = np.flatnonzero(roles == 0)
    if not len(company):
        return
    x = to_input(crops, leans.astype(np.float32))
    read = read_heights(session, x, roles)
    tally.frames += 1
    for i in company:
        key = (HEIGHTS[heights[i]], band(LEAN_BANDS, float(leans[i])))
        tally.dams[key] += 1
        tally.wrong[key] += int(read[i] != heights[i])
        if references:
            known = roles.copy()
            others = company[company != i]
            known[others] = 1 + heights[others]
            tally.wrong_with_references[key] += int(read_heights(session, x, known)[i] != heights[i])


def read_folder(folder: Path, session: ort.InferenceSession, references: bool = False, jobs: int = 1,
                progress: str = "") -> ReaderTally:
    tally = ReaderTally()
    for dams in map_samples(folder, functools.partial(truth_dams, load_layout()), jobs, progress):
        tally_frame(tally, session, dams, references)
    return tally


def _share(wrong: int, n: int) -> float | None:
    return round(wrong / n, 4) if n else None


def summary(tally: ReaderTally, references: bool) -> dict:
    """Error shares: over all company dams, by true height, and by lean band for raised dams."""
    def error(counter: Counter, keep) -> float | None:
        return _share(sum(v for k, v in counter.items() if keep(k)), sum(v for k, v in tally.dams.items() if keep(k)))
    out = {"frames": tally.frames, "company_dams": sum(tally.dams.values()),
           "wrong": sum(tally.wrong.values()), "error": error(tally.wrong, lambda k: True),
           "error_by_height": {h: error(tally.wrong, lambda k, h=h: k[0] == h) for h in HEIGHTS},
           "raised_error_by_lean": {b: error(tally.wrong, lambda k, b=b: k[0] != HEIGHTS[0] and k[1] == b)
                                    for _, b in LEAN_BANDS}}
    if references:
        out["wrong_with_references"] = sum(tally.wrong_with_references.values())
        out["error_with_references"] = error(tally.wrong_with_references, lambda k: True)
    return out


def folders_named(names: Sequence[str], data: Path, jobs: int) -> list[Path]:
    """Each name as a folder, or as the held-out sets it names (a set or a group of
    ``lab/heldout_sets.json``), made under ``data`` first where missing; each folder once.
    SetError for a name that is neither."""
    sets = load_sets()
    out: list[Path] = []
    for name in names:
        if Path(name).is_dir():
            found = [Path(name)]
        else:
            try:
                chosen = select(sets, [name])
            except SetError:
                groups = ", ".join(sorted({s.group for s in sets}))
                raise SetError(f"{name}: not a folder, nor a held-out set or group (groups: {groups})") from None
            ensure(chosen, data, jobs)
            found = [data / s.name for s in chosen]
        out += [f for f in found if f not in out]
    return out


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.1f} %"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.reader_eval", description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", metavar="FOLDER_OR_SET",
                   help="folders of synthetic images with their ground truth, or held-out sets or groups by name")
    p.add_argument("--data", type=Path, default=Path("data"), help="where the held-out sets' folders are kept (default: data)")
    p.add_argument("--heights", type=Path, default=DEFAULT_HEIGHTS_MODEL, help="the dam-height reader's file")
    p.add_argument("--references", action="store_true",
                   help="also read each company dam knowing every other company dam's true height")
    p.add_argument("--jobs", type=count, default=2, help="processes cutting the crops")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if not args.heights.is_file():
        print(f"not found: {args.heights}", file=sys.stderr)
        return 2
    try:
        session = cpu_session(args.heights, 2)
    except Exception as e:      # onnxruntime raises its own types for a damaged or foreign file
        print(f"{args.heights}: not a dam-height reader ({e})", file=sys.stderr)
        return 2
    try:    # after the reader is known good: a set made for nothing can take minutes
        folders = folders_named(args.folders, args.data, args.jobs)
    except (SetError, OSError) as e:
        p.error(str(e))
    tallies = {folder.name: read_folder(folder, session, args.references, args.jobs, progress=f"cutting {folder.name}")
               for folder in folders}
    tallies["pooled"] = pooled(tallies.values(), ReaderTally)
    if not tallies["pooled"].dams:
        print(f"no visible standing company dam in the images with ground truth of {', '.join(map(str, folders))}",
              file=sys.stderr)
        return 2
    figures = {name: summary(tally, args.references) for name, tally in tallies.items()}
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    head = ["set", "company dams", "wrong", *HEIGHTS, *(f"raised, lean {b}" for _, b in LEAN_BANDS)]
    head += ["wrong knowing the others"] if args.references else []
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for name, f in figures.items():
        row = [name, str(f["company_dams"]), f"{f['wrong']} ({_percent(f['error'])})",
               *(_percent(f["error_by_height"][h]) for h in HEIGHTS),
               *(_percent(f["raised_error_by_lean"][b]) for _, b in LEAN_BANDS)]
        row += [f"{f['wrong_with_references']} ({_percent(f['error_with_references'])})"] if args.references else []
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
