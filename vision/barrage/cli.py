"""``automa-vision read``: one picture -> board state, and the reading options the lab's
``eval`` commands share (``lab.eval_cli``)."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import cv2

from ..layout import ProfileFileError
from .dam_heights import DEFAULT_HEIGHTS_MODEL
from .drop_counter import KINDS as COUNTED_KINDS
from .labels import owner_mask
from .slot_model import DEFAULT_MODEL
from .specialist import SPECIALIST_MODEL

if TYPE_CHECKING:
    from .pipeline import Pipeline


def cmd_read(args: argparse.Namespace) -> int:
    from .annotate import annotate, write_png

    if not Path(args.image).is_file():       # said before OpenCV's own warning would be
        print(f"no such image file: {args.image}", file=sys.stderr)
        return 2
    frame = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if frame is None:
        print(f"cannot read image {args.image} (not a picture OpenCV can decode)", file=sys.stderr)
        return 2
    pipeline = load_pipeline(args)
    # a profile folder made by ``calibrate``: read against its empty board (issue #79)
    against_empty = args.profile is not None and Path(args.profile).is_dir()
    if against_empty:
        from .reference_reading import ReferenceError, ReferenceReader
        try:
            reading = ReferenceReader.around(pipeline, args.profile).read(frame, args.companies, args.del_monte)
        except ReferenceError as exc:
            raise SystemExit(f"cannot load the profile: {exc}") from None
    else:
        reading = pipeline.read_frame(frame, args.companies, args.del_monte)
    out = Path(args.out or Path(args.image).with_suffix(".annotated.png"))
    written = wrote("read", lambda: write_png(out, annotate(frame, reading, pipeline.profile.layout)))
    status = 0 if reading.map is not None and written else 1
    hint = calibration_hint(reading, against_empty, args.del_monte)
    if args.json:
        print(json.dumps(reading.to_dict() | ({"annotated": str(out)} if written else {})
                         | ({"hint": hint} if hint else {})))
        return status
    if reading.map is None:
        print("board not found")
        return 1
    m = reading.map
    print(f"registration: {reading.registration}; {reading.timings['total']:.1f} ms")
    print("headstreams: " + ", ".join(f"{h}={n}" for h, n in m.headstreams.items()))
    for s, d in m.dams.items():
        print(f"dam {s}: {d.owner}, {d.pieces} piece(s), {d.drops} drop(s)")
    for s, o in m.conduits.items():
        print(f"conduit {s}: {o}")
    for s, o in m.powerhouses.items():
        print(f"powerhouse {s}: {o}")
    if m.unknown:
        print("unknown (occluded): " + ", ".join(m.unknown))
    print(f"every visible slot read right: {100 * reading.board_chance:.0f} % likely")
    for f in reading.flags:
        print(f"FLAG {f.slot}: {f.problem}")
    if written:
        print(f"annotated image: {out}")
    if hint:
        print(f"hint: {hint}")
    return status


def calibration_hint(reading, against_empty: bool, del_monte: Collection[str] = ()) -> str | None:
    """What to do when a picture read without its empty board breaks rules no physical board
    can (more pieces than a company owns, two dams of one company in a basin, ...): most
    likely a board whose print the nets take for pieces, such as the icons a printed Barrage
    board shows on its empty spaces (issue #79). ``del_monte``: as ``Pipeline.read_frame``'s."""
    from .board_state import rule_flags

    if against_empty or reading.map is None or not rule_flags(reading.map, del_monte):
        return None
    return ("this reading breaks rules no physical board can: if the board prints icons on its empty spaces "
            "(the printed Barrage board does), photograph it once empty and calibrate (automa-vision calibrate "
            "--empty EMPTY.jpg --profile DIR), then read with --profile DIR; automa-vision adapt --profile DIR "
            "PHOTO.jpg:STATE.json teaches it your table's pieces and light")


def load_pipeline(args: argparse.Namespace) -> "Pipeline":
    """The pipeline with the models and reading options ``add_model_options`` names ("none": without
    that model)."""
    from .pipeline import Pipeline
    from .reference_reading import profile_file

    def given(path: str) -> str | None:
        return None if path == "none" else path

    try:
        pipeline = Pipeline.load(profile_file(args.profile), args.model, given(args.heights),
                                 {kind: given(getattr(args, f"{kind}_drops")) for kind in COUNTED_KINDS},
                                 given(args.specialist), fit_lens=not args.no_lens_fit)
    except ProfileFileError as exc:
        raise SystemExit(f"cannot load the profile: {exc}") from None
    except ValueError as exc:     # a model file of the wrong kind or not a model at all: say which
        raise SystemExit(f"cannot load the models: {exc}") from None
    if args.every_colour:
        pipeline.seen = None
    return pipeline


def wrote(command: str, write: Callable[[], None]) -> bool:
    """Whether ``write`` wrote its picture. One that cannot be written (``OSError``) is said on
    stderr and the command goes on: its figures or reading are worth more than the picture."""
    try:
        write()
    except OSError as exc:
        print(f"automa-vision {command}: {exc}", file=sys.stderr)
        return False
    return True


def png_path(text: str) -> str:
    """A picture's path, checked before a long evaluation: OpenCV writes by the suffix."""
    if Path(text).suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"want a .png file, not {text!r}")
    return text


def companies(text: str) -> list[str]:
    """``usa,germany`` -> the companies in the game, checked against the known ones."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    try:
        owner_mask(names)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not names:
        raise argparse.ArgumentTypeError("name at least one company")
    return names


def add_model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", default=str(DEFAULT_MODEL), help="the slot model")
    p.add_argument("--heights", default=str(DEFAULT_HEIGHTS_MODEL),
                   help='the dam-height model, or "none" to read heights with the slot model alone')
    for kind, counted in COUNTED_KINDS.items():
        p.add_argument(f"--{kind}-drops", default=str(counted.model),
                       help=f'the {kind} drop counter, or "none" to count those drops with the slot model alone')
    p.add_argument("--specialist", default=str(SPECIALIST_MODEL),
                   help='the specialist slot model, a second opinion on the boxes of its kinds where the slot '
                        'model is unsure, or "none" to read every box with the slot model alone')
    p.add_argument("--no-lens-fit", action="store_true",
                   help="do not fit the lens's distortion from the markers (vision/radial_lens.py): "
                        "one homography, as before 2026-11-26")
    p.add_argument("--every-colour", action="store_true",
                   help="read blind with every company's colour possible, not only those of the companies "
                        "the picture surely shows a piece of (rulings V10)")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("read", help="read the board state from one camera picture")
    p.add_argument("image")
    p.add_argument("--profile", help="profile JSON (layout overrides, markers, calibration), or a profile folder made by "
                                          "calibrate: read against its empty board")
    add_model_options(p)
    p.add_argument("--companies", type=companies,
                   help="the companies in the game, e.g. usa,germany: pieces are read as theirs or neutral")
    p.add_argument("--del-monte", type=companies, default=(), metavar="COMPANY",
                   help="the company with Graziano Del Monte (a Very Hard Automa's officer): its level 3 dams "
                        "hold 4 drops")
    p.add_argument("--out", type=png_path, help="annotated PNG (default: IMAGE.annotated.png)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_read)
