"""``automa-vision synth``: write synthetic board frames with ground truth.

    automa-vision synth --n 1000 --out data/synth [--seed 0] [--occlusion 0.3] [--no-markers] [--size 1280x960]
                         [--placement shift|turn] [--lighting one|lamps|low]
                         [--finish matte|glossy|clear] [--headstreams game|wet] [--jobs N]

Image i uses seed ``S + i`` and is written as ``NNNN.jpg`` + ``NNNN.json`` (NNNN = i,
zero-padded), so any single image can be regenerated from its JSON's ``seed``, and
``--jobs`` (default: every core) changes only how fast the folder is written. ``--size``,
``--placement``, ``--lighting``, ``--finish`` and ``--headstreams`` may each be given several times: every image then
draws one of each from its seed (``vision.synth.batch.options_for``), a mix of webcams, lights
and pieces in one folder.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from .batch import write_samples
from .camera import PLACEMENTS
from .finish import FINISHES
from .lights import LIGHTINGS
from .render import HEADSTREAMS, SIZES, WET_MOST, Options


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x960, got {text!r}") from None
    if (w, h) not in SIZES:
        raise argparse.ArgumentTypeError(f"size must be one of {', '.join(f'{a}x{b}' for a, b in SIZES)}")
    return (w, h)


def _probability(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= p <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {p}")
    return p


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def add_shot_arguments(p: argparse.ArgumentParser) -> None:
    """``--size``, ``--placement``, ``--lighting``, ``--finish`` and ``--headstreams``, each
    repeatable: the cameras, lights, piece surfaces and headstream drops of a folder's images."""
    p.add_argument("--size", type=_size, action="append",
                   help="frame size: 1280x960 (default), 1280x720, or a 640x480 or 1920x1080 webcam's; "
                        "repeat it to mix sizes")
    p.add_argument("--placement", choices=PLACEMENTS, action="append",
                   help="put the board in the frame by shifting the principal point (default, the shipped "
                        "models' training images) or by turning the camera, as with a real webcam; "
                        "repeat it to mix both")
    p.add_argument("--lighting", choices=LIGHTINGS, action="append",
                   help="light the pieces with one distant light (default, most of the shipped models' training images), "
                        "lamps near the table, or a low light; repeat it to mix them")
    p.add_argument("--finish", choices=FINISHES, action="append",
                   help="the pieces' surfaces: matte (default, most of the shipped models' training images), glossy "
                        "plastic that glints, or clear water drops the board shows through; repeat it to mix them")
    p.add_argument("--headstreams", choices=HEADSTREAMS, action="append",
                   help="the drops on the headstream tiles: the game's (default) or wet, each tile's count "
                        f"drawn evenly from 0-{WET_MOST}, counts a game seldom reaches (for training the "
                        "headstream counter); repeat it to mix them")


def shot_options(args: argparse.Namespace, **other) -> list[Options]:
    """One ``Options`` per (size, placement, lighting, finish, headstreams) that
    ``add_shot_arguments`` parsed, with ``other`` (occlusion, markers) the same for all."""
    sizes = list(dict.fromkeys(args.size or [(1280, 960)]))
    placements = list(dict.fromkeys(args.placement or ["shift"]))
    lightings = list(dict.fromkeys(args.lighting or ["one"]))
    finishes = list(dict.fromkeys(args.finish or ["matte"]))
    headstreams = list(dict.fromkeys(args.headstreams or ["game"]))
    return [Options(size=size, placement=placement, lighting=lighting, finish=finish, headstreams=h, **other)
            for size in sizes for placement in placements for lighting in lightings for finish in finishes
            for h in headstreams]


def shot_flags(args: argparse.Namespace) -> list[str]:
    """The ``synth`` flags that give the same cameras, lights, pieces and drops (for a command that runs it)."""
    return ([f for w, h in args.size or [] for f in ("--size", f"{w}x{h}")]
            + [f for p in args.placement or [] for f in ("--placement", p)]
            + [f for light in args.lighting or [] for f in ("--lighting", light)]
            + [f for finish in args.finish or [] for f in ("--finish", finish)]
            + [f for h in args.headstreams or [] for f in ("--headstreams", h)])


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("synth", help="render synthetic board images with ground truth",
                              description=__doc__.splitlines()[0])
    p.add_argument("--n", type=_count, required=True, help="number of images")
    p.add_argument("--out", type=Path, required=True, help="output folder (created if missing)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first image (default 0)")
    p.add_argument("--occlusion", type=_probability, default=0.3,
                   help="probability that a frame has a hand or object over the board (default 0.3)")
    p.add_argument("--no-markers", action="store_true", help="leave the ArUco corner markers out")
    add_shot_arguments(p)
    p.add_argument("--jobs", type=_count, default=os.cpu_count() or 1,
                   help="processes rendering at once (default: one per core)")
    p.set_defaults(func=run)


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    fill = width * done // total
    elapsed = time.perf_counter() - started
    rate = elapsed / done if done else 0.0
    sys.stderr.write(f"\rsynth [{'#' * fill}{'.' * (width - fill)}] {done}/{total}  {rate:.2f} s/image  "
                     f"eta {rate * (total - done):.0f} s ")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"automa-vision synth: cannot create {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    options = shot_options(args, markers=not args.no_markers, occlusion=args.occlusion)
    started = time.perf_counter()
    _progress(0, args.n, started)
    write_samples(args.out, args.seed, args.n, options, args.jobs, lambda done: _progress(done, args.n, started))
    sys.stderr.write("\n")
    print(f"wrote {args.n} images to {args.out}")
    return 0

