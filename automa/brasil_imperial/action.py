"""The action phase (seed 001, "Primeira fase: Ação", always played).

1. At the start the action pile is turned face up and the first row of the top card is used.
2. Then each turn the top card is taken and laid to the left; its arrow chooses the row of the
   next card (the new top) in the current Era's column.
3. When the last card is taken the whole pile is shuffled face up and the first row is used.

The chosen row's action is done when possible; otherwise the rows below it are tried in order,
on past the last row to the first ("até encontrar uma linha possível dentre as quatro", ruling
B20), and when none of the Era's column is possible the Autômato takes 1 gold card. Cards 5
and 6 print that gold card in the last row of their Era II and III columns: "caso nenhuma ação
da Era II ou III seja possível, o Autômato recebe 1 Carta de Ouro", so a ``gold`` row is no
action of its own, only that reminder (ruling B21). The Autômato never pays nor collects
resources.

Actions (each a function ``state -> Plan | reason``):

- ``build`` a construction by the placement rules (:mod:`.placement`); no free space of its
  terrain: impossible (the next row); no free space at all: over an older construction;
- ``city`` the first city on the general board not yet taken, by the same rules, ignoring
  the Monarch piece;
- ``summon``/``monarch`` that unit from the stock onto the capital (no unit on the map) or the
  compass's space, and 1 combat card (at most 3); with a product on the summon arch, the leftmost
  unit still in the stock comes too; the first unit ever summoned turns the movement pile up;
- ``frame``/``product`` that frame (if nobody has it) / product (if it has not made it), the
  product going on the arch of its shape, left to right;
- ``mission`` one action of that objective of the Era's mission card, if still incomplete
  (never Reform): a construction (its own, or the first possible of the Era from the left when
  it asks "any construction of the Era" or its terrain has no space), a city, a summon, the
  leftmost frame of the type, the leftmost product not yet made (of its shape when it names one);
- ``gold``: the printed gold card of cards 5 and 6, passed over (the column's last resort).
"""
from __future__ import annotations

from dataclasses import dataclass

from automa.common.deck import rows_from
from automa.common.trace import Text, chained, text

from .board import ARCH_SUMMON
from .cards import ROWS, Action, ActionCard
from .piles import ACTION, turn_up
from .placement import place
from .state import GameState, Objective, hex_key
from .steps import Work


@dataclass
class Plan:
    action: str
    ops: list[dict]
    text: str
    target: str | None = None


# an objective's kind in the trace's words (a kind the code does not know is said as written)
KIND_WORDS = {"construction": text("construction"), "city": text("city"), "summon": text("summon"),
              "frame": text("frame"), "product": text("product"), "other": text("other")}


class NeedsMission(Exception):
    """The Era's mission card must be revealed and entered before the Autômato can go on."""


def card_and_row(w: Work) -> tuple[ActionCard, int]:
    """Draw as the phase's steps 1-4 say; the card used and its row (1-4)."""
    with w.trace.section("action pile"):
        card, row = turn_up(w, ACTION)
        w.trace.add("action card {card}, Era {era} column, row {row}", card=card.id, era=w.state.era, row=row)
    return card, row


def phase(w: Work) -> None:
    card, row = card_and_row(w)
    w.details["action_card"], w.details["action_row"] = card.id, row
    column = card.columns[w.state.era - 1]
    with w.trace.section("action: Era {era} column of card {card}", era=w.state.era, card=card.id):
        for r in rows_from(row - 1, ROWS, wrap=True):
            act = column[r]
            with w.trace.section("row {row}: {code}", row=r + 1, code=act.code):
                result = attempt(w.state, act, w)
                if isinstance(result, Plan):
                    w.do(*result.ops)
                    w.say(result.text)
                    w.details.update(action=result.action, action_target=result.target, row_done=r + 1)
                    return
                w.trace.add("impossible: {why}", why=result)
        w.trace.add("no row of the Era's column is possible: 1 gold card")
        w.do({"op": "gold", "to": w.state.automa.gold + 1})
        w.say("No action of its Era column is possible: give the Autômato 1 gold card (face down).")
        w.details.update(action="gold", action_target=None, row_done=None)


