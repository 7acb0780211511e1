"""Reading a board against its empty picture, and the light heads that weigh the difference.

The pipeline's nets were trained on boards whose empty spaces look empty; a printed board
marks each empty space with an icon shaped like its structure, which they read as a piece.
Here every box is judged twice over:

1. *Is anything there that the empty board did not show?* The empty picture's crop of the
   box, brought into the frame's light, is compared with the frame's
   (``vision.reference_features``), and the slot net reads the box with that reference crop
   as its context (the net compares a crop with "what an empty one looks like", which the
   reference is exactly); a logistic gate per box kind weighs them into the chance that the
   box holds a piece (or, for a headstream tile or a lake, drops). A box whose gate says
   "unchanged" reads empty.
2. *What is there?* Where the gate says a piece stands, the pipeline's own reading says
   which (its height, a lake's drops and the owner), the slot net read against the
   reference where the pipeline saw nothing, and counts a headstream tile's drops (the
   printed ones are in both crops). The owner is the ``OwnerHead``'s where the profile was
   taught its table (``calibration.adapt``): the colours of that table's pieces, under its
   light, from photos whose state is known.

The default gates are data (``models/reference_gate.npz``, fitted by
``python -m lab.reference_fit`` on generated boards of other looks, never on the held-out
printed look); a profile's adapted heads are in its folder (``adapted.npz``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Collection

import cv2
import numpy as np

from ..layout import Layout
from ..rectify import canonical_view
from ..reference_features import FEATURES, box_features
from ..reader import SlotReading
from .board_state import build_map
from .labels import ALLOWED_PIECES, HAS_DROPS, MAX_DROPS, OWNERS, PIECES
from .pipeline import Pipeline, Reading, SlotLook
from ..runner import log_softmax, softmax

GATE_FILE = Path(__file__).resolve().parents[2] / "models" / "reference_gate.npz"
PROFILE, EMPTY_VIEW, ADAPTED = "profile.json", "empty_view.png", "adapted.npz"
GATE_KINDS = ("headstream", "dam", "conduit", "powerhouse", "lake")
# The gate's inputs: the difference features, then the slot net's log-odds of "something
# there" read against the reference crop (piece head for structures, drops head for drops).
GATE_INPUTS = FEATURES + ("net_changed",)
_EMPTY = PIECES.index("empty")


class ReferenceError(ValueError):
    """A profile without an empty-board picture, or whose files cannot be read."""


@dataclass(frozen=True)
class Logistic:
    """A logistic (or, with more than one row, softmax) model on standardised inputs."""
    mean: np.ndarray                 # (F,)
    scale: np.ndarray                # (F,)
    weights: np.ndarray              # (C, F) for C classes (C = 1: the log-odds of the positive class)
    bias: np.ndarray                 # (C,)

    def scores(self, x: np.ndarray) -> np.ndarray:
        return ((x - self.mean) / self.scale) @ self.weights.T + self.bias

    def chance(self, x: np.ndarray) -> np.ndarray:
        """(N,) chance of the positive class for a binary model."""
        return 1.0 / (1.0 + np.exp(-np.clip(self.scores(x)[:, 0], -40, 40)))


def fit_logistic(x: np.ndarray, y: np.ndarray, classes: int = 1, l2: float = 1.0,
                 prior: Logistic | None = None, steps: int = 300) -> Logistic:
    """Fit a ``Logistic`` by full-batch gradient descent (Adam) in numpy: ``y`` (N,) 0/1 for a
    binary model (``classes`` 1) or class indices. ``prior``: a model the fit is pulled towards
    (``l2`` on the distance from its weights, its standardisation kept): a few photos adapt it
    rather than replace it. Without one, the weights are pulled towards 0."""
    if prior is not None:
        mean, scale = prior.mean, prior.scale
        w0, b0 = prior.weights.astype(np.float64), prior.bias.astype(np.float64)
    else:
        mean, scale = x.mean(0), np.maximum(x.std(0), 1e-6)
        w0, b0 = np.zeros((classes, x.shape[1])), np.zeros(classes)
    z = (x - mean) / scale
    w, b = w0.copy(), b0.copy()
    target = y.astype(np.float64)[:, None] if classes == 1 else np.eye(classes)[y]
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    lr, n = 0.05, len(z)
    for t in range(1, steps + 1):
        s = z @ w.T + b
        p = 1.0 / (1.0 + np.exp(-np.clip(s, -40, 40))) if classes == 1 else softmax(s)
        g = (p - target) / n
        grads = [g.T @ z + l2 * (w - w0) / n, g.sum(0)]
        for k, (param, grad) in enumerate(zip((w, b), grads)):
            m[k] = 0.9 * m[k] + 0.1 * grad
            v[k] = 0.999 * v[k] + 0.001 * grad ** 2
            param -= lr * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v[k] / (1 - 0.999 ** t)) + 1e-8)
    return Logistic(mean.astype(np.float32), scale.astype(np.float32), w.astype(np.float32), b.astype(np.float32))


@dataclass(frozen=True)
class OwnerHead:
    """A piece's owner from its changed pixels' colour and the net's owner scores, among the
    owners the teaching photos showed: a softmax fitted on that table (``calibration.adapt``)."""
    owners: tuple[str, ...]
    model: Logistic

    def log_chances(self, colour: np.ndarray, owner_logits: np.ndarray) -> np.ndarray:
        """(N, len(OWNERS)) log-chances, -inf for the owners the photos never showed."""
        out = np.full((len(colour), len(OWNERS)), -np.inf)
        cols = [OWNERS.index(o) for o in self.owners]
        out[:, cols] = log_softmax(self.model.scores(owner_inputs(colour, owner_logits)))
        return out


def owner_inputs(colour: np.ndarray, owner_logits: np.ndarray) -> np.ndarray:
    """The owner head's inputs: the changed pixels' mean Lab and the net's owner log-chances."""
    return np.concatenate([colour, log_softmax(owner_logits)], axis=1)


