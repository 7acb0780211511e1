"""The map as the page draws it: every location hex and card space in SVG pixels, what lies on
each, and where the mechs stand. Pure data for the template (no HTML here)."""
from __future__ import annotations

from automa.common import hexgrid
from automa.expeditions.data import layout, levels
from automa.expeditions.state import GameState

SIZE = 46                    # hex circumradius, px
MARGIN = 12
TOKEN_FILL = {"orange": "#e8801a", "turquoise": "#1aa3a3", "lair": "#b8860b"}
REGION_FILL = {"north": "#cfd8e3", "central": "#d9d2c3", "south": "#cfe0c4"}


def _pixels() -> tuple[dict[str, tuple[float, float]], float, float]:
    lay = layout()
    raw = {pid: hexgrid.to_pixel(h, SIZE, lay.orientation) for pid, h in lay.positions.items()}
    min_x = min(x for x, _ in raw.values()) - SIZE
    min_y = min(y for _, y in raw.values()) - SIZE
    shifted = {pid: (x - min_x + MARGIN, y - min_y + MARGIN) for pid, (x, y) in raw.items()}
    width = max(x for x, _ in shifted.values()) + SIZE + MARGIN
    height = max(y for _, y in shifted.values()) + SIZE + MARGIN
    return shifted, width, height


def board(state: GameState, moves: dict[str, dict] | None = None) -> dict:
    """Hexes, card spaces, mechs and the moves of one Automa turn (``details["mechs"]``)."""
    lay = layout()
    at, width, height = _pixels()
    pieces = [(mech, pid) for mech, pid in state.mechs.items()]
    if state.player_at:
        pieces.append(("player", state.player_at))
    hexes = []
    for pid, region in lay.region_of.items():
        cx, cy = at[pid]
        corners = hexgrid.corners(lay.positions[pid], SIZE - 2, lay.orientation)
        ox, oy = hexgrid.to_pixel(lay.positions[pid], SIZE, lay.orientation)
        points = " ".join(f"{x - ox + cx:.1f},{y - oy + cy:.1f}" for x, y in corners)
        loc = state.locations[pid]
        hexes.append({"id": pid, "region": region, "cx": round(cx, 1), "cy": round(cy, 1), "points": points,
                      "fill": REGION_FILL[region] if loc.face_up else "#5b6270", "face_up": loc.face_up,
                      "tile": loc.tile, "map_token": loc.map_token, "awaiting": loc.awaiting_reveal,
                      "corruption": [{"value": t.value, "fill": TOKEN_FILL[t.colour]} for t in loc.corruption],
                      })
    swept = {k for m in (moves or {}).values() for k in m.get("sweep", [])}
    cards = [{"id": k, "x": round(at[k][0] - SIZE * 0.45, 1), "y": round(at[k][1] - SIZE * 0.6, 1),
              "w": round(SIZE * 0.9, 1), "h": round(SIZE * 1.2, 1), "swept": k in swept} for k in lay.card_spaces]
    arrows = []
    for mech, m in (moves or {}).items():
        if m["from"] != m["to"]:
            (x1, y1), (x2, y2) = at[m["from"]], at[m["to"]]
            arrows.append({"mech": mech, "x1": round(x1, 1), "y1": round(y1, 1), "x2": round(x2, 1),
                           "y2": round(y2, 1)})
    # Two pieces can share a hex (the Automa's two mechs; a hand-made state with one on the
    # player's location, which the rules never make, E2): the second is drawn beside the first.
    mechs, seen = [], set()
    for who, pid in pieces:
        shift = 24 if pid in seen else 0
        seen.add(pid)
        mechs.append({"who": who, "at": pid, "cx": round(at[pid][0] + shift, 1), "cy": round(at[pid][1], 1)})
    return {"width": round(width), "height": round(height), "hexes": hexes, "cards": cards, "arrows": arrows,
            "mechs": mechs}


def track(state: GameState) -> dict:
    lv = levels()[state.level]
    spaces = [{"n": n, "glory": n in lv.glory_spaces, "here": n == state.progress}
              for n in range(lv.track_length)]
    return {"spaces": spaces, "level": lv.level, "name": lv.name, "coins": lv.coins,
            "glory": state.glory, "tokens": list(range(1, 9))}
