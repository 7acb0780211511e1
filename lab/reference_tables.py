"""One synthetic table photographed again and again: its empty board, then games on it.

A player calibrates on the empty board and teaches the reader with a few photos of the same
table: the same board, camera, pieces and light, other games. ``TableShots`` makes those
pictures for a seed: ``empty()`` (no piece, no hand) and ``frame(k)``, the k-th game on that
table (the same companies every time), each with its per-slot truth. ``printed=True`` draws
the held-out printed look (``lab.synth.printed_look``: printed icons on every empty space,
painted terrain, other piece colours, moulded pieces, each table's own webcam, light and
finish); otherwise the sampled looks the nets were trained on.
"""
from __future__ import annotations

import argparse
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from automa.barrage.random_states import random_state
from automa.barrage.state import GameState
from vision.layout import load_layout

from .synth import pieces
from .synth.photo import encode_jpeg
from .synth.printed_look import paint_printed, printed_pieces
from .synth.render import Options, Table, _streams, set_table, shoot
from .synth.shapes import shapes
from .synth.truth import slot_truth

SIZE = (1280, 720)
PRINTED_SIZES = ((1280, 720), (1280, 960), (1920, 1080))      # webcams a player sets up (640x480: see README)
# The games on a table: two Automas and a person (three companies, the same on every frame of
# a table), 10-80 random moves (a board with a few pieces to a full one).
MOVES = (10, 80)


@dataclass
class TableShots:
    seed: int
    printed: bool = True
    markers: bool = True                # marker sheets beside the board (else its corners or features find it)
    # the games' light against the empty board's (a lamp turned on, the day going); (B, G, R):
    # a light of another colour (a warm lamp after daylight)
    exposure: float | tuple[float, float, float] = 1.0

    @cached_property
    def options(self) -> Options:
        """The sampled looks' tables at 1280x720 under the one light; a printed table draws its
        webcam's frame size and processing, its light and its pieces' finish from its seed,
        its pieces moulded."""
        if not self.printed:
            return Options(size=SIZE, markers=self.markers, occlusion=0.0)
        rng = np.random.default_rng([self.seed, 11])
        return Options(size=PRINTED_SIZES[int(rng.integers(len(PRINTED_SIZES)))], markers=self.markers, occlusion=0.0,
                       lighting=str(rng.choice(("lamps", "low", "one"))), finish=str(rng.choice(("glossy", "matte"))),
                       processing=str(rng.choice(("none", "webcam"))), shapes="moulded")

    def corners(self) -> list[float]:
        """The image px of the layout frame's corners (top-left, top-right, bottom-right,
        bottom-left), as a player gives them to ``automa-vision calibrate --corners``."""
        lay = load_layout()
        board = [(0, 0, 0), (lay.width, 0, 0), (lay.width, lay.height, 0), (0, lay.height, 0)]
        return [float(v) for v in self.table.cam.ideal(np.array(board, float)).reshape(-1)]

    @cached_property
    def table(self) -> Table:
        t = set_table(self.seed, self.options, paint=paint_printed if self.printed else None)
        if self.printed:
            t = replace(t, piece_style=printed_pieces(t.piece_style, np.random.default_rng([self.seed, 77])))
        return t

    def teacher(self, at_calibration: bool) -> "TableShots":
        """The table as its teaching photos show it: in the games' light, or (``at_calibration``)
        in the empty board's."""
        return replace(self, exposure=1.0) if at_calibration else self

    @cached_property
    def companies(self) -> list[str]:
        return sorted(self.state(0).companies)

    def state(self, k: int) -> GameState:
        """The k-th game on this table: the first of the seeds from ``seed * 1000 + k * 50``
        whose set-up draws the table's companies."""
        first = random_state(self.seed * 1000, automas=2, humans=1, moves=0)
        for s in range(self.seed * 1000 + k * 50, self.seed * 1000 + k * 50 + 50):
            probe = random_state(s, automas=2, humans=1, moves=0)
            if sorted(probe.companies) == sorted(first.companies):
                moves = int(np.random.default_rng([s, 5]).integers(MOVES[0], MOVES[1] + 1))
                return random_state(s, automas=2, humans=1, moves=moves)
        raise RuntimeError(f"no game with the companies {sorted(first.companies)} near seed {self.seed}")

    def empty(self) -> np.ndarray:
        """The empty board (no piece, no drop, no hand), as the calibration photo."""
        return self._shot([], 0)[0]

    def frame(self, k: int) -> tuple[np.ndarray, dict, GameState]:
        """The table with the k-th game's pieces (k >= 1): the picture, its truth (``slots``,
        as ``lab.evaluate.score_image`` reads it) and the state."""
        state = self.state(k)
        frame, truth = self.picture(state, k)
        return frame, truth, state

    def picture(self, state: GameState, k: int, game: int | None = None) -> tuple[np.ndarray, dict]:
        """``state`` on this table, shot the ``k``-th time (k >= 1: its own noise, the games'
        light): the picture and its truth. ``game``: each piece placed as in every other shot
        of that game on this table (a piece stays where it was put, turn after turn); else
        each shot places them afresh."""
        t = self.table
        shape = shapes(self.options.shapes, _streams(self.seed)["shapes"])
        per_space = None if game is None else (
            lambda space: np.random.default_rng([self.seed, game, zlib.crc32(space.encode())]))
        solids = pieces.build_solids(state, t.piece_style, np.random.default_rng([self.seed, k, 3]), shape, per_space)
        frame, mask = self._shot(solids, k)
        return frame, {"slots": slot_truth(state, load_layout(), t.cam, mask, pieces.drop_footprints(solids))}

    def _shot(self, solids: list, k: int) -> tuple[np.ndarray, np.ndarray | None]:
        shot = shoot(self.table, solids, noise=np.random.default_rng([self.seed, k, 9]),
                     exposure=self.exposure if k else 1.0, occluder=False)
        jpeg = encode_jpeg(shot.frame, shot.photo_style.jpeg_quality)
        return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), shot.mask


