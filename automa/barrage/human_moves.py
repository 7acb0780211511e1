"""The map changes one human turn can make, each as the pieces it changes.

Between two steady looks at the table, the map changes by one action of the player whose
turn it is (base_rules.md §5: players take turns placing engineers, one action a turn).
The engine does not track a human's credits, machinery or technology tiles, so this lists
every change the map itself allows (``legal_spaces``, the pieces left on the company board);
the camera's evidence then says which one was made (``vision.barrage.move_ranking``).

What a turn can change on the map:

- **Construction** (§6): "A construction action builds exactly one structure": a dam base on
  an empty dam space of a basin without a dam of the company's, an elevation on one of its
  dams below 3 pieces, a conduit on an empty conduit space, a powerhouse on an empty space of
  a group without one of its powerhouses; a piece of that type must still be on the company
  board. A new dam holds no water (drops come only by flow, §7).
- **Production** (§8): from a dam of the company's or a neutral one, with a built conduit from
  its basin to one of its powerhouses, *k* drops from 1 up to the dam's content leave the dam
  and flow on down the river from the powerhouse's group (§7: each stops in the first dam
  with room, or leaves the map).
- **Water Management** (§10): "p2" places 2 drops on headstreams, which stay there until the
  Water Flow phase; "d1" places 1 drop that flows at once (a drop that leaves the map changes
  nothing on it).
- **Anything else** (the Workshop, the Machinery Shop, the Bank, the Contract Office, a
  production that comes to nothing) changes nothing on the map: the move ``none``.

Not listed: the water a company ability, an officer or a technology tile's reward adds with a
build (the Netherlands, L1 Base and L2 Elevation tiles put drops straight into the mover's own
dam; rulings V7 reads such a turn), which the players set by hand.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import combinations_with_replacement
from typing import Mapping, Protocol

from .data import barrage_map
from .rules import legal_spaces, production_systems
from .state import Company, Dam, MapPieces, built_on_map, pieces_left
from .water import EXIT, group_path, headstream_path, route

# a move's kind -> the structure the rules build (legal_spaces' and the company board's names)
BUILDS = ("dam_base", "elevation", "conduit", "powerhouse")
NOUN = {"dam_base": "a dam", "elevation": "an elevation", "conduit": "a conduit", "powerhouse": "a powerhouse"}


class Board(MapPieces, Protocol):
    """A map with its headstreams: a :class:`GameState`, or the map the camera saw."""
    headstreams: dict[str, int]


@dataclass(frozen=True)
class HumanMove:
    """One map change a turn can make: ``key`` names it (the page confirms a move by its key),
    ``kind`` is none | dam_base | elevation | conduit | powerhouse | production | water, and
    the slots it changes hold what they hold after it: ``dams`` (a dam space -> its dam),
    ``conduits`` and ``powerhouses`` (space -> owner), ``headstreams`` (tile -> drops)."""
    key: str
    kind: str
    company: str
    text: str
    dams: dict[str, Dam] = field(default_factory=dict)
    conduits: dict[str, str] = field(default_factory=dict)
    powerhouses: dict[str, str] = field(default_factory=dict)
    headstreams: dict[str, int] = field(default_factory=dict)

    def changes(self) -> dict[str, object]:
        """Slot -> what it holds after the move (a dam, an owner, a drop count)."""
        return {**self.dams, **self.conduits, **self.powerhouses, **self.headstreams}

    def signature(self) -> tuple:
        """What the move leaves on the map, to tell two moves that leave the same apart from
        two that do not."""
        return tuple(sorted((s, repr(v)) for s, v in self.changes().items()))

    def apply(self, board: Board) -> None:
        """Write the move's slots into ``board`` (give it a copy: the board is changed)."""
        board.dams.update(self.dams)
        board.conduits.update(self.conduits)
        board.powerhouses.update(self.powerhouses)
        board.headstreams.update(self.headstreams)


