"""Technology tiles: which one an Automa builds with, and (Hard and up) its special effect.

Rulebook (004, "High Voltage" appendix): "If Automa has more tiles available related to
the same structure (including wild tiles), they will always use the higher level tile
(III II I). In case of a tie, Automa will prefer a specific structure tile to a wild
tile." Below Hard a tile is only a building permit ("they will use only the basic
effect"); from Hard up its special effect is used, with the Automa rules of the appendix
(000 names the tile of each rule):

- L2 Conduit: "In case of a tie among eligible positions, Automa will always choose a
  Conduit of value 3 or higher" (and the cap of 5 excavators, in ``payment``);
- L2 Powerhouse: "Automa will activate the best available production";
- L1 Joker: "If Automa is building a Base, it will choose a building space with a red
  outline" (after all the criteria, 000), and pays no red surcharge;
- L2 Joker: "use the Machineries usually required ... before using the other type";
- L1 Building: "immediately scores the connected Private Building's VP";
- L2 Building: "only use the type of Machinery of which they have less".

Anton Krylov (Very Hard): "Automa will always prefer Advanced and Basic Technology tiles
to this Special tile. When used, the tile will always copy the Technology tile of the
highest level (i.e. in this order: 3, 2, 1, basic). In case of a tie, Automa prefer a
specific structure tile to a wild tile." It copies a tile on the construction wheel.
"""
from __future__ import annotations

from dataclasses import dataclass

from automa.common.trace import text

from . import production
from .data import barrage_map, components
from .state import Company, capacity
from .turn import Turn
from .words import tile as tile_words

ENGINEER_FREE = ("L1_POWERHOUSE", "L3_BASE")     # "you do not have to place Engineers"
VP_PER = 3                                        # L3 Elevation / Powerhouse / Joker: 3 VP each


@dataclass(frozen=True)
class TileUse:
    tile: str          # the tile taken from the supply and put on the wheel
    acts_as: str       # the tile whose effects apply (itself, or the tile Krylov's copies)


def _rank(tile: str, structure: str) -> tuple[int, int] | None:
    """(level, specific) of a tile that can build ``structure``; basic tiles are level 0."""
    if tile == structure:
        return (0, 1)
    adv = components().advanced_tiles()
    if tile in adv and adv[tile]["structure"] in (structure, "any"):
        return (adv[tile]["level"], int(adv[tile]["structure"] == structure))
    return None


def _best(tiles: list[str], structure: str) -> str | None:
    ranked = [(r, t) for t in tiles if (r := _rank(t, structure)) is not None]
    return max(ranked)[1] if ranked else None


def tile_for(company: Company, structure: str) -> TileUse | None:
    """The tile ``company`` builds ``structure`` with: the highest level, specific before wild; Krylov's
    special tile last, copying the best such tile on the wheel."""
    best = _best(company.tiles, structure)
    if best is not None:
        return TileUse(best, best)
    if "anton" in company.tiles and company.has_officer("krylov"):
        on_wheel = [t for seg in company.wheel for t in seg.tiles]
        copied = _best(on_wheel, structure)
        if copied is not None:
            return TileUse("anton", copied)
    return None


def effects_on(company: Company) -> bool:
    return company.automa and company.at_least("hard")


def acting(turn: Turn, use: TileUse) -> str | None:
    """The tile whose special effect applies this construction, or None below Hard."""
    return use.acts_as if effects_on(turn.me) else None


def engineer_free(turn: Turn, use: TileUse) -> bool:
    return acting(turn, use) in ENGINEER_FREE


def after_build(turn: Turn, use: TileUse, structure: str, space: str) -> None:
    """The special effect of the acting tile, after the piece is placed (Hard and up)."""
    tile = acting(turn, use)
    if tile is None or tile not in components().advanced_tiles():
        return
    state, me = turn.state, turn.me
    title = text("special effect of {tile} (copied by Krylov's tile)", tile=tile_words(tile)) if use.tile == "anton" \
        else text("special effect of {tile}", tile=tile_words(tile))
    with turn.trace.section(title):
        if tile == "L1_BASE":
            for s, d in sorted(state.dams.items()):
                if d.owner == turn.company and d.drops == 0:
                    turn.do({"op": "drops", "source": "supply", "target": f"dam:{s}", "count": 1})
                    turn.trace.add("a drop in its empty dam {dam}", dam=s)
        elif tile == "L1_ELEVATION":
            n = me.built("elevation")
            turn.do({"op": "rotate", "steps": n})
            turn.trace.add("construction wheel turned {n} (1 per elevation built)", n=n)
        elif tile == "L1_CONDUIT":
            n = 2 * barrage_map().conduits[space].value
            turn.vp(n, "L1 Conduit: 2 credits per conduit value")
            turn.trace.add("+{n} VP (credits as VP)", n=n)
        elif tile == "L2_BASE":
            n = me.built("dam_base")
            turn.do({"op": "energy", "delta": n})
            turn.trace.add("produces {n} energy (1 per base built)", n=n)
            production.fulfil(turn, n, powerhouse=False)
        elif tile == "L2_ELEVATION":
            d = state.dams[space]
            room = capacity(d, state.companies) - d.drops
            if room:
                turn.do({"op": "drops", "source": "supply", "target": f"dam:{space}", "count": room})
            turn.trace.add("dam {space} filled to its capacity ({room} drop(s))", space=space, room=room)
        elif tile == "L2_POWERHOUSE":
            turn.trace.add("the best available production, with +2")
            production.produce(turn, 2)
        elif tile == "L3_ELEVATION":
            n = sum(1 for d in state.dams.values() if d.owner == turn.company and d.pieces >= 2)
            turn.vp(VP_PER * n, "L3 Elevation")
            turn.trace.add("+{vp} VP ({n} raised dams)", vp=VP_PER * n, n=n)
        elif tile == "L3_CONDUIT":
            n = 2 * barrage_map().conduits[space].value
            turn.do({"op": "energy", "delta": n})
            turn.trace.add("produces {n} energy (2 x conduit value)", n=n)
            production.fulfil(turn, n, powerhouse=False)
        elif tile == "L3_POWERHOUSE":
            n = me.built("powerhouse")
            turn.vp(VP_PER * n, "L3 Powerhouse")
            turn.trace.add("+{vp} VP ({n} powerhouses)", vp=VP_PER * n, n=n)
        elif tile == "L3_JOKER":
            n = len(me.advanced_tiles())
            turn.vp(VP_PER * n, "L3 Joker")
            turn.trace.add("+{vp} VP ({n} advanced tiles)", vp=VP_PER * n, n=n)
        elif tile in ("L1_BUILDING", "L3_BUILDING"):
            vp = components().private_buildings()[space]["vp"]
            turn.vp(vp, f"{tile}: the Private Building's VP at once")
            turn.trace.add("+{vp} VP: the Private Building's VP scored at once", vp=vp)
        else:
            turn.trace.add("applied to the cost or the placement")
