"""One Automa turn: flip a tile, try its actions in order, return a Decision.

Rulebook (004, Actions): "At the beginning of each Automa turn, flip the top
Automa tile (Actions side - left) over and place it onto the discard pile,
revealing the Criteria tile (right). Reshuffle when the Action tile pile is
empty." The Actions side is the new top of the pile; the Criteria side is
the tile just flipped. "As long as Automa has at least 1 Engineer left, it
will try to perform one of the actions, starting from the first column on
the left and from top to bottom until the end of the last column ... The
actions illustrated in the dashed frame are the only ones that don't end
the turn when performed."

``decide`` is a pure function (state in, decision out); ``apply_decision``
replays the decision's ops on the state it was made for.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from automa.common.errors import StateError
from automa.common.trace import Text, Trace, text, trace_json

from . import officers
from .actions import ACTIONS, DASHED
from .data import CONTRACT_COLOURS, automa_tiles, company_colours
from .ops import Op, a_name, apply_ops, describe, plural, refill_op
from .state import GameState
from .turn import Turn
from .words import (
    A_STRUCTURE,
    AREA_LOWER,
    CONTRACT_KIND,
    MACHINE,
    STRUCTURE,
    drops,
    engineers,
    pluses,
    segments,
)

ACTION_WORDS = {
    "production": text("Production"), "water_management": text("Water Management"),
    "contract_office": text("Contract Office"), "construction": text("Construction"), "workshop": text("Workshop"),
    "machinery_shop": text("Machinery Shop"), "patent_office": text("Patent Office"), "bank": text("Bank"),
    "external_work": text("External Works"), "pass": text("Pass"),
}
ACTION_NAMES = {kind: str(name) for kind, name in ACTION_WORDS.items()}


@dataclass
class Step:
    """One action performed during the turn."""

    action: str
    target: str | None
    engineers: int
    vp_delta: int
    detail: dict = field(default_factory=dict)


@dataclass
class Decision:
    automa: str                     # the Automa (for Sekibo's tile: the human company told what to do)
    colour: str
    action: str                     # the action that ended the turn ("pass" with no engineer left)
    target: str | None
    engineers: int                  # engineers placed during the whole turn
    vp_delta: int                   # the Automa's VP change during the whole turn
    steps: list[Step]
    ops: list[Op]
    trace: list[str]
    tiles: dict                     # {"actions": n, "criteria": m}
    instruction: str
    level: str = "medium"
    officer: str | None = None
    extra_turn: bool = False        # Battista: the Architect was placed, the same Automa plays again at once
    human_first_action: dict | None = None   # Sekibo: the tile that decides a human's first action

    def to_dict(self) -> dict:
        return {
            "automa": self.automa, "colour": self.colour, "action": self.action, "target": self.target,
            "level": self.level, "officer": self.officer, "extra_turn": self.extra_turn,
            "human_first_action": self.human_first_action,
            "engineers": self.engineers, "vp_delta": self.vp_delta, "instruction": self.instruction,
            "summary": summary(self) if self.steps else self.instruction,
            "tiles": self.tiles, "trace": list(self.trace), "trace_words": trace_json(self.trace),
            "steps": [{"action": s.action, "target": s.target, "engineers": s.engineers, "vp_delta": s.vp_delta,
                       **s.detail} for s in self.steps],
            "moves": [describe(op) for op in self.ops],
            "ops": self.ops,
        }


def resolve_automa(state: GameState, who: str | None) -> str:
    """Accept a company id or a piece colour; default to the first Automa in turn order."""
    automas = state.automas
    if not automas:
        raise StateError("this state has no Automa player")
    if who is None:
        return automas[0]
    colours = company_colours()
    for c in automas:
        if who.lower() in (c, colours[c]):
            return c
    raise StateError(f"no Automa {who!r} in this game (Automas: "
                     + ", ".join(f"{c} ({colours[c]})" for c in automas) + ")")


def decide(state: GameState, automa: str | None = None) -> Decision:
    """Decide one full turn of ``automa`` (company id or colour). ``state`` is not modified.

    With Mahiri Sekibo in play, ``automa`` may name a human company whose first action of the
    round is still to be drawn: the decision is then Sekibo's tile for that human
    (see :func:`human_first_action`)."""
    if automa is not None and officers.human_first_action_due(state, automa):
        return human_first_action(state, automa)
    company = resolve_automa(state, automa)
    colour = company_colours()[company]
    me = state.companies[company]
    work = state.copy()
    trace = Trace()
    if me.workers() <= 0:
        trace.add("{company} has no engineer left: it passes (no tile is flipped)", company=company)
        return Decision(company, colour, "pass", None, 0, 0, [], [], trace.lines(), {},
                        f"{colour.capitalize()} Automa ({company}) has no engineer left and passes.",
                        level=me.level, officer=me.officer)
    turn = Turn(work, company, criteria={}, trace=trace)
    _refill_contracts(turn)
    actions_tile, flipped = flip(turn, state)
    steps, ending, extra = play_tile(turn, actions_tile)
    main = steps[-1] if steps else None
    decision = Decision(
        automa=company, colour=colour, action=ending, target=main.target if main else None,
        engineers=me.workers() - turn.me.workers(),
        vp_delta=turn.me.vp - me.vp,
        steps=steps, ops=turn.ops, trace=trace.lines(),
        tiles={"actions": actions_tile["tile"], "criteria": flipped}, instruction="",
        level=me.level, officer=me.officer, extra_turn=extra)
    decision.instruction = instruction(decision)
    return decision


def flip(turn: Turn, state: GameState) -> tuple[dict, int]:
    """Flip the top tile of the shared pile; the turn reads the new top's Actions side and the flipped
    tile's Criteria side. Returns (actions tile, flipped tile number)."""
    work = turn.state
    flipped = work.deck.top
    new_deck = work.deck.flip()
    turn.do({"op": "deck", "draw_pile": new_deck.draw_pile, "discard": new_deck.discard,
             "shuffles": new_deck.shuffles, "reshuffled": new_deck.shuffles != state.deck.shuffles})
    tiles = automa_tiles()
    actions_tile = tiles[work.deck.top]
    turn.criteria, turn.actions = tiles[flipped]["criteria"], actions_tile
    if new_deck.shuffles != state.deck.shuffles:
        turn.trace.add("flipped tile {flipped}: Actions side of tile {actions}, Criteria side of tile {flipped} "
                       "(pile reshuffled)", flipped=flipped, actions=actions_tile["tile"])
    else:
        turn.trace.add("flipped tile {flipped}: Actions side of tile {actions}, Criteria side of tile {flipped}",
                       flipped=flipped, actions=actions_tile["tile"])
    return actions_tile, flipped


