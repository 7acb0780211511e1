"""Executive officers of Very Hard ("Overpowered") Automas: starting changes and the rules that
shape a whole turn. Rules that change one action live with that action (``production``,
``construction``, ``payment``, ``placement``, ``techtiles``, ``leeghwater``).

Rulebook (004, "Overpowered" Automa): "Automa players receive an Executive Officer tile during
the setup and use the corresponding special ability during the play, following some special
behaviour rules as follows."

- Mahiri Sekibo: "Automa don't use this special ability! Instead, human players must perform
  their first action during each round as if they were an Automa. Draw a new Automa tile and
  follow it to 'decide' which action to perform." (The draw: ``engine.human_first_action``.)
- Tommaso Battista: "If an action listed on the Automa tile that will end the turn (i.e. not
  the actions in the dashed frame) requires 1 single Engineer, Automa will use the 'Architect'
  (if available). After the resolution of the action, Automa will immediately start a second
  turn, using a new Automa tile."
- Gennaro Grasso: "Modify the order Automa checks the columns on the Action tile as follows:
  Start with the second column to check for a Construction action, then the first and third
  column."
"""
from __future__ import annotations

from .data import components
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
