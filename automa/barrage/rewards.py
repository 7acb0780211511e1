"""How an Automa receives rewards: contract rewards, uncovered incomes, free structures.

Rulebook (004, General rules): "Instead of spending or earning credits,
Automa players will always pay or earn Victory points (VP)." So a credit
reward is VP. Machinery "of your choice" is the type the Automa has fewer of
out of the wheel, an excavator on a tie (the rule of the Wild Machinery Shop
action). Free structures are placed with the Structure Placing Procedure of
the current Criteria tile. Drop rewards are placed like a Water Management
action (see ``drop_choice``). See docs/rulings.md for the choices made here.
"""
from __future__ import annotations

from collections import Counter

from automa.common.trace import Text, text

from . import drop_choice
from .data import components, barrage_map
from .ops import refill_op
from .placement import choose_space
from .rules import ability, legal_spaces
from .water import groups_passed, steps_through
from .turn import Turn
from .words import MACHINE, STRUCTURE
from .words import tile as tile_words


def wild_machine(turn: Turn) -> str:
    """The machine an Automa takes when it may choose: the type it has fewer of, excavator on a tie."""
    me = turn.me
    if me.has_officer("mcdowell"):
        return "mixer"      # 000: "Quando estiver pegando Maquinários de sua escolha, o Autômato sempre prefere pegar Betoneiras"
    return "mixer" if me.mixers < me.excavators else "excavator"


def gain_machinery(turn: Turn, kinds: list[str]) -> list[str]:
    got = []
    for kind in kinds:
        kind = wild_machine(turn) if kind == "any" else kind
        turn.do({"op": "machinery", "excavators": int(kind == "excavator"), "mixers": int(kind == "mixer")})
        got.append(kind)
    return got


def place_drops(turn: Turn, count: int, flows_now: bool) -> drop_choice.DropPlan | None:
    """Place up to ``count`` drops where they reach the Automa's own dams; None if no drop can."""
    usa = ability(turn.state, turn.company, "usa")
    plan = drop_choice.best_plan(turn.state, turn.company, count, flows_now, turn.criteria["headstreams"], usa)
    if plan is None:
        return None
    for h in sorted(set(plan.headstreams)):
        turn.do({"op": "drops", "source": "supply", "target": f"headstream:{h}", "count": plan.headstreams.count(h)})
    for h, stop in plan.stops:
        target = "exit" if stop == "exit" else f"dam:{stop}"
        turn.do({"op": "drops", "source": f"headstream:{h}", "target": target, "count": 1})
    if flows_now:
        usa_flow(turn, [(barrage_map().headstreams[h], stop, 1) for h, stop in plan.stops])
    where = ", ".join(f"{h}->{stop}" for h, stop in plan.stops) or ", ".join(plan.headstreams)
    turn.trace.add("placed {n} drop(s) on headstream(s) {where}: {gain} will end in its own dams",
                   n=len(plan.headstreams), where=where, gain=plan.gain)
    return plan


def usa_flow(turn: Turn, flows: list[tuple[int | None, str, int]]) -> None:
    """USA's ability (an Automa from Hard, 3 powerhouses built): "if a Water Drop naturally flows through
    one of your Powerhouses, move your Energy marker by 1 step", whoever moved the water. ``flows``:
    (basin the water enters, where it stops, drops)."""
    state = turn.state
    if "usa" not in state.companies or not ability(state, "usa", "usa"):
        return
    passed: Counter = Counter()
    for basin, stop, n in flows:
        for g in groups_passed(basin, stop):
            passed[g] += n
    steps = steps_through(state, "usa", passed)
    if steps:
        turn.do({"op": "energy", "company": "usa", "delta": steps, "why": "USA's ability"})
        turn.trace.add("USA's ability: the water flows through its powerhouses: USA energy +{steps}", steps=steps)


def place_structure(turn: Turn, structure: str, space: str, surcharge: int) -> None:
    """Put the piece on the map, pay a red-outline surcharge in VP, collect an uncovered income."""
    turn.do({"op": "build", "structure": structure, "space": space})
    turn.vp(-surcharge, f"red-outlined space {space}")
    if structure == "powerhouse":
        return          # powerhouses uncover production bonuses, not incomes
    me = turn.me
    if me.difficulty == "easy":
        return          # Easy ("Low Voltage"): no income from the company board
    built = me.built(structure)
    track = components().companies()[turn.company]["income"][structure]
    for step in track:
        if step["built"] == built:
            receive(turn, step["income"], text("income uncovered by building {structure} no. {built}",
                                               structure=STRUCTURE[structure], built=built))


def free_structure(turn: Turn, structure: str, spaces: list[str], what: Text) -> None:
    if turn.me.structures[structure] <= 0:
        turn.trace.add("{what}: no {structure} left on the company board, reward lost", what=what,
                       structure=STRUCTURE[structure])
        return
    if not spaces:
        turn.trace.add("{what}: no legal space, reward lost", what=what)
        return
    with turn.trace.section("{what}: Structure Placing Procedure", what=what):
        space = choose_space(turn.state, turn.company, structure, spaces, turn.criteria, turn.trace)
    place_structure(turn, structure, space, 0)
    turn.trace.add("{what}: built on {space}", what=what, space=space)


