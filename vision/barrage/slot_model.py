"""The slot classifier at run time: one ONNX session, one batch per frame (and a second,
small one: the boxes it is unsure of, mirrored, ``second_look``).

The net reads each crop beside its *kind context*: the pixelwise median of the
frame's crops of the same kind. Most slots of a kind are empty, so the median is
what an empty one looks like in this frame (this board's print, this light, this
focus), and a piece is what differs from it; a board printed in a company's colour
or a dim, blurred frame then fools the net less than one crop alone does.

The net has four heads per crop: piece class, owner colour, drop count and
"occluded". Decoding knows each crop's kind, so a conduit slot can only read
empty/conduit and a lake only gets a drop count; a piece is read with a company's or
the neutral colour and an empty slot with none; given the map's neutral dams, a
grey dam is read only where, and as high as, setup places one; given which lake is
whose, a dam and its drops are read together, as many drops as the dam holds at most;
given the companies in the game, a piece is read as one of theirs (or neutral), and
without them, as one of the companies the frame surely shows a piece of.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Collection, Sequence

import numpy as np
import onnxruntime as ort

from ..rectify import cut_rects
from ..runner import ModelFileError, cpu_session, softmax
from ..stack_median import stack_median
from .held_water import HeldWater
from .labels import HAS_DROPS, HAS_OWNER, OWNERS, PIECES, owner_mask, piece_mask
from .neutral_dams import NeutralDams

# The slot model the pipeline runs: its float file quantized to int8 (``lab.training.quantize``), which
# reads as the float file does in about half the time. Trainings start from the float file,
# and soups average it.
DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "models" / "barrage_slots_int8.onnx"
MASTER_MODEL = DEFAULT_MODEL.with_name("barrage_slots.onnx")
OUTPUTS = ("piece", "owner", "drops", "occluded")
CHANNELS = 6           # the crop's BGR, then its kind context's BGR


@dataclass(frozen=True)
class CropReading:
    piece: str | None          # None for headstreams and lakes
    owner: str | None          # None where no piece stands
    drops: int | None          # headstreams and lakes only
    occluded: bool
    confidence: float          # probability of the whole reading among the allowed ones
    conflict: str | None = None  # what the box read alone broke, where that was not taken: a dam's
                                 # capacity (with its lake), a company not in the game (or, read blind, not seen)


def load_session(path: str | Path = DEFAULT_MODEL, threads: int = 2) -> ort.InferenceSession:
    session = cpu_session(path, threads)
    channels = session.get_inputs()[0].shape[1]
    if channels != CHANNELS:
        raise ModelFileError(f"{path}: the model reads {channels} channels per crop, this version gives it {CHANNELS} "
                         "(each crop and its kind context); retrain it with `automa-vision train`")
    return session


def kind_context(crops: np.ndarray, kinds: Sequence[str]) -> np.ndarray:
    """(N, h, w, 3) uint8: for each crop, the pixelwise median of the frame's crops of
    its kind (the mean of the two middle values, rounded down, for an even count)."""
    kinds = np.asarray(kinds)
    out = np.empty_like(crops)
    for kind in np.unique(kinds):
        same = np.flatnonzero(kinds == kind)
        out[same] = stack_median(crops[same])
    return out


def to_input(crops: np.ndarray, context: np.ndarray) -> np.ndarray:
    """Crops and their kind context, (N, h, w, 3) uint8 BGR each -> (N, 6, h, w) float32
    in 0..1, the net's input."""
    n, h, w, _ = crops.shape
    out = np.empty((n, CHANNELS, h, w), np.float32)
    # One pass per half, uint8 straight to float32: 6x faster than concatenating, then
    # converting, then scaling (1 ms against 7 for a frame's 87 crops), same values.
    scale = np.float32(1.0 / 255.0)
    np.multiply(crops.transpose(0, 3, 1, 2), scale, out=out[:, :3])
    np.multiply(context.transpose(0, 3, 1, 2), scale, out=out[:, 3:])
    return out


def net_input(crops: np.ndarray, kinds: Sequence[str]) -> np.ndarray:
    """The net's input for one frame's crops, each beside its kind context; ``kinds``: each
    crop's box kind."""
    return to_input(crops, kind_context(crops, kinds))


def run(session: ort.InferenceSession, inputs: np.ndarray) -> dict[str, np.ndarray]:
    """The four heads for rows of a frame's net input (``net_input``)."""
    return dict(zip(OUTPUTS, session.run(list(OUTPUTS), {"crops": inputs})))