@dataclass(frozen=True)
class Heads:
    """A gate per box kind, and an owner head where the profile was taught its table."""
    gates: dict[str, Logistic]
    owner: OwnerHead | None = None

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {}
        for kind, g in self.gates.items():
            arrays |= {f"gate_{kind}_{k}": getattr(g, k) for k in ("mean", "scale", "weights", "bias")}
        if self.owner is not None:
            arrays |= {f"owner_{k}": getattr(self.owner.model, k) for k in ("mean", "scale", "weights", "bias")}
            arrays["owner_names"] = np.array(self.owner.owners)
        part = path.with_name(path.name + ".part.npz")
        np.savez(part, **arrays)
        part.replace(path)

    @classmethod
    def load(cls, path: Path) -> "Heads":
        try:
            with np.load(path) as z:
                def model(prefix: str) -> Logistic:
                    return Logistic(*(z[f"{prefix}_{k}"] for k in ("mean", "scale", "weights", "bias")))
                gates = {kind: model(f"gate_{kind}") for kind in GATE_KINDS}
                owner = OwnerHead(tuple(str(o) for o in z["owner_names"]), model("owner")) if "owner_names" in z else None
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise ReferenceError(f"{path} cannot be read ({type(exc).__name__}: {exc})") from exc
        return cls(gates, owner)


@dataclass(frozen=True)
class Compared:
    """A frame's boxes against the empty board, from the slot net's first look
    (``ReferenceReader.focus``): the pipeline's ``Focus``, its ``rows`` the boxes the gate
    finds changed (only they are read further: ``judge`` reads the others empty)."""
    gate_inputs: np.ndarray          # (N, len(GATE_INPUTS))
    colour: np.ndarray               # (N, 3) changed pixels' Lab
    changed: np.ndarray              # (N,) each box's chance of holding something the empty board did not show
    rows: np.ndarray                 # (N,) bool: changed >= 0.5


