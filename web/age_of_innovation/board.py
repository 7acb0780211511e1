"""The map as the page draws it: every hex in SVG pixels with its terrain, building and label,
and the Automa's target hex. Pure data for the template (no HTML here)."""
from __future__ import annotations

from automa.age_of_innovation.state import GameState
from automa.common import hexgrid

SIZE = 26                     # hex circumradius, px
MARGIN = 8
FILL = {"plains": "#a47a48", "swamp": "#3d3a36", "lake": "#3f7fd1", "forest": "#2f8a3c", "mountain": "#9a9a9a",
        "wasteland": "#c4473a", "desert": "#e3c34b", "river": "#cfe5f3"}
INK = {"plains": "#fff", "swamp": "#fff", "lake": "#fff", "forest": "#fff", "mountain": "#111",
       "wasteland": "#fff", "desert": "#111", "river": "#4a6b80"}
LETTER = {"workshop": "W", "guild": "G", "palace": "P", "school": "S", "university": "U"}


def board(state: GameState, target: list[int] | None = None) -> dict:
    b = state.board
    raw = {h: hexgrid.to_pixel(h, SIZE, "pointy") for h in b.terrain}
    min_x = min(x for x, _ in raw.values()) - SIZE
    min_y = min(y for _, y in raw.values()) - SIZE
    target_hex = tuple(target) if target else None
    letters = {h: k for k, h in b.setup_letters.get(state.terrain, {}).items()}
    hexes = []
    for h in hexgrid.reading_order(b.terrain, "pointy"):
        x, y = raw[h]
        cx, cy = x - min_x + MARGIN, y - min_y + MARGIN
        points = " ".join(f"{px - x + cx:.1f},{py - y + cy:.1f}" for px, py in hexgrid.corners(h, SIZE - 1, "pointy"))
        col, row = hexgrid.axial_to_offset(h, b.layout)
        building = b.buildings.get(h)
        terrain = b.terrain[h]
        hexes.append({
            "id": f"hex-{col}-{row}", "col": col, "row": row, "label": b.label(h), "terrain": terrain,
            "cx": round(cx, 1), "cy": round(cy, 1), "points": points, "fill": FILL[terrain], "ink": INK[terrain],
            "target": h == target_hex, "tool": h in b.tools, "letter": letters.get(h),
            "land": "fallow" if h in b.fallow else "blighted" if h in b.blighted else None,
            "building": None if building is None else {
                "owner": building.owner, "kind": building.kind, "letter": LETTER[building.kind],
                "marked": building.marked}})
    width = max(hx["cx"] for hx in hexes) + SIZE + MARGIN
    height = max(hx["cy"] for hx in hexes) + SIZE + MARGIN
    return {"width": round(width), "height": round(height), "hexes": hexes}
