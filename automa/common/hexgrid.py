"""Hex-grid geometry shared by the games played on hexes.

Hexes are axial coordinates ``(q, r)`` (the third cube coordinate is ``-q-r``).
The six neighbour offsets are listed clockwise as seen on screen (y grows
downwards), so "turn 60 degrees clockwise" is "next index", on boards of either
orientation:

- pointy-top boards (rows of hexes side by side): east, south-east, south-west,
  west, north-west, north-east;
- flat-top boards (columns of hexes): south-east, south, south-west, north-west,
  north, north-east.

Rulebooks enumerate hexes "in reading order" (top row first, left to right) and
continue from a given hex with wrap-around; ``reading_order`` and ``cyclic_from``
do both, forwards and backwards. Shortest paths are breadth-first over a
``passable`` predicate, because what blocks a path (the player's buildings, the
edge of the map) is a rule of each game.
"""
from __future__ import annotations

import math
from collections import deque
from typing import Callable, Iterable, Literal, Sequence

Hex = tuple[int, int]
Orientation = Literal["pointy", "flat"]
Offset = Literal["odd-r", "even-r", "odd-q", "even-q"]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES: dict[str, tuple[str, ...]] = {
    "pointy": ("E", "SE", "SW", "W", "NW", "NE"),
    "flat": ("SE", "S", "SW", "NW", "N", "NE"),
}


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def neighbour(h: Hex, direction: int) -> Hex:
    return add(h, DIRECTIONS[direction % 6])


