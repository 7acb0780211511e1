"""Setting up the Autômato (seed 001, "Preparação do jogo do Autômato").

A. One mission card of each Era, face down (entered when an action card first asks for one).
B. The capital no player chose is the Autômato's, with its Palace I; it plays last in turn order
   unless the capital piece makes it first.
C. The action and movement piles by difficulty: Easy without the star cards, Hard with every
   card, Epic without the feather cards; the movement pile may take its own difficulty.
D. The compass on the Autômato's capital, pointing to the nearest opponent's capital (the most
   experienced player's on a tie). A capital on a cone line (two headings hold it): the first
   clockwise from the map's north (ruling B5).
"""
from __future__ import annotations

import json
import random
from typing import Any, Mapping

from automa.common.deck import Deck
from automa.common.errors import StateError
from automa.common.trace import Text, text

from .board import example_board_data, example_map_data, load_board
from .cards import DIFFICULTIES, dump_cards, example_cards, load_cards
from .compass import heading_angle, headings_towards, nearest_capital
from .state import SCHEMA, load

NORTH = 270.0        # screen angle of the map's top edge
MAX_TEXT = 200_000


def parse_players(items: list[str]) -> list[dict]:
    """``["Ana:green", "Bruno:blue"]`` (most experienced first) -> players."""
    out = []
    for i, item in enumerate(items):
        name, sep, capital = str(item).partition(":")
        if not sep or not name.strip() or not capital.strip():
            raise StateError(f"players: write each player as name:capital, got {item!r}")
        out.append({"name": name.strip(), "capital": capital.strip()})
    return out


def _json_option(value: Any, name: str) -> Any:
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise StateError(f"{name}: 'example' or the JSON text of a {name} file")
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise StateError(f"{name}: not valid JSON ({exc.msg}, line {exc.lineno})") from None


def new_game(options: Mapping[str, Any]) -> Any:
    seed = options.get("seed")
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    difficulty = options.get("difficulty") or "hard"
    mdiff = options.get("movement_difficulty") or difficulty
    if difficulty not in DIFFICULTIES or mdiff not in DIFFICULTIES:
        raise StateError(f"difficulty: one of {', '.join(DIFFICULTIES)}")
    cards_opt = options.get("cards") or "example"
    cards = example_cards() if cards_opt == "example" else load_cards(_json_option(cards_opt, "cards"))
    table_opt = options.get("table") or "example"
    if table_opt == "example":
        board, mapdata = example_board_data(), example_map_data()
    else:
        table = _json_option(table_opt, "table")
        if not isinstance(table, dict):
            raise StateError("table: an object with 'board' and 'map'")
        board, mapdata = table.get("board"), table.get("map")
    if not isinstance(board, dict):
        raise StateError("board: an object (see data/example_board.json)")
    units = load_board(board).units           # checked here, each mistake named, before its units are used
    if not isinstance(mapdata, dict) or not isinstance(mapdata.get("capitals"), dict) or not isinstance(
            mapdata.get("hexes"), dict):
        raise StateError("map: an object with orientation, capitals and hexes")
    players = parse_players(options.get("players") or ["you:" + next(iter(mapdata["capitals"]))])
    chosen = [p["capital"] for p in players]
    free = [c for c in mapdata["capitals"] if c not in chosen]
    automa_capital = options.get("automa_capital") or (free[0] if free else None)
    if automa_capital not in free:
        raise StateError(f"automa_capital: one of the capitals no player chose ({', '.join(free) or 'none left'})")
    hexes = json.loads(json.dumps(mapdata["hexes"]))
    for name, key in mapdata["capitals"].items():
        owner = "automa" if name == automa_capital else next((p["name"] for p in players if p["capital"] == name), None)
        if key not in hexes:
            raise StateError(f"map.capitals.{name}: {key} is not one of the map's hexes")
        if owner is not None:
            hexes[key]["building"] = {"owner": owner, "kind": "capital", "ref": name, "vp": 0, "era": 0}
    unchosen = [n for n in mapdata["capitals"] if n != automa_capital and n not in chosen]
    capitals = {n: k for n, k in mapdata["capitals"].items() if n not in unchosen}
    state = {
        "schema": SCHEMA, "seed": seed, "difficulty": difficulty, "movement_difficulty": mdiff,
        "cards": dump_cards(cards), "board": board,
        "map": {"orientation": mapdata.get("orientation"), "capitals": capitals, "hexes": hexes},
        "players": players,
        "automa": {"capital": automa_capital, "units": {u.id: {"at": None, "lying": None} for u in units},
                   "missions": {"1": None, "2": None, "3": None}},
        "turn_position": 0 if options.get("automa_first") else len(players),
        "action_deck": Deck.new(cards.action_ids(difficulty), seed).to_dict(),
        "movement_deck": Deck.new(cards.movement_ids(mdiff), seed + 1).to_dict(),
        "compass": {"at": mapdata["capitals"][automa_capital], "heading": 0}, "era": 1,
    }
    s = load(state)
    target, _ = nearest_capital(s, s.compass_at)
    options_ = headings_towards(s.orientation, s.compass_at, target)
    s.heading = min(options_, key=lambda d: (heading_angle(s.orientation, d) - NORTH) % 360)
    return s


def compass_reasons(s: Any) -> list[Text]:
    """Why the compass points where it does at the start (step D), for the first turn's trace."""
    target, why = nearest_capital(s, s.automa_capital())
    options = headings_towards(s.orientation, s.automa_capital(), target)
    lines = [text("setup: the compass on the Autômato's capital {capital}, towards {why}",
                  capital=s.automa.capital, why=why)]
    if len(options) > 1:
        lines.append(text("setup: that capital lies on a cone line (headings [{headings}]): the first clockwise "
                          "from the map's north, {heading}", headings=options, heading=s.heading))
    return lines
