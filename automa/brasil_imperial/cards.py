"""The Autômato's two decks as data: action cards and movement cards (seed 001).

No public transcription of the printed card faces exists, so a *card set* is what the players
enter once from their own cards (the page's card editor) and the engine reads; the bundled
``data/example_cards.json`` is an EXAMPLE set for the tests and the demo, labelled so.

Action card (seed 001, "Primeira fase: Ação"): a number, the arrow (the row, 1-4, of the *next*
card), the difficulty symbol (``star``, ``feather`` or none) and 3 Era columns of 4 rows. A row
is one action written as a short code:

- ``build:<construction>`` a construction of the Era; ``city`` a city;
- ``summon:<unit>`` the unit in that place on the board (1-5); ``monarch`` the Monarch unit;
- ``frame:<frame>``; ``product:<product>``; ``mission:<1-3>`` one action of that objective
  of the Era's mission card; ``gold`` the gold card symbol action cards 5 and 6 print in the last
  row of the Era II and III columns (1 gold card only when no action of the column is possible).

Movement card ("Segunda fase: Movimento"): a number, the arrow, the symbol, the left column of
4 rows (each a compass ``direction`` and/or a ``bonus``: the adder or a combat card gained or
lost, 1 gold card, or card 7's Era bonus), ``explore`` (the adjacent hexes
checked for an exploration tile, in the card's order) and ``moves`` (up to 3 steps in order).
Both are *relative* directions: 0 is the compass's tip, each step 60 degrees clockwise. Card 7
also carries ``shuffle`` and the Era bonus (``era_bonus``, one per Era, read by the ``era`` bonus).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from automa.common.datafile import load_json
from automa.common.errors import StateError

DATA_DIR = Path(__file__).parent / "data"
ERAS = 3
ROWS = 4
SYMBOLS = ("star", "feather")
DIFFICULTIES = ("easy", "hard", "epic")
# Easy takes the star cards out, Hard keeps every card, Epic takes the feather cards out.
REMOVED_BY = {"easy": "star", "hard": None, "epic": "feather"}
ACTIONS = ("build", "city", "summon", "monarch", "frame", "product", "mission", "gold")
WITH_ARGUMENT = ("build", "summon", "frame", "product", "mission")
DIRECTIONS = ("capital", "player_city", "own_city", "exploration", "units")
# "gold": the gold card icon ("Ganha 1 Carta de Ouro") where a movement card shows it (ruling B23)
BONUSES = ("adder+", "adder-", "combat+", "combat-", "gold", "era")
MAX_CARDS = 30
MAX_EXPLORE = 6
MAX_MOVES = 3
MAX_ID = 999


@dataclass(frozen=True)
class Action:
    """One row of an action card's Era column: what and (for most) which."""
    kind: str
    arg: str | None = None

    @property
    def code(self) -> str:
        return f"{self.kind}:{self.arg}" if self.arg is not None else self.kind


@dataclass(frozen=True)
class ActionCard:
    id: int
    arrow: int                                  # 1-4: the row of the next card
    symbol: str | None
    columns: tuple[tuple[Action, ...], ...]     # [era - 1][row - 1]


@dataclass(frozen=True)
class MoveRow:
    direction: str | None
    bonus: str | None


@dataclass(frozen=True)
class MovementCard:
    id: int
    arrow: int
    symbol: str | None
    rows: tuple[MoveRow, ...]
    explore: tuple[int, ...]
    moves: tuple[int, ...]
    shuffle: bool = False
    era_bonus: tuple[str, ...] = ()


@dataclass(frozen=True)
class CardSet:
    action: dict[int, ActionCard]
    movement: dict[int, MovementCard]
    example: bool = False
    notes: tuple[str, ...] = field(default=())

    def action_ids(self, difficulty: str) -> list[int]:
        return _kept(self.action, difficulty)

    def movement_ids(self, difficulty: str) -> list[int]:
        return _kept(self.movement, difficulty)


def _kept(cards: dict[int, Any], difficulty: str) -> list[int]:
    removed = REMOVED_BY[difficulty]
    return sorted(cid for cid, c in cards.items() if removed is None or c.symbol != removed)


def parse_action(code: Any, where: str) -> Action:
    """``"build:farm"`` -> Action("build", "farm"); StateError names the row."""
    if not isinstance(code, str) or len(code) > 60:
        raise StateError(f"{where}: an action is a short text such as 'build:farm', 'city' or 'gold'")
    kind, _, arg = code.partition(":")
    if kind not in ACTIONS:
        raise StateError(f"{where}: unknown action {kind!r} (known: {', '.join(ACTIONS)})")
    if (kind in WITH_ARGUMENT) != bool(arg):
        need = "needs" if kind in WITH_ARGUMENT else "takes no"
        raise StateError(f"{where}: {kind!r} {need} an argument after ':'")
    if kind == "mission" and arg not in ("1", "2", "3"):
        raise StateError(f"{where}: a mission row names objective 1, 2 or 3, not {arg!r}")
    return Action(kind, arg or None)


def _int(d: dict, key: str, where: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise StateError(f"{where}.{key}: expected a whole number {lo}-{hi}, got {v!r}")
    return v


def _symbol(d: dict, where: str) -> str | None:
    s = d.get("symbol")
    if s is not None and s not in SYMBOLS:
        raise StateError(f"{where}.symbol: star, feather or none, got {s!r}")
    return s


def _relative(v: Any, where: str, limit: int, at_least: int) -> tuple[int, ...]:
    if not isinstance(v, list) or not at_least <= len(v) <= limit:
        raise StateError(f"{where}: expected {at_least}-{limit} directions (0 = the compass's tip, clockwise to 5)")
    if any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 5 for x in v):
        raise StateError(f"{where}: a direction is 0-5 (0 = the compass's tip, each step 60 degrees clockwise)")
    return tuple(v)