def neighbours(h: Hex) -> list[Hex]:
    """The six adjacent hexes, clockwise from direction 0."""
    return [add(h, d) for d in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes on an unobstructed grid."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps away, clockwise, starting from the one in
    direction 4 (north-west on pointy boards, north on flat ones) walked ``radius`` times."""
    if radius < 0:
        raise ValueError("a ring's radius is 0 or more")
    if radius == 0:
        return [center]
    h = (center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius)
    out = []
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, side)
    return out


def within(center: Hex, radius: int) -> list[Hex]:
    """Every hex at most ``radius`` steps away, nearest rings first."""
    return [h for k in range(radius + 1) for h in ring(center, k)]


def direction_to(a: Hex, b: Hex) -> int:
    """The direction index from ``a`` to the adjacent hex ``b``."""
    step = (b[0] - a[0], b[1] - a[1])
    if step not in DIRECTIONS:
        raise ValueError(f"{b} is not adjacent to {a}")
    return DIRECTIONS.index(step)


def turn(direction: int, steps: int) -> int:
    """The direction after ``steps`` turns of 60 degrees (positive: clockwise)."""
    return (direction + steps) % 6


def turns_between(start: int, end: int) -> int:
    """The fewest 60-degree steps from one direction to another: positive clockwise, negative
    anticlockwise; a half turn (3) counts as clockwise."""
    k = (end - start) % 6
    return k if k <= 3 else k - 6


def bfs_distances(start: Hex, passable: Callable[[Hex], bool], limit: int | None = None) -> dict[Hex, int]:
    """Steps from ``start`` to every hex reachable through passable hexes (``start`` itself is
    always included; a hex that is not passable is never entered)."""
    return distances_from([start], passable, limit=limit)


def distances_from(starts: Iterable[Hex], passable: Callable[[Hex], bool], ends: Callable[[Hex], bool] | None = None,
                   limit: int | None = None) -> dict[Hex, int]:
    """Steps from the nearest of ``starts`` to every hex reachable through passable hexes. A
    passable hex for which ``ends`` is true may end a path but is not walked through (Age of
    Innovation's distance *to* your buildings, which no path may cross); the starts themselves
    are always walked from."""
    seen: dict[Hex, int] = {}
    queue: deque[Hex] = deque()
    for s in starts:
        if s not in seen:
            seen[s] = 0
            queue.append(s)
    while queue:
        h = queue.popleft()
        if (limit is not None and seen[h] >= limit) or (seen[h] > 0 and ends is not None and ends(h)):
            continue
        for n in neighbours(h):
            if n not in seen and passable(n):
                seen[n] = seen[h] + 1
                queue.append(n)
    return seen


def shortest_path(start: Hex, goal: Hex, passable: Callable[[Hex], bool]) -> list[Hex] | None:
    """A shortest path ``[start, ..., goal]`` through passable hexes (the goal must be passable
    too), or None. Among equal paths the one trying directions in clockwise order first wins,
    so the answer is the same on every run."""
    if start == goal:
        return [start]
    parent: dict[Hex, Hex | None] = {start: None}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in neighbours(h):
            if n in parent or not passable(n):
                continue
            parent[n] = h
            if n == goal:
                path = [n]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(n)
    return None


def to_pixel(h: Hex, size: float, orientation: Orientation = "pointy") -> tuple[float, float]:
    """Centre of hex ``h`` in pixels, for hexes of circumradius ``size`` (y downwards)."""
    q, r = h
    if orientation == "pointy":
        return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r
    return size * 1.5 * q, size * math.sqrt(3) * (r + q / 2)


def corners(h: Hex, size: float, orientation: Orientation = "pointy") -> list[tuple[float, float]]:
    """The six corners of hex ``h`` in pixels, for an SVG polygon."""
    cx, cy = to_pixel(h, size, orientation)
    start = 30 if orientation == "pointy" else 0
    return [(cx + size * math.cos(math.radians(start + 60 * k)), cy + size * math.sin(math.radians(start + 60 * k)))
            for k in range(6)]


def reading_order(cells: Iterable[Hex], orientation: Orientation = "pointy") -> list[Hex]:
    """``cells`` as a reader meets them on the board: the top row first, each row from left to
    right (rows by their centre's height, rounded to the half row flat-top boards stagger by)."""
    def key(h: Hex) -> tuple[float, float]:
        x, y = to_pixel(h, 1.0, orientation)
        return (round(y * 2 / math.sqrt(3)) if orientation == "flat" else round(y, 6), x)
    return sorted(cells, key=key)


def cyclic_from(ordered: Sequence[Hex], start: Hex, reverse: bool = False, include_start: bool = True) -> list[Hex]:
    """``ordered`` enumerated from ``start`` onwards, wrapping around past the end (or, with
    ``reverse``, backwards past the beginning)."""
    seq = list(ordered)[::-1] if reverse else list(ordered)
    i = seq.index(start)
    out = seq[i:] + seq[:i]
    return out if include_start else out[1:]


def offset_to_axial(col: int, row: int, layout: Offset) -> Hex:
    """Axial coordinates of the hex printed at ``(col, row)`` of an offset grid: ``odd-r``/
    ``even-r`` shove odd/even rows right (pointy boards), ``odd-q``/``even-q`` shove odd/even
    columns down (flat boards)."""
    if layout == "odd-r":
        return (col - (row - (row & 1)) // 2, row)
    if layout == "even-r":
        return (col - (row + (row & 1)) // 2, row)
    if layout == "odd-q":
        return (col, row - (col - (col & 1)) // 2)
    if layout == "even-q":
        return (col, row - (col + (col & 1)) // 2)
    raise ValueError(f"unknown offset layout {layout!r}")


def axial_to_offset(h: Hex, layout: Offset) -> tuple[int, int]:
    """The inverse of ``offset_to_axial``."""
    q, r = h
    if layout == "odd-r":
        return (q + (r - (r & 1)) // 2, r)
    if layout == "even-r":
        return (q + (r + (r & 1)) // 2, r)
    if layout == "odd-q":
        return (q, r + (q - (q & 1)) // 2)
    if layout == "even-q":
        return (q, r + (q + (q & 1)) // 2)
    raise ValueError(f"unknown offset layout {layout!r}")
