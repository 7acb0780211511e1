"""Ops: the primitive, JSON-plain changes of a turn, replayed by ``apply``.

The Autômato's turn is a list of ops (decks, bonuses, what it builds and summons, the compass,
moves, exploring, attacking); what the players enter at the table is ops too (a revealed tile,
a combat's outcome, a mission card, the Era, a hex of the map). Each op is checked against the
state it applies to and the state after all of them is checked whole (``state.check``), so a
bad op raises StateError naming the op and nothing is applied.
"""
from __future__ import annotations

from typing import Any, Callable

from automa.common import hexgrid
from automa.common.errors import StateError
from automa.common.ops import replay

from .state import (AUTOMA, MAX_ADDER, MAX_COMBAT_CARDS, TILE_KINDS, Building, GameState, Hex, check, hex_key,
                    load_cell, parse_hex, parse_mission)


def apply_ops(state: GameState, ops: Any) -> GameState:
    """A new state with ``ops`` applied in order (``automa.common.ops.replay``); ``state`` is left untouched."""
    return replay(state, ops, HANDLERS, check, over=lambda s, op: s.over)


def _hex(s: GameState, op: dict, key: str = "hex") -> Hex:
    h = parse_hex(op.get(key), key)
    if h not in s.cells:
        raise StateError(f"{key}: {hex_key(h)} is not on the map")
    return h


def _no_pending(s: GameState) -> None:
    if s.pending is not None:
        raise StateError(f"the players must first enter the {s.pending['kind']} result")


def _pending(s: GameState, kind: str) -> dict:
    if s.pending is None or s.pending.get("kind") != kind:
        raise StateError(f"no {kind} is waiting for its result")
    return s.pending


def _count(op: dict, key: str, lo: int, hi: int) -> int:
    v = op.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise StateError(f"{key}: a whole number {lo}-{hi}, got {v!r}")
    return v


# -- the decks ------------------------------------------------------------------------------
def op_action_start(s: GameState, op: dict) -> None:
    if not s.action_fresh:
        raise StateError("the action pile was turned face up already")
    s.action_fresh = False


def op_action_draw(s: GameState, op: dict) -> None:
    if s.action_fresh or s.action_deck.top != op.get("card"):
        raise StateError(f"the top action card is {s.action_deck.top}, not {op.get('card')!r}")
    _, s.action_deck = s.action_deck.draw()


def op_action_reshuffle(s: GameState, op: dict) -> None:
    if s.action_deck.draw_pile:
        raise StateError("the action pile is not empty")
    s.action_deck = s.action_deck.rebuilt()


def op_movement_start(s: GameState, op: dict) -> None:
    if s.movement_started:
        raise StateError("the movement pile was turned face up already")
    s.movement_started, s.movement_fresh = True, True


def op_movement_first(s: GameState, op: dict) -> None:
    if not s.movement_fresh:
        raise StateError("the movement pile's top card was read already")
    s.movement_fresh = False


def op_movement_draw(s: GameState, op: dict) -> None:
    if not s.movement_started or s.movement_fresh or s.movement_deck.top != op.get("card"):
        raise StateError(f"the top movement card is {s.movement_deck.top}, not {op.get('card')!r}")
    _, s.movement_deck = s.movement_deck.draw()


def op_movement_reshuffle(s: GameState, op: dict) -> None:
    """Every movement card shuffled into a new face-up pile: when the pile ran out (its top is
    read at once) or by card 7's shuffle icon (``fresh``: the new pile is read next turn)."""
    if not op.get("fresh") and s.movement_deck.draw_pile:
        raise StateError("the movement pile is not empty")
    s.movement_deck = s.movement_deck.rebuilt()
    s.movement_fresh = bool(op.get("fresh"))


