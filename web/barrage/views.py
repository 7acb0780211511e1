"""What the play page shows, as JSON: the state in readable pieces, the pending turn, the
tile pair, the Automa boards and the history. The page's JavaScript only lays it out."""
from __future__ import annotations

from automa.barrage.actions import DASHED
from automa.barrage.data import automa_tiles, company_colours, components
from automa.barrage.engine import ACTION_NAMES, action_label  # the engine's own words for an action
from automa.barrage.state import GameState
from vision.barrage.board_state import MapState
from vision.layout import Layout

from ..store import Step
from . import game, say

COLOUR_HEX = {"red": "#d0302a", "black": "#222222", "green": "#2e8b3a", "white": "#f4f4f4",
              "orange": "#f08a00", "neutral": "#8c8c8c"}


def tile_view(number: int) -> dict:
    """One Automa tile, both sides, as text."""
    tile = automa_tiles()[number]
    actions = [{"type": a["type"], "text": ACTION_NAMES[a["type"]] + action_label(a),
                "engineers": a["engineers"], "dashed": a["type"] in DASHED,
                "expansion": bool(a.get("leeghwater"))} for a in tile["actions"]]
    crit = tile["criteria"]
    columns = {col: {"start": crit[col].get("start"),
                     "criteria": [c.replace("_", " ").capitalize() for c in crit[col]["criteria"]]}
               for col in ("dam", "conduit", "powerhouse")}
    return {"tile": number, "actions": actions, "criteria": columns, "headstreams": crit["headstreams"]}


def tiles_showing(state: GameState) -> dict:
    """Actions side: the draw pile's top; Criteria side: the tile last flipped (if any)."""
    deck = state.deck
    return {"actions": tile_view(deck.top), "criteria": tile_view(deck.discard_top) if deck.discard_top else None,
            "draw_pile": len(deck.draw_pile), "discard": len(deck.discard)}


def company_view(state: GameState, cid: str) -> dict:
    c = state.companies[cid]
    colour = company_colours()[cid]
    return {"company": cid, "colour": colour, "hex": COLOUR_HEX.get(colour, "#888"), "automa": c.automa,
            "difficulty": c.level, "officer": components().officers()[c.officer]["name"] if c.officer else None,
            "vp": c.vp, "credits": c.credits, "engineers": c.engineers,
            "excavators": c.excavators, "mixers": c.mixers, "energy": state.energy.get(cid, 0),
            "structures": dict(c.structures), "tiles": list(c.tiles), "contracts": list(c.contracts),
            "wheel": [{"tiles": s.tiles, "excavators": s.excavators, "mixers": s.mixers} for s in c.wheel]}


def map_pieces(state: GameState | MapState) -> list[dict]:
    """Every occupied slot for the reference map, of the game or of a camera's reading: id,
    piece, owner, drops."""
    out = [{"slot": h, "piece": "headstream", "owner": None, "drops": n} for h, n in state.headstreams.items()]
    for space, d in state.dams.items():
        out.append({"slot": space, "piece": "base" if d.pieces == 1 else f"base+{d.pieces - 1}",
                    "owner": d.owner, "drops": d.drops})
    out += [{"slot": s, "piece": "conduit", "owner": o, "drops": 0} for s, o in state.conduits.items()]
    out += [{"slot": s, "piece": "powerhouse", "owner": o, "drops": 0} for s, o in state.powerhouses.items()]
    return out


def highlight_slots(decision: dict | None) -> list[str]:
    """Map slots the Automa's instruction touches: what it builds and where water goes."""
    if not decision:
        return []
    out: list[str] = []
    for op in decision["ops"]:
        if op["op"] == "build":
            out.append(op["space"])
        elif op["op"] == "drops":
            out += [loc.partition(":")[2] for loc in (op["source"], op["target"]) if ":" in loc]
    return list(dict.fromkeys(out))


def layout_view(layout: Layout) -> dict:
    return {"width": layout.width, "height": layout.height,
            "slots": [{"id": b.id, "kind": b.kind, "x": b.x, "y": b.y, "w": b.w, "h": b.h} for b in layout.slots]}


def session_view(info, steps: list[Step]) -> dict:
    last = steps[-1]
    state, flow = game.load(last)
    decision = game.automa_decision(last)
    return {
        "id": info.id, "name": info.name, "settings": info.settings, "seq": last.seq,
        "round": state.round, "phase": flow.phase, "next": flow.next,
        "next_view": company_view(state, flow.next) if flow.next else None,
        "decision": say.said(decision), "highlight": highlight_slots(decision),
        # the spaces to look at, as a player says them (the code a hint), and whether the camera can see the turn done
        "targets": [say.with_code(s) for s in highlight_slots(decision)],
        "changes_map": decision is not None and game.changes_map(last),
        "companies": [company_view(state, c) for c in state.turn_order],
        "colours": {c: COLOUR_HEX.get(company_colours()[c], "#888") for c in state.companies} | {"neutral": COLOUR_HEX["neutral"]},
        "tiles": tiles_showing(state), "pieces": map_pieces(state),
        "history": [{"seq": s.seq, "kind": s.kind, "label": s.label} for s in steps],
    }
