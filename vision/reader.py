"""A game's board reader: camera frames in, what the board shows out.

The stages every game shares are the modules beside this one, in the order a frame goes
through them: ``capture`` (frames from a camera, a video or pictures); ``marker_search``,
``motion_blur`` and ``registration`` (where the board is in the frame); ``radial_lens``,
``pose``, ``rectify`` and ``paper_white`` (the board's canonical, colour-normalised view and
the crops of the boxes its ``layout`` lists); ``runner`` (the trained nets); ``stability``
(one state per still spell of the board) and ``slot_change`` (whether a box changed
between two views). What stands in a box, and so how a box is read and what the readings
make together, is the game's: a game with a reader is a subpackage ``vision/<pkg>/`` (pkg:
its id with '-' -> '_', as in ``automa/``) whose module ``reader.py`` defines ``READER``, a
``GameReader``. ``registry()`` finds them: adding a game's reader edits no list here.

A reader's output is a ``BoardReading``: a ``SlotReading`` per box and the ``Flag`` s of
readings that break a rule, which the page asks the players about.
"""
from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Protocol, runtime_checkable

import numpy as np

import vision

# The page asks about a reading whose chance of being right is under this (``vision.barrage.confidence``):
# one wrong in eight. Chosen so that the tuning frames' readings asked about stay as many as
# under the line of 0.8 on the decoder's shares (docs/benchmarks.md, "Confidences that mean the
# same for every reading").
LOW_CONFIDENCE = 0.875


@dataclass(frozen=True)
class SlotReading:
    """One box of the game's layout, read: the piece in it and whose it is, and the tokens
    counted on it (Barrage's water drops), each None where a box of its kind has none."""
    id: str
    kind: str
    piece: str | None            # Barrage: None on headstreams
    owner: str | None
    drops: int | None            # Barrage: headstreams and dams (the drops in its lake)
    confidence: float
    unknown: bool = False        # occluded: the camera says nothing about this slot
    conflict: str | None = None  # the reading was chosen over one that breaks a rule (rulings V2, V4)
    # The decoder's share, where ``confidence`` is calibrated from it (``vision.barrage.confidence``);
    # None where the confidence is the share itself.
    share: float | None = None

    @property
    def low_confidence(self) -> bool:
        """Whether the page asks the players to check this reading."""
        return self.confidence < LOW_CONFIDENCE


@dataclass(frozen=True)
class Flag:
    slot: str                    # a slot id, or a company id for supply problems
    problem: str


@runtime_checkable
class BoardReading(Protocol):
    """What one frame says about the board."""
    slots: list[SlotReading]
    flags: list[Flag]
    registration: str           # how the board was found in the frame ("none": it was not)
    homography: np.ndarray | None
    timings: dict[str, float]   # ms per stage, and "total"

    def to_dict(self) -> dict:
        """JSON-ready."""
        ...


@runtime_checkable
class BoardReader(Protocol):
    """A loaded reader (its nets, layout and profile): one frame at a time, keeping what
    outlives a frame (the board's place, the still spell) between calls."""

    def read_frame(self, frame: np.ndarray, players: Collection[str] | None = None, /) -> BoardReading:
        """``frame``: an 8-bit BGR picture; ``players``: who plays (their colours), when known."""
        ...


class GameReader(ABC):
    """A game's board reader, registered by ``vision/<pkg>/reader.py`` as ``READER``; loading
    it (nets, layout) is left to ``load``, so finding the readers costs nothing."""
    game: str                   # the game's id (``automa.games``)

    @abstractmethod
    def load(self, profile: str | Path | None = None) -> BoardReader:
        """The reader with the shipped nets, for the table set-up of the ``profile`` file
        (None: the default one)."""


def registry() -> dict[str, GameReader]:
    """Every game reader found among ``vision``'s subpackages, by game id."""
    readers: dict[str, GameReader] = {}
    for info in pkgutil.iter_modules(vision.__path__):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"vision.{info.name}.reader")
        except ModuleNotFoundError as exc:
            if exc.name == f"vision.{info.name}.reader":
                continue            # a package without a reader
            raise
        reader = getattr(module, "READER", None)
        if isinstance(reader, GameReader):
            readers[reader.game] = reader
    return dict(sorted(readers.items()))


def get(game_id: str) -> GameReader:
    """The reader of ``game_id``; KeyError naming the games that have one."""
    readers = registry()
    if game_id not in readers:
        raise KeyError(f"no board reader for {game_id!r} (readers: {', '.join(readers) or 'none'})")
    return readers[game_id]
