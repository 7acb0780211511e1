"""The steps every Automa construction shares (structures, Private Buildings, Spencer's External
Works): where its engineers go, and how the tile and machinery go on the construction wheel."""
from __future__ import annotations

from .payment import Payment
from .turn import Turn

GRASSO_SECTION = "officer"


def grasso_discount(turn: Turn) -> bool:
    """Whether Grasso's first-construction discount is still unused this round."""
    if not turn.me.has_officer("grasso"):
        return False
    spot = turn.state.action_spaces.get(GRASSO_SECTION, {}).get("xo", [])
    return not any(p.company == turn.company for p in spot)


def place_construction_engineers(turn: Turn, printed: int, engineer_free: bool = False) -> int:
    """Engineers of a construction: on the company board; Grasso's first construction of the round one
    fewer, on the XO spot; none with an engineer-free tile (L1 Powerhouse, L3 Base)."""
    if engineer_free:
        turn.trace.add("the tile needs no engineer on the company board")
        return 0
    if grasso_discount(turn):
        count, _ = turn.place_engineers(GRASSO_SECTION, printed - 1)
        if printed - 1 == 0:
            turn.trace.add("Grasso: the first construction of the round costs 1 engineer less ({count} on the XO "
                           "spot; a credit coin as the reminder)", count=count)
        else:
            turn.trace.add("Grasso: the first construction of the round costs 1 engineer less ({count} on the XO "
                           "spot)", count=count)
        return count
    count, _ = turn.place_engineers("company", printed)
    return count


def invest(turn: Turn, tile: str, pay: Payment) -> None:
    """Tile and machinery on the wheel's current segment, Jordan's VP paid, then one turn of the wheel."""
    turn.do({"op": "invest", "tile": tile, "excavators": pay.excavators, "mixers": pay.mixers,
             **({"excamixers": pay.excamixers} if pay.excamixers else {})})
    if pay.vp:
        turn.vp(-pay.vp, "Jordan: VP instead of a machine")
    turn.do({"op": "rotate", "steps": 1})