_EMPTY, _NONE = PIECES.index("empty"), OWNERS.index("none")
_A_PIECE = np.arange(len(PIECES)) != _EMPTY


def reading_table(piece_p: np.ndarray, owner_p: np.ndarray) -> np.ndarray:
    """(N, pieces, owners) chance of each reading a table can show: an empty slot with no
    owner, a piece with one, a company's or the neutral grey (rulings V11). The heads are
    read as independent, so the most likely reading is the table's largest entry. A row
    sums to less than 1 by the chance the heads give a piece with no colour: that chance
    is left as doubt, so a reading's confidence stays its share of all the heads' readings."""
    table = piece_p[:, :, None] * owner_p[:, None, :]
    table[:, _EMPTY, :] = 0.0
    table[:, _EMPTY, _NONE] = piece_p[:, _EMPTY]
    table[:, _A_PIECE, _NONE] = 0.0
    return table


def colourless_chance(piece_p: np.ndarray, owner_p: np.ndarray) -> np.ndarray:
    """(N,) the heads' chance of a piece with no owner colour (``reading_table`` leaves it out)."""
    return piece_p[:, _A_PIECE].sum(1) * owner_p[:, _NONE]


def colourless(piece_p: np.ndarray, owner_p: np.ndarray) -> np.ndarray:
    """(N,) whether each box, read by each head alone, is a piece with no owner colour: a
    reading no table shows, which ``decode`` replaces with its likeliest one that it does
    and notes (rulings V11)."""
    return (piece_p.argmax(1) != _EMPTY) & (owner_p.argmax(1) == _NONE)


@dataclass
class Surety:
    """How sure the slot model is of each of ``boxes`` (indices into a frame's outputs): its
    chance of its likeliest reading, piece with owner (``reading_table``, among the pieces
    the box's kind can hold), or, for a box read by its drops alone (a headstream, a lake),
    of its likeliest drop count. A second look and the specialist go where it is low."""
    boxes: np.ndarray
    kinds: tuple[str, ...]                      # each box's kind
    masks: np.ndarray = field(init=False)       # each box's piece mask, made once
    counted: np.ndarray = field(init=False)     # the boxes read by their drop count alone

    def __post_init__(self) -> None:
        self.masks = np.stack([piece_mask(k) for k in self.kinds])
        self.counted = np.array([k in HAS_DROPS and k not in HAS_OWNER for k in self.kinds], bool)

    def __call__(self, raw: dict[str, np.ndarray]) -> np.ndarray:
        table = reading_table(softmax(raw["piece"][self.boxes] + self.masks), softmax(raw["owner"][self.boxes]))
        top = table.reshape(len(self.boxes), -1).max(1)
        top[self.counted] = softmax(raw["drops"][self.boxes[self.counted]]).max(1)
        return top


def second_look(session: ort.InferenceSession, inputs: np.ndarray, raw: dict[str, np.ndarray],
                rows: np.ndarray) -> dict[str, np.ndarray]:
    """``raw``, the slot model's heads for a frame's net ``inputs``, with the rows ``rows``
    read once more from their crops and kind contexts mirrored left to right (the net was
    trained on mirrored crops too): each head of those rows the mean of both looks' logits.
    Two looks at a box err less alike than one; reading again only the boxes the model is
    unsure of costs a fifth of reading every box twice, for the same gain
    (``docs/benchmarks.md``, "A second look where the slot model is unsure")."""
    return more_looks(session, raw, rows, [inputs[rows][..., ::-1]])


def more_looks(session: ort.InferenceSession, raw: dict[str, np.ndarray], rows: np.ndarray,
               looks: Sequence[np.ndarray], before: int = 1) -> dict[str, np.ndarray]:
    """``raw`` with the rows ``rows`` read once more from each of ``looks`` (net inputs of those
    rows, their crops turned or cut otherwise), in one run: each head of those rows the mean of
    every look's logits, ``raw``'s rows counting as the ``before`` looks they already average."""
    if not len(rows) or not len(looks):
        return raw
    again = run(session, np.ascontiguousarray(np.concatenate(looks)))
    out = {}
    for head, first in raw.items():
        out[head] = first.copy()
        summed = again[head].reshape(len(looks), len(rows), *first.shape[1:]).sum(0)
        out[head][rows] = (first[rows] * before + summed) / (before + len(looks))
    return out


