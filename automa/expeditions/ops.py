"""Ops: the primitive, JSON-plain changes a turn makes, replayed by ``apply``.

An Automa decision is a list of ops (reshuffle, draw, advance, glory, sweep, move, explore,
vanquish, vanquish_lair, end_turn); what happens at the table on the player's side is entered
as ops too (player_move, reveal, player_vanquish, player_glory, end_turn, figures). Each op is
checked against the state it applies to, and the state after all of them is checked whole, so
a bad op raises :class:`StateError` naming the op and the problem, and nothing is applied.
"""
from __future__ import annotations

from typing import Any, Callable

from automa.common.errors import StateError
from automa.common.ops import replay

from .data import MECH_REGION, layout, levels
from .state import (LAIR_TILE, LAIR_TOKEN, MAX_STACK, PLAYER_GLORY, PLAYERS, GameState, check,
                    parse_figures, token)
from .setup import SET_ASIDE


def apply_ops(state: GameState, ops: Any) -> GameState:
    """A new state with ``ops`` applied in order (``automa.common.ops.replay``); ``state`` is left
    untouched. Once the game is over only the player's figures are entered."""
    return replay(state, ops, HANDLERS, check, over=lambda s, op: s.turn == "over" and op["op"] != "figures")


def _automa_turn(s: GameState) -> None:
    if s.turn != "automa":
        raise StateError("it is not the Automa's turn")


def _mech(s: GameState, op: dict) -> str:
    mech = op.get("mech")
    if mech not in MECH_REGION:
        raise StateError(f"mech must be north or central, got {mech!r}")
    _automa_turn(s)
    return mech


def _location_id(op: dict, key: str = "location") -> str:
    pid = op.get(key)
    if pid not in layout().region_of:
        raise StateError(f"{key}: unknown location {pid!r}")
    return pid


def _mech_at(s: GameState, op: dict) -> tuple[str, str]:
    mech, pid = _mech(s, op), _location_id(op)
    if s.mechs[mech] != pid:
        raise StateError(f"the {mech} mech is on {s.mechs[mech]}, not {pid}")
    return mech, pid


def op_reshuffle(s: GameState, op: dict) -> None:
    _automa_turn(s)
    if s.deck.draw_pile:
        raise StateError("the decision deck is not empty")
    s.deck = s.deck.rebuilt(set_aside=SET_ASIDE)


def op_draw(s: GameState, op: dict) -> None:
    _automa_turn(s)
    if not s.deck.draw_pile or s.deck.top != op.get("card"):
        raise StateError(f"the top decision card is {s.deck.top}, not {op.get('card')!r}")
    s.last_card, s.deck = s.deck.draw()


def op_advance(s: GameState, op: dict) -> None:
    _automa_turn(s)
    expected = min(s.progress + 1, levels()[s.level].last_space)
    if op.get("to") != expected:
        raise StateError(f"the progress token goes from {s.progress} to {expected}, not {op.get('to')!r}")
    s.progress = expected


def op_glory(s: GameState, op: dict) -> None:
    _automa_turn(s)
    if op.get("token") != s.glory + 1:
        raise StateError(f"the next glory token is {s.glory + 1}, not {op.get('token')!r}")
    s.glory += 1


def op_sweep(s: GameState, op: dict) -> None:
    mech = _mech(s, op)
    adjacent = layout().adjacent_card_spaces(s.mechs[mech])
    if op.get("spaces") != adjacent:
        raise StateError(f"the cards adjacent to {s.mechs[mech]} are {adjacent}, not {op.get('spaces')!r}")
    s.swept += len(adjacent)


def op_move(s: GameState, op: dict) -> None:
    mech, pid = _mech(s, op), _location_id(op, "to")
    if layout().region_of[pid] != MECH_REGION[mech]:
        raise StateError(f"the {mech} mech stays in the {MECH_REGION[mech]} region, {pid} is not in it")
    if pid == s.player_at:
        raise StateError(f"{pid} is the player's location, which the Automa's mechs skip (E2)")
    s.mechs[mech] = pid


def op_explore(s: GameState, op: dict) -> None:
    _, pid = _mech_at(s, op)
    loc = s.locations[pid]
    if not loc.map_token:
        raise StateError(f"{pid} has no map token")
    loc.map_token = False
    s.automa_maps += 1
    if not loc.face_up:
        loc.face_up, loc.awaiting_reveal = True, True


def op_vanquish(s: GameState, op: dict) -> None:
    _, pid = _mech_at(s, op)
    loc = s.locations[pid]
    count = op.get("count")
    available = len(loc.bag_corruption())
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= min(3, available):
        raise StateError(f"{pid} has {available} corruption tokens (the 20 ignored); cannot take {count!r}")
    taken = loc.bag_corruption()[:count]
    for t in taken:
        loc.corruption.remove(t)
    s.automa_corruption.extend(taken)


