"""How well could any reader tell a dam's height, if it measured one or two lengths per dam?

A printing's dams differ: the generator draws each picture's base 10-22 canonical px high
and each elevation 9-18 (``lab.synth.pieces``), so a tall base can stand higher than a
short raised dam. A reader has to learn the frame's printing from its dams: the neutral
ones, whose heights the decoder knows (rulings V1), and the company ones, each of which is
one of three heights. This asks what that costs, from the geometry alone, for the visible
standing dams of a folder of synthetic images (their ground truth, no picture read):

- ``height``: each dam's top measured as its height in canonical px, to a relative error
  ``sigma`` (in log units: 0.1 is about 10 %);
- ``silhouette``: each dam's length along its lean measured to ``sigma`` canonical px:
  its footprint's extent that way (the printing's width and depth, the dam's own
  direction from the nadir) plus its top's lean (height times lean ratio). This is what
  a picture shows of a dam straight on: a reader that finds both ends of it;
- ``shadow``: likewise the dam's and its shadow's length along the shadow, under the one
  distant light most pictures have (its height times the light's cotangent; the light
  taken as known, as a reader could find it from the frame's shadows); frames lit by lamps
  are left out;
- ``silhouette+shadow``: both, each to ``sigma``.

Each measurement gets Gaussian noise; the decoder then knows everything else: the
generator's ranges (a uniform prior over a grid of printings), each dam's place and lean,
and the neutral dams' heights. It reads each company dam's height (base, base+1, base+2,
each as likely) alone, from its own measure, and with the frame, from every dam's
measure through the printing they share. The figures are what the best such reader would
get wrong: a reader that uses only that measure, no more finely, cannot beat them (other
cues, such as an elevation's step where it is inset, are not counted), and one that does
worse leaves that much on the table (docs/benchmarks.md, "What a dam's height needs").

    python -m lab.height_limits data/turn_random2 data/turn_hard2 [--measure silhouette] [--sigmas 0.5,1,2] [--json]
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from vision.barrage.dam_heights import HEIGHTS, lean_of
from vision.layout import Layout, load_layout
from vision.pose import camera_position
from vision.runner import logsumexp

from .evaluate import image_pairs
from .synth.cli import existing_folder
from .synth.pieces import BASE_HEIGHT, DAM_DEPTH, DAM_WIDTH, ELEVATION_HEIGHT
from .truth_view import standing_dams

DEFAULT_SIGMAS = {"height": (0.05, 0.1, 0.25), "silhouette": (0.5, 1.0, 2.0), "shadow": (0.5, 1.0, 2.0),
                  "silhouette+shadow": (0.5, 1.0, 2.0)}


@dataclass(frozen=True)
class Printing:
    """A picture's dam: width and depth as fractions of the dam space's, base and elevation
    heights in canonical px (the generator's ``PieceStyle`` fields)."""
    width: float | np.ndarray
    depth: float | np.ndarray
    base: float | np.ndarray
    elevation: float | np.ndarray


@dataclass(frozen=True)
class Reach:
    """How far a dam reaches one way on the board: per canonical px of its height
    (``ratio``: the lean ratio along its lean, the light's cotangent along its shadow), and
    per unit of its width and of its depth fractions (that way's share of each of the map's
    axes, times the dam space's size along it)."""
    ratio: float
    per_width: float
    per_depth: float

    def length(self, elevations: int, p: Printing) -> np.ndarray:
        return self.per_width * p.width + self.per_depth * p.depth + (p.base + elevations * p.elevation) * self.ratio


@dataclass(frozen=True)
class SeenDam:
    """A visible standing dam: its elevations (0-2), whether it is neutral, how it reaches
    along its lean (away from the nadir) and along its shadow (under one distant light;
    None under lamps, whose shadows part)."""
    elevations: int
    neutral: bool
    lean: Reach
    shadow: Reach | None


def _reach(way: np.ndarray, ratio: float, box) -> Reach:
    ux, uy = np.abs(way) / max(float(np.hypot(*way)), 1e-9)
    return Reach(ratio, box.w * float(ux), box.h * float(uy))


def frame_dams(truth: dict, layout: Layout) -> tuple[Printing, list[SeenDam]]:
    """The printing and the visible standing dams of a synthetic image's ground truth."""
    style = truth["style"]["pieces"]
    printing = Printing(style["dam_width"], style["dam_depth"], style["base_height"], style["elevation_height"])
    width, height = truth["image_size"]
    camera = camera_position(np.asarray(truth["homography"], np.float64), (height, width, 3))
    sun = None
    if "lighting" not in truth["style"]:        # the piece style's one distant light
        az, el = math.radians(style["light_azimuth"]), math.radians(style["light_elevation"])
        sun = (-np.array([math.cos(az), math.sin(az)]), math.cos(el) / math.sin(el))
    dams = []
    for s, elevations in standing_dams(truth):
        box = layout.slot(s["id"])
        away, lean = lean_of(box.centre, camera)
        dams.append(SeenDam(elevations, s["owner"] == "neutral", _reach(away, lean, box),
                            None if sun is None else _reach(sun[0], sun[1], box)))
    return printing, dams


def height(dam: SeenDam, elevations: int, p: Printing) -> np.ndarray:
    """The log of the dam's top's height, in canonical px."""
    return np.log(p.base + elevations * p.elevation)


def along_lean(dam: SeenDam, elevations: int, p: Printing) -> np.ndarray:
    """The dam's length along its lean, canonical px: its footprint's extent, then its top's lean."""
    return dam.lean.length(elevations, p)


def along_shadow(dam: SeenDam, elevations: int, p: Printing) -> np.ndarray:
    """The dam's and its shadow's length along the shadow, canonical px."""
    assert dam.shadow is not None
    return dam.shadow.length(elevations, p)


# Each measure: the numbers taken of every dam, its parts (``read_frame`` gives each the same error).
MEASURES: dict[str, tuple[Callable[[SeenDam, int, Printing], np.ndarray], ...]] = {
    "height": (height,), "silhouette": (along_lean,), "shadow": (along_shadow,),
    "silhouette+shadow": (along_lean, along_shadow)}


def printings(measure: str) -> Printing:
    """A grid over the generator's printings, flattened, about a canonical px (a quarter of
    one for heights) between neighbours: finer than the measurement errors asked about, so
    the grid adds little error of its own. ``height`` does not depend on the footprint, so
    its grid has one width and depth."""
    if measure == "height":
        axes = [np.array([0.5]), np.array([0.5]), np.linspace(*BASE_HEIGHT, 49), np.linspace(*ELEVATION_HEIGHT, 37)]
    else:
        axes = [np.linspace(*DAM_WIDTH, 24), np.linspace(*DAM_DEPTH, 18), np.linspace(*BASE_HEIGHT, 25),
                np.linspace(*ELEVATION_HEIGHT, 19)]
    return Printing(*(g.ravel().astype(np.float32) for g in np.meshgrid(*axes, indexing="ij")))


@dataclass
class Reads:
    """Company dams read, and read wrong alone and with their frame; frames left out (a
    shadow measure under lamps)."""
    company: int = 0
    wrong_alone: int = 0
    wrong_with_frame: int = 0
    frames_left_out: int = 0


def heights_read(dams: Sequence[SeenDam], measured: Sequence[Sequence[float]], sigmas: Sequence[Sequence[float]],
                 measure: str, grid: Printing) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Each company dam's (index into ``dams``) log-chances of its elevations (0-2), read
    alone and read with its frame: ``measured`` holds each dam's values of the measure's
    parts, ``sigmas`` how far each may be off. A neutral dam's elevations are known; a
    company dam's are each as likely; the printing is the grid's, each as likely."""
    parts = MEASURES[measure]

    def loglik(i: int, elevations: int) -> np.ndarray:       # over the grid
        return sum(-0.5 * ((m - f(dams[i], elevations, grid)) / e) ** 2
                   for m, e, f in zip(measured[i], sigmas[i], parts))

    company = [i for i, d in enumerate(dams) if not d.neutral]
    per = {i: np.stack([loglik(i, k) for k in range(len(HEIGHTS))]) for i in company}    # (levels, grid)
    either = {i: logsumexp(per[i].T)[:, 0] for i in company}                      # its height unknown
    frame = sum((loglik(i, d.elevations) for i, d in enumerate(dams) if d.neutral), np.zeros_like(grid.base))
    frame = frame + sum(either.values())
    return {i: (logsumexp(per[i])[:, 0], logsumexp((frame - either[i])[None, :] + per[i])[:, 0]) for i in company}


def read_frame(tally: Reads, printing: Printing, dams: Sequence[SeenDam], measure: str, sigma: float,
               grid: Printing, rng: np.random.Generator) -> None:
    """Measure every dam of one frame with noise ``sigma``; read each company dam's height."""
    parts = MEASURES[measure]
    if along_shadow in parts and any(d.shadow is None for d in dams):
        tally.frames_left_out += 1
        return
    measured = [[float(f(d, d.elevations, printing)) + sigma * rng.standard_normal() for f in parts] for d in dams]
    for i, (alone, together) in heights_read(dams, measured, [[sigma] * len(parts)] * len(dams), measure, grid).items():
        tally.company += 1
        tally.wrong_alone += int(alone.argmax() != dams[i].elevations)
        tally.wrong_with_frame += int(together.argmax() != dams[i].elevations)


def read_folders(folders: Sequence[Path], measure: str, sigmas: Sequence[float], seed: int = 0,
                 progress: bool = False) -> dict[float, Reads]:
    """Every sigma's reads over every image of ``folders``; one noise stream per sigma."""
    layout = load_layout()
    frames = []
    for folder in folders:
        for _, truth_path in image_pairs(folder):
            try:
                truth = json.loads(truth_path.read_text())
                frames.append(frame_dams(truth, layout))
            except (OSError, ValueError, KeyError, TypeError) as e:
                print(f"skipped {truth_path}: not a generator's ground truth ({type(e).__name__})", file=sys.stderr)
    grid = printings(measure)
    out = {}
    for sigma in sigmas:
        tally, rng = Reads(), np.random.default_rng(seed)
        for n, (printing, dams) in enumerate(frames, 1):
            read_frame(tally, printing, dams, measure, sigma, grid, rng)
            if progress and (n % 250 == 0 or n == len(frames)):
                print(f"\rsigma {sigma:g}: {n}/{len(frames)} frames", end="\n" if n == len(frames) else "",
                      file=sys.stderr, flush=True)
        out[sigma] = tally
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.height_limits", description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", type=existing_folder, help="folders of synthetic images with their ground truth")
    p.add_argument("--measure", choices=sorted(MEASURES), default="height")
    p.add_argument("--sigmas", help="measurement errors, comma-separated (height: log units; the lengths: "
                                    "canonical px); default " + "; ".join(f"{m}: {','.join(map(str, s))}"
                                                                          for m, s in DEFAULT_SIGMAS.items()))
    p.add_argument("--seed", type=int, default=0, help="the measurement noise's seed")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        sigmas = [float(s) for s in args.sigmas.split(",")] if args.sigmas else list(DEFAULT_SIGMAS[args.measure])
    except ValueError:
        print(f"--sigmas: want numbers separated by commas, got {args.sigmas!r}", file=sys.stderr)
        return 2
    if any(s <= 0 for s in sigmas):
        print("--sigmas: each must be above 0", file=sys.stderr)
        return 2
    reads = read_folders(args.folders, args.measure, sigmas, args.seed, progress=not args.json)
    if not any(r.company for r in reads.values()):
        print(f"no visible standing company dam in the images with ground truth of {', '.join(map(str, args.folders))}",
              file=sys.stderr)
        return 2
    figures = {f"{s:g}": {"company_dams": r.company, "wrong_alone": r.wrong_alone,
                          "wrong_with_frame": r.wrong_with_frame, "frames_left_out": r.frames_left_out}
               for s, r in reads.items()}
    if args.json:
        print(json.dumps({"measure": args.measure, "sigmas": figures}, indent=1))
        return 0
    unit = "log units" if args.measure == "height" else "canonical px"
    print(f"| {args.measure} measured to ({unit}) | company dams | wrong, each read alone | wrong, read with its frame |")
    print("|---|---|---|---|")
    for s, f in figures.items():
        n = max(f["company_dams"], 1)
        print(f"| {s} | {f['company_dams']} | {f['wrong_alone']} ({100 * f['wrong_alone'] / n:.2f} %) "
              f"| {f['wrong_with_frame']} ({100 * f['wrong_with_frame'] / n:.2f} %) |")
    if (left := next(iter(figures.values()))["frames_left_out"]):
        print(f"{left} frames left out: lit by lamps, their shadows are not one length")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