def receive(turn: Turn, rewards: list[dict], source: Text) -> None:
    """Execute a list of rewards (contract rewards or an income) for the Automa; ``source`` says whose
    (a trace section; in English, the VP op's reason)."""
    bmap = barrage_map()
    with turn.trace.section("{source}:", source=source):
        for r in rewards:
            kind, n = r["type"], r.get("amount", 1)
            if kind in ("vp", "credits"):
                turn.vp(n, str(source))
                if kind == "credits":
                    turn.trace.add("+{n} VP (credits are paid as VP)", n=n)
                else:
                    turn.trace.add("+{n} VP", n=n)
            elif kind == "energy_track_steps":
                turn.do({"op": "energy", "delta": n})
                turn.trace.add("energy +{n}", n=n)
                if r.get("usable_for_contracts"):
                    # External Work 100: "You can use this amount of Energy Units to fulfill Contracts";
                    # the Automa does, by its External Works rule (rulings L2)
                    fulfil_without_production(turn, n)
            elif kind == "wheel_rotation":
                if turn.me.wheel_empty():
                    turn.trace.add("construction wheel is empty: nothing to turn")
                else:
                    turn.do({"op": "rotate", "steps": n})
                    turn.trace.add("construction wheel turned {n}", n=n)
            elif kind in ("machinery_any", "excavator", "mixer"):
                kinds = gain_machinery(turn, ["any" if kind == "machinery_any" else kind] * n)
                turn.trace.add("took {machines}", machines=[MACHINE[k] for k in kinds])
            elif kind == "water_drops_on_headstreams":
                if place_drops(turn, n, bool(r.get("flow_immediately"))) is None:
                    turn.trace.add("{n} drop(s): none could reach one of its own dams, none placed", n=n)
            elif kind == "free_conduit":
                top = r.get("max_production_value") or 99
                spaces = [s for s in legal_spaces(turn.state, turn.company, "conduit") if bmap.conduits[s].value <= top]
                free_structure(turn, "conduit", spaces, text("free conduit (value <= {top})", top=top))
            elif kind == "free_dam_base":
                areas = r.get("areas")
                spaces = [s for s in legal_spaces(turn.state, turn.company, "dam_base")
                          if areas is None or bmap.dams[s].area in areas]
                free_structure(turn, "dam_base", spaces, text("free dam base"))
            elif kind == "free_powerhouse":
                free_structure(turn, "powerhouse", legal_spaces(turn.state, turn.company, "powerhouse"),
                               text("free powerhouse"))
            elif kind == "free_elevation":
                for _ in range(n):
                    free_structure(turn, "elevation", legal_spaces(turn.state, turn.company, "elevation"),
                                   text("free elevation"))
            elif kind == "fulfill_contract_without_production":
                fulfil_without_production(turn, r.get("max_energy"))
            elif kind == "free_advanced_technology_tile":
                free_advanced_tile(turn)
            else:
                raise ValueError(f"reward {kind!r} has no Automa rule")


def fulfil_without_production(turn: Turn, max_energy: int | None) -> None:
    """An External Work's contract (004: "If the Automa must fulfill a Contract as effect of an
    External Work, it must fulfill the higher Private Contract available in the Contract Office (in
    case of a tie, the one on the right; if the effect is a 4-value Contract, the higher between
    those valued 4 or less)"): at most ``max_energy`` when the effect says so (a 4-value contract,
    or the 6 energy units of work 100 usable for contracts)."""
    contracts = components().contracts
    office = turn.state.contract_office
    options = [(contracts[cid]["energy"], i, colour, cid) for i, (colour, _, cid) in enumerate(office.face_up_private())
               if max_energy is None or contracts[cid]["energy"] <= max_energy]
    if not options:
        turn.trace.add("no private contract it may fulfil")
        return
    need, _, colour, cid = max(options)
    turn.do({"op": "fulfil", "contract": cid})
    turn.trace.add("fulfils private contract {cid} ({need} energy) without producing", cid=cid, need=need)
    receive(turn, contracts[cid]["reward"], text("reward of contract {cid}", cid=cid))
    op = refill_op(turn.state, colour)
    if op:
        turn.do(op)


def free_advanced_tile(turn: Turn) -> None:
    """An External Work's free advanced tile: the highest level in the Patent Office, the leftmost on a tie
    (no Automa rule in the seeds: see rulings)."""
    adv = components().advanced_tiles()
    slots = turn.state.patent_office.slots
    found = [(adv[t]["level"], -i) for i, t in enumerate(slots) if t]
    if not found:
        turn.trace.add("the Patent Office is empty: no tile")
        return
    slot = -max(found)[1]
    tile = slots[slot]        # read before the op empties the slot
    turn.do({"op": "take_tile", "slot": slot, "tile": tile})
    turn.trace.add("takes {tile} from slot {slot} for free", tile=tile_words(tile), slot=slot + 1)
