"""The hex map as the page draws it: every hex in SVG pixels with what lies on it, the Autômato's
units, the compass with its cone, the path of the last move and the target hex. Pure data for the
template (no HTML here)."""
from __future__ import annotations

import math

from automa.brasil_imperial.compass import CONE_HALF_WIDTH, heading_angle
from automa.brasil_imperial.state import AUTOMA, GameState, hex_key, parse_hex
from automa.common import hexgrid

SIZE = 26                      # hex circumradius, px
MARGIN = 10
CONE_LENGTH = 3.5              # hexes
FILL = {"water": "#9cc3e6", "plain": "#d8e8b0", "forest": "#8fbf7f", "hill": "#d6bf94", "coast": "#efe2b5"}
OTHER_FILL = "#e4e4e4"


def _xy(h, orientation: str, dx: float, dy: float) -> tuple[float, float]:
    x, y = hexgrid.to_pixel(h, SIZE, orientation)
    return round(x + dx, 1), round(y + dy, 1)


def board(s: GameState, shown: dict | None = None) -> dict:
    """Hexes, pieces, the compass and the path and target of ``shown`` (a decision's details)."""
    o = s.orientation
    raw = [hexgrid.to_pixel(h, SIZE, o) for h in s.cells]
    dx = -min(x for x, _ in raw) + SIZE + MARGIN
    dy = -min(y for _, y in raw) + SIZE + MARGIN
    width = max(x for x, _ in raw) + dx + SIZE + MARGIN
    height = max(y for _, y in raw) + dy + SIZE + MARGIN
    units_at: dict = {}
    for uid in s.board.ids("units"):
        u = s.automa.units[uid]
        if u.at is not None:
            units_at.setdefault(u.at, []).append({"id": uid, "lying": u.lying is not None})
    target = None
    if shown and isinstance(shown.get("action_target"), str) and "," in shown["action_target"]:
        target = shown["action_target"]
    hexes = []
    for h, c in s.cells.items():
        cx, cy = _xy(h, o, dx, dy)
        ox, oy = hexgrid.to_pixel(h, SIZE, o)
        points = " ".join(f"{x - ox + cx:.1f},{y - oy + cy:.1f}" for x, y in hexgrid.corners(h, SIZE - 1, o))
        b = c.building
        hexes.append({
            "key": hex_key(h), "cx": cx, "cy": cy, "points": points, "fill": FILL.get(c.terrain, OTHER_FILL),
            "terrain": c.terrain, "target": hex_key(h) == target,
            "building": None if b is None else {"owner": b.owner, "kind": b.kind, "ref": b.ref, "vp": b.vp,
                                                "mine": b.owner == AUTOMA, "dominated": b.dominated},
            "tile": None if c.tile is None else {"face_down": c.tile.face_down, "kind": c.tile.kind, "fc": c.tile.fc},
            "foes": [{"owner": f.owner, "vp": f.vp, "fc": f.fc} for f in c.foes],
            "units": units_at.get(h, []),
        })
    cx, cy = _xy(s.compass_at, o, dx, dy)
    a = math.radians(heading_angle(o, s.heading))
    reach = CONE_LENGTH * SIZE * math.sqrt(3)
    cone = [(cx, cy)] + [(round(cx + reach * math.cos(a + side), 1), round(cy + reach * math.sin(a + side), 1))
                         for side in (-math.radians(CONE_HALF_WIDTH), math.radians(CONE_HALF_WIDTH))]
    tip = (round(cx + 0.8 * SIZE * math.cos(a), 1), round(cy + 0.8 * SIZE * math.sin(a), 1))
    back = [(round(cx + 0.35 * SIZE * math.cos(a + side), 1), round(cy + 0.35 * SIZE * math.sin(a + side), 1))
            for side in (2.4, -2.4)]
    path = []
    if shown and shown.get("path"):
        pts = [_xy(parse_hex(p, "path"), o, dx, dy) for p in shown["path"]]
        path = [{"x1": a_[0], "y1": a_[1], "x2": b_[0], "y2": b_[1]} for a_, b_ in zip(pts, pts[1:])]
    return {"width": round(width), "height": round(height), "hexes": hexes, "path": path,
            "compass": {"at": hex_key(s.compass_at), "heading": s.heading, "cx": cx, "cy": cy,
                        "cone": " ".join(f"{x},{y}" for x, y in cone),
                        "needle": " ".join(f"{x},{y}" for x, y in [tip, back[0], back[1]])}}