def play_tile(turn: Turn, actions_tile: dict) -> tuple[list[Step], str, bool]:
    """Try the tile's actions in order (Grasso: construction first); return (steps, ending action, extra turn)."""
    state, trace = turn.state, turn.trace
    steps: list[Step] = []
    ending = "pass"
    me = turn.me
    for position, action in officers.action_order(turn, actions_tile["actions"]):
        name = ACTION_WORDS[action["type"]]
        label = text("{position}. {name}{printed}", position=position, name=name, printed=action_words(action))
        if action.get("leeghwater") and not state.leeghwater:
            trace.add("{label}: skipped (Leeghwater Project expansion not in play)", label=label)
            continue
        if me.workers() <= 0:
            trace.add("{label}: not tried, no engineer left: the turn ends", label=label)
            break
        turn.use_architect = officers.architect_applies(turn, action, action["type"] in DASHED)
        before_vp, before_eng, before_ops = me.vp, me.workers(), len(turn.ops)
        with trace.section(label):
            outcome = ACTIONS[action["type"]](turn, action)
            if not outcome.done:
                trace.add("not possible: {reason}", reason=outcome.reason)
                turn.use_architect = False
                continue
        turn.use_architect = False
        ops = turn.ops[before_ops:]
        steps.append(Step(action["type"], outcome.target, before_eng - me.workers(), me.vp - before_vp,
                          {"op_indices": list(range(before_ops, len(turn.ops)))}))
        if action["type"] in DASHED:
            trace.add("{name} is in the dashed frame: the turn continues", name=name)
            ending = action["type"]
            continue
        ending = action["type"]
        extra = any(op["op"] == "engineers" and op.get("architect") for op in ops) and action["engineers"] == 1
        if extra:
            trace.add("Battista: the Architect was placed on a one-engineer action: "
                      "this Automa immediately takes a second turn with a new tile")
        return steps, ending, extra
    return steps, ending, False


