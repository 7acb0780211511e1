"""Build Brasil Imperial states for scenario tests: a small map of the test's own, then the table
as the test describes it (buildings, tiles, units, cards on top of the piles)."""
from __future__ import annotations

from typing import Callable

from automa.brasil_imperial.board import example_board_data
from automa.brasil_imperial.setup import new_game
from automa.brasil_imperial.state import Building, Foe, GameState, Hex, Tile, check
from automa.common import hexgrid


def game(capitals: dict[str, str] | None = None, players: tuple[str, ...] = ("you:B",), radius: int = 4,
         terrain: Callable[[Hex], str] = lambda h: "plain", orientation: str = "pointy", **options) -> GameState:
    """A new game on a hexagon of ``radius`` around 0,0 (every hex ``terrain(h)``); the
    Autômato's capital is A unless a player chose it."""
    capitals = capitals or {"A": "0,0", "B": "3,0"}
    hexes = {f"{q},{r}": {"terrain": terrain((q, r))} for q, r in hexgrid.within((0, 0), radius)}
    for key in capitals.values():
        hexes[key]["terrain"] = "plain"
    table = {"board": example_board_data(), "map": {"orientation": orientation, "capitals": capitals, "hexes": hexes}}
    return new_game({"seed": 7, "difficulty": "hard", **options, "players": list(players), "table": table})


def build(s: GameState, h: Hex, ref: str, owner: str = "automa", kind: str = "construction", vp: int | None = None,
          era: int | None = None) -> None:
    con = next((c for c in s.board.constructions if c.id == ref), None)
    s.cells[h].building = Building(owner, kind, ref, vp if vp is not None else (con.vp if con else 0),
                                   era if era is not None else (con.era if con else 0))


def foe(s: GameState, h: Hex, vp: int = 1, fc: int = 1, owner: str | None = None) -> None:
    s.cells[h].foes.append(Foe(owner or s.players[0].name, vp, fc))


def tile(s: GameState, h: Hex, face_down: bool = True, kind: str | None = None, fc: int = 0) -> None:
    s.cells[h].tile = Tile(face_down, kind, fc)


def units(s: GameState, at: Hex, *uids: str) -> None:
    """Units standing at ``at`` with the compass."""
    for u in uids:
        s.automa.units[u].at = at
    s.compass_at = at
    s.movement_started = True
    check(s)


def top_action(s: GameState, card: int, fresh: bool = False) -> None:
    """``card`` on top of the action pile; ``fresh``: read its first row (the pile just turned up)."""
    pile = s.action_deck.draw_pile
    pile.remove(card)
    pile.insert(0, card)
    s.action_fresh = fresh


def under_top_action(s: GameState, first: int, second: int) -> None:
    """``first`` on top (it is taken and laid aside; its arrow picks the row), ``second`` next."""
    top_action(s, second)
    top_action(s, first)


def top_movement(s: GameState, card: int, fresh: bool = True, second: int | None = None) -> None:
    pile = s.movement_deck.draw_pile
    for c in ([second] if second is not None else []) + [card]:
        pile.remove(c)
        pile.insert(0, c)
    s.movement_started, s.movement_fresh = True, fresh


def action_card(s: GameState, cid: int, rows: list[str], arrow: int = 1, era: int | None = None) -> None:
    """Card ``cid`` with ``rows`` (4 action codes) in the Era ``era`` column (every column when None)."""
    from automa.brasil_imperial.cards import ActionCard, parse_action
    old = s.cards.action[cid]
    col = tuple(parse_action(c, "test") for c in rows)
    columns = tuple(col if era in (None, e + 1) else old.columns[e] for e in range(3))
    s.cards.action[cid] = ActionCard(cid, arrow, old.symbol, columns)


def movement_card(s: GameState, cid: int, rows: list[tuple[str | None, str | None]], moves: list[int],
                  explore: list[int] = (), arrow: int = 1, shuffle: bool = False, era_bonus: tuple = ()) -> None:
    from automa.brasil_imperial.cards import MovementCard, MoveRow
    s.cards.movement[cid] = MovementCard(cid, arrow, s.cards.movement[cid].symbol,
                                         tuple(MoveRow(d, b) for d, b in rows), tuple(explore), tuple(moves),
                                         shuffle, tuple(era_bonus))
