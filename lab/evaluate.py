"""Readings against the synthetic generator's ground truth.

A slot is right when everything the camera must see matches: piece class
and owner for structure slots, and the drop count for headstreams and dams.
An occluded slot is right only when it is reported unknown.

The page asks the players about every slot read unknown or below
``LOW_CONFIDENCE``, and every slot a flag of the map names (a reading chosen over
one that breaks a rule, more drops than a dam holds...: ``flagged_slots``); a wrong
slot so marked is *flagged*: the players see it and correct it. Flagged errors, and
boards whose every error is flagged, say how often a misreading would reach the
engine unnoticed.
"""
from __future__ import annotations

import functools
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Callable, Iterable, Iterator, TypeVar

import cv2
import numpy as np

from vision.barrage.annotate import write_png
from vision.barrage.board_state import build_map
from vision.barrage.confidence import board_chance
from vision.barrage.labels import PIECES, dam_pieces
from vision.barrage.pipeline import Pipeline
from vision.reader import LOW_CONFIDENCE, SlotReading

from . import elevation_cues
from .bands import band
from .parallel import ordered_map

T = TypeVar("T")

# Issue 4's accuracy goal on held-out synthetic sets (``lab.heldout_sets``) and on the fixtures.
SLOT_ERROR_GOAL = 0.0005        # per visible slot
BOARDS_GOAL = 0.99              # boards fully correct

PIECE_AXIS = PIECES + ("unknown",)


@dataclass(frozen=True)
class Mistake:
    """One wrong visible slot of one image: what the truth has, what was read, and whether
    the page would have asked the players about it (``flagged``)."""
    image: str                   # the image's file stem
    slot: str
    cause: str                   # ``error_cause``: "dam height", "conduit missed", ...
    truth: SlotReading           # the ground truth as a reading (confidence 1)
    read: SlotReading
    flagged: bool

    def __str__(self) -> str:
        t, r = self.truth, self.read
        return (f"{self.image} {self.slot}: truth {t.piece or 'empty'}/{t.owner}/{t.drops} "
                f"read {r.piece}/{r.owner}/{r.drops} (unknown={r.unknown}, conf {r.confidence:.2f}"
                f"{', flagged' if self.flagged else ''})")


@dataclass
class Tally:
    images: int = 0
    boards_right: int = 0
    boards_not_found: int = 0      # frames the pipeline could not register: every slot counts as wrong
    slots: int = 0                 # visible slots
    slot_errors: int = 0
    occluded: int = 0
    occluded_unknown: int = 0
    drop_slots: int = 0
    drop_errors: int = 0
    drop_abs: int = 0
    flagged: int = 0               # visible slots read unknown or with low confidence
    read_errors: int = 0           # wrong visible slots on boards found
    flagged_errors: int = 0        # wrong slots among the flagged ones
    boards_caught: int = 0         # boards with every wrong slot flagged, or announced as not found
    by_kind: Counter = field(default_factory=Counter)        # kind -> errors
    by_cause: Counter = field(default_factory=Counter)       # "kind cause" -> errors (``error_cause``)
    by_blur: Counter = field(default_factory=Counter)        # (blur band, "slots" | "errors") -> count
    by_height_cue: Counter = field(default_factory=Counter)  # (cue, band), "slots" | "errors": company dams read standing
    by_confidence: Counter = field(default_factory=Counter)  # (confidence band, "slots" | "right"): visible slots read
    by_board_chance: Counter = field(default_factory=Counter)  # (band, "boards" | "right"): boards found
    confusion: Counter = field(default_factory=Counter)      # (true piece, read piece) -> count
    recall: Counter = field(default_factory=Counter)         # (true piece[ neutral], "slots" | "right"), visible slots
    latency_ms: list[float] = field(default_factory=list)    # frame -> state, registration cached
    registration_ms: list[float] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)