def human_first_action(state: GameState, human: str):
    """Sekibo: draw a tile from the shared pile for ``human``'s first action of the round.

    The ops flip the tile and mark the draw; nothing of the human's is moved (the human plays the
    action). The decision tells which action of the tile is the first the human's pieces allow,
    checked as if the human were a Medium Automa (it pays credits where an Automa pays VP)."""
    colour = company_colours()[human]
    work = state.copy()
    trace = Trace()
    turn = Turn(work, human, criteria={}, trace=trace)
    actions_tile, flipped = flip(turn, state)
    turn.do({"op": "human_first_action"})
    ops = list(turn.ops)
    probe = work.copy()
    probe.companies[human].automa = True
    probe.companies[human].level = "medium"
    probe_turn = Turn(probe, human, criteria=turn.criteria, trace=trace)
    with trace.section("Sekibo: the tile's actions checked for the human as if it were an Automa"):
        steps, ending, _ = play_tile(probe_turn, actions_tile)
    words = [s.action for s in steps]
    chosen = ending if steps else "bank"
    info = {"tile": actions_tile["tile"], "criteria": flipped, "action": chosen, "target": steps[-1].target if steps else None,
            "steps": words}
    text = (f"{colour.capitalize()} player ({human}), Sekibo's rule: your first action this round is decided by "
            f"Automa tile {actions_tile['tile']}: {', then '.join(w.replace('_', ' ') for w in words) or 'bank'}"
            + (f" ({steps[-1].target})" if steps and steps[-1].target else "") + ".")
    return Decision(automa=human, colour=colour, action="human_first_action", target=chosen, engineers=0, vp_delta=0,
                    steps=[], ops=ops, trace=trace.lines(), tiles={"actions": actions_tile["tile"], "criteria": flipped},
                    instruction=text, level="human", officer=None, human_first_action=info)


def _refill_contracts(turn: Turn) -> None:
    """Base rule: at the start of each turn the Contract Office is refilled if needed."""
    for colour in CONTRACT_COLOURS:
        op = refill_op(turn.state, colour)
        if op:
            turn.do(op)
            turn.trace.add("Contract Office refilled: {colour} [{contracts}]", colour=CONTRACT_KIND[colour],
                           contracts=[c for _, c in op["placed"]])


def action_label(action: dict) -> str:
    """The printed parameters of an action, in words: " (2 engineers, +2, green contract)"."""
    return str(action_words(action))


