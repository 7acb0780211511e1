"""``automa-vision read`` (one picture -> board state) and ``automa-vision eval``
(readings against a folder of synthetic images with ground truth)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import cv2

from .dam_heights import DEFAULT_HEIGHTS_MODEL
from .drop_counter import KINDS as COUNTED_KINDS
from .labels import owner_mask
from .layout import ProfileFileError
from .model import DEFAULT_MODEL
from .specialist import SPECIALIST_MODEL
from .synth.cli import count, existing_folder

if TYPE_CHECKING:
    from .pipeline import Pipeline


def cmd_read(args: argparse.Namespace) -> int:
    from .annotate import annotate
    from .evaluate import write_png

    if not Path(args.image).is_file():       # said before OpenCV's own warning would be
        print(f"no such image file: {args.image}", file=sys.stderr)
        return 2
    frame = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if frame is None:
        print(f"cannot read image {args.image} (not a picture OpenCV can decode)", file=sys.stderr)
        return 2
    pipeline = _pipeline(args)
    reading = pipeline.read_frame(frame, args.companies)
    out = Path(args.out or Path(args.image).with_suffix(".annotated.png"))
    written = _wrote("read", lambda: write_png(out, annotate(frame, reading, pipeline.profile.layout)))
    status = 0 if reading.map is not None and written else 1
    if args.json:
        print(json.dumps(reading.to_dict() | ({"annotated": str(out)} if written else {})))
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
    return status


def cmd_eval(args: argparse.Namespace) -> int:
    from .evaluate import confusion_png, evaluate_folder, summary

    pipeline = _pipeline(args)
    tally = evaluate_folder(Path(args.dir), pipeline, game_companies=args.game_companies)
    if tally.images == 0:
        print(f"no images with ground truth in {args.dir}", file=sys.stderr)
        return 2
    figures = summary(tally)
    status = 0
    if _wrote("eval", lambda: confusion_png(tally, Path(args.confusion))):
        figures["confusion_png"] = args.confusion
    else:
        status = 1
    if args.mistakes:
        from .mistakes_sheet import write_sheet

        if _wrote("eval", lambda: write_sheet(Path(args.mistakes), Path(args.dir), tally.mistakes,
                                              pipeline.profile.layout, args.mistakes_most)):
            figures["mistakes_png"] = args.mistakes
        else:
            status = 1
    if args.json:
        print(json.dumps(figures))
        return status
    for k, v in figures.items():
        print(f"{k}: {v:.5f}" if isinstance(v, float) else f"{k}: {v}")
    for mistake in tally.mistakes[:20]:
        print(f"  {mistake}")
    return status


def cmd_eval_sets(args: argparse.Namespace) -> int:
    from .evaluate import evaluate_folder, pooled, summary
    from .heldout_sets import GOAL_GROUP, SetError, ensure, load_sets, meets_goal, select, wrong_visible_slots

    sets = load_sets()
    try:
        chosen = select(sets, args.sets)
        ensure(chosen, Path(args.data), args.jobs, args.remake)
    except SetError as exc:
        print(f"automa-vision eval-sets: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:       # --data not a folder that can be written
        print(f"automa-vision eval-sets: cannot write the set under {args.data}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    tallies, figures = {}, {}        # each set's tally and its summary
    rows = [("set", "images", "slot error", "boards right", "wrong slots", "errors flagged")]

    def row(name: str, tally, f: dict) -> tuple:
        return (name, str(f["n_images"]), f"{100 * f['slot_error']:.2f} %", f"{100 * f['boards_fully_correct']:.1f} %",
                str(wrong_visible_slots(tally)), f"{100 * f['errors_flagged']:.0f} %")

    sheets, status = {}, 0
    for heldout in chosen:
        print(f"reading {heldout.name} ({heldout.n} images)", file=sys.stderr, flush=True)
        pipeline = _pipeline(args)
        tallies[heldout.name] = evaluate_folder(Path(args.data) / heldout.name, pipeline,
                                                game_companies=args.game_companies)
        figures[heldout.name] = summary(tallies[heldout.name])
        rows.append(row(heldout.name, tallies[heldout.name], figures[heldout.name]))
        if args.mistakes:
            from .mistakes_sheet import write_sheet

            sheet = Path(args.mistakes) / f"{heldout.name}.png"
            if _wrote("eval-sets", lambda: write_sheet(sheet, Path(args.data) / heldout.name,
                                                       tallies[heldout.name].mistakes, pipeline.profile.layout,
                                                       args.mistakes_most)):
                sheets[heldout.name] = str(sheet)
            else:
                status = 1
    groups, group_figures = {}, {}
    for group in dict.fromkeys(h.group for h in chosen):
        members = [h.name for h in chosen if h.group == group]
        groups[group] = pooled(tallies[m] for m in members)
        group_figures[group] = summary(groups[group])
        rows.append(row(f"{group} ({len(members)} set{'s' if len(members) > 1 else ''})", groups[group],
                        group_figures[group]))
    # The goal is judged on the whole goal group only, not on part of it.
    whole = {h.name for h in sets if h.group == GOAL_GROUP} <= set(tallies)
    goal = meets_goal(group_figures[GOAL_GROUP]) if whole else None
    if args.json:
        print(json.dumps({"sets": {name: {**figures[name], **({"mistakes_png": sheets[name]} if name in sheets else {})}
                                   for name in tallies},
                          "groups": {g: {"sets": [h.name for h in chosen if h.group == g], **group_figures[g],
                                         "wrong_visible_slots": wrong_visible_slots(t)} for g, t in groups.items()},
                          "goal_met": goal}))
        return status
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(r[0].ljust(widths[0]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(r)))
    for group, f in group_figures.items():
        for what, key in (("wrong slots by cause", "errors_by_cause"),
                          ("of them not flagged by the page", "errors_not_flagged_by_cause")):
            causes = list(f[key].items())[:CAUSES_SHOWN]      # most common first
            print(f"{group}, {what}: " + (", ".join(f"{cause} {n}" for cause, n in causes) or "none"))
    if goal is not None:
        print(f"issue 4's goal on the {GOAL_GROUP} sets (slot error <= 0.05 %, >= 99 % of boards fully correct): "
              + ("met" if goal else "not met"))
    return status


CAUSES_SHOWN = 8        # eval-sets' text lists each group's most common causes of wrong slots


def _pipeline(args: argparse.Namespace) -> "Pipeline":
    """The pipeline with the models and reading options ``_model_options`` names ("none": without
    that model)."""
    from .pipeline import Pipeline

    def given(path: str) -> str | None:
        return None if path == "none" else path

    try:
        pipeline = Pipeline.load(args.profile, args.model, given(args.heights),
                                 {kind: given(getattr(args, f"{kind}_drops")) for kind in COUNTED_KINDS},
                                 given(args.specialist), fit_lens=not args.no_lens_fit)
    except ProfileFileError as exc:
        raise SystemExit(f"cannot load the profile: {exc}") from None
    except ValueError as exc:     # a model file of the wrong kind or not a model at all: say which
        raise SystemExit(f"cannot load the models: {exc}") from None
    if args.every_colour:
        pipeline.seen = None
    return pipeline


def _wrote(command: str, write: Callable[[], None]) -> bool:
    """Whether ``write`` wrote its picture. One that cannot be written (``OSError``) is said on
    stderr and the command goes on: its figures or reading are worth more than the picture."""
    try:
        write()
    except OSError as exc:
        print(f"automa-vision {command}: {exc}", file=sys.stderr)
        return False
    return True


def _png(text: str) -> str:
    """A picture's path, checked before a long evaluation: OpenCV writes by the suffix."""
    if Path(text).suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"want a .png file, not {text!r}")
    return text


