"""The bundled Age of Innovation data (decision cards, difficulty levels, terrain priority,
factions, scoring tiles, components, the base map), loaded once and checked.

A malformed file raises :class:`~automa.common.errors.DataError` naming the file and the field.
The files live in ``data/``; each names its source and lists what is uncertain in ``notes``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from automa.common.datafile import load_json, require
from automa.common.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
TERRAINS = ("plains", "swamp", "lake", "forest", "mountain", "wasteland", "desert")
RIVER = "river"
DISCIPLINES = ("banking", "law", "engineering", "medicine")
ACTIONS = ("upgrade", "score_points", "block_spell_and_book", "send_scholar", "transform_and_build",
           "faction_action", "gain_innovation", "advance_discipline")
FACTION_ACTIONS = ("transform_and_build", "score_points", "advance_discipline", "place_tool", "blight_fallow_land")
FACTION_TIEBREAKERS = ("nearest_to_you", "your_terrain_priority", "most_power_for_you")
FACTION_RULES = ("ignore_reach", "final_two_points_per_building", "first_to_pass_scores_again",
                 "advance_when_you_gain_two_power", "achievements")
FACTION_SETUP = ("youth_terrain",)
BONUS_POSITIONS = ("left", "middle", "right")
MAP_LETTERS = {"P": "plains", "S": "swamp", "L": "lake", "F": "forest", "M": "mountain", "W": "wasteland",
               "D": "desert", "R": RIVER}


@dataclass(frozen=True)
class Support:
    """The Support column of a decision card (the left side of the right-hand card)."""

    buildings: str            # "marked" / "unmarked": build within Reach of these
    bring_together: bool      # the bring-together icon
    terrain_row: str          # "A" / "B" of the terrain priority card
    direction: str            # "reading" (arrow left to right) / "reverse" (right to left)
    count: int                # the number by the zigzag arrow
    science: str              # "round_tile" / "catch_up"
    bonus_tile: str           # "left" / "middle" / "right"


@dataclass(frozen=True)
class Card:
    id: int
    label: str                # as printed: "*1".."*6", "7".."14"
    starter: bool
    actions: tuple[str, ...]  # the Action column, top to bottom
    points: int | str | None  # score-points icon: a number, "X", or None without one
    pass_icon: bool
    support: Support
    setup_marked: str         # setup letters: the one with the power token
    setup_unmarked: str


@dataclass(frozen=True)
class Level:
    level: int
    name: str
    name_pl: str
    navigation: tuple[int, ...]       # rounds 1-6
    x_points: tuple[int, ...]         # rounds 1-6
    remove_starter: tuple[int, ...]
    reserve_top: tuple[int, ...]
    add_cards: tuple[int, ...]
    add_random_reserve: int


@dataclass(frozen=True)
class FactionAction:
    action: str
    points: str | int | None = None
    modifier: int = 0
    levels: int = 1
    count: int = 1


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    science: dict
    actions: tuple[FactionAction, ...]
    tiebreakers: tuple[str, ...]
    rules: tuple[str, ...]
    setup: tuple[str, ...] = ()   # set-up steps beyond the science symbols (FACTION_SETUP)


@dataclass(frozen=True)
class RoundTile:
    tile: int
    points: tuple[int, int]   # rounds 1-3, rounds 4-6
    discipline: str
    spade: bool


@dataclass(frozen=True)
class FinalTile:
    tile: int
    points: int
    discipline: str


@dataclass(frozen=True)
class Components:
    buildings: dict
    power: dict
    upgrades: dict
    scholars: int
    top_level: int
    scholar_spaces: tuple[int, ...]
    spells: int
    book_actions: int
    innovations: int
    bonus_tiles: int
    area_points: tuple[int, ...]
    science_points: tuple[int, ...]
    achievement_tokens: int


def _choice(source: str, value, allowed, name: str):
    if value not in allowed:
        raise DataError(source, name, f"{value!r} is not one of {', '.join(map(str, allowed))}")
    return value


@cache
def cards() -> dict[int, Card]:
    source = "cards.json"
    raw = load_json(DATA_DIR / source)
    out: dict[int, Card] = {}
    for i, c in enumerate(require(source, raw, "cards", list)):
        w = f"cards[{i}]"
        s = require(source, c, "support", dict, w)
        sw = f"{w}.support"
        support = Support(
            buildings=_choice(source, require(source, s, "buildings", str, sw), ("marked", "unmarked"), f"{sw}.buildings"),
            bring_together=require(source, s, "bring_together", bool, sw),
            terrain_row=_choice(source, require(source, s, "terrain_row", str, sw), ("A", "B"), f"{sw}.terrain_row"),
            direction=_choice(source, require(source, s, "direction", str, sw), ("reading", "reverse"), f"{sw}.direction"),
            count=require(source, s, "count", int, sw),
            science=_choice(source, require(source, s, "science", str, sw), ("round_tile", "catch_up"), f"{sw}.science"),
            bonus_tile=_choice(source, require(source, s, "bonus_tile", str, sw), BONUS_POSITIONS, f"{sw}.bonus_tile"))
        actions = tuple(_choice(source, a, ACTIONS, f"{w}.actions") for a in require(source, c, "actions", list, w))
        points = c.get("points")
        if points is not None and points != "X" and not isinstance(points, int):
            raise DataError(source, f"{w}.points", "expected a number, 'X' or null")
        if ("score_points" in actions) != (points is not None):
            raise DataError(source, f"{w}.points", "a card has points exactly when it has a score_points action")
        setup = require(source, c, "setup", dict, w)
        card = Card(id=require(source, c, "id", int, w), label=require(source, c, "label", str, w),
                    starter=require(source, c, "starter", bool, w), actions=actions, points=points,
                    pass_icon=require(source, c, "pass_icon", bool, w), support=support,
                    setup_marked=require(source, setup, "marked", str, f"{w}.setup"),
                    setup_unmarked=require(source, setup, "unmarked", str, f"{w}.setup"))
        if card.id in out:
            raise DataError(source, f"{w}.id", f"card {card.id} twice")
        out[card.id] = card
    return out


@cache
def levels() -> dict[int, Level]:
    source = "levels.json"
    raw = load_json(DATA_DIR / source)
    out: dict[int, Level] = {}
    for i, lv in enumerate(require(source, raw, "levels", list)):
        w = f"levels[{i}]"
        deck = require(source, lv, "deck", dict, w)
        nav = tuple(require(source, lv, "navigation", list, w))
        xp = tuple(require(source, lv, "x_points", list, w))
        if len(nav) != 6 or len(xp) != 6:
            raise DataError(source, w, "navigation and x_points need one value per round (6)")
        level = Level(level=require(source, lv, "level", int, w), name=require(source, lv, "name", str, w),
                      name_pl=require(source, lv, "name_pl", str, w), navigation=nav, x_points=xp,
                      remove_starter=tuple(require(source, deck, "remove_starter", list, f"{w}.deck")),
                      reserve_top=tuple(require(source, deck, "reserve_top", list, f"{w}.deck")),
                      add_cards=tuple(require(source, deck, "add_cards", list, f"{w}.deck")),
                      add_random_reserve=require(source, deck, "add_random_reserve", int, f"{w}.deck"))
        out[level.level] = level
    return out


@cache
def terrain_priority() -> dict[str, dict[str, tuple[str, ...]]]:
    """row ("A"/"B") -> preferred terrain -> terrains, most preferred first."""
    source = "terrain_priority.json"
    rows = require(source, load_json(DATA_DIR / source), "rows", dict)
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for row in ("A", "B"):
        table = require(source, rows, row, dict, "rows")
        out[row] = {}
        for terrain in TERRAINS:
            order = tuple(require(source, table, terrain, list, f"rows.{row}"))
            if sorted(order) != sorted(TERRAINS) or order[0] != terrain:
                raise DataError(source, f"rows.{row}.{terrain}", "must list all 7 terrains, its own first")
            out[row][terrain] = order
    return out


@cache
def factions() -> dict[str, Faction]:
    source = "factions.json"
    out: dict[str, Faction] = {}
    for i, f in enumerate(require(source, load_json(DATA_DIR / source), "factions", list)):
        w = f"factions[{i}]"
        science = require(source, f, "science", dict, w)
        for d in science:
            _choice(source, d, DISCIPLINES, f"{w}.science")
        actions = []
        for j, a in enumerate(require(source, f, "actions", list, w)):
            name = _choice(source, require(source, a, "action", str, f"{w}.actions[{j}]"), FACTION_ACTIONS,
                           f"{w}.actions[{j}].action")
            actions.append(FactionAction(name, a.get("points"), int(a.get("modifier", 0)), int(a.get("levels", 1)),
                                         int(a.get("count", 1))))
        out[require(source, f, "id", str, w)] = Faction(
            id=f["id"], name=require(source, f, "name", str, w), science=dict(science), actions=tuple(actions),
            tiebreakers=tuple(_choice(source, t, FACTION_TIEBREAKERS, f"{w}.tiebreakers")
                              for t in require(source, f, "tiebreakers", list, w)),
            rules=tuple(_choice(source, r, FACTION_RULES, f"{w}.rules") for r in require(source, f, "rules", list, w)),
            setup=tuple(_choice(source, x, FACTION_SETUP, f"{w}.setup") for x in require(source, f, "setup", list, w)))
    return out


@cache
def round_tiles() -> dict[int, RoundTile]:
    source = "scoring_tiles.json"
    raw = load_json(DATA_DIR / source)
    out = {}
    for i, t in enumerate(require(source, raw, "round_tiles", list)):
        w = f"round_tiles[{i}]"
        pts = require(source, t, "points", list, w)
        out[t["tile"]] = RoundTile(require(source, t, "tile", int, w), (int(pts[0]), int(pts[1])),
                                   _choice(source, require(source, t, "discipline", str, w), DISCIPLINES, f"{w}.discipline"),
                                   require(source, t, "spade", bool, w))
    return out


@cache
def final_tiles() -> dict[int, FinalTile]:
    source = "scoring_tiles.json"
    raw = load_json(DATA_DIR / source)
    out = {}
    for i, t in enumerate(require(source, raw, "final_tiles", list)):
        w = f"final_tiles[{i}]"
        out[t["tile"]] = FinalTile(require(source, t, "tile", int, w), require(source, t, "points", int, w),
                                   _choice(source, require(source, t, "discipline", str, w), DISCIPLINES, f"{w}.discipline"))
    return out


@cache
def components() -> Components:
    source = "components.json"
    raw = load_json(DATA_DIR / source)
    fs = require(source, raw, "final_scoring", dict)
    return Components(buildings=require(source, raw, "buildings", dict), power=require(source, raw, "power", dict),
                      upgrades=require(source, raw, "upgrades", dict), scholars=require(source, raw, "scholars", int),
                      top_level=require(source, raw, "top_level", int),
                      scholar_spaces=tuple(require(source, raw, "scholar_spaces", list)),
                      spells=require(source, raw, "spells", int), book_actions=require(source, raw, "book_actions", int),
                      innovations=require(source, raw, "innovations", int),
                      bonus_tiles=require(source, raw, "bonus_tiles", int),
                      area_points=tuple(require(source, fs, "area", list, "final_scoring")),
                      science_points=tuple(require(source, fs, "science", list, "final_scoring")),
                      achievement_tokens=require(source, raw, "achievement_tokens", int))


def parse_map(raw: dict, source: str) -> tuple[str, list[str], dict]:
    """(layout, rows of terrain letters, setup letters) of a map file, checked."""
    layout = _choice(source, require(source, raw, "layout", str), ("odd-r", "even-r"), "layout")
    rows = require(source, raw, "rows", list)
    for i, row in enumerate(rows):
        if not isinstance(row, str) or any(ch not in MAP_LETTERS for ch in row):
            raise DataError(source, f"rows[{i}]", f"letters must be {''.join(MAP_LETTERS)}")
    letters = require(source, raw, "setup_letters", dict)
    return layout, rows, letters


@cache
def base_map() -> tuple[str, tuple[str, ...], dict]:
    source = "base_map.json"
    layout, rows, letters = parse_map(load_json(DATA_DIR / source), source)
    return layout, tuple(rows), letters
