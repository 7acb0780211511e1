"""The metal compass: where the Autômato's standing units go (seed 001, "Bússola").

The compass sits in a hex with its tip pointing to one of the six sides (a hexgrid direction
index); every turn is 60 degrees ("cada giro ... modifica a direção em 60°"). Its cone is the
60-degree wedge around the tip, so a target lies "within the lines of the cone" when the
direction to it is at most 30 degrees from the tip's. A target exactly on a cone's line (the
hexes on the diagonals between two sides) lies in two cones.

Turning (rules 3-5): when a card asks for a new direction, turn the compass *just enough* for the
target to lie in the cone: of the headings whose cone holds the target, the nearest (fewest
60-degree turns) and, on a tie, the first clockwise from the compass's tip. A target already in
the cone, no target at all, or a target on the compass's own hex (no direction leads there,
ruling B22) leaves the compass as it is.

Choosing the target (the icon index): the nearest one of its kind by hex distance; on a tie the
first clockwise from the compass's tip (the seed gives this tie-break for the units icon; the
other icons use it too, ruling B4), except the players' capitals, where the most experienced
player's wins (rule 1, step 2 of the movement phase).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from automa.common import hexgrid
from automa.common.trace import Text, text

from .state import AUTOMA, GameState, Hex, hex_key

CONE_HALF_WIDTH = 30.0
EPS = 1e-6


def angle(orientation: str, frm: Hex, to: Hex) -> float:
    """The direction from ``frm`` to ``to`` on the table, degrees clockwise from east (y down)."""
    x0, y0 = hexgrid.to_pixel(frm, 1.0, orientation)
    x1, y1 = hexgrid.to_pixel(to, 1.0, orientation)
    return math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360


def heading_angle(orientation: str, heading: int) -> float:
    return angle(orientation, (0, 0), hexgrid.DIRECTIONS[heading])


def off_tip(orientation: str, at: Hex, heading: int, target: Hex) -> float:
    """How far clockwise from the compass's tip the target lies, 0 to 360 degrees."""
    return (angle(orientation, at, target) - heading_angle(orientation, heading)) % 360


def in_cone(orientation: str, at: Hex, heading: int, target: Hex) -> bool:
    d = off_tip(orientation, at, heading, target)
    return min(d, 360 - d) <= CONE_HALF_WIDTH + EPS


def headings_towards(orientation: str, at: Hex, target: Hex) -> list[int]:
    """Every heading whose cone holds ``target`` (one, or two on a cone's line)."""
    return [d for d in range(6) if in_cone(orientation, at, d, target)]


@dataclass(frozen=True)
class Turn:
    heading: int
    steps: int                  # 60-degree steps, + clockwise
    words: Text                 # why, for the trace (said in the page's language)

    @property
    def reason(self) -> str:
        """Why, in English."""
        return str(self.words)


def turn_towards(orientation: str, at: Hex, heading: int, target: Hex | None) -> Turn:
    """The compass turned just enough for ``target`` to lie in its cone (rules 3-5)."""
    if target is None:
        return Turn(heading, 0, text("no such target: the compass stays as it is"))
    if target == at:
        return Turn(heading, 0, text("the target is the compass's own hex {hex}: it stays as it is", hex=hex_key(at)))
    if in_cone(orientation, at, heading, target):
        return Turn(heading, 0, text("{hex} already lies in the cone: the compass stays as it is", hex=hex_key(target)))
    options = headings_towards(orientation, at, target)
    best = min(options, key=lambda d: (abs(hexgrid.turns_between(heading, d)), (d - heading) % 6))
    steps = hexgrid.turns_between(heading, best)
    if len(options) > 1 and len({abs(hexgrid.turns_between(heading, d)) for d in options}) == 1:
        why = text("{hex} lies on a cone line, headings [{headings}] hold it; the nearest (equal turns both ways: "
                   "the first clockwise from the tip)", hex=hex_key(target), headings=options)
    elif len(options) > 1:
        why = text("{hex} lies on a cone line, headings [{headings}] hold it; the nearest",
                   hex=hex_key(target), headings=options)
    else:
        why = text("only heading {heading} holds {hex}", heading=best, hex=hex_key(target))
    if steps > 0:
        return Turn(best, steps, text("{why}: turn {n} x 60 degrees clockwise", why=why, n=abs(steps)))
    return Turn(best, steps, text("{why}: turn {n} x 60 degrees anticlockwise", why=why, n=abs(steps)))