def pooled(tallies: Iterable[T], kind: Callable[[], T] = Tally) -> T:
    """One tally of several sets' images: each Counter added, each list joined, each number
    summed. ``kind``: the tallies' dataclass (``Tally``; ``lab.reader_eval.ReaderTally``)."""
    out = kind()
    for tally in tallies:
        for f in fields(out):
            mine, theirs = getattr(out, f.name), getattr(tally, f.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                setattr(out, f.name, mine + theirs)
    return out


def truth_piece(t: dict) -> str:
    return t["piece"] or "empty"


def slot_right(t: dict, r: SlotReading) -> bool:
    return error_cause(t, r) is None


def error_cause(t: dict, r: SlotReading) -> str | None:
    """What is wrong with a visible slot's reading, the first of: read unknown, a piece
    missed or a phantom one, a dam of another height, another owner, drops short or over;
    after its kind ("dam height", "conduit phantom", "headstream drops short"). None when
    the reading is right."""
    cause = None
    true, read = truth_piece(t), r.piece or "empty"
    if r.unknown:
        cause = "unknown"
    elif t["kind"] != "headstream" and true != read:
        cause = "missed" if read == "empty" else "phantom" if true == "empty" else "height"
    elif t["kind"] != "headstream" and true != "empty" and t["owner"] != r.owner:
        cause = "owner"
    elif t["kind"] in ("headstream", "dam") and (t["drops"] or 0) != (r.drops or 0):
        cause = "drops short" if (r.drops or 0) < (t["drops"] or 0) else "drops over"
    return None if cause is None else f"{t['kind']} {cause}"


# Edges of the confidence bands of ``reading_right_by_confidence``, the page's line among them,
# and the bands as (top, name), lowest first (``lab.bands``).
CONFIDENCE_EDGES = tuple(sorted({0.5, 0.7, LOW_CONFIDENCE, 0.9, 0.95, 0.99}))
CONFIDENCE_BANDS = tuple(zip(
    CONFIDENCE_EDGES + (float("inf"),),
    [f"< {CONFIDENCE_EDGES[0]:g}"]
    + [f"{lo:g}-{hi:g}" for lo, hi in zip(CONFIDENCE_EDGES, CONFIDENCE_EDGES[1:])]
    + [f">= {CONFIDENCE_EDGES[-1]:g}"]))


# Bands of ``boards_right_by_chance``: a board's chance of being read fully right (``board_chance``).
BOARD_CHANCE_BANDS = ((0.1, "< 0.1"), (0.3, "0.1-0.3"), (0.5, "0.3-0.5"), (0.7, "0.5-0.7"), (0.9, "0.7-0.9"),
                      (float("inf"), ">= 0.9"))


def confidence_band(confidence: float) -> str:
    """The band of ``CONFIDENCE_BANDS`` a reading's confidence falls in ("0.9-0.95", "< 0.5", ">= 0.99")."""
    return band(CONFIDENCE_BANDS, confidence)


def blur_band(truth: dict) -> str | None:
    """How blurred the generator made the frame, in the bands its errors follow (hard
    held-out frames, seeds 920000+: 2.4 % of slots read wrong without blur or under light
    shake, 6 % under strong defocus, 14 % under strong shake); None for a picture without
    the generator's style."""
    style = truth.get("style")
    photo = style.get("photo") if isinstance(style, dict) else None
    if not isinstance(photo, dict) or photo.get("blur") not in ("none", "gaussian", "motion"):
        return None
    amount = float(photo.get("blur_amount", 0.0))
    if photo["blur"] == "gaussian":
        return "defocus <= 1.5 px" if amount <= 1.5 else "defocus > 1.5 px"
    if photo["blur"] == "motion":
        return "shake <= 6 px" if amount <= 6 else "shake > 6 px"
    return "no blur"


def flagged_slots(readings: list[SlotReading]) -> set[str]:
    """The slots the page asks the players about: the unknown ones and each one a flag of the
    map names (``board_state.build_map``: low confidence, a reading chosen over one that
    breaks a rule, drops a dam cannot hold, a company's second dam in a basin...). A flag on
    a company's whole supply names no slot and counts for none."""
    _, flags = build_map(readings)
    return {r.id for r in readings if r.unknown} | {f.slot for f in flags}


def score_image(tally: Tally, truth: dict, readings: list[SlotReading], name: str) -> None:
    by_id = {r.id: r for r in readings}
    asked = flagged_slots(readings)
    board_ok = caught = True
    slots, errors = tally.slots, tally.slot_errors
    tally.boards_not_found += not readings
    for t in truth["slots"]:
        r = by_id.get(t["id"])
        if r is None:      # board not found: every slot is wrong
            board_ok = False
            tally.slots += 1
            tally.slot_errors += 1
            continue
        if t["kind"] != "headstream":
            tally.confusion[truth_piece(t), "unknown" if r.unknown else (r.piece or "empty")] += 1
        if t.get("occluded"):
            tally.occluded += 1
            tally.occluded_unknown += r.unknown
            board_ok &= r.unknown
            caught &= r.id in asked
            continue
        cause = error_cause(t, r)
        tally.slots += 1
        if t["kind"] != "headstream":
            # Neutral dams apart: the decoder knows their heights (rulings V1), companies' it must see.
            key = truth_piece(t) + (" neutral" if t["owner"] == "neutral" else "")
            tally.recall[key, "slots"] += 1
            tally.recall[key, "right"] += not r.unknown and truth_piece(t) == (r.piece or "empty")
        tally.flagged += r.id in asked
        if not r.unknown:
            sure = confidence_band(r.confidence)
            tally.by_confidence[sure, "slots"] += 1
            tally.by_confidence[sure, "right"] += cause is None
        if cause is not None:
            tally.read_errors += 1
            tally.flagged_errors += r.id in asked
            caught &= r.id in asked
            tally.slot_errors += 1
            tally.by_kind[t["kind"]] += 1
            tally.by_cause[cause] += 1
            tally.mistakes.append(Mistake(name, t["id"], cause, SlotReading(t["id"], t["kind"], t["piece"], t["owner"],
                                                                            t["drops"], 1.0), r, r.id in asked))
            board_ok = False
        if (t["kind"] == "dam" and t["owner"] != "neutral" and dam_pieces(truth_piece(t))
                and not r.unknown and dam_pieces(r.piece or "")):
            tally_height_cues(tally, truth, t["id"], r.piece != truth_piece(t))
        if t["kind"] in ("headstream", "dam") and not r.unknown:
            tally.drop_slots += 1
            err = abs((t["drops"] or 0) - (r.drops or 0))
            tally.drop_errors += err > 0
            tally.drop_abs += err
    if readings:
        chance = band(BOARD_CHANCE_BANDS, board_chance(readings))
        tally.by_board_chance[chance, "boards"] += 1
        tally.by_board_chance[chance, "right"] += board_ok
    if (blur := blur_band(truth)) is not None:
        tally.by_blur[blur, "slots"] += tally.slots - slots
        tally.by_blur[blur, "errors"] += tally.slot_errors - errors
    tally.images += 1
    tally.boards_right += board_ok
    tally.boards_caught += caught


def image_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(image, ground-truth JSON) for every synthetic image in ``folder`` that has its truth."""
    return [(p, p.with_suffix(".json")) for p in sorted(Path(folder).glob("*.jpg")) if p.with_suffix(".json").exists()]


def read_sample(img: Path, truth_path: Path, flags: int = cv2.IMREAD_COLOR) -> tuple[np.ndarray, dict] | None:
    """The image and its ground truth, or None with a warning on stderr when the pair cannot
    be read (a broken picture, a truth file that is not the generator's JSON): one bad file
    does not lose the rest of a long evaluation or training run."""
    frame = cv2.imread(str(img), flags)
    try:
        truth = json.loads(truth_path.read_text())
        ok = isinstance(truth, dict) and "slots" in truth and "homography" in truth
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        ok = False
    if frame is None or not ok:
        print(f"skipped {img.name}: {'not a readable image' if frame is None else 'no ground truth in ' + truth_path.name}",
              file=sys.stderr)
        return None
    return frame, truth


def synthetic_samples(folder: Path, flags: int = cv2.IMREAD_COLOR,
                      select: Callable[[Path], bool] = lambda p: True) -> Iterator[tuple[Path, np.ndarray, dict]]:
    """(image path, image, ground truth) for each readable pair of ``image_pairs`` that
    ``select`` keeps."""
    for img, truth_path in image_pairs(folder):
        if select(img) and (sample := read_sample(img, truth_path, flags)) is not None:
            yield img, *sample


def _work_on_pair(work: Callable[[int, np.ndarray, dict], T], item: tuple[int, tuple[Path, Path]]) -> T | None:
    n, (img, truth_path) = item
    sample = read_sample(img, truth_path)
    return None if sample is None else work(n, *sample)


def map_samples(folder: Path, work: Callable[[int, np.ndarray, dict], T], jobs: int = 1,
                progress: str = "") -> Iterator[T]:
    """``work(n, frame, truth)`` for every readable pair of ``image_pairs``, in their order,
    on ``jobs`` processes; ``n`` is the pair's place in the folder, so a per-image seed drawn
    from it does not depend on how many processes share the work. ``work`` must be picklable
    (a module-level function, or a ``functools.partial`` of one). ``progress``, when given,
    names the work in a progress line on stderr."""
    pairs = list(enumerate(image_pairs(folder)))
    results = ordered_map(functools.partial(_work_on_pair, work), pairs, jobs)
    yield from _counted(results, len(pairs), progress)


def _counted(results: Iterator[T | None], total: int, progress: str) -> Iterator[T]:
    """The results that are not None, with a progress line every 100 images."""
    for done, result in enumerate(results, 1):
        if progress and (done % 100 == 0 or done == total):
            print(f"\r{progress}: {done}/{total} images", end="\n" if done == total else "", file=sys.stderr, flush=True)
        if result is not None:
            yield result


def evaluate_folder(folder: Path, pipeline: Pipeline, select: Callable[[Path], bool] = lambda p: True,
                    game_companies: bool = False) -> Tally:
    """``game_companies``: read each image knowing its game's companies, from its ground
    truth, as a session does (rulings V4)."""
    tally = Tally()
    for img, frame, truth in synthetic_samples(folder, select=select):
        companies = truth_companies(truth) if game_companies else None
        tally.registration_ms.append(pipeline.register_cold(frame))     # kept for the read
        t0 = time.perf_counter()
        warm = pipeline.read_frame(frame, companies)   # the steady state: registration cached
        tally.latency_ms.append((time.perf_counter() - t0) * 1000)
        score_image(tally, truth, warm.slots, img.stem)
    return tally


def tally_height_cues(tally: Tally, truth: dict, slot: str, wrong: bool) -> None:
    """Count a visible company dam read standing (``wrong``: at another height) in the
    bands of its elevation's cues (``vision.barrage.height_cues``), when the truth has them (a
    shadow's only under one distant light)."""
    cues = elevation_cues.elevation_cues(truth, slot)
    if cues is None:
        return
    for cue, px in (("lean", cues.lean), ("shadow", cues.shadow)):
        if px is None:
            continue
        tally.by_height_cue[(cue, band(elevation_cues.BANDS, px)), "slots"] += 1
        tally.by_height_cue[(cue, band(elevation_cues.BANDS, px)), "errors"] += wrong


def truth_companies(truth: dict) -> list[str]:
    """The companies of the game a synthetic image shows (its ground truth's state)."""
    return [c["company"] for c in truth["state"]["companies"]]


def summary(tally: Tally) -> dict:
    lat = np.array(tally.latency_ms or [0.0])
    return {
        "n_images": tally.images,
        "slot_error": tally.slot_errors / max(tally.slots, 1),
        "boards_fully_correct": tally.boards_right / max(tally.images, 1),
        "boards_not_found": tally.boards_not_found,
        "drop_count_error": tally.drop_errors / max(tally.drop_slots, 1),
        "drop_count_mae": tally.drop_abs / max(tally.drop_slots, 1),
        "occluded_slots": tally.occluded,
        "occluded_reported_unknown": tally.occluded_unknown / max(tally.occluded, 1),
        "errors_flagged": tally.flagged_errors / max(tally.read_errors, 1),
        "boards_with_every_error_flagged": tally.boards_caught / max(tally.images, 1),
        "flagged_slots_per_board": tally.flagged / max(tally.images - tally.boards_not_found, 1),
        "errors_by_kind": dict(tally.by_kind),
        "errors_by_cause": dict(tally.by_cause.most_common()),
        # The errors nobody is asked about, the ones that cost the players: what the page's
        # flags and confidences have left to catch.
        "errors_not_flagged_by_cause": dict(Counter(m.cause for m in tally.mistakes if not m.flagged).most_common()),
        # Per true piece class (neutral dams apart), the share of visible slots read as that
        # class: a rare class the net hardly sees (a raised dam) hides in the overall error.
        "piece_recall": _shares(tally.recall, "right", order=lambda k: (PIECES.index(k.split()[0]), k)),
        "slot_error_by_blur": _shares(tally.by_blur, "errors"),
        "dam_height_error_by_cue": _height_cue_errors(tally),
        # Honest confidence: of the visible slots read (not unknown) in each confidence band,
        # the share read right; a calibrated reader is right about as often as it says.
        "reading_right_by_confidence": _confidence_bands(tally),
        # Likewise per board: of the boards found, by their chance of being read fully right,
        # the share that were (hidden slots reported unknown count as right).
        "boards_right_by_chance": {b: {"boards": n, "right": tally.by_board_chance[b, "right"] / n}
                                   for _, b in BOARD_CHANCE_BANDS if (n := tally.by_board_chance[b, "boards"])},
        "latency_ms_median": float(np.median(lat)),
        "latency_ms_p95": float(np.percentile(lat, 95)),
        "registration_ms_cold_median": float(np.median(tally.registration_ms or [0.0])),
    }


def _height_cue_errors(tally: Tally) -> dict[str, dict[str, dict[str, float]]]:
    """Visible company dams read standing and the share of them read at another height,
    by how many camera pixels one elevation moves the dam's top (lean) and its shadow's tip."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for cue in ("lean", "shadow"):
        counts = {b: tally.by_height_cue[(cue, b), "slots"] for _, b in elevation_cues.BANDS}
        out[cue] = {b: {"dams": n, "error": tally.by_height_cue[(cue, b), "errors"] / n}
                    for b, n in counts.items() if n}
    return out


def _confidence_bands(tally: Tally) -> dict[str, dict[str, float]]:
    """For each confidence band, low to high: the visible slots read in it, and the share right."""
    return {b: {"slots": n, "right": tally.by_confidence[b, "right"] / n}
            for _, b in CONFIDENCE_BANDS if (n := tally.by_confidence[b, "slots"])}


def _shares(counts: Counter, part: str, order: Callable[[str], object] = str) -> dict[str, float]:
    """{key: counts[key, part] / counts[key, "slots"]} for a Counter keyed (key, "slots" | part)."""
    keys = sorted({k for k, _ in counts}, key=order)
    return {k: counts[k, part] / counts[k, "slots"] for k in keys if counts[k, "slots"]}


def confusion_png(tally: Tally, path: Path, cell: int = 64) -> None:
    """True piece (rows) against read piece (columns), counts and row-normalised shade."""
    n = len(PIECE_AXIS)
    pad = 110
    img = np.full((pad + n * cell, pad + n * cell, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for i, true in enumerate(PIECE_AXIS):
        row_total = sum(tally.confusion[true, p] for p in PIECE_AXIS) or 1
        cv2.putText(img, true, (4, pad + i * cell + cell // 2), font, 0.4, (0, 0, 0), 1)
        cv2.putText(img, true, (pad + i * cell + 2, pad - 8), font, 0.4, (0, 0, 0), 1)
        for j, read in enumerate(PIECE_AXIS):
            count = tally.confusion[true, read]
            shade = int(255 * (1 - count / row_total))
            x, y = pad + j * cell, pad + i * cell
            cv2.rectangle(img, (x, y), (x + cell, y + cell), (255, shade, shade) if i == j else (shade, shade, 255), -1)
            cv2.rectangle(img, (x, y), (x + cell, y + cell), (200, 200, 200), 1)
            cv2.putText(img, str(count), (x + 6, y + cell // 2 + 5), font, 0.45, (0, 0, 0), 1)
    cv2.putText(img, "rows: truth, columns: read", (4, 20), font, 0.5, (0, 0, 0), 1)
    write_png(path, img)
