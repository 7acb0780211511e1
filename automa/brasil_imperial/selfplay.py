"""Whole games with a simulated table: the terminal demo and the randomized tests.

The Autômato's side is the engine's. What only the table knows is simulated and named so: the
players' moves (a random player drops units on the map now and then), what lies under the
exploration tiles, the combat cards' power, the mission cards' objectives, when an Era ends,
the gold cards' VP. One seeded generator drives it all, so a seed replays the same game.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterator

from .ops import apply_ops
from .resolve import combat, reveal
from .state import GameState, dump_cell, hex_key
from .turn import decide

ERA_TURNS = 8            # the simulated table closes an Era every 8 Autômato turns
GAME_TURNS = 24


@dataclass
class Step:
    kind: str            # "automa" or "table"
    state: GameState
    decision: dict | None = None
    lines: tuple[str, ...] = ()
    ops: tuple[dict, ...] = ()          # what was applied: the decision's ops or the table's entries


def table_ops(s: GameState, rng: random.Random) -> tuple[list[dict], str] | None:
    """What the simulated table enters now, or None when nothing is waiting."""
    p = s.pending
    if p is None:
        return None
    if p["kind"] == "explore":
        kind = rng.choice(["flag", "quilombo", "other"])
        return reveal(s, kind, rng.randint(1, 6) if kind == "flag" else 0)
    if p["kind"] == "combat":
        out = combat(s, rng.randint(0, 6) if p["cards"] else 0, rng.randint(1, 10))
        return out.ops, out.text
    kinds = ["construction", "city", "summon", "frame", "product", "other"]
    objectives = [{"objective": n, "kind": k, "ref": "any" if k == "construction" else None}
                  for n, k in enumerate(rng.sample(kinds, 3), start=1)]
    return [{"op": "mission", "era": p["era"], "objectives": objectives}], f"Era {p['era']} mission: {objectives}"


def player_turn(s: GameState, rng: random.Random) -> tuple[list[dict], str] | None:
    """Now and then a player's unit appears on a random land hex (the table moving)."""
    if rng.random() > 0.3:
        return None
    land = [h for h, c in s.cells.items() if c.terrain != "water" and c.building is None and c.tile is None
            and h != s.compass_at and not any(u.at == h for u in s.automa.units.values())]
    if not land:
        return None
    h = rng.choice(sorted(land))
    cell = dump_cell(s.cells[h])
    cell["foes"] = cell.get("foes", []) + [{"owner": s.players[0].name, "vp": rng.randint(1, 3), "fc": rng.randint(1, 3)}]
    return [{"op": "hex", "hex": hex_key(h), "cell": cell}], f"{s.players[0].name}: a unit moves to {hex_key(h)}"


def play(state: GameState, seed: int, turns: int = GAME_TURNS) -> Iterator[Step]:
    rng = random.Random(seed)
    s = state
    done = 0
    while done < turns:
        entered = table_ops(s, rng)
        if entered:
            s = apply_ops(s, entered[0])
            yield Step("table", s, None, (entered[1],), tuple(entered[0]))
            continue
        d = decide(s).to_dict()
        s = apply_ops(s, d["ops"])
        yield Step("automa", s, d, (), tuple(d["ops"]))
        if d.get("needs"):
            continue
        done += 1
        if done % ERA_TURNS == 0 and s.era < 3:
            era = [{"op": "era", "era": s.era + 1}]
            s = apply_ops(s, era)
            yield Step("table", s, None, (f"Era {s.era} begins",), tuple(era))
        moved = player_turn(s, rng) if s.pending is None else None
        if moved:
            s = apply_ops(s, moved[0])
            yield Step("table", s, None, (moved[1],), tuple(moved[0]))
    while s.pending is not None:
        entered = table_ops(s, rng)
        s = apply_ops(s, entered[0])
        yield Step("table", s, None, (entered[1],), tuple(entered[0]))
    gold = [rng.randint(0, 4) for _ in range(s.automa.gold)]
    final = [{"op": "final", "gold_vp": gold, "other_vp": rng.randint(0, 10)}]
    s = apply_ops(s, final)
    yield Step("table", s, None, (f"the end: gold cards worth {gold}",), tuple(final))