def nearest(state: GameState, targets: list[Hex]) -> tuple[Hex | None, Text]:
    """The nearest of ``targets`` from the compass, ties to the first clockwise from its tip."""
    if not targets:
        return None, text("none on the map")
    at, o, h = state.compass_at, state.orientation, state.heading
    ranked = sorted(targets, key=lambda t: (hexgrid.distance(at, t), off_tip(o, at, h, t), t))
    best = ranked[0]
    tied = [t for t in ranked if hexgrid.distance(at, t) == hexgrid.distance(at, best)]
    if len(tied) > 1:
        return best, text("{hex}, {n} hexes away (tied with {tied}: the first clockwise from the tip)",
                          hex=hex_key(best), n=hexgrid.distance(at, best), tied=[hex_key(t) for t in tied[1:]])
    return best, text("{hex}, {n} hexes away", hex=hex_key(best), n=hexgrid.distance(at, best))


def nearest_capital(state: GameState, frm: Hex) -> tuple[Hex, Text]:
    """The players' nearest capital from ``frm``; a tie goes to the most experienced player's."""
    caps = [(hexgrid.distance(frm, state.capitals[p.capital]), i, p) for i, p in enumerate(state.players)]
    d, _, p = min(caps)
    tied = [q.name for dist, _, q in caps if dist == d]
    where = {"player": p.name, "capital": p.capital, "hex": hex_key(state.capitals[p.capital]), "n": d}
    if len(tied) > 1:
        return state.capitals[p.capital], text("{player}'s capital {capital} at {hex}, {n} hexes away (tied with "
                                               "{tied}: the most experienced player's)", **where, tied=tied[1:])
    return state.capitals[p.capital], text("{player}'s capital {capital} at {hex}, {n} hexes away", **where)


def target_of(state: GameState, direction: str) -> tuple[Hex | None, Text]:
    """The hex a movement card's direction icon points the compass to, and why."""
    cells = state.cells
    if direction == "capital":
        return nearest_capital(state, state.compass_at)
    if direction == "player_city":
        return nearest(state, [h for h, c in cells.items() if c.building and c.building.kind == "city"
                               and c.building.owner != AUTOMA])
    if direction == "own_city":
        own = [h for h, c in cells.items() if c.building and c.building.kind == "city" and c.building.owner == AUTOMA]
        if not own:
            return state.automa_capital(), text("no city of its own: its capital")
        return nearest(state, own)
    if direction == "exploration":
        return nearest(state, [h for h, c in cells.items() if c.tile and c.tile.face_down])
    if direction == "units":
        vp = {h: sum(f.vp for f in c.foes) for h, c in cells.items() if c.foes}
        if not vp:
            return None, text("no opposing unit on the map")
        top = max(vp.values())
        best = [h for h, v in vp.items() if v == top]
        at, o, hd = state.compass_at, state.orientation, state.heading
        best.sort(key=lambda t: (off_tip(o, at, hd, t) if t != at else -1, t))
        if len(best) > 1:
            return best[0], text("{hex}: opposing units worth {vp} VP, the most (tied with {tied}: the first "
                                 "clockwise from the tip)", hex=hex_key(best[0]), vp=top,
                                 tied=[hex_key(t) for t in best[1:]])
        return best[0], text("{hex}: opposing units worth {vp} VP, the most", hex=hex_key(best[0]), vp=top)
    raise ValueError(f"unknown direction {direction!r}")
