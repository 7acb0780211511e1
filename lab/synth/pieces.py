"""Game pieces as small 3-D solids, projected through the camera and shaded.

Each piece is one or more convex solids (a dam is a base box with 0-2 elevation
boxes stacked on it, so a 3-piece dam stands visibly taller). Solids are drawn far
to near; each shows only the faces turned to the camera, lit over an ambient term by
one distant light (the style's) or by lamps (``lights.py``), and casts a soft shadow
on the board along each light.
Shapes, sizes and colours vary per image (``PieceStyle``) because other printings
and home-made pieces differ.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import cv2
import numpy as np

from automa.barrage.data import company_colours
from automa.barrage.state import NEUTRAL, GameState
from vision.layout import Box, load_layout

from .camera import Camera
from .finish import MATTE, Finish
from .lights import Light, Sun
from .shapes import BLOCKS, Shapes, arch_outlines, pipe, ring_faces, turned
from .textures import Colour, darken, jitter

# Nominal piece colours (BGR) by colour name in the engine's data.
COLOUR_NAMES: dict[str, Colour] = {
    "red": (40, 40, 190), "black": (35, 35, 35), "green": (60, 140, 40), "white": (225, 228, 230),
    "orange": (30, 130, 235), "grey": (135, 135, 130),
}
DROP_BLUE: Colour = (210, 130, 40)
# A printing's dam, drawn evenly from these ranges: its width and depth as fractions of the
# dam space's, its base's and each elevation's height in canonical px (``lab.height_limits``
# reads them too: what a reader cannot know before it sees the frame's dams).
DAM_WIDTH = (0.6, 0.95)
DAM_DEPTH = (0.3, 0.6)
BASE_HEIGHT = (10.0, 22.0)
ELEVATION_HEIGHT = (9.0, 18.0)


@dataclass
class PieceStyle:
    colours: dict[str, list[int]]       # owner ("usa", ..., "neutral") -> BGR
    drop_colour: list[int]
    dam_width: float                    # fraction of the dam space width
    dam_taper: float                    # top/bottom size of each dam piece (1: a box)
    dam_depth: float                    # fraction of the dam space height
    base_height: float                  # canonical px (1 px ~ 0.55 mm on a real board)
    elevation_height: float
    elevation_inset: float              # px each elevation is narrower than the one below
    conduit_shape: str                  # bar | post
    conduit_length: float
    conduit_width: float
    conduit_height: float
    powerhouse_size: float              # fraction of the powerhouse space
    powerhouse_height: float
    powerhouse_roof: float              # roof ridge height (0: flat top)
    drop_shape: str                     # cylinder | drop | cube
    drop_taper: float
    drop_radius: float
    drop_height: float
    jitter_px: float                    # placement sloppiness
    jitter_deg: float
    light_azimuth: float                # degrees
    light_elevation: float              # degrees above the table
    ambient: float
    shadow: float                       # darkness of cast shadows, 0-1
    outline: bool                       # dark edges, as on painted pieces

    @property
    def sun(self) -> Sun:
        """The style's distant light (``Options.lighting`` "one", the default)."""
        return Sun(self.light_azimuth, self.light_elevation, self.shadow)


def sample_style(rng: np.random.Generator) -> PieceStyle:
    named = company_colours()
    colours = {c: list(jitter(rng, COLOUR_NAMES[name], 5, 0.3, 0.3)) for c, name in named.items()}
    colours[NEUTRAL] = list(jitter(rng, COLOUR_NAMES["grey"], 10, 0.3, 0.25))
    return PieceStyle(
        colours=colours, drop_colour=list(jitter(rng, DROP_BLUE, 10, 0.3, 0.25)),
        dam_width=float(rng.uniform(*DAM_WIDTH)), dam_depth=float(rng.uniform(*DAM_DEPTH)),
        dam_taper=float(rng.uniform(0.7, 1.0) if rng.random() < 0.4 else 1.0),
        base_height=float(rng.uniform(*BASE_HEIGHT)), elevation_height=float(rng.uniform(*ELEVATION_HEIGHT)),
        elevation_inset=float(rng.uniform(0, 6)),
        conduit_shape=str(rng.choice(["bar", "post"], p=[0.75, 0.25])),
        conduit_length=float(rng.uniform(28, 48)), conduit_width=float(rng.uniform(9, 16)),
        conduit_height=float(rng.uniform(8, 16)),
        powerhouse_size=float(rng.uniform(0.55, 0.9)), powerhouse_height=float(rng.uniform(10, 22)),
        powerhouse_roof=float(rng.uniform(0, 12)) if rng.random() < 0.6 else 0.0,
        drop_shape=str(rng.choice(["cylinder", "drop", "cube"], p=[0.5, 0.35, 0.15])),
        drop_taper=float(rng.uniform(0.5, 1.0)), drop_radius=float(rng.uniform(7, 11)), drop_height=float(rng.uniform(6, 13)),
        jitter_px=float(rng.uniform(0, 6)), jitter_deg=float(rng.uniform(0, 15)),
        light_azimuth=float(rng.uniform(0, 360)), light_elevation=float(rng.uniform(35, 85)),
        ambient=float(rng.uniform(0.35, 0.7)), shadow=float(rng.uniform(0.15, 0.6)),
        outline=bool(rng.random() < 0.5),
    )