# Where a box the slot model is unsure of is cut again, in view px added to its crop's
# rectangle: a px right and down, and a px left and up (training moved each edge by up to 2.5).
MOVES = (1.0, -1.0)
# The boxes read from moved crops too: those the slot model gives less than this chance for
# their likeliest reading (under 0.99 they read as well, at twice the cost).
MOVED_SURE = 0.9


def moved_inputs(view: np.ndarray, rects: np.ndarray, inputs: np.ndarray, rows: np.ndarray,
                 mirrored: bool = False, moves: Sequence[float] = MOVES) -> list[np.ndarray]:
    """For each of ``moves``: the net input of the boxes ``rows``, their crops cut from
    ``view`` with the rectangles ``rects`` (all boxes', view px) moved that far along both axes,
    beside the kind contexts of the frame's own crops (``inputs``: the frame's net input, its
    crops ``mirrored`` or not): a median over a kind's crops hardly moves with a px. Read by
    ``more_looks`` after the second look: a crop cut a px off is one the net knows from its
    training, and a box on the edge between two readings is judged from more pictures of it
    (``docs/benchmarks.md``, "Unsure boxes read from moved crops too")."""
    out = []
    for d in moves:
        crops = cut_rects(view, rects[rows] + np.float32(d), (inputs.shape[3], inputs.shape[2]))
        if mirrored:
            crops = crops[:, :, ::-1]
        x = inputs[rows].copy()
        np.multiply(crops.transpose(0, 3, 1, 2), np.float32(1.0 / 255.0), out=x[:, :3])
        out.append(x)
    return out


# Blind, a company counts as seen when some visible box reads as one of its pieces with at
# least this share of the box's readings (rulings V10). Of 0.5-0.9, 0.7 read the tuning frames
# best (docs/benchmarks.md, "Companies seen on the map").
SEEN = 0.7


def companies_seen(table: np.ndarray, kinds: Sequence[str], hidden: np.ndarray, sure: float = SEEN) -> list[str]:
    """The companies a frame shows a piece of, surely enough to take them as the game's
    (rulings V10): some visible box of a kind that has an owner reads as one of their pieces
    with at least ``sure`` of its chance. ``table``: ``reading_table``'s; ``hidden``: (N,)
    the boxes read occluded. A company with nothing built yet is left out too, at no cost:
    no piece of it stands there to be read."""
    share = table.sum(1) / np.maximum(table.sum((1, 2)), 1e-12)[:, None]
    looked = np.array([k in HAS_OWNER for k in kinds]) & ~hidden
    best = share[looked].max(0) if looked.any() else np.zeros(len(OWNERS))
    return [o for k, o in enumerate(OWNERS[:-2]) if best[k] >= sure]


def seen_in(raw: dict[str, np.ndarray], kinds: Sequence[str], sure: float = SEEN) -> list[str]:
    """``companies_seen`` of a frame's outputs, every colour possible."""
    piece_p, owner_p, _, occluded_p = head_chances(raw, kinds)
    return companies_seen(reading_table(piece_p, owner_p), kinds, occluded_p > 0.5, sure)


def head_chances(raw: dict[str, np.ndarray], kinds: Sequence[str]) -> tuple[np.ndarray, ...]:
    """The heads' chances: (N, pieces) of what stands there, of those the box's kind allows;
    (N, owners) of its colour; (N, drops) of its drop count; (N,) that it is occluded."""
    piece_p = softmax(raw["piece"] + np.stack([piece_mask(k) for k in kinds]))
    occluded_p = 1.0 / (1.0 + np.exp(-raw["occluded"].reshape(-1)))
    return piece_p, softmax(raw["owner"]), softmax(raw["drops"]), occluded_p


def _outsiders(table: np.ndarray, mask: np.ndarray, why: str) -> dict[int, str]:
    """Box index -> a note for each box whose likeliest reading, read with every colour
    possible, is a piece of a company left out (``mask`` 0): the page says why it is unsure.
    ``why`` names the reason, ``{}`` standing for the company."""
    owners = table.reshape(len(table), -1).argmax(1) % len(OWNERS)
    return {i: f"looks like {OWNERS[k]}'s colour, but " + why.format(OWNERS[k])
            for i, k in enumerate(owners) if mask[k] == 0}


