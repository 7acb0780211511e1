"""The Automa's turn: its five steps in the seed's order (seed 003, "Turno da Automa").

1. Check the deck: when the decision deck is empty, reshuffle every card (the 2 set aside
   included) into a new deck and set its top 2 aside again, unseen.
2. Draw the top decision card.
3. Advance the progress token: with the progress icon, 1 space (it stops on the last space).
   Reaching a glory space, the Automa takes its next glory token (1-8 in order) onto Basecamp.
4. North mech actions.  5. Central mech actions  (see :mod:`.mechs`).

``decide`` is pure: it works on a copy, applying each op as it goes so a later step sees
what an earlier one did (the glory taken in step 3 counts for the mechs' target lines).
"""
from __future__ import annotations

from automa.common.decision import Decision
from automa.common.errors import StateError
from automa.common.trace import Trace, text

from .data import MECHS, cards, levels
from .mechs import MechPlan, plan
from .ops import apply_ops
from .state import GameState

MECH_NAMES = {"north": text("North mech"), "central": text("Central mech")}   # str() for a str


def decide(state: GameState) -> Decision:
    if state.turn != "automa":
        raise StateError("it is the player's turn: record it first (on the page, or `apply` a decision "
                         "whose ops end with {\"op\": \"end_turn\", \"who\": \"player\"}); the Automa decides after"
                         if state.turn == "player" else "the game is over")
    if state.awaiting():
        raise StateError("enter what was revealed on " + ", ".join(state.awaiting())
                         + " first (tile number and corruption)")
    trace, ops, lines = Trace(), [], []
    s = state

    def do(*new: dict) -> None:
        nonlocal s
        s = apply_ops(s, list(new))
        ops.extend(new)

    with trace.section("1. check the decision deck"):
        if s.deck.draw_pile:
            left = len(s.deck.draw_pile)
            # two calls, not one conditional argument: the extraction would glue both templates together
            if left > 1:
                trace.add("{left} cards left: no reshuffle", left=left)
            else:
                trace.add("{left} card left: no reshuffle", left=left)
        else:
            trace.add("empty: every card, the 2 set aside included, is shuffled into a new deck; 2 set aside again")
            do({"op": "reshuffle"})
            lines.append("Reshuffle all 14 decision cards and set the top 2 aside unseen.")
    card = cards()[s.deck.top]
    with trace.section("2. draw a decision card"):
        trace.add("card {card}", card=card.id)
        do({"op": "draw", "card": card.id})
    lines.append(f"Draw decision card {card.id}.")
    with trace.section("3. progress"):
        _progress(s, card.progress, trace, lines, do)
    mechs: dict[str, dict] = {}
    for number, mech in enumerate(MECHS, start=4):
        with trace.section("{number}. {mech} on {location}", number=number, mech=MECH_NAMES[mech],
                           location=s.mechs[mech]):
            p = plan(s, mech, card.mech(mech), trace)
        do(*_mech_ops(p))
        told = instruction(p, s)
        lines.append(f"{MECH_NAMES[mech]!s}: {told}")
        taken = s.automa_corruption[len(s.automa_corruption) - p.take:] if p.take else []
        mechs[mech] = {"from": p.start, "to": p.to, "action": p.action, "sweep": list(p.sweep),
                       "take": p.take, "taken": [t.to_dict() for t in taken], "steps": p.steps,
                       "instruction": told}
    do({"op": "end_turn", "who": "automa"})
    if s.end_trigger == "automa" and state.end_trigger is None:
        trace.add("the Automa placed its 8th glory token: the player, then the Automa, take one final turn")
        lines.append("The Automa has placed its 8th glory token: the end is triggered; "
                     "you take one final turn, then the Automa takes its last.")
    elif s.turn == "over":
        lines.append("That was the Automa's final turn: the game is over.")
    elif s.end_trigger == "player" and s.final_turns == ["player"]:
        trace.add("the player triggered the end: this was the Automa's final turn, the player takes the last")
        lines.append("That was the Automa's final turn: you take the last turn of the game.")
    acts = [m["action"] for m in mechs.values() if m["action"] != "move"]
    return Decision(automa="automa", action=", ".join(acts) or "move", target=f"card {card.id}",
                    instruction="\n".join(lines), trace=trace.lines(), ops=ops,
                    details={"card": card.id, "progress": s.progress, "glory": s.glory, "mechs": mechs,
                             "turn_after": s.turn})


def _progress(s: GameState, icon: bool, trace: Trace, lines: list[str], do) -> None:
    level = levels()[s.level]
    if not icon:
        trace.add("no progress icon: the token stays on space {space}", space=s.progress)
        return
    if s.progress == level.last_space:
        trace.add("progress icon, but the token is on the last space ({space}); it stays", space=s.progress)
        return
    to = s.progress + 1
    trace.add("progress icon: the token advances to space {space}", space=to)
    lines.append(f"Advance the progress token to space {to}.")
    new = [{"op": "advance", "to": to}]
    if to in level.glory_spaces:
        token = s.glory + 1
        trace.add("space {space} is a glory space: the Automa takes glory token {token} onto Basecamp",
                  space=to, token=token)
        new.append({"op": "glory", "token": token})
        lines.append(f"Glory space: put the Automa's glory token {token} on the top-left corner of Basecamp.")
    do(*new)        # together: a state is whole only with the glory its token has reached


def _mech_ops(p: MechPlan) -> list[dict]:
    out: list[dict] = []
    if p.sweep:
        out.append({"op": "sweep", "mech": p.mech, "spaces": list(p.sweep)})
    if p.to != p.start:
        out.append({"op": "move", "mech": p.mech, "to": p.to})
    if p.action == "explore":
        out.append({"op": "explore", "mech": p.mech, "location": p.to})
    elif p.action == "vanquish_lair":
        out.append({"op": "vanquish_lair", "mech": p.mech, "location": p.to})
    elif p.action == "vanquish":
        out.append({"op": "vanquish", "mech": p.mech, "location": p.to, "count": p.take})
    return out


def instruction(p: MechPlan, after: GameState) -> str:
    """What the player does at the table for one mech, in a sentence or two."""
    parts = []
    if p.sweep:
        parts.append("sweep the face-up cards on " + ", ".join(p.sweep) + " to the sweep pile and refill them")
    where = f"stay on {p.to}" if p.to == p.start else f"move to {p.to}"
    if p.action == "explore":
        parts.append(f"{where}, take its map token for the Automa, flip the tile and draw corruption from the bag "
                     "until it reaches the location's level (location 20: its 20-value token); enter what was revealed")
    elif p.action == "vanquish_lair":
        parts.append(f"{where} and give the Automa the 20-value corruption token")
    elif p.action == "vanquish":
        taken = after.automa_corruption[len(after.automa_corruption) - p.take:]
        parts.append(f"{where} and give the Automa the top {p.take} corruption token"
                     f"{'s' if p.take > 1 else ''} ({', '.join(t.label() for t in taken)})")
    else:
        parts.append(f"{where} ({p.steps} location{'s' if p.steps != 1 else ''}, no target)")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."