@dataclass
class Solid:
    """A convex solid: vertices (N, 3) in world coordinates and faces as vertex-index tuples."""

    verts: np.ndarray
    faces: list[tuple[int, ...]]
    colour: Colour
    holder: str | None = None       # a water drop's box (``Box.key``): its count's ground truth
    slot: str | None = None         # the structure's space (a dam's, conduit's, powerhouse's)
    level: int = 0                  # a dam's piece: 0 the base, 1-2 its elevations
    outlined: bool = True           # its faces' edges drawn dark where the style outlines pieces

    @property
    def footprint(self) -> np.ndarray:
        """(M, 2) outline of its bottom face (the first) on the board plane: a prism's, as a
        water drop is (a pipe's first face is an end)."""
        return self.verts[list(self.faces[0]), :2]


def prism(outline: np.ndarray, z0: float, height: float, colour: Colour, taper: float = 1.0) -> Solid:
    """A vertical prism over a convex 2-D ``outline`` (M, 2), from height z0 to z0+height;
    ``taper`` < 1 shrinks the top face (a frustum: sloped dam walls, domed drops)."""
    m = len(outline)
    centre = outline.mean(0)
    bottom = np.column_stack([outline, np.full(m, -z0)])
    top = np.column_stack([centre + (outline - centre) * taper, np.full(m, -(z0 + height))])
    return Solid(np.vstack([bottom, top]), ring_faces(m), colour)


def rect(cx: float, cy: float, w: float, d: float, angle: float) -> np.ndarray:
    return turned(np.array([(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)]), cx, cy, angle)


def roof(footprint: np.ndarray, z0: float, ridge: float, colour: Colour) -> Solid:
    """A gable roof over a rectangular footprint (4, 2), ridge along its first edge."""
    mid_a = (footprint[0] + footprint[3]) / 2
    mid_b = (footprint[1] + footprint[2]) / 2
    base = np.column_stack([footprint, np.full(4, -z0)])
    top = np.array([[*mid_a, -(z0 + ridge)], [*mid_b, -(z0 + ridge)]])
    verts = np.vstack([base, top])
    faces = [(0, 1, 2, 3), (0, 1, 5, 4), (3, 2, 5, 4), (0, 4, 3), (1, 5, 2)]
    return Solid(verts, faces, colour)


def _drop_outline(cx: float, cy: float, r: float, shape: str) -> np.ndarray:
    if shape == "cube":
        return rect(cx, cy, 1.6 * r, 1.6 * r, 0.0)
    a = np.linspace(0, 2 * math.pi, 10, endpoint=False)
    pts = np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)
    if shape == "drop":     # seen from above, a drop piece is a round shape with one point
        pts[0] += (0.6 * r, 0)
    return pts


# -- placing pieces ------------------------------------------------------------------
def _clear_of(p: tuple[float, float], r: float, boxes: Sequence[Box]) -> bool:
    """A disc of radius r at p overlaps none of ``boxes`` (touching allowed)."""
    for b in boxes:
        dx = p[0] - min(max(p[0], b.x), b.x + b.w)
        dy = p[1] - min(max(p[1], b.y), b.y + b.h)
        if dx * dx + dy * dy < r * r:
            return False
    return True


