"""The primitive state changes every decision (and every move a player reports) is made of.

An op is a plain JSON object; applying a decision's ops in order to the state it was made on
gives the state after it. The same ops serve the players' own moves (a workshop built, a
marker advanced, a pass), so the page records the whole table with one vocabulary:

- ``draw`` (turn the top decision card face up), ``turn`` (an Automa turn begins),
  ``rebuild_deck`` (this round's cards and the top reserve card shuffled, two sideways)
- ``vp`` (who, points, why), ``terrain`` (hex, terrain), ``build`` (hex, owner, kind, marked),
  ``upgrade`` (hex, kind), ``remove`` (hex), ``tool`` (hex),
  ``land`` (hex, land: fallow / blighted / none: the Blight's fallow and blighted land)
- ``cover`` (what: spells/books, index, who), ``innovation`` (who, index),
  ``science`` (who, discipline, levels, space or null), ``bonus_tile`` (who, position)
- ``achievement`` (token, points: a Gognomes' achievement token and the points it gives)
- ``pass`` (who), ``area`` (who, size), ``setup_card`` (card), ``setup_letter`` (terrain, letter,
  hex: where the Initial Workshop Setup card puts that letter), ``setup_done``,
  ``round_end``, ``game_over``
"""
from __future__ import annotations

from typing import Callable

from automa.common.errors import StateError

from .board import Building, Hex
from .data import DISCIPLINES, TERRAINS, components
from .state import GameState

Op = dict
WHO = ("automa", "player", "player2")