def decode(raw: dict[str, np.ndarray], kinds: list[str], neutral: NeutralDams | None = None,
           water: HeldWater | None = None, companies: Collection[str] | None = None,
           seen: float | None = None, seen_also: dict[str, np.ndarray] | None = None,
           del_monte: Collection[str] = ()) -> list[CropReading]:
    """Readings from the heads; ``neutral``: the map's neutral dams, which narrow what a
    dam slot can read (``vision.barrage.neutral_dams``); ``water``: which lake holds each dam's
    drops, read together with the dam (``vision.barrage.held_water``); ``companies``: the
    companies in the game, when known, the only ones whose pieces a slot can read (rulings
    V4); without them, given ``seen``, the companies the frame shows a piece of at ``seen``
    or surer stand for them (``companies_seen``, rulings V10), else every colour stays possible;
    ``seen_also``: the same boxes' outputs read otherwise (a still spell's frames without their
    mirrored looks), whose companies seen count as well: a second look can lower a piece's
    share under ``seen`` but cannot take away a company the frames themselves show surely;
    ``del_monte``: the companies with Graziano Del Monte, whose level 3 dams hold 4 drops.
    A piece is read with a colour and an empty box with none; where the heads alone give a
    piece with no colour, the reading notes it (rulings V11). Confidence is the probability
    of the reading among the readings allowed (with companies guessed, among every colour)
    and the heads' chance of a piece with no colour."""
    piece_p, owner_p, drops_p, occluded_p = head_chances(raw, kinds)
    visible = np.maximum(occluded_p, 1 - occluded_p)       # the occluded head's confidence
    notes: dict[int, str] = {}
    free = reading_table(piece_p, owner_p)                 # every colour possible
    alone = colourless(piece_p, owner_p)
    why, guessed = "{} is not in this game", companies is None and seen is not None
    if guessed:
        companies = companies_seen(free, kinds, occluded_p > 0.5, seen)
        if seen_also is not None:
            companies = sorted(set(companies) | set(seen_in(seen_also, kinds, seen)))
        why = "no piece on the map is surely {}'s"
    if companies is not None:
        playing = owner_mask(companies)
        notes = _outsiders(free, playing, why)
        owner_p = owner_p * playing
    table = reading_table(piece_p, owner_p)
    # A reading's confidence is its share of the readings allowed and of the heads' chance of a
    # piece with no colour, which no table shows but which is doubt all the same (rulings V11).
    # Companies guessed from the frame narrow the choice, not the doubt: each reading keeps its
    # chance among every colour (rulings V10), so that one the guess changed stays flagged.
    among = (free if guessed else table).sum((1, 2)) + colourless_chance(piece_p, owner_p)
    kept = table.sum((1, 2)) / np.maximum(among, 1e-12)
    if neutral is not None:
        neutral.restrict(table, occluded_p > 0.5)
    out = []
    for i, kind in enumerate(kinds):
        conf = float(visible[i])
        piece = owner = drops = None
        if kind in HAS_OWNER:
            j, k = np.unravel_index(int(table[i].argmax()), table[i].shape)
            piece = PIECES[j]
            owner = OWNERS[k] if piece != "empty" else None
            conf *= float(table[i, j, k] / table[i].sum() * kept[i])
        if kind in HAS_DROPS:
            j = int(drops_p[i].argmax())
            drops, conf = j, conf * float(drops_p[i, j])
        out.append(CropReading(piece, owner, drops, bool(occluded_p[i] > 0.5), conf, notes.get(i)))
    weights = water.owner_weights(del_monte) if water is not None else None
    for dam, lake in water.pairs if water is not None else ():
        c = water.choose(table[dam], drops_p[lake], weights)
        piece = PIECES[c.piece]
        out[dam] = replace(out[dam], piece=piece, owner=OWNERS[c.owner] if piece != "empty" else None,
                           confidence=float(visible[dam] * kept[dam]) * c.piece_share,
                           conflict="; ".join(n for n in (out[dam].conflict, c.conflict) if n) or None)
        out[lake] = replace(out[lake], drops=c.drops, confidence=float(visible[lake]) * c.drops_share)
    for i in np.flatnonzero(alone):
        if kinds[i] in HAS_OWNER:
            r = out[i]
            taken = "empty" if r.piece == "empty" else f"{r.owner}'s {r.piece}"
            note = f"read alone: {PIECES[int(piece_p[i].argmax())]} with no owner colour; taken as {taken}"
            out[i] = replace(r, conflict="; ".join(n for n in (r.conflict, note) if n))
    return out