def attempt(s: GameState, act: Action, w: Work) -> Plan | Text:
    """The plan for one action, or why it is impossible."""
    t = w.trace
    if act.kind == "build":
        return build(s, act.arg, t)
    if act.kind == "city":
        return city(s, t)
    if act.kind == "summon":
        return summon(s, act.arg)
    if act.kind == "monarch":
        return summon(s, "monarch")
    if act.kind == "frame":
        return frame(s, act.arg)
    if act.kind == "product":
        return product(s, act.arg)
    if act.kind == "mission":
        return mission(s, int(act.arg), w)
    return text("the gold card symbol: 1 gold card only when no action of the column is possible")


def _left(s: GameState, cid: str) -> int:
    con = s.board.construction(cid)
    built = sum(1 for c in s.cells.values() if c.building and c.building.owner == "automa"
                and c.building.kind == "construction" and c.building.ref == cid)
    return con.count - built


def build(s: GameState, cid: str, trace) -> Plan | Text:
    if cid not in s.board.ids("constructions"):
        return text("the board has no construction {id}", id=repr(cid))
    con = s.board.construction(cid)
    if _left(s, cid) <= 0:
        return text("no {id} left on its board", id=cid)
    spot = place(s, con.terrain, trace, con.era)
    if spot is None:
        return text("no space for a {id}", id=cid)
    where = hex_key(spot.hex)
    sentence = (f"Build the Autômato's {cid} over its construction on {where}." if spot.over
                else f"Build the Autômato's {cid} on {where} ({con.terrain}).")
    return Plan("build", [{"op": "build", "construction": cid, "hex": where, "over": spot.over}], sentence, where)


def city(s: GameState, trace) -> Plan | Text:
    built = {c.building.ref for c in s.cells.values() if c.building and c.building.kind == "city"
             and c.building.owner == "automa"}
    free = [c.id for c in s.board.cities if c.id not in built and c.id not in s.taken_cities]
    if not free:
        return text("no city left on the general board")
    trace.add("the first city from the left: {city}", city=free[0])
    spot = place(s, None, trace)
    if spot is None:
        return text("no free space for a city next to its empire")
    where = hex_key(spot.hex)
    return Plan("city", [{"op": "city", "city": free[0], "hex": where}],
                f"Take {free[0]} (the first city from the left of the general board) and build it on {where} "
                "for the Autômato.", where)


def summon(s: GameState, uid: str) -> Plan | Text:
    units = s.automa.units
    if uid not in units:
        return text("the board has no unit {id}", id=repr(uid))
    if units[uid].at is not None:
        return text("unit {id} is on the map already", id=uid)
    where = s.compass_at if s.units_on_map() else s.automa_capital()
    place_text = ("the compass's space" if s.units_on_map() else "its capital")
    ops: list[dict] = [{"op": "summon", "unit": uid, "hex": hex_key(where)}]
    summoned = [uid]
    arch = [p for p in s.automa.products if s.board.arches.get(s.board.product(p).kind) == ARCH_SUMMON]
    if arch:
        second = next((u for u in s.board.ids("units") if units[u].at is None and u != uid), None)
        if second:
            ops.append({"op": "summon", "unit": second, "hex": hex_key(where)})
            summoned.append(second)
    cards = min(3, s.automa.combat_cards + 1)
    ops.append({"op": "bonus", "kind": "combat", "to": cards})
    if not s.movement_started:
        ops.append({"op": "movement_start"})
    names = " and ".join(f"unit {u}" for u in summoned)
    sentence = (f"Summon the Autômato's {names} onto {place_text} ({hex_key(where)})"
                + (" (the summon arch's product brings the leftmost unit of the stock too)" if len(summoned) > 1 else "")
                + f"; it takes 1 combat card (now {cards}"
                + (", the most it holds" if s.automa.combat_cards == 3 else "") + ").")
    if not s.movement_started:
        sentence += " Turn the movement pile face up."
    return Plan("summon", ops, sentence, hex_key(where))


