"""``automa-vision synth``: write synthetic board frames with ground truth.

    automa-vision synth --n 1000 --out data/synth [--seed 0] [--occlusion 0.3] [--no-markers] [--size 1280x960]
                         [--placement shift|turn] [--lighting one|lamps|low]
                         [--finish matte|glossy|clear] [--headstreams game|wet] [--lens mild|wide]
                         [--processing none|webcam] [--shapes blocks|moulded] [--games any|late] [--jobs N]

Image i uses seed ``S + i`` and is written as ``NNNN.jpg`` + ``NNNN.json`` (NNNN = i,
zero-padded), so any single image can be regenerated from its JSON's ``seed``, and
``--jobs`` (default: every core) changes only how fast the folder is written. ``--size``,
``--placement``, ``--lighting``, ``--finish``, ``--headstreams``, ``--lens``, ``--processing``,
``--shapes`` and ``--games`` may each be given several times (``SHOT_FLAGS``): every image then draws one of
each from its seed (``lab.synth.batch.options_for``), a mix of webcams, lenses, lights, pieces and games
in one folder.
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from pathlib import Path

from .batch import write_samples
from .camera import PLACEMENTS
from .finish import FINISHES
from .lights import LIGHTINGS
from .processing import PROCESSINGS
from .render import GAMES, HEADSTREAMS, LATE_MOVES, LENSES, SIZES, WET_MOST, WIDE_K, Options
from .shapes import SHAPES


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


def count(text: str) -> int:
    """An argparse type: a whole number of at least 1 (images, processes, tiles)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def existing_folder(text: str) -> Path:
    """An argparse type: a folder that exists (of images to read), checked before any work."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"not a folder: {text!r}")
    return Path(text)


# The repeatable shot flags: (flag, Options field, choices or None for a size, default, help).
# Each may be given several times; every image then draws one of each from its seed.
SHOT_FLAGS = (
    ("--size", "size", None, (1280, 960),
     "frame size: 1280x960 (default), 1280x720, or a 640x480 or 1920x1080 webcam's; repeat it to mix sizes"),
    ("--placement", "placement", PLACEMENTS, "shift",
     "put the board in the frame by shifting the principal point (default, the shipped models' training "
     "images) or by turning the camera, as with a real webcam; repeat it to mix both"),
    ("--lighting", "lighting", LIGHTINGS, "one",
     "light the pieces with one distant light (default, most of the shipped models' training images), "
     "lamps near the table, or a low light; repeat it to mix them"),
    ("--finish", "finish", FINISHES, "matte",
     "the pieces' surfaces: matte (default, most of the shipped models' training images), glossy plastic "
     "that glints, or clear water drops the board shows through; repeat it to mix them"),
    ("--headstreams", "headstreams", HEADSTREAMS, "game",
     f"the drops on the headstream tiles: the game's (default) or wet, each tile's count drawn evenly from "
     f"0-{WET_MOST}, counts a game seldom reaches (for training the headstream counter); repeat it to mix them"),
    ("--lens", "lens", LENSES, "mild",
     f"the lens's radial distortion: mild (default, the shipped models' training images) or a wide-angle "
     f"webcam's barrel (k {WIDE_K[0]}-{WIDE_K[1]}, lab/synth/render.py); repeat it to mix them"),
    ("--processing", "processing", PROCESSINGS, "none",
     "the webcam's own processing between the sensor and JPEG: none (default, the shipped models' training "
     "images) or a webcam's noise reduction, saturation, contrast and sharpening (lab/synth/processing.py); "
     "repeat it to mix them"),
    ("--shapes", "shapes", SHAPES, "blocks",
     "the structures' shapes: blocks (default, the shipped models' training images: box dams, bar or post "
     "conduits) or moulded (arched dam walls, round pipes; lab/synth/shapes.py); repeat it to mix them"),
    ("--games", "games", GAMES, "any",
     f"the game on the board: any (default, most of the shipped models' training images: 0-60 random moves) or late "
     f"({LATE_MOVES[0]}-{LATE_MOVES[1]} moves, most dam spaces built, as near a game's end); repeat it to mix them"),
)


def add_shot_arguments(p: argparse.ArgumentParser) -> None:
    """The ``SHOT_FLAGS``, each repeatable: the cameras, lenses, lights, piece surfaces and
    headstream drops of a folder's images."""
    for flag, _, choices, _, text in SHOT_FLAGS:
        kind = {"type": _size} if choices is None else {"choices": choices}
        p.add_argument(flag, action="append", help=text, **kind)


def shot_options(args: argparse.Namespace, **other) -> list[Options]:
    """One ``Options`` per combination of the ``SHOT_FLAGS`` values that ``add_shot_arguments``
    parsed (each flag's default where not given), with ``other`` (occlusion, markers) the same for all."""
    values = [list(dict.fromkeys(getattr(args, field) or [default])) for _, field, _, default, _ in SHOT_FLAGS]
    return [Options(**dict(zip((field for _, field, _, _, _ in SHOT_FLAGS), combination)), **other)
            for combination in itertools.product(*values)]


def shot_flags(args: argparse.Namespace) -> list[str]:
    """The ``synth`` flags that give the same shots (for a command that runs it)."""
    def text(value) -> str:
        return f"{value[0]}x{value[1]}" if isinstance(value, tuple) else str(value)
    return [part for flag, field, _, _, _ in SHOT_FLAGS for value in getattr(args, field) or []
            for part in (flag, text(value))]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("synth", help="render synthetic board images with ground truth",
                              description=__doc__.splitlines()[0])
    p.add_argument("--n", type=count, required=True, help="number of images")
    p.add_argument("--out", type=Path, required=True, help="output folder (created if missing)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first image (default 0)")
    p.add_argument("--occlusion", type=_probability, default=0.3,
                   help="probability that a frame has a hand or object over the board (default 0.3)")
    p.add_argument("--no-markers", action="store_true", help="leave the ArUco corner markers out")
    add_shot_arguments(p)
    p.add_argument("--jobs", type=count, default=os.cpu_count() or 1,
                   help="processes rendering at once (default: one per core)")
    p.set_defaults(func=run)


def progress(label: str, done: int, total: int, started: float) -> None:
    """One progress line on stderr for images being made, redrawn in place: ``done`` of
    ``total``, the time per image since ``started`` (``time.perf_counter``) and what is left."""
    width = 30
    fill = width * done // total
    elapsed = time.perf_counter() - started
    rate = elapsed / done if done else 0.0
    sys.stderr.write(f"\r{label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total}  {rate:.2f} s/image  "
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
    progress("synth", 0, args.n, started)
    write_samples(args.out, args.seed, args.n, options, args.jobs, lambda done: progress("synth", done, args.n, started))
    sys.stderr.write("\n")
    print(f"wrote {args.n} images to {args.out}")
    return 0