def _spread(rng: np.random.Generator, box: Box, n: int, r: float,
            keep_out: Sequence[Box] = (), taken: Sequence[tuple[float, float]] = ()) -> list[tuple[float, float]]:
    """``n`` non-overlapping positions for round pieces of radius r inside ``box`` (touching
    allowed), clear of the ``keep_out`` spaces: a lake's box reaches over the conduit and
    dam spaces at its rim, and a drop cannot stand inside a piece built there (players put
    water on the free lake). Falls back to a tidy row-major packing, clear cells first,
    when the box is crowded. ``taken``: drops already standing there, which new ones avoid."""
    out: list[tuple[float, float]] = []
    for _ in range(n * 30):
        if len(out) == n:
            return out
        p = (rng.uniform(box.x + r, box.x + box.w - r), rng.uniform(box.y + r, box.y + box.h - r))
        if _clear_of(p, r, keep_out) and all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= (2 * r) ** 2
                                             for q in (*out, *taken)):
            out.append(p)
    per_row = max(1, int(box.w // (2 * r)))
    cells = [(box.x + r + 2 * r * (i % per_row), box.y + r + 2 * r * (i // per_row))
             for i in range(max(n, per_row * max(1, int(box.h // (2 * r)))))]
    return sorted(cells, key=lambda p: not _clear_of(p, r, keep_out))[:n]


def build_solids(state: GameState, style: PieceStyle, rng: np.random.Generator,
                 shape: Shapes = BLOCKS, per_space: Callable[[str], np.random.Generator] | None = None) -> list[Solid]:
    """Every piece on the map: dams, conduits, powerhouses and water drops, the structures
    shaped as ``shape`` says (``shapes.py``). ``rng`` draws the same whatever the shapes.
    ``per_space``: each space's pieces (a lake's or a tile's drops) drawn from that space's own
    stream instead, so a piece stands where it stood when others are added (a game's turns)."""
    lay = load_layout()
    out: list[Solid] = []

    def stream(space: str) -> np.random.Generator:
        return rng if per_space is None else per_space(space)

    def place(box: Box, r: np.random.Generator) -> tuple[float, float, float]:
        cx, cy = box.centre
        return (cx + r.normal(0, style.jitter_px), cy + r.normal(0, style.jitter_px),
                math.radians(r.normal(0, style.jitter_deg)))

    def colour(owner: str) -> Colour:
        return tuple(style.colours[owner])  # type: ignore[return-value]

    def dam_piece(space: str, level: int, cx: float, cy: float, w: float, d: float, ang: float, z: float,
                  height: float, owner: str) -> None:
        if shape.moulded:      # an arched wall, drawn straight up (a taper would part its segments)
            parts = [prism(o, z, height, colour(owner)) for o in arch_outlines(cx, cy, w, d, ang, shape)]
        else:
            parts = [prism(rect(cx, cy, w, d, ang), z, height, colour(owner), style.dam_taper)]
        for part in parts:
            # an arch's segments are one piece: no painted edges where they meet
            part.slot, part.level, part.outlined = space, level, not shape.moulded
        out.extend(parts)

    for space, dam in state.dams.items():
        box, r = lay.slot(space), stream(space)
        cx, cy, ang = place(box, r)
        w, d, z = box.w * style.dam_width, box.h * style.dam_depth, 0.0
        dam_piece(space, 0, cx, cy, w, d, ang, z, style.base_height, dam.owner)
        z += style.base_height
        for level in range(1, dam.pieces):
            # each piece sits on the top face of the one below
            w, d = w * style.dam_taper - style.elevation_inset, d * style.dam_taper - style.elevation_inset / 2
            ecx, ecy, eang = cx + r.normal(0, 1), cy + r.normal(0, 1), ang + r.normal(0, 0.04)
            dam_piece(space, level, ecx, ecy, w, d, eang, z, style.elevation_height, dam.owner)
            z += style.elevation_height
    for space, owner in state.conduits.items():
        r = stream(space)
        cx, cy, ang = place(lay.slot(space), r)
        if style.conduit_shape == "bar":
            angle = ang + r.uniform(0, math.pi)
            if shape.moulded:
                out.append(Solid(*pipe(cx, cy, style.conduit_length, style.conduit_width / 2, angle), colour(owner)))
            else:
                out.append(prism(rect(cx, cy, style.conduit_length, style.conduit_width, angle), 0, style.conduit_height,
                                 colour(owner)))
        else:
            a = np.linspace(0, 2 * math.pi, 8, endpoint=False)
            r = style.conduit_width * 0.8
            ring = np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)
            out.append(prism(ring, 0, style.conduit_height * 1.8, colour(owner)))
        out[-1].slot = space
    for space, owner in state.powerhouses.items():
        box = lay.slot(space)
        cx, cy, ang = place(box, stream(space))
        s = style.powerhouse_size
        foot = rect(cx, cy, box.w * s, box.h * s * 1.3, ang)
        house = [prism(foot, 0, style.powerhouse_height, colour(owner))]
        if style.powerhouse_roof > 0:
            house.append(roof(foot, style.powerhouse_height, style.powerhouse_roof, colour(owner)))
        for solid in house:
            solid.slot = space
        out += house
    built = [lay.slot(s) for s in (*state.dams, *state.conduits, *state.powerhouses)]
    spots = [(lay.lake(s), d.drops) for s, d in state.dams.items()]
    spots += [(lay.slot(h), n) for h, n in state.headstreams.items()]
    for box, n in spots:
        out += add_drops(box, n, style, stream(box.key), built)
    return out


def add_drops(box: Box, n: int, style: PieceStyle, rng: np.random.Generator, built: Sequence[Box],
              standing: Sequence[Solid] = ()) -> list[Solid]:
    """``n`` water drops put in ``box`` (a lake or a headstream), clear of the structures
    ``built`` at its rim and of the drops ``standing`` there already."""
    r = style.drop_radius
    taken = [tuple(s.footprint.mean(0)) for s in standing]
    out = []
    for x, y in _spread(rng, box, n, r, built, taken):  # type: ignore[arg-type]
        drop_solid = prism(_drop_outline(x, y, r, style.drop_shape), 0, style.drop_height,
                           tuple(style.drop_colour), style.drop_taper if style.drop_shape != "cube" else 1.0)  # type: ignore[arg-type]
        drop_solid.holder = box.key
        out.append(drop_solid)
    return out


def drop_footprints(solids: list[Solid]) -> dict[str, list[np.ndarray]]:
    """Each water drop's outline on the board, by the key of the box it stands in."""
    out: dict[str, list[np.ndarray]] = {}
    for solid in solids:
        if solid.holder is not None:
            out.setdefault(solid.holder, []).append(solid.footprint)
    return out


# -- drawing -------------------------------------------------------------------------
def draw_shadows(img: np.ndarray, cam: Camera, solids: list[Solid], lights: Sequence[Light]) -> None:
    """Soft shadows the solids cast on the board plane, each light's own; where two
    lights' shadows overlap the board is darkened by both."""
    for light in lights:
        mask = np.zeros(img.shape[:2], np.uint8)
        for solid in solids:
            hull = cv2.convexHull(light.ground(solid.verts).astype(np.float32)).reshape(-1, 2)
            px = cam.ideal(np.column_stack([hull, np.zeros(len(hull))]))
            cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 255, cv2.LINE_AA)
        if not mask.any():
            continue
        soft = cv2.GaussianBlur(mask, (0, 0), light.blur).astype(np.float32) / 255
        img[:] = darken(img, soft, light.shadow)


def draw_solids(img: np.ndarray, cam: Camera, solids: list[Solid], style: PieceStyle,
                lights: Sequence[Light], finish: Finish = MATTE) -> None:
    """The solids' faces turned to the camera, far to near, each lit by ``lights``, their
    surfaces as ``finish`` says (glints on glossy faces, the board through clear drops)."""
    eye = cam.centre
    order = sorted(solids, key=lambda s: -float(np.linalg.norm(s.verts.mean(0) - eye)))
    h, w = img.shape[:2]
    for solid in order:
        v = solid.verts
        px = cam.ideal(v)
        inside = v.mean(0)
        base = np.array(solid.colour, np.float32)
        clear = solid.holder is not None and finish.drop_opacity < 1.0
        if clear:
            # what lies under the drop, to mix its faces with once they are drawn
            x0, y0 = np.clip(np.floor(px.min(0)).astype(int) - 2, 0, (w, h))
            x1, y1 = np.clip(np.ceil(px.max(0)).astype(int) + 2, 0, (w, h))
            if x1 <= x0 or y1 <= y0:
                continue
            under = img[y0:y1, x0:x1].copy()
        for face in solid.faces:
            fv = v[list(face)]
            n = np.cross(fv[1] - fv[0], fv[2] - fv[0])
            norm = np.linalg.norm(n)
            if norm < 1e-9:
                continue
            n /= norm
            centre = fv.mean(0)
            if n @ (centre - inside) < 0:
                n = -n
            if n @ (eye - centre) <= 0:
                continue
            direct = sum(light.share * max(0.0, float(n @ light.towards(centre))) for light in lights)
            lum = style.ambient + (1 - style.ambient) * direct
            c = tuple(float(x) for x in np.clip(base * lum + (12 if lum > 0.9 else 0), 0, 255))
            poly = np.round(px[list(face)] * 16).astype(np.int32)       # 4 bits of sub-pixel precision
            cv2.fillConvexPoly(img, poly, c, cv2.LINE_AA, 4)
            if style.outline and solid.outlined:
                cv2.polylines(img, [poly], True, tuple(x * 0.45 for x in c), 1, cv2.LINE_AA, 4)
            shine = finish.shine(n, centre, eye, lights)
            if shine > 0.01:
                middle = poly.mean(0)
                spot = np.round(middle + (poly - middle) * finish.glint).astype(np.int32)
                cv2.fillConvexPoly(img, spot, tuple(x + shine * (255 - x) for x in c), cv2.LINE_AA, 4)
        if clear:
            roi = img[y0:y1, x0:x1]
            roi[:] = cv2.addWeighted(roi, finish.drop_opacity, under, 1.0 - finish.drop_opacity, 0.0)


def style_record(style: PieceStyle) -> dict:
    return asdict(style)
