"""Map geometry the synthetic board draws, derived from the slot layout
(``vision.layout``) and the engine's topology: river courses and conduit pipes.

Everything is in the canonical 1000x1464 frame (x right, y down), the frame every
homography in this project maps to.
"""
from __future__ import annotations

from functools import cache

from automa.barrage.data import barrage_map
from vision.layout import Point, load_layout


@cache
def rivers() -> dict[str, list[Point]]:
    """Headstream letter -> the river's course: headstream, then for each basin it
    crosses the upper lake and dam, the lower lake and dam, the outflow powerhouse
    zone, and finally the exit on the board's lower edge."""
    lay, bmap = load_layout(), barrage_map()
    out: dict[str, list[Point]] = {}
    for letter, basin in bmap.headstreams.items():
        pts = [lay.slot(letter).centre]
        b = bmap.basins[basin]
        while True:
            for dam in b.dams:
                pts += [lay.lake(dam).centre, lay.slot(dam).centre]
            group = bmap.groups[b.outflow_group]
            pts.append(lay.powerhouse_zones[group.group].centre)
            if group.flows_to_basin is None:
                ex = lay.exits[group.flows_to_exit]
                pts.append((ex.centre[0], float(lay.height)))
                break
            b = bmap.basins[group.flows_to_basin]
        out[letter] = pts
    return out


@cache
def pipes() -> dict[str, list[Point]]:
    """Conduit space -> the pipe it stands for: from the basin's lower dam, through the
    conduit space, to the powerhouse zone of its group (an elbow, as printed pipes run)."""
    lay, bmap = load_layout(), barrage_map()
    out: dict[str, list[Point]] = {}
    for cid, c in bmap.conduits.items():
        start = lay.slot(bmap.basins[c.basin].dams[1]).centre
        mid = lay.slot(cid).centre
        end = lay.powerhouse_zones[c.group].centre
        out[cid] = [start, mid, (mid[0], end[1]), end]
    return out