def _action_card(d: Any, where: str) -> ActionCard:
    if not isinstance(d, dict):
        raise StateError(f"{where}: expected an object")
    cols = d.get("columns")
    if not isinstance(cols, list) or len(cols) != ERAS or any(not isinstance(c, list) or len(c) != ROWS for c in cols):
        raise StateError(f"{where}.columns: expected {ERAS} Era columns of {ROWS} rows")
    columns = tuple(tuple(parse_action(code, f"{where} Era {e + 1} row {r + 1}") for r, code in enumerate(col))
                    for e, col in enumerate(cols))
    return ActionCard(_int(d, "id", where, 1, MAX_ID), _int(d, "arrow", where, 1, ROWS), _symbol(d, where), columns)


def _movement_card(d: Any, where: str) -> MovementCard:
    if not isinstance(d, dict):
        raise StateError(f"{where}: expected an object")
    rows_raw = d.get("rows")
    if not isinstance(rows_raw, list) or len(rows_raw) != ROWS:
        raise StateError(f"{where}.rows: expected {ROWS} rows")
    rows = []
    for i, r in enumerate(rows_raw):
        w = f"{where} row {i + 1}"
        if not isinstance(r, dict):
            raise StateError(f"{w}: expected an object with direction and bonus")
        direction, bonus = r.get("direction"), r.get("bonus")
        if direction is not None and direction not in DIRECTIONS:
            raise StateError(f"{w}: unknown direction {direction!r} (known: {', '.join(DIRECTIONS)})")
        if bonus is not None and bonus not in BONUSES:
            raise StateError(f"{w}: unknown bonus {bonus!r} (known: {', '.join(BONUSES)})")
        rows.append(MoveRow(direction, bonus))
    era_bonus = d.get("era_bonus", [])
    if not isinstance(era_bonus, list) or len(era_bonus) not in (0, ERAS) or any(
            b not in BONUSES or b == "era" for b in era_bonus):
        raise StateError(f"{where}.era_bonus: none, or one bonus per Era ({ERAS}), each one of adder+/-, "
                         "combat+/-, gold")
    if any(r.bonus == "era" for r in rows) and not era_bonus:
        raise StateError(f"{where}: a row gives the Era bonus, so the card lists era_bonus")
    shuffle = d.get("shuffle", False)
    if not isinstance(shuffle, bool):
        raise StateError(f"{where}.shuffle: true or false")
    return MovementCard(_int(d, "id", where, 1, MAX_ID), _int(d, "arrow", where, 1, ROWS), _symbol(d, where),
                        tuple(rows), _relative(d.get("explore"), f"{where}.explore", MAX_EXPLORE, 0),
                        _relative(d.get("moves"), f"{where}.moves", MAX_MOVES, 1), shuffle, tuple(era_bonus))


def _deck(raw: Any, name: str, parse) -> dict[int, Any]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_CARDS:
        raise StateError(f"{name}: expected a list of 1-{MAX_CARDS} cards")
    out: dict[int, Any] = {}
    for i, d in enumerate(raw):
        card = parse(d, f"{name} card {d.get('id', i + 1) if isinstance(d, dict) else i + 1}")
        if card.id in out:
            raise StateError(f"{name}: card {card.id} appears twice")
        out[card.id] = card
    return out


def load_cards(data: Any) -> CardSet:
    """A card set from JSON data; StateError names the card, row and problem."""
    if not isinstance(data, dict):
        raise StateError("a card set is a JSON object with 'action' and 'movement' lists")
    notes = data.get("notes", [])
    if not isinstance(notes, list) or any(not isinstance(n, str) or len(n) > 500 for n in notes) or len(notes) > 10:
        raise StateError("notes: at most 10 short texts")
    cs = CardSet(_deck(data.get("action"), "action", _action_card), _deck(data.get("movement"), "movement",
                                                                           _movement_card),
                 example=bool(data.get("example", False)), notes=tuple(notes))
    for difficulty in DIFFICULTIES:
        if not cs.action_ids(difficulty) or not cs.movement_ids(difficulty):
            raise StateError(f"at the {difficulty} difficulty no card would be left in a deck")
    return cs


def dump_cards(cs: CardSet) -> dict:
    def move(c: MovementCard) -> dict:
        out = {"id": c.id, "arrow": c.arrow, "symbol": c.symbol,
               "rows": [{"direction": r.direction, "bonus": r.bonus} for r in c.rows],
               "explore": list(c.explore), "moves": list(c.moves)}
        if c.shuffle:
            out["shuffle"] = True
        if c.era_bonus:
            out["era_bonus"] = list(c.era_bonus)
        return out

    return {"example": cs.example, "notes": list(cs.notes),
            "action": [{"id": c.id, "arrow": c.arrow, "symbol": c.symbol,
                        "columns": [[a.code for a in col] for col in c.columns]} for c in cs.action.values()],
            "movement": [move(c) for c in cs.movement.values()]}


@cache
def example_cards() -> CardSet:
    """The bundled EXAMPLE card set (not the printed faces)."""
    return load_cards(load_json(DATA_DIR / "example_cards.json"))
