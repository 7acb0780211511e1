"""Spaces as a player says them: "the red-outlined dam space of basin 4, Mountains".

The engine and the camera name a space by its code ("4U", "4B", "P9_1", "A", or a
management-board space such as "r1"); the players at the table look for a place on the board,
which the code does not tell them. These functions turn a code into those words, from the
map's own data (``map.json``: basins, areas, red outlines, conduit letters and values,
powerhouse groups) and the management board's sections (``ACTION_SECTIONS``). Pure: a code
in, words out; a code they do not know comes back as it is.
"""
from __future__ import annotations

import re

from .data import BarrageMap, barrage_map
from .ops import SECTION_NAMES
from .state import ACTION_SECTIONS

LAKE = "lake:"       # the camera's box of a dam's water: "lake:4U"
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th")


def space_name(space: str, board: BarrageMap | None = None) -> str:
    """A map space in words: a dam, conduit or powerhouse space, a headstream, a dam's lake."""
    board = board or barrage_map()
    if space.startswith(LAKE):
        dam = space[len(LAKE):]
        return f"the water of {space_name(dam, board)}" if dam in board.dams else space
    if space in board.dams:
        d = board.dams[space]
        # water meets the red-outlined space first: it is the basin's upper one
        kind = "red-outlined" if d.red else "lower"
        return f"the {kind} dam space of basin {d.basin}, {d.area.capitalize()}"
    if space in board.conduits:
        c = board.conduits[space]
        area = board.basins[c.basin].area.capitalize()
        return f"conduit space {c.letter} (value {c.value}) of basin {c.basin}, {area}"
    if space in board.powerhouses:
        p = board.powerhouses[space]
        group = board.groups[p.group]
        red = " (red-outlined)" if p.red else ""       # a group may have several red-outlined spaces
        return f"the {ORDINALS[p.index]}{red} powerhouse space of group {p.group}, {group.area.capitalize()}"
    if space in board.headstreams:
        return f"headstream {space} (above basin {board.headstreams[space]})"
    return space


def with_code(space: str, board: BarrageMap | None = None) -> str:
    """``space_name`` with the code after it, as a hint: "the red-outlined dam space of basin 4,
    Mountains (4U)"; the code alone where there is no name for it."""
    name = space_name(space, board)
    return name if name == space else f"{name} ({space})"


def action_space_name(section: str, space: str) -> str:
    """A management-board action space: "the Workshop's 2nd space (3 engineers)"; the section
    alone for the unlimited ones (Bank, Company board)."""
    where = SECTION_NAMES.get(section, section)
    spaces = ACTION_SECTIONS.get(section, [])
    codes = [code for code, _ in spaces]
    if len(spaces) <= 1 or space not in codes:
        return f"the {where}"
    i = codes.index(space)
    engineers = spaces[i][1]
    return f"the {where}'s {ORDINALS[i]} space ({engineers} engineer{'' if engineers == 1 else 's'})"


# In the engine's sentences: a dam, conduit or powerhouse space's code ("on 8U", "conduit 4B",
# "P9_1"; a headstream is said "headstream A" already), and a management-board space
# ("the Contract Office (space o)").
_MAP_CODE = re.compile(r"(?:conduit )?\b(10|[1-9])([ULAB])\b|\bP\d+_\d\b")
_BOARD_SPACE = re.compile(r"the (" + "|".join(map(re.escape, SECTION_NAMES.values())) + r") \(space (\w+)\)")
_SECTIONS = {name: section for section, name in SECTION_NAMES.items()}


def in_words(text: str, board: BarrageMap | None = None) -> str:
    """An engine sentence with every space code said as a player says it, the code after it as
    a hint: "build a Dam Base on 8U, 1 engineer on the Workshop (space r1)" becomes "build a
    Dam Base on the red-outlined dam space of basin 8, Plains (8U), 1 engineer on the
    Workshop's 1st space (1 engineer)"."""
    board = board or barrage_map()

    def map_space(m: re.Match) -> str:
        code = m.group(0).removeprefix("conduit ")
        return with_code(code, board) if code in board.dams or code in board.conduits or code in board.powerhouses \
            else m.group(0)

    def board_space(m: re.Match) -> str:
        section = _SECTIONS.get(m.group(1))
        return m.group(0) if section is None else action_space_name(section, m.group(2))

    return _MAP_CODE.sub(map_space, _BOARD_SPACE.sub(board_space, text))