def frame(s: GameState, fid: str) -> Plan | Text:
    if fid not in s.board.ids("frames"):
        return text("the board has no frame {id}", id=repr(fid))
    if fid in s.automa.frames or fid in s.taken_frames:
        return text("frame {id} was taken already", id=fid)
    return Plan("frame", [{"op": "frame", "frame": fid}], f"Give the Autômato the frame {fid}.", fid)


def product(s: GameState, pid: str) -> Plan | Text:
    if pid not in s.board.ids("products"):
        return text("the board has no product {id}", id=repr(pid))
    if pid in s.automa.products:
        return text("it has manufactured {id} already", id=pid)
    p = s.board.product(pid)
    slot = 1 + sum(1 for q in s.automa.products if s.board.product(q).kind == p.kind)
    arch = s.board.arches[p.kind]
    return Plan("product", [{"op": "product", "product": pid}],
                f"Manufacture {pid} for the Autômato and put it on its {arch} arch ({p.kind}), space {slot} "
                "from the left.", pid)


def mission(s: GameState, index: int, w: Work) -> Plan | Text:
    """One action of objective ``index`` of the Era's mission card, if it is still incomplete:
    its parts in the card's order, the first the Autômato can act on."""
    parts = s.automa.missions[s.era]
    if parts is None:
        raise NeedsMission(s.era)
    todo = [o for o in parts if o.number == index and not o.done]
    if not todo:
        return text("objective {index} of the Era {era} mission is complete", index=index, era=s.era)
    reasons = []
    for o in todo:
        kind = KIND_WORDS.get(o.kind, o.kind)
        if o.ref:
            w.trace.add("objective {index}: {kind} {ref}, incomplete", index=index, kind=kind, ref=o.ref)
        else:
            w.trace.add("objective {index}: {kind}, incomplete", index=index, kind=kind)
        plan = objective_action(s, o, w.trace)
        if isinstance(plan, Plan):
            return plan
        w.trace.add(plan)
        reasons.append(plan)
    return _one_after_another(reasons)


def _one_after_another(reasons: list[Text]) -> Text:
    """The reasons (at least one) said one after another, separated by "; "."""
    return chained(reasons, text("{first}; {rest}"))


def objective_action(s: GameState, o: Objective, t) -> Plan | Text:
    """The action of one objective part (the generic choices of the seed: the first possible
    construction of the Era, the leftmost frame of the type, the leftmost product not made)."""
    if o.kind == "construction":
        if o.ref and o.ref != "any":
            plan = build(s, o.ref, t)
            if isinstance(plan, Plan):
                return plan
            t.add("{why}: the first possible construction of Era {era} from the left", why=plan, era=s.era)
        for con in s.board.of_era(s.era):
            plan = build(s, con.id, t)
            if isinstance(plan, Plan):
                return plan
            t.add(plan)
        return text("no construction of Era {era} is possible", era=s.era)
    if o.kind == "city":
        return city(s, t)
    if o.kind == "summon":
        first = next((u for u in s.board.ids("units") if s.automa.units[u].at is None), None)
        return summon(s, first) if first else text("every unit is on the map")
    if o.kind == "frame":
        free = [f.id for f in s.board.frames if (o.ref in (None, f.kind)) and f.id not in s.automa.frames
                and f.id not in s.taken_frames]
        if free:
            return frame(s, free[0])
        return text("no {kind} frame left", kind=o.ref) if o.ref else text("no frame left")
    if o.kind == "product":
        # a part naming a product (its id) or a shape takes the leftmost of those; a generic
        # one "o 1º Produto mais à esquerda disponível"
        left = [p.id for p in s.board.products if o.ref in (None, p.id, p.kind) and p.id not in s.automa.products]
        if left:
            return product(s, left[0])
        return text("every {ref} product is manufactured", ref=o.ref) if o.ref else text("every product is manufactured")
    return text("the Autômato cannot act on this objective (it never takes the Reform action)")