# -- what the action phase takes ------------------------------------------------------------
def op_bonus(s: GameState, op: dict) -> None:
    kind = op.get("kind")
    if kind == "adder":
        s.automa.adder = _count(op, "to", 0, MAX_ADDER)
    elif kind == "combat":
        s.automa.combat_cards = _count(op, "to", 0, MAX_COMBAT_CARDS)
    else:
        raise StateError("kind: adder or combat")


def op_gold(s: GameState, op: dict) -> None:
    if op.get("to") != s.automa.gold + 1:
        raise StateError(f"the Autômato has {s.automa.gold} gold cards, the next makes {s.automa.gold + 1}")
    s.automa.gold += 1


def _free_or_own(s: GameState, h: Hex, over: bool) -> None:
    cell = s.cells[h]
    if over:
        b = cell.building
        if not b or b.owner != AUTOMA or b.kind != "construction":
            raise StateError(f"{hex_key(h)} holds no construction of the Autômato to build over")
    elif not cell.free():
        raise StateError(f"{hex_key(h)} is not a free land space")
    if not any(n in s.cells and s.cells[n].building and s.cells[n].building.owner == AUTOMA and n != h
               for n in hexgrid.neighbours(h)) and not over:
        raise StateError(f"{hex_key(h)} is not adjacent to the Autômato's empire")


def op_build(s: GameState, op: dict) -> None:
    h, cid = _hex(s, op), op.get("construction")
    if cid not in s.board.ids("constructions"):
        raise StateError(f"unknown construction {cid!r}")
    con = s.board.construction(cid)
    _free_or_own(s, h, bool(op.get("over")))
    if not op.get("over") and s.cells[h].terrain != con.terrain:
        raise StateError(f"{cid} goes on {con.terrain}, {hex_key(h)} is {s.cells[h].terrain}")
    s.cells[h].building = Building(AUTOMA, "construction", cid, con.vp, con.era)


def op_city(s: GameState, op: dict) -> None:
    h, cid = _hex(s, op), op.get("city")
    if cid not in s.board.ids("cities"):
        raise StateError(f"unknown city {cid!r}")
    _free_or_own(s, h, False)
    s.cells[h].building = Building(AUTOMA, "city", cid, next(c.vp for c in s.board.cities if c.id == cid))


def op_summon(s: GameState, op: dict) -> None:
    uid, h = op.get("unit"), _hex(s, op)
    if uid not in s.automa.units or s.automa.units[uid].at is not None:
        raise StateError(f"unit {uid!r} is not in the stock")
    s.automa.units[uid].at = h
    s.compass_at = h


def op_frame(s: GameState, op: dict) -> None:
    fid = op.get("frame")
    if fid not in s.board.ids("frames") or fid in s.automa.frames + s.taken_frames:
        raise StateError(f"frame {fid!r} is not available")
    s.automa.frames.append(fid)


def op_product(s: GameState, op: dict) -> None:
    pid = op.get("product")
    if pid not in s.board.ids("products") or pid in s.automa.products:
        raise StateError(f"product {pid!r} is unknown or manufactured already")
    s.automa.products.append(pid)


def op_await_mission(s: GameState, op: dict) -> None:
    _no_pending(s)
    era = _count(op, "era", 1, 3)
    if s.automa.missions[era] is not None:
        raise StateError(f"the Era {era} mission card is revealed already")
    s.pending = {"kind": "mission", "era": era}


# -- the movement phase ---------------------------------------------------------------------
def op_compass(s: GameState, op: dict) -> None:
    s.heading = _count(op, "heading", 0, 5)
    if op.get("at") is not None:
        s.compass_at = _hex(s, op, "at")


def op_lie(s: GameState, op: dict) -> None:
    uid = op.get("unit")
    if uid not in s.group():
        raise StateError(f"unit {uid!r} is not standing with the compass")
    s.automa.units[uid].lying = s.turns


def op_stand(s: GameState, op: dict) -> None:
    """The last unit to lie down stands up and takes the compass (no standing unit is left)."""
    uid = op.get("unit")
    u = s.automa.units.get(uid) if isinstance(uid, str) else None
    if u is None or u.lying is None:
        raise StateError(f"unit {uid!r} is not lying on the map")
    u.lying = None
    s.compass_at = u.at