def action_words(action: dict) -> Text | str:
    """``action_label`` as a trace line's value, said in the page's language ("" for none)."""
    t = action["type"]
    eng = engineers(action["engineers"])
    if t == "production":
        modifier = format(action.get("modifier", 0), "+d")
        return text(" ({engineers}, {modifier}, {colour} contract)", engineers=eng, modifier=modifier,
                    colour=CONTRACT_KIND[action["contract_colour"]])
    if t == "construction":
        area, low = action.get("area_restriction"), action.get("min_conduit_value")
        if area and low:
            extra: Text | str = text(" in the {area} of value >= {value}", area=AREA_LOWER[area], value=low)
        elif area:
            extra = text(" in the {area}", area=AREA_LOWER[area])
        else:
            extra = text(" of value >= {value}", value=low) if low else ""
        return text(" of {structure}{restriction} ({engineers})", structure=A_STRUCTURE[action["structure"]],
                    restriction=extra, engineers=eng)
    if t == "water_management":
        if action.get("flows_immediately"):
            return text(" ({drops}, flowing)", drops=drops(action["drops"]))
        return text(" ({drops})", drops=drops(action["drops"]))
    if t == "contract_office":
        return text(" (discard {colour})", colour=CONTRACT_KIND[action["contract_colour"]])
    if t == "patent_office":
        return text(" ({structure} tile)", structure=STRUCTURE[action["structure"]])
    if t == "machinery_shop":
        return text(" ({machines}, {vp} VP)", machines=pluses([MACHINE[m] for m in action["machinery"]]),
                    vp=action.get("vp_change", 0))
    if t == "workshop":
        return text(" ({segments})", segments=segments(action["steps"]))
    return ""


def instruction(d: Decision) -> str:
    """One sentence for the players, e.g. "Red Automa (usa): build a Conduit on 4B, ..."."""
    return f"{d.colour.capitalize()} Automa ({d.automa}): {summary(d)}"


def summary(d: Decision) -> str:
    """What the Automa does, without saying who: "build a Conduit on 4B, ... (2 engineers, -3 VP in all)."."""
    parts = []
    for s in d.steps:
        ops = [d.ops[i] for i in s.detail.get("op_indices", [])]
        parts.append(_step_words(s, ops))
    vp = f"{'+' if d.vp_delta >= 0 else ''}{d.vp_delta} VP in all" if d.vp_delta else "no VP change"
    words = "; then ".join(parts) + f" ({plural(d.engineers, 'engineer')}, {vp})."
    return words[0].upper() + words[1:]


def _step_words(s: Step, ops: list[Op]) -> str:
    eng = next((op for op in ops if op["op"] == "engineers"), None)
    where = f", {plural(eng['count'], 'engineer')} on the {describe(eng).split(' on the ', 1)[1]}" if eng else ""
    if s.action == "construction":
        build = next((op for op in ops if op["op"] in ("build", "build_private", "external_work")))
        if build["op"] == "build_private":
            return f"build on the Private Building {build['building']}{where}"
        if build["op"] == "external_work":
            return f"fulfil External Work {build['work']} with Spencer's Special tile{where}"
        return f"build {a_name(build['structure'])} on {build['space']}{where}"
    if s.action == "external_work":
        return f"fulfil External Work {s.target.split()[-1]}{where}"
    if s.action == "production":
        energy = next(op["delta"] for op in ops if op["op"] == "energy")
        fulfilled = [str(op["contract"]) for op in ops if op["op"] == "fulfil"]
        return (f"produce {energy} energy through conduit {s.target}"
                + (f" and fulfil contract{'s' if len(fulfilled) > 1 else ''} {', '.join(fulfilled)}" if fulfilled else "")
                + where)
    if s.action == "water_management":
        return f"place water on headstream {s.target}{where}"
    if s.action == "contract_office":
        return f"discard the {s.target} contracts and move energy +2{where}"
    if s.action == "workshop":
        return f"turn the construction wheel {s.target}{where}"
    if s.action == "machinery_shop":
        return f"take {s.target.replace('+', ' and ')}{where}"
    if s.action == "patent_office":
        return f"take technology tile {s.target}{where}"
    return f"score 1 VP at the Bank{where}"


def apply_decision(state: GameState, decision: Decision | dict) -> GameState:
    """The state after ``decision``: its ops replayed on ``state`` (which is not modified)."""
    ops = decision.ops if isinstance(decision, Decision) else decision["ops"]
    return apply_ops(state, ops)