def op_vanquish_lair(s: GameState, op: dict) -> None:
    _, pid = _mech_at(s, op)
    loc = s.locations[pid]
    if not loc.lair_alone():
        raise StateError(f"{pid} does not hold the 20-value token alone")
    loc.corruption = []
    s.automa_corruption.append(LAIR_TOKEN)


def op_end_turn(s: GameState, op: dict) -> None:
    """Pass the turn on. The end: after the turn in which the Automa places its 8th glory token
    (or the player their 4th), everyone, the one who triggered it included, takes one final turn;
    the one who triggered takes the last (E8)."""
    who = op.get("who")
    if who not in PLAYERS or s.turn != who:
        raise StateError(f"it is the {s.turn}'s turn, not {who!r}'s")
    s.turns += 1
    other = "automa" if who == "player" else "player"
    if s.final_turns:
        s.final_turns.pop(0)
        s.turn = s.final_turns[0] if s.final_turns else "over"
        return
    triggered = s.glory == 8 if who == "automa" else s.player_glory == PLAYER_GLORY
    if triggered and s.end_trigger is None:
        s.end_trigger, s.final_turns = who, [other, who]
    s.turn = other


def op_player_move(s: GameState, op: dict) -> None:
    """The player's MOVE: to an unoccupied location; onto a face-down one the player takes its
    map token and flips it (its corruption is entered by ``reveal``)."""
    pid = _location_id(op, "to")
    if s.turn != "player":
        raise StateError("it is not the player's turn")
    if pid in s.mechs.values():
        raise StateError(f"{pid} holds an Automa mech; the player moves to unoccupied locations")
    if pid == s.player_at:
        raise StateError(f"the player's mech is on {pid} already; MOVE goes to another location")
    s.player_at = pid
    loc = s.locations[pid]
    if not loc.face_up:
        loc.map_token = False
        s.player_maps += 1
        loc.face_up, loc.awaiting_reveal = True, True


def op_reveal(s: GameState, op: dict) -> None:
    """What a flipped tile shows: its number and the corruption drawn from the bag onto it, top
    first (location 20 takes the 20-value token instead of the bag). A South tile's number may
    be entered the same way, without corruption."""
    pid = _location_id(op)
    loc = s.locations[pid]
    tile = op.get("tile")
    if isinstance(tile, bool) or not isinstance(tile, int) or not 1 <= tile <= 20:
        raise StateError(f"tile: a location number 1-20, got {tile!r}")
    raw = op.get("tokens", [])
    if not isinstance(raw, list) or len(raw) > MAX_STACK:
        raise StateError(f"tokens: a list of at most {MAX_STACK} tokens")
    tokens = [token(t, f"tokens[{i}]") for i, t in enumerate(raw)]
    if any(t.is_lair for t in tokens):
        raise StateError("tokens: the 20-value token is placed by the tile number 20, not drawn")
    if loc.awaiting_reveal:
        if tile == LAIR_TILE and tokens:
            raise StateError("location 20 takes the 20-value token instead of drawing from the bag")
        if tile != LAIR_TILE and not tokens and s.bag() > 0:
            raise StateError(f"{pid}: corruption is drawn until it reaches the location's level; enter the tokens")
        loc.corruption = [LAIR_TOKEN] if tile == LAIR_TILE else tokens
        loc.tile, loc.awaiting_reveal = tile, False
    elif layout().region_of[pid] == "south" and loc.tile is None and not tokens:
        loc.tile = tile
    else:
        raise StateError(f"{pid} is not waiting for its tile to be entered")


def op_player_vanquish(s: GameState, op: dict) -> None:
    """The player's VANQUISH: the top ``count`` tokens at the player's location (paying for them
    is the player's business)."""
    if s.turn != "player" or s.player_at is None:
        raise StateError("the player vanquishes on their turn, at their mech's location")
    loc = s.locations[s.player_at]
    count = op.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= len(loc.corruption):
        raise StateError(f"{s.player_at} has {len(loc.corruption)} corruption tokens; cannot take {count!r}")
    s.player_corruption.extend(loc.corruption[:count])
    del loc.corruption[:count]


def op_player_glory(s: GameState, op: dict) -> None:
    if s.turn != "player":
        raise StateError("the player boasts on their turn")
    if s.player_glory >= PLAYER_GLORY:
        raise StateError(f"the player has placed all {PLAYER_GLORY} glory tokens")
    s.player_glory += 1


def op_figures(s: GameState, op: dict) -> None:
    if s.turn != "over":
        raise StateError("the player's figures are entered when the game is over")
    s.figures = parse_figures(op.get("figures"))


HANDLERS: dict[str, Callable[[GameState, dict], None]] = {
    "reshuffle": op_reshuffle, "draw": op_draw, "advance": op_advance, "glory": op_glory,
    "sweep": op_sweep, "move": op_move, "explore": op_explore, "vanquish": op_vanquish,
    "vanquish_lair": op_vanquish_lair, "end_turn": op_end_turn, "player_move": op_player_move,
    "reveal": op_reveal, "player_vanquish": op_player_vanquish, "player_glory": op_player_glory,
    "figures": op_figures,
}