def op_undominate(s: GameState, op: dict) -> None:
    b = s.cells[_hex(s, op)].building
    if not b or not b.dominated:
        raise StateError("no dominated construction there")
    b.dominated = False


def op_move(s: GameState, op: dict) -> None:
    to = _hex(s, op, "to")
    if hexgrid.distance(s.compass_at, to) != 1:
        raise StateError(f"{hex_key(to)} is not adjacent to the compass's hex {hex_key(s.compass_at)}")
    for uid in s.group():
        s.automa.units[uid].at = to
    s.compass_at = to


def op_explore(s: GameState, op: dict) -> None:
    _no_pending(s)
    h = _hex(s, op)
    tile = s.cells[h].tile
    if h != s.compass_at or tile is None or not tile.face_down:
        raise StateError(f"no face-down tile under the compass at {hex_key(h)}")
    tile.face_down = False
    s.pending = {"kind": "explore", "hex": hex_key(h)}


def op_flag(s: GameState, op: dict) -> None:
    h = _hex(s, op)
    tile = s.cells[h].tile
    if tile is None or tile.kind != "flag" or tile.face_down:
        raise StateError(f"no revealed flag at {hex_key(h)}")
    s.cells[h].tile = None
    s.automa.flags += 1


def op_attack(s: GameState, op: dict) -> None:
    _no_pending(s)
    h = _hex(s, op)
    cards = _count(op, "cards", 0, min(2, s.automa.combat_cards))
    attacker = op.get("attacker", AUTOMA)
    if attacker == AUTOMA and h != s.compass_at:
        raise StateError("the Autômato attacks where its compass stands")
    if attacker != AUTOMA and attacker not in s.player_names():
        raise StateError(f"attacker: automa or a player, not {attacker!r}")
    s.pending = {"kind": "combat", "hex": hex_key(h), "cards": cards, "attacker": attacker}


def op_end_turn(s: GameState, op: dict) -> None:
    s.turns += 1


# -- what the players enter -----------------------------------------------------------------
def op_reveal(s: GameState, op: dict) -> None:
    p = _pending(s, "explore")
    h = parse_hex(p["hex"], "pending.hex")
    kind = op.get("kind")
    if kind not in TILE_KINDS:
        raise StateError(f"kind: one of {', '.join(TILE_KINDS)}")
    s.cells[h].tile.kind, s.cells[h].tile.fc = kind, _count(op, "fc", 0, 99) if kind == "flag" else 0
    s.pending = None


def op_discard_tile(s: GameState, op: dict) -> None:
    h = _hex(s, op)
    if s.cells[h].tile is None or s.cells[h].tile.face_down:
        raise StateError(f"no revealed tile at {hex_key(h)}")
    s.cells[h].tile = None


def op_discard_combat(s: GameState, op: dict) -> None:
    p = _pending(s, "combat")
    s.automa.combat_cards = max(0, s.automa.combat_cards - p["cards"])


def op_defeated(s: GameState, op: dict) -> None:
    """The Autômato's units on the combat's hex go back to its stock; a construction they held
    dominated is the player's again ("fique dominada até que o jogador consiga derrotar aquela
    Unidade")."""
    h = parse_hex(_pending(s, "combat")["hex"], "pending.hex")
    for u in s.automa.units.values():
        if u.at == h:
            u.at, u.lying = None, None
    b = s.cells[h].building
    if b and b.dominated:
        b.dominated = False
    if s.compass_at == h:
        s.compass_at = s.automa_capital()


def op_foes_defeated(s: GameState, op: dict) -> None:
    h = parse_hex(_pending(s, "combat")["hex"], "pending.hex")
    s.cells[h].foes = []


