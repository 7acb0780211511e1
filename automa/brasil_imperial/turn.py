"""The Autômato's turn: the action phase, then the movement phase while it has units on the map
(seed 001, "Turno do Autômato"). ``decide`` is pure: it works on a copy, applying each op as it
goes, and returns the ops ``apply`` replays."""
from __future__ import annotations

from automa.common.decision import Decision
from automa.common.errors import StateError

from . import action, movement
from .setup import compass_reasons
from .state import GameState
from .steps import Work

PENDING_TEXT = {
    "explore": "enter what the exploration tile at {hex} is first",
    "combat": "enter the result of the combat at {hex} first",
    "mission": "reveal the Autômato's Era {era} mission card and enter its objectives first",
}


def decide(state: GameState) -> Decision:
    if state.over:
        raise StateError("the game is over")
    if state.pending is not None:
        raise StateError(PENDING_TEXT[state.pending["kind"]].format(**state.pending))
    w = Work(state)
    if state.turns == 0 and state.action_fresh:
        for line in compass_reasons(state):
            w.trace.add(line)
    w.trace.add("turn {turn}, Era {era}", turn=state.turns + 1, era=state.era)
    try:
        action.phase(w)
    except action.NeedsMission as needed:
        era = needed.args[0]
        w.trace.add("the row asks for an objective of the Era {era} mission card, still face down", era=era)
        return Decision(automa="automa", action="mission", target=f"era {era}",
                        instruction=f"Reveal the Autômato's Era {era} mission card and enter its objectives; "
                                    "then ask for the Autômato's turn again.",
                        trace=w.trace.lines(), ops=[{"op": "await_mission", "era": era}], details={"needs": "mission", "era": era})
    movement.phase(w)
    w.do({"op": "end_turn"})
    d = w.details
    return Decision(automa="automa", action=d.get("action", "gold"), target=d.get("action_target"),
                    instruction="\n".join(w.lines), trace=w.trace.lines(), ops=w.ops,
                    details={**d, "compass": {"at": f"{w.state.compass_at[0]},{w.state.compass_at[1]}",
                                              "heading": w.state.heading},
                             "pending": w.state.pending})
