"""Executive officers of Very Hard ("Overpowered") Automas: starting changes and the rules that
shape a whole turn. Rules that change one action live with that action (``production``,
``construction``, ``payment``, ``placement``, ``techtiles``, ``leeghwater``).

Rulebook (004, "Overpowered" Automa): "Automa players receive an Executive Officer tile during
the setup and use the corresponding special ability during the play, following some special
behaviour rules as follows."

- Mahiri Sekibo: "Automa don't use this special ability! Instead, human players must perform
  their first action during each round as if they were an Automa. Draw a new Automa tile and
  follow it to 'decide' which action to perform."
- Tommaso Battista: "If an action listed on the Automa tile that will end the turn (i.e. not
  the actions in the dashed frame) requires 1 single Engineer, Automa will use the 'Architect'
  (if available). After the resolution of the action, Automa will immediately start a second
  turn, using a new Automa tile."
- Gennaro Grasso: "Modify the order Automa checks the columns on the Action tile as follows:
  Start with the second column to check for a Construction action, then the first and third
  column."
"""
from __future__ import annotations

from automa.common.trace import Trace

from .data import company_colours, components
from .state import Company, GameState
from .turn import Turn


def apply_start(company: Company) -> None:
    """An officer's starting changes for an Automa (components.json ``executive_officers.starting``):
    Battista's Architect replaces an engineer, Audia's Excamixers replace the machinery, Krylov and
    Spencer take their Special tile, Sekibo's 3 extra credits are 3 VP (an Automa has no credits)."""
    start = components().officers()[company.officer]["starting"]
    if "engineers" in start:
        company.engineers = start["engineers"]
        company.architect = bool(start.get("architect"))
    for kind in ("excavators", "mixers", "excamixers"):
        if kind in start:
            setattr(company, kind, start[kind])
    if "special_tile" in start:
        company.tiles.append(start["special_tile"])
    company.vp += start.get("credits", 0)


def in_play(state: GameState, officer: str) -> bool:
    return any(c.has_officer(officer) for c in state.companies.values())


def action_order(turn: Turn, actions: list[dict]) -> list[tuple[int, dict]]:
    """(printed position, action) in the order they are tried: printed order, or Grasso's 2-1-3 (the
    construction actions of the middle column first, then the others in printed order)."""
    numbered = list(enumerate(actions, 1))
    if not turn.me.has_officer("grasso"):
        return numbered
    turn.trace.add("Grasso: the construction actions (second column) are checked first, then the first and third columns")
    return [p for p in numbered if p[1]["type"] == "construction"] + [p for p in numbered if p[1]["type"] != "construction"]


def architect_applies(turn: Turn, action: dict, dashed: bool) -> bool:
    """Battista's Automa places the Architect on a turn-ending action printed with 1 engineer."""
    me = turn.me
    return me.has_officer("battista") and me.architect and not dashed and action["engineers"] == 1


def human_first_action_due(state: GameState, company: str) -> bool:
    """Whether ``company`` is a human whose first action of the round Sekibo's tile still has to decide."""
    c = state.companies.get(company)
    return bool(c and not c.automa and in_play(state, "sekibo") and company not in state.human_first_actions)


def human_first_action(state: GameState, human: str):
    """Sekibo: draw a tile from the shared pile for ``human``'s first action of the round.

    The ops flip the tile and mark the draw; nothing of the human's is moved (the human plays the
    action). The decision tells which action of the tile is the first the human's pieces allow,
    checked as if the human were a Medium Automa (it pays credits where an Automa pays VP)."""
    from .engine import Decision, flip, play_tile          # the engine imports this module
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