def op_dominate(s: GameState, op: dict) -> None:
    h = parse_hex(_pending(s, "combat")["hex"], "pending.hex")
    b = s.cells[h].building
    if not b or b.owner == AUTOMA or b.kind != "construction":
        raise StateError(f"no player's construction at {hex_key(h)} to dominate")
    b.dominated, b.resources = True, 0


def op_combat_done(s: GameState, op: dict) -> None:
    _pending(s, "combat")
    s.pending = None


def op_mission(s: GameState, op: dict) -> None:
    era = _count(op, "era", 1, 3)
    s.automa.missions[era] = parse_mission(op.get("objectives"), "objectives")
    if s.pending and s.pending.get("kind") == "mission" and s.pending.get("era") == era:
        s.pending = None


def op_objective(s: GameState, op: dict) -> None:
    era = _count(op, "era", 1, 3)
    mission = s.automa.missions[era]
    if mission is None:
        raise StateError(f"the Era {era} mission card is still face down")
    mission[_count(op, "index", 1, len(mission)) - 1].done = bool(op.get("done", True))


def op_era(s: GameState, op: dict) -> None:
    era = _count(op, "era", 1, 3)
    if era != s.era + 1:
        raise StateError(f"the Era goes from {s.era} to {s.era + 1}")
    s.era = era


def op_hex(s: GameState, op: dict) -> None:
    """A hex of the table as the players see it now (their buildings, units, tiles)."""
    h = _hex(s, op)
    before = s.cells[h].building
    cell = load_cell(op.get("cell"), f"cell {hex_key(h)}", [AUTOMA] + s.player_names(), s.board)
    after = cell.building
    was = (before.ref, before.owner) if before and before.kind == "capital" else None
    now = (after.ref, after.owner) if after and after.kind == "capital" else None
    if was != now:
        raise StateError("a capital stays where the map has it")
    s.cells[h] = cell


def op_taken(s: GameState, op: dict) -> None:
    for key, known in (("frames", s.board.ids("frames")), ("cities", s.board.ids("cities"))):
        v = op.get(key, [])
        if not isinstance(v, list) or any(x not in known for x in v):
            raise StateError(f"{key}: from {', '.join(known)}")
    s.taken_frames, s.taken_cities = list(dict.fromkeys(op.get("frames", []))), list(dict.fromkeys(op.get("cities", [])))


def op_final(s: GameState, op: dict) -> None:
    """The end: the gold cards' VP as revealed and the VP the table counted besides."""
    values = op.get("gold_vp")
    if not isinstance(values, list) or len(values) != s.automa.gold or any(
            isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 99 for x in values):
        raise StateError(f"gold_vp: the VP of each of the Autômato's {s.automa.gold} gold cards (0-99)")
    s.automa.gold_vp = list(values)
    s.automa.other_vp = _count(op, "other_vp", 0, 999)
    s.over = True


HANDLERS: dict[str, Callable[[GameState, dict], None]] = {
    "action_start": op_action_start, "action_draw": op_action_draw, "action_reshuffle": op_action_reshuffle,
    "movement_start": op_movement_start, "movement_first": op_movement_first, "movement_draw": op_movement_draw,
    "movement_reshuffle": op_movement_reshuffle, "bonus": op_bonus, "gold": op_gold, "build": op_build,
    "city": op_city, "summon": op_summon, "frame": op_frame, "product": op_product,
    "await_mission": op_await_mission, "compass": op_compass, "lie": op_lie, "stand": op_stand,
    "undominate": op_undominate, "move": op_move, "explore": op_explore, "flag": op_flag, "attack": op_attack,
    "end_turn": op_end_turn, "reveal": op_reveal, "discard_tile": op_discard_tile,
    "discard_combat": op_discard_combat, "defeated": op_defeated, "foes_defeated": op_foes_defeated,
    "dominate": op_dominate, "combat_done": op_combat_done, "mission": op_mission, "objective": op_objective,
    "era": op_era, "hex": op_hex, "taken": op_taken, "final": op_final,
}
