"""``automa-vision eval`` (readings against a folder of synthetic images with ground truth)
and ``automa-vision eval-sets`` (the held-out sets the accuracy goal is measured on, made
where missing)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable

from vision.barrage.cli import add_model_options, load_pipeline, png_path, wrote

from .synth.cli import count, existing_folder


def cmd_eval(args: argparse.Namespace) -> int:
    from .evaluate import confusion_png, evaluate_folder, summary

    pipeline = load_pipeline(args)
    tally = evaluate_folder(Path(args.dir), pipeline, game_companies=args.game_companies)
    if tally.images == 0:
        print(f"no images with ground truth in {args.dir}", file=sys.stderr)
        return 2
    figures = summary(tally)
    status = 0
    if wrote("eval", lambda: confusion_png(tally, Path(args.confusion))):
        figures["confusion_png"] = args.confusion
    else:
        status = 1
    if args.mistakes:
        from .mistakes_sheet import write_sheet

        if wrote("eval", lambda: write_sheet(Path(args.mistakes), Path(args.dir), tally.mistakes,
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
        pipeline = load_pipeline(args)
        tallies[heldout.name] = evaluate_folder(Path(args.data) / heldout.name, pipeline,
                                                game_companies=args.game_companies)
        figures[heldout.name] = summary(tallies[heldout.name])
        rows.append(row(heldout.name, tallies[heldout.name], figures[heldout.name]))
        if args.mistakes:
            from .mistakes_sheet import write_sheet

            sheet = Path(args.mistakes) / f"{heldout.name}.png"
            if wrote("eval-sets", lambda: write_sheet(sheet, Path(args.data) / heldout.name,
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


def _mistakes_options(p: argparse.ArgumentParser, kind: Callable[[str], str], metavar: str, what: str) -> None:
    p.add_argument("--mistakes", type=kind, metavar=metavar, help=what)
    p.add_argument("--mistakes-most", type=count, default=96, metavar="N",
                   help="the most wrong slots a sheet shows (default 96)")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("eval", help="compare readings with the ground truth of synthetic images")
    p.add_argument("dir", type=existing_folder, help="a folder of synthetic images with their ground truth")
    p.add_argument("--profile")
    add_model_options(p)
    p.add_argument("--game-companies", action="store_true",
                   help="read each image knowing its game's companies (from its ground truth), as a session does")
    p.add_argument("--confusion", type=png_path, default="out/vision_confusion.png", help="confusion-matrix PNG")
    _mistakes_options(p, png_path, "PNG", "also draw the wrong slots' boxes, surest first, on a contact sheet")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_eval)
    p = subparsers.add_parser("eval-sets", help="make (where missing) and read the held-out sets the goal is measured on",
                              description="Read the held-out sets of lab/heldout_sets.json as eval does, each made "
                                          "first where it is not on disk, and print each set's figures and each "
                                          "group's totals.")
    p.add_argument("sets", nargs="*", help="groups (goal, tuning, looks, shapes, stress, late) or set names; none: goal")
    p.add_argument("--data", default="data", help="where the sets' folders are kept (default: data)")
    p.add_argument("--remake", action="store_true", help="make the sets again, even where their folders hold images")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes making a set's images")
    p.add_argument("--profile")
    add_model_options(p)
    p.add_argument("--game-companies", action="store_true",
                   help="read each image knowing its game's companies (from its ground truth), as a session does")
    _mistakes_options(p, str, "DIR", "also draw each set's wrong slots on a contact sheet, DIR/SET.png")
    p.add_argument("--json", action="store_true", help="print one JSON object: each set's, each group's figures")
    p.set_defaults(func=cmd_eval_sets)
