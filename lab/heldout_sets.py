"""The held-out sets the accuracy goal is measured on, made and read by one command.

``heldout_sets.json`` names each set (docs/benchmarks.md gives the commands that first made
them): its group, its number of images, the seed of its first image and the generator's
options. ``automa-vision eval-sets [GROUP or SET ...]`` makes every named set that is not
on disk yet, reads each as ``automa-vision eval`` does, and prints each set's figures, each
group's totals (its images' slots and boards pooled, not a mean of the sets' shares), and
whether the goal group meets issue 4's goal (judged only when every set of the group is read;
``--json``'s ``goal_met`` is null otherwise).

A folder already there is used only when it holds the set's images: all ``n`` of them, its
first one byte for byte what the generator makes of the set's first seed now. A folder
that holds other images (another seed, other options, a generator since changed) is not
overwritten: the command says so and stops, and ``--remake`` makes it again.
"""
from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .evaluate import BOARDS_GOAL, SLOT_ERROR_GOAL, Tally, image_pairs

SETS_FILE = Path(__file__).with_name("heldout_sets.json")
GOAL_GROUP = "goal"


class SetError(ValueError):
    """A set named that the file does not define, or a folder holding other images."""


@dataclass(frozen=True)
class HeldoutSet:
    name: str
    group: str
    n: int
    seed: int
    options: dict          # ``lab.synth.render.Options`` fields, as JSON has them

    def render_options(self):
        from .synth.render import Options  # the generator is needed only to make a set
        given = dict(self.options)
        if "size" in given:
            given["size"] = tuple(given["size"])
        return Options(**given)


def load_sets(path: Path | None = None) -> list[HeldoutSet]:
    """The sets of ``path`` (default ``SETS_FILE``), in its order."""
    doc = json.loads((path or SETS_FILE).read_text())
    return [HeldoutSet(s["name"], s["group"], int(s["n"]), int(s["seed"]), dict(s["options"])) for s in doc["sets"]]


def select(sets: Sequence[HeldoutSet], wanted: Iterable[str]) -> list[HeldoutSet]:
    """The sets named, by group or by set name, in the file's order; none named: the goal group."""
    wanted = list(wanted) or [GOAL_GROUP]
    known = {s.name for s in sets} | {s.group for s in sets}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        groups = sorted({s.group for s in sets})
        raise SetError(f"no held-out set or group named {', '.join(unknown)}; groups: {', '.join(groups)}")
    return [s for s in sets if s.name in wanted or s.group in wanted]


def on_disk(folder: Path, heldout: HeldoutSet) -> bool:
    """Whether ``folder`` holds the whole set. False for a folder missing or short of
    images; SetError for one that holds another set's."""
    pairs = image_pairs(folder) if folder.is_dir() else []
    if not pairs:
        return False
    from .synth.render import render
    first = render(heldout.seed, heldout.render_options()).jpeg
    if pairs[0][0].read_bytes() != first:
        raise SetError(f"{folder} holds other images than the set {heldout.name} (seed {heldout.seed}, "
                       f"{heldout.options}): move it away, or pass --remake to make it again")
    return len(pairs) >= heldout.n


def make(folder: Path, heldout: HeldoutSet, jobs: int, on_written: Callable[[int], None] = lambda done: None) -> None:
    """Write the set to ``folder``, a folder there before removed first."""
    from .synth.batch import write_samples
    if folder.exists():
        shutil.rmtree(folder)
    write_samples(folder, heldout.seed, heldout.n, heldout.render_options(), jobs, on_written)


def ensure(chosen: Sequence[HeldoutSet], data: Path, jobs: int, remake: bool = False) -> None:
    """Make each of the ``chosen`` sets under ``data`` that is not on disk yet (or every one,
    ``remake``), with a progress line on stderr. SetError or OSError as ``on_disk`` and ``make``."""
    from .synth.cli import progress
    for heldout in chosen:
        folder = Path(data) / heldout.name
        if remake or not on_disk(folder, heldout):
            label, started = f"making {folder}", time.perf_counter()
            progress(label, 0, heldout.n, started)
            make(folder, heldout, jobs, lambda done: progress(label, done, heldout.n, started))
            print(file=sys.stderr)


def meets_goal(figures: dict) -> bool:
    """Issue 4's goal: per-slot error <= 0.05 % and >= 99 % of boards fully correct."""
    return figures["slot_error"] <= SLOT_ERROR_GOAL and figures["boards_fully_correct"] >= BOARDS_GOAL


def wrong_visible_slots(tally: Tally) -> int:
    """The wrong visible slots, every one of a board not found included (``errors_by_kind``)."""
    return sum(tally.by_kind.values())