def apply_ops(state: GameState, ops: list[Op]) -> GameState:
    """A new state: ``state`` with ``ops`` applied in order and validated (``state`` untouched)."""
    if not isinstance(ops, list) or len(ops) > 500:
        raise StateError("ops: expected a list of at most 500 ops")
    new = state.copy()
    for i, op in enumerate(ops):
        try:
            apply_op(new, op)
        except StateError as exc:
            raise StateError(f"op {i + 1} ({op.get('op') if isinstance(op, dict) else op!r}): {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateError(f"op {i + 1}: malformed ({type(exc).__name__}: {exc})") from None
    new.validate()
    return new


def apply_op(state: GameState, op: Op) -> None:
    """Apply one op to ``state`` in place."""
    if not isinstance(op, dict):
        raise StateError("an op is a JSON object")
    handler = _HANDLERS.get(op.get("op"))
    if handler is None:
        raise StateError(f"unknown op {op.get('op')!r}")
    handler(state, op)


def _hex(op: Op, state: GameState) -> Hex:
    v = op["hex"]
    h = (int(v[0]), int(v[1]))
    if h not in state.board.terrain:
        raise StateError(f"hex {h} is not on the board")
    return h


def _who(op: Op, state: GameState) -> str:
    who = op["who"]
    if who not in ("automa",) + state.player_names:
        raise StateError(f"{who!r} is not in this game")
    return who


def _draw(state: GameState, op: Op) -> None:
    for _ in range(int(op.get("count", 1))):
        if not state.deck.draw_pile:
            raise StateError("the Automa deck is empty")
        _, state.deck = state.deck.draw()


def _turn(state: GameState, op: Op) -> None:
    state.automa.turns += 1


def _rebuild(state: GameState, op: Op) -> None:
    extra = []
    if state.reserve:
        extra.append(state.reserve.pop(0))
    state.deck = state.deck.rebuilt(extra, sideways=2)


def _vp(state: GameState, op: Op) -> None:
    who = _who(op, state)
    target = state.automa if who == "automa" else state.player(who)
    target.vp += int(op["points"])


def _terrain(state: GameState, op: Op) -> None:
    h = _hex(op, state)
    if op["terrain"] not in TERRAINS:
        raise StateError(f"{op['terrain']!r} is not a terrain")
    if not state.board.is_land(h):
        raise StateError(f"{state.board.label(h)} is a river hex")
    state.board.terrain[h] = op["terrain"]


def _build(state: GameState, op: Op) -> None:
    h = _hex(op, state)
    if h in state.board.buildings:
        raise StateError(f"{state.board.label(h)} already has a building")
    owner = op["owner"]
    if owner not in ("automa",) + state.player_names:
        raise StateError(f"{owner!r} is not in this game")
    kind = op.get("kind", "workshop")
    if owner == "automa" and state.automa_supply(kind) <= 0:
        raise StateError(f"the Automa has no {kind} left")
    state.board.buildings[h] = Building(owner, kind, bool(op.get("marked", False)))


def _upgrade(state: GameState, op: Op) -> None:
    h = _hex(op, state)
    b = state.board.buildings.get(h)
    if b is None:
        raise StateError(f"no building on {state.board.label(h)}")
    kind = op["kind"]
    if kind not in components().upgrades[b.kind]:
        raise StateError(f"a {b.kind} cannot become a {kind}")
    if b.owner == "automa" and state.automa_supply(kind) <= 0:
        raise StateError(f"the Automa has no {kind} left")
    b.kind = kind


def _remove(state: GameState, op: Op) -> None:
    h = _hex(op, state)
    if state.board.buildings.pop(h, None) is None:
        raise StateError(f"no building on {state.board.label(h)}")


def _tool(state: GameState, op: Op) -> None:
    state.board.tools.add(_hex(op, state))


def _land(state: GameState, op: Op) -> None:
    h = _hex(op, state)
    land = op["land"]
    if land not in ("fallow", "blighted", "none"):
        raise StateError(f"land is fallow, blighted or none, not {land!r}")
    if not state.board.is_land(h):
        raise StateError(f"{state.board.label(h)} is a river hex")
    state.board.fallow.discard(h)
    state.board.blighted.discard(h)
    if land != "none":
        getattr(state.board, land).add(h)


def _achievement(state: GameState, op: Op) -> None:
    """A Gognomes' achievement token reached: its points at once (the end only checks them)."""
    token, points = int(op["token"]), int(op["points"])
    if token in state.automa.achievements:
        raise StateError(f"achievement token {token} is already the Gognomes'")
    state.automa.achievements[token] = points
    state.automa.vp += points


def _cover(state: GameState, op: Op) -> None:
    spaces = {"spells": state.spells, "books": state.books}[op["what"]]
    i = int(op["index"])
    if not 0 <= i < len(spaces):
        raise StateError(f"{op['what']} has no space {i + 1}")
    if spaces[i] is not None:
        raise StateError(f"{op['what']} space {i + 1} is already covered")
    spaces[i] = _who(op, state)


def _innovation(state: GameState, op: Op) -> None:
    i = int(op["index"])
    if not 0 <= i < len(state.innovations) or state.innovations[i] is None:
        raise StateError(f"innovation {i + 1} is not on the display")
    who = _who(op, state)
    if who == "automa":
        state.automa.innovations.append(state.innovations[i])
    state.innovations[i] = None


def _science(state: GameState, op: Op) -> None:
    who = _who(op, state)
    disc = op["discipline"]
    if disc not in DISCIPLINES:
        raise StateError(f"{disc!r} is not a discipline")
    science = state.automa.science if who == "automa" else state.player(who).science
    space = op.get("space")
    if space is not None:
        spaces = state.scholar_spaces[disc]
        if spaces[int(space)] is not None:
            raise StateError(f"the {disc} scholar space {int(space) + 1} is taken")
        spaces[int(space)] = who
        if who == "automa":
            if state.automa.scholars <= 0:
                raise StateError("the Automa has no scholar left")
            state.automa.scholars -= 1
    science[disc] = min(components().top_level, max(0, science[disc] + int(op["levels"])))


def _bonus_tile(state: GameState, op: Op) -> None:
    """Take the tile at ``position`` of the line; the taker's old tile goes in its place, and
    the coins on it go to the taker (the Automa returns them to the supply)."""
    who = _who(op, state)
    pos = int(op["position"])
    if not 0 <= pos < len(state.bonus_line) or state.bonus_line[pos] is None:
        raise StateError(f"no round bonus tile at position {pos + 1} of the line")
    holder = state.automa if who == "automa" else state.player(who)
    tile = state.bonus_line[pos]
    state.bonus_line[pos] = holder.bonus_tile
    state.bonus_coins.pop(tile, None)
    holder.bonus_tile = tile


def _pass(state: GameState, op: Op) -> None:
    who = _who(op, state)
    holder = state.automa if who == "automa" else state.player(who)
    if holder.passed:
        raise StateError(f"{who} has already passed this round")
    holder.passed = True
    state.pass_order.append(who)


def _area(state: GameState, op: Op) -> None:
    state.player(_who(op, state)).area = max(0, int(op["size"]))


def _setup_card(state: GameState, op: Op) -> None:
    state.setup_card = int(op["card"])


def _setup_letter(state: GameState, op: Op) -> None:
    terrain, letter = op["terrain"], op["letter"]
    if terrain not in TERRAINS or letter not in tuple("ABCDEF"):
        raise StateError("a setup letter is A-F for one of the terrains")
    h = _hex(op, state)
    if not state.board.is_land(h):
        raise StateError(f"{state.board.label(h)} is a river hex")
    state.board.setup_letters.setdefault(terrain, {})[letter] = h


def _setup_done(state: GameState, op: Op) -> None:
    if state.phase != "setup":
        raise StateError("the set-up is already done")
    state.phase = "play"
    for t in state.bonus_line:
        if t is not None:
            state.bonus_coins[t] = state.bonus_coins.get(t, 0) + 1


def _round_end(state: GameState, op: Op) -> None:
    """Phase III of the base game as far as the Automa's table goes: a coin on every tile left
    in the line, the spells and book actions uncovered, the next round's turn order (the order
    of passing), everybody active again."""
    if state.round >= 6:
        raise StateError("round 6 ends with the final scoring (game_over)")
    for t in state.bonus_line:
        if t is not None:
            state.bonus_coins[t] = state.bonus_coins.get(t, 0) + 1
    state.spells = [None] * len(state.spells)
    state.books = [None] * len(state.books)
    state.turn_order = list(state.pass_order) or list(state.turn_order)
    state.pass_order = []
    state.automa.passed = False
    state.automa.turns = 0
    for p in state.players:
        p.passed = False
    state.round += 1


def _game_over(state: GameState, op: Op) -> None:
    state.phase = "over"


_HANDLERS: dict[str, Callable[[GameState, Op], None]] = {
    "draw": _draw, "turn": _turn, "rebuild_deck": _rebuild, "vp": _vp, "terrain": _terrain, "build": _build,
    "upgrade": _upgrade, "remove": _remove, "tool": _tool, "land": _land,
    "achievement": _achievement, "cover": _cover, "innovation": _innovation,
    "science": _science, "bonus_tile": _bonus_tile, "pass": _pass, "area": _area, "setup_card": _setup_card,
    "setup_letter": _setup_letter,
    "setup_done": _setup_done, "round_end": _round_end, "game_over": _game_over,
}