def human_moves(board: Board, company: str, companies: Mapping[str, Company] | None = None) -> list[HumanMove]:
    """Every map change ``company``'s turn can make from ``board``, ``none`` first, then the
    builds, the productions and the water placed; two actions that leave the same map are
    listed once (the first: a production through either of two conduits of one group).
    ``companies``: the game's, whose officers change what a dam holds (where water stops); by
    default ``board``'s own (a map the camera saw has none: pass the game's)."""
    companies = companies if companies is not None else getattr(board, "companies", {})
    moves = [HumanMove("none", "none", company, f"{company}: nothing changed on the map")]
    moves += _builds(board, company) + _productions(board, company, companies) + _water(board, company, companies)
    seen: set[tuple] = set()
    out = []
    for m in moves:
        if m.signature() not in seen:
            seen.add(m.signature())
            out.append(m)
    return out


def _builds(board: Board, company: str) -> list[HumanMove]:
    """One structure on each space the map rules allow, while the company board has one left."""
    left = pieces_left(company, built_on_map(board.dams, board.conduits, board.powerhouses))
    out = []
    for structure in BUILDS:
        if left[structure] < 1:
            continue
        for space in legal_spaces(board, company, structure):
            key, text = f"{structure}:{space}", f"{company} built {NOUN[structure]} on {space}"
            if structure == "dam_base":
                out.append(HumanMove(key, structure, company, text, dams={space: Dam(company, 1, 0)}))
            elif structure == "elevation":
                dam = board.dams[space]
                out.append(HumanMove(key, structure, company, f"{company} added an elevation to the dam on {space}",
                                     dams={space: replace(dam, pieces=dam.pieces + 1)}))
            elif structure == "conduit":
                out.append(HumanMove(key, structure, company, text, conduits={space: company}))
            else:
                out.append(HumanMove(key, structure, company, text, powerhouses={space: company}))
    return out


def _productions(board: Board, company: str, companies: Mapping[str, Company]) -> list[HumanMove]:
    """Each ready production system (``production_systems``) with each number of drops."""
    bmap = barrage_map()
    out = []
    for system in production_systems(board, company):
        dam = board.dams[system.dam]
        for k in range(1, dam.drops + 1):
            after = {system.dam: replace(dam, drops=dam.drops - k)}
            drained = _Dams(board, after)
            caught = route(drained, group_path(bmap.conduits[system.conduit].group), k, companies=companies)
            after |= _caught(drained, caught)
            out.append(HumanMove(f"production:{system.dam}:{system.conduit}:{k}", "production", company,
                                 f"{company} produced with {k} drop{'s' if k > 1 else ''} from the dam on {system.dam} "
                                 f"through conduit {system.conduit} to {system.powerhouse}", dams=after))
    return out


def _water(board: Board, company: str, companies: Mapping[str, Company]) -> list[HumanMove]:
    """Water Management: two drops placed on headstreams (the same one twice too), or one
    that flows at once from a headstream and stops in the first dam with room."""
    tiles = sorted(barrage_map().headstreams)
    out = []
    for pair in combinations_with_replacement(tiles, 2):
        placed = Counter(pair)
        out.append(HumanMove(f"water:p2:{'+'.join(pair)}", "water", company,
                             f"{company} placed 2 drops: " + ", ".join(f"{n} on headstream {h}" for h, n in sorted(placed.items())),
                             headstreams={h: board.headstreams.get(h, 0) + n for h, n in placed.items()}))
    for h in tiles:
        caught = _caught(board, route(board, headstream_path(h), 1, companies=companies))
        where = f"the dam on {next(iter(caught))}" if caught else "off the map"
        out.append(HumanMove(f"water:d1:{h}", "water", company,
                             f"{company} let 1 drop flow from headstream {h} into {where}", dams=caught))
    return out


class _Dams:
    """The map's structures with some dams replaced: what ``route`` reads."""

    def __init__(self, board: Board, dams: dict[str, Dam]) -> None:
        self.dams = {**board.dams, **dams}
        self.conduits, self.powerhouses = board.conduits, board.powerhouses


def _caught(board: MapPieces, stops: Counter) -> dict[str, Dam]:
    """The dams the drops of ``stops`` came to rest in, with them."""
    return {s: replace(board.dams[s], drops=board.dams[s].drops + n) for s, n in stops.items() if s != EXIT}