def _companies(text: str) -> list[str]:
    """``usa,germany`` -> the companies in the game, checked against the known ones."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    try:
        owner_mask(names)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not names:
        raise argparse.ArgumentTypeError("name at least one company")
    return names


def _model_options(p: argparse.ArgumentParser) -> None:
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


def _mistakes_options(p: argparse.ArgumentParser, kind: Callable[[str], str], metavar: str, what: str) -> None:
    p.add_argument("--mistakes", type=kind, metavar=metavar, help=what)
    p.add_argument("--mistakes-most", type=count, default=96, metavar="N",
                   help="the most wrong slots a sheet shows (default 96)")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("read", help="read the board state from one camera picture")
    p.add_argument("image")
    p.add_argument("--profile", help="profile JSON (layout overrides, markers, calibration)")
    _model_options(p)
    p.add_argument("--companies", type=_companies,
                   help="the companies in the game, e.g. usa,germany: pieces are read as theirs or neutral")
    p.add_argument("--out", type=_png, help="annotated PNG (default: IMAGE.annotated.png)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_read)
    p = subparsers.add_parser("eval", help="compare readings with the ground truth of synthetic images")
    p.add_argument("dir", type=existing_folder, help="a folder of synthetic images with their ground truth")
    p.add_argument("--profile")
    _model_options(p)
    p.add_argument("--game-companies", action="store_true",
                   help="read each image knowing its game's companies (from its ground truth), as a session does")
    p.add_argument("--confusion", type=_png, default="out/vision_confusion.png", help="confusion-matrix PNG")
    _mistakes_options(p, _png, "PNG", "also draw the wrong slots' boxes, surest first, on a contact sheet")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_eval)
    p = subparsers.add_parser("eval-sets", help="make (where missing) and read the held-out sets the goal is measured on",
                              description="Read the held-out sets of vision/heldout_sets.json as eval does, each made "
                                          "first where it is not on disk, and print each set's figures and each "
                                          "group's totals.")
    p.add_argument("sets", nargs="*", help="groups (goal, tuning, looks, shapes, stress, late) or set names; none: goal")
    p.add_argument("--data", default="data", help="where the sets' folders are kept (default: data)")
    p.add_argument("--remake", action="store_true", help="make the sets again, even where their folders hold images")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes making a set's images")
    p.add_argument("--profile")
    _model_options(p)
    p.add_argument("--game-companies", action="store_true",
                   help="read each image knowing its game's companies (from its ground truth), as a session does")
    _mistakes_options(p, str, "DIR", "also draw each set's wrong slots on a contact sheet, DIR/SET.png")
    p.add_argument("--json", action="store_true", help="print one JSON object: each set's, each group's figures")
    p.set_defaults(func=cmd_eval_sets)