def add_table_options(p: argparse.ArgumentParser, tables: int, first: int) -> None:
    """The options every printed-table evaluation takes: how many tables from which seed, the
    photos each is taught with and the games' light."""
    p.add_argument("--tables", type=int, default=tables)
    p.add_argument("--first", type=int, default=first, help="the first table's seed (default %(default)s)")
    p.add_argument("--teach", type=int, default=2, help="photos each table is taught with")
    p.add_argument("--exposure", type=light, default=1.0,
                   help="the games' light against the empty board's, e.g. 0.7: a darker room than at calibration; "
                        "B,G,R, e.g. 0.8,1,1.15: a warmer light")
    p.add_argument("--taught-at-calibration", action="store_true",
                   help="the teaching photos in the empty board's light, only the games in --exposure's "
                        "(taught by day, played under a lamp)")


def light_words(out: dict) -> str:
    """The games' light as a report of ``add_table_options``' runs says it."""
    return (f"the games' light {out['exposure']} times the empty board's"
            + (" (the teaching photos in its light)" if out["taught_at_calibration"] else ""))


def light(text: str) -> float | tuple[float, float, float]:
    """``--exposure``: one scale, or three (B, G, R)."""
    values = [float(v) for v in text.split(",")]
    if len(values) == 1:
        return values[0]
    if len(values) != 3:
        raise argparse.ArgumentTypeError(f"one scale or three (B,G,R), not {text!r}")
    return tuple(values)


def evaluated(evaluate: Callable[[Path], dict]) -> dict:
    """``evaluate`` run with a scratch folder for its tables' profiles, and the seconds it took."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        out = evaluate(Path(work))
    return out | {"seconds": round(time.perf_counter() - t0)}