@dataclass
class BoxEvidence:
    """What ``ReferenceReader.evidence`` gathers for one frame's boxes."""
    gate_inputs: np.ndarray          # (N, len(GATE_INPUTS))
    colour: np.ndarray               # (N, 3) changed pixels' Lab
    changed: np.ndarray              # (N,) the gate's chance of a change (``Compared``)
    owner_logits: np.ndarray         # (N, len(OWNERS)) the net's, read against the reference
    piece_logits: np.ndarray         # (N, len(PIECES)) the net's, read against the reference
    drop_logits: np.ndarray          # (N, MAX_DROPS + 1) the net's, read against the reference
    reading: Reading


@dataclass
class ReferenceReader:
    """The pipeline, with a profile's empty-board picture and heads (``load``)."""
    pipeline: Pipeline
    empty_view: np.ndarray           # the empty board's normalised canonical view (``vision.rectify``)
    heads: Heads
    # the drops the pipeline reads on each headstream tile of the empty board: printed drop
    # icons it takes for drops (``judge``)
    printed_drops: dict[str, int] = field(default_factory=dict)
    adapted: bool = False            # the heads are the profile's own (``automa-vision adapt``)
    # the last stable state judged against the empty board (the pipeline's ``stable`` is not)
    stable: list[SlotReading] | None = None

    @classmethod
    def load(cls, folder: str | Path, gate_file: Path = GATE_FILE, **pipeline_options) -> "ReferenceReader":
        """A profile folder made by ``automa-vision calibrate``: ``profile.json`` (the pipeline's
        profile), ``empty_view.png`` and, after ``automa-vision adapt``, ``adapted.npz``."""
        return cls.around(Pipeline.load(profile_file(folder), **pipeline_options), folder, gate_file)

    @classmethod
    def around(cls, pipeline: Pipeline, folder: str | Path, gate_file: Path = GATE_FILE) -> "ReferenceReader":
        """``pipeline`` (loaded with the folder's ``profile.json``) reading against the folder's
        empty board: its nets read each crop beside the empty board's, and look closer only
        at the boxes that differ from it (``focus``)."""
        folder = Path(folder)
        view = cv2.imread(str(folder / EMPTY_VIEW), cv2.IMREAD_COLOR) if (folder / EMPTY_VIEW).exists() else None
        if view is None:
            raise ReferenceError(f"{folder} holds no empty-board picture ({EMPTY_VIEW}): run automa-vision calibrate first")
        adapted = (folder / ADAPTED).exists()
        heads = Heads.load(folder / ADAPTED if adapted else gate_file)
        printed = {str(k): int(v) for k, v in profile_json(folder).get("empty_drops", {}).items()}
        reader = cls(pipeline, view, heads, printed, adapted)
        pipeline.reference = view
        pipeline.closer_look = reader
        return reader

    def prepare(self, crops: np.ndarray, context: np.ndarray,
                light: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """The difference features and changed pixels' colour of a frame's ``crops`` against
        the empty board's (``context``: the pipeline reads each crop beside its box of the
        empty board, ``around``; ``light``: from its light to the frame's), the colour in the
        empty board's light; the pipeline runs it while the slot net reads the crops."""
        return box_features(crops, context, light=light)

    def focus(self, look: SlotLook, prepared: tuple[np.ndarray, np.ndarray]) -> Compared:
        """Each box of the pipeline's first ``look`` at a frame against the empty board: the
        difference features (``prepared``) and the net's log-odds of something there, weighed
        by the gates."""
        features, colour = prepared
        kinds = np.array(self.pipeline.profile.layout.kinds)
        piece = look.outputs["piece"]
        net_piece = np.max(np.where(np.arange(len(PIECES)) == _EMPTY, -np.inf, piece), axis=1) - piece[:, _EMPTY]
        drops = log_softmax(look.outputs["drops"])
        net_drops = np.log(np.maximum(1 - np.exp(drops[:, 0]), 1e-9)) - drops[:, 0]
        gate_inputs = np.concatenate([features, np.where(np.isin(kinds, HAS_DROPS), net_drops, net_piece)[:, None]],
                                     axis=1)
        changed = np.zeros(len(kinds))
        for kind, gate in self.heads.gates.items():
            at = kinds == kind
            if at.any():
                changed[at] = gate.chance(gate_inputs[at])
        return Compared(gate_inputs, colour, changed, changed >= 0.5)

    def evidence(self, frame: np.ndarray, companies: Collection[str] | None = None,
                 del_monte: Collection[str] = ()) -> BoxEvidence | None:
        """The pipeline's reading of ``frame`` and each box's difference from the empty board;
        None where the board is not found."""
        reading = self.pipeline.read_frame(frame, companies, del_monte)
        if reading.map is None or reading.look is None or not isinstance(reading.look.focus, Compared):
            return None
        raw, compared = reading.look.outputs, reading.look.focus
        return BoxEvidence(compared.gate_inputs, compared.colour, compared.changed, raw["owner"], raw["piece"],
                           raw["drops"], reading)

    def read(self, frame: np.ndarray, companies: Collection[str] | None = None,
             del_monte: Collection[str] = ()) -> Reading:
        """``frame`` read against the empty board: the pipeline's ``Reading`` with its slots,
        map and flags judged again (``judge``); ``companies`` and ``del_monte`` as
        ``Pipeline.read_frame``'s."""
        ev = self.evidence(frame, companies, del_monte)
        if ev is None:
            return self.pipeline.read_frame(frame, companies, del_monte)
        slots = judge(self.pipeline.profile.layout, ev.reading.slots, ev.changed,
                      self.owners(ev, companies), ev.piece_logits, ev.drop_logits, self.printed_drops,
                      self.heads.owner is not None)
        board, flags = build_map(slots, del_monte)
        kept = [f for f in ev.reading.flags if f.slot == "board"]
        if ev.reading.stable:
            self.stable = slots
        return replace(ev.reading, map=board, slots=slots, flags=kept + flags)

    def read_frame(self, frame: np.ndarray, companies: Collection[str] | None = None,
                   del_monte: Collection[str] = ()) -> Reading:
        """``read``, called as ``Pipeline.read_frame`` is: the page reads frames with either."""
        return self.read(frame, companies, del_monte)

    def owners(self, ev: BoxEvidence, companies: Collection[str] | None) -> np.ndarray:
        """(N, len(OWNERS)) each box's owner log-chances: by the profile's owner head where it
        was taught, else by the slot net read against the empty board; the companies not in
        the game left out, and no owner at all ("none")."""
        if self.heads.owner is None:
            out = log_softmax(ev.owner_logits)
        else:
            out = self.heads.owner.log_chances(ev.colour, ev.owner_logits)
        out[:, OWNERS.index("none")] = -np.inf
        if companies is not None:
            out[:, [k for k, o in enumerate(OWNERS) if o not in companies and o != "neutral"]] = -np.inf
        return out


def table_reader(pipeline: Pipeline, folder: str | Path | None) -> "Pipeline | ReferenceReader":
    """How a table's frames are read: against the empty board of the profile ``folder``
    (``pipeline`` loaded with its ``profile.json``) where it was saved there (``automa-vision
    calibrate``, the wizard), else by ``pipeline`` alone. ReferenceError for a damaged one."""
    if folder is None or not (Path(folder) / EMPTY_VIEW).exists():
        pipeline.reference = pipeline.closer_look = None
        return pipeline
    return ReferenceReader.around(pipeline, folder)


def judge(layout: Layout, slots: list[SlotReading], changed: np.ndarray, owners: np.ndarray,
          piece_logits: np.ndarray, drop_logits: np.ndarray, printed_drops: dict[str, int] | None = None,
          taught: bool = False) -> list[SlotReading]:
    """The pipeline's slot readings judged against the empty board. A slot whose box (for a
    dam's drops, whose lake) the gate finds unchanged reads empty (no drops), as sure as the
    gate is. One it finds changed keeps the pipeline's piece and height or, where that read
    empty, takes the slot net's likeliest piece read against the empty board; its owner is
    the pipeline's, or where the pipeline read none or the profile was ``taught`` (an owner
    head), the likeliest of ``owners``; the neutral grey is kept where the pipeline read it
    (the map says where neutral dams stand).
    A headstream tile where the gate sees drops holds as many as the slot net counts against
    the empty board (``drop_logits``; printed drops are in both crops), one at least; where
    that count is the net's most, the pipeline's counter's less the drops it read on the
    empty board (``printed_drops``: printed icons) if more.
    A slot the pipeline reads as covered but the gate finds unchanged (its lake too) is empty."""
    index = layout.box_index()
    printed = printed_drops or {}
    out = []
    for r in slots:
        i = index[r.id]
        p = float(changed[i])
        lake = float(changed[index[f"lake:{r.id}"]]) if r.kind == "dam" else 0.0
        if r.unknown:
            # read as covered, but the box (and a dam's lake) looks as it did empty: nothing
            # covers it, and nothing stands there
            if max(p, lake) < 0.5:
                out.append(replace(r, piece=None if r.kind == "headstream" else "empty", owner=None, drops=0,
                                   unknown=False, confidence=(1 - p) * (1 - lake), share=None))
            else:
                out.append(r)
            continue
        if r.kind == "headstream":
            drops = 0
            if p >= 0.5:
                drops = max(int(np.argmax(drop_logits[i])), 1)
                if drops == MAX_DROPS:
                    drops = max(drops, (r.drops or 0) - printed.get(r.id, 0))
            out.append(replace(r, drops=drops, confidence=max(p, 1 - p) * (r.confidence if drops else 1.0), share=None))
            continue
        piece, owner, conflict = r.piece, r.owner, r.conflict
        if p < 0.5:
            piece, owner = "empty", None
        else:
            read_empty = piece in (None, "empty")
            if read_empty:
                allowed = [k for k, name in enumerate(PIECES) if name != "empty" and name in ALLOWED_PIECES[r.kind]]
                piece = PIECES[max(allowed, key=lambda k: piece_logits[i, k])]
            if owner != "neutral" and (read_empty or taught):
                owner = OWNERS[int(np.argmax(owners[i]))]
        conf = _sure(r.confidence, p, piece not in (None, "empty"))
        drops = r.drops
        if r.kind == "dam":
            drops = (r.drops or 1) if lake >= 0.5 and piece not in (None, "empty") else 0
            conf *= max(lake, 1 - lake)
        out.append(replace(r, piece=piece, owner=owner, drops=drops, confidence=conf, conflict=conflict, share=None))
    return out


def _sure(confidence: float, changed: float, something: bool) -> float:
    """A reading's confidence given the gate: the gate's chance for what was read, times the
    pipeline's confidence where it says what stands there."""
    return changed * confidence if something else 1.0 - changed


def empty_view_of(frame: np.ndarray, H: np.ndarray, layout: Layout, paper: np.ndarray | None = None,
                  lens=None) -> np.ndarray:
    """The normalised canonical view of an empty-board frame, as ``read`` compares with."""
    return canonical_view(frame, H, layout, paper, lens)


def profile_file(profile: str | Path | None) -> str | Path | None:
    """A profile as ``Pipeline.load`` takes it: a folder made by ``calibrate`` names its
    ``profile.json``; a file (or None, the default profile) is itself."""
    return Path(profile) / PROFILE if profile is not None and Path(profile).is_dir() else profile


def profile_json(folder: Path) -> dict:
    path = folder / PROFILE
    return json.loads(path.read_text()) if path.exists() else {}
