"""The player's map: terrain per hex, buildings, and the geometry the Automa's rules read.

Hexes are axial ``(q, r)`` on a pointy-top board printed as rows (row 0 at the top). The
printed rows are an offset grid (``odd-r``: odd rows shoved right); instructions name a hex
by its printed row and position ("row 3, hex 5", both counted from 1).

Seed 002, *Największa / Najmniejsza Odległość*: the shortest distance between two hexes is
the path with the fewest hexes in between; it may cross any number of river hexes and hexes
with the Automa's buildings, never a hex with one of your buildings. *Zasięg* (Reach) is the
base game's indirect adjacency: a land hex next to a building, or reached across at most
*navigation* river hexes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from automa.common import hexgrid as hx
from automa.common.errors import StateError
from automa.common.trace import Text, text

from .data import MAP_LETTERS, RIVER, TERRAINS, base_map, components

Hex = hx.Hex
LETTER_OF = {terrain: letter for letter, terrain in MAP_LETTERS.items()}
OWNERS = ("automa", "player", "player2")


@dataclass
class Building:
    owner: str                 # "automa", "player" or "player2"
    kind: str                  # workshop, guild, palace, school, university
    marked: bool = False       # the Automa's power token on the hex (seed 002: "budynki oznaczone")

    def to_dict(self) -> dict:
        out = {"owner": self.owner, "kind": self.kind}
        if self.marked:
            out["marked"] = True
        return out


@dataclass
class Board:
    layout: str                                   # "odd-r" or "even-r"
    terrain: dict[Hex, str]                       # every hex of the board, rivers included
    buildings: dict[Hex, Building] = field(default_factory=dict)
    tools: set[Hex] = field(default_factory=set)  # the Symbionts' tools on terrain spaces
    fallow: set[Hex] = field(default_factory=set)     # the Blight's fallow land, as the players mark it
    blighted: set[Hex] = field(default_factory=set)   # fallow land the Blight has turned into blighted land
    setup_letters: dict[str, dict[str, Hex]] = field(default_factory=dict)   # terrain -> letter -> hex

    # -- construction and JSON -------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: list[str] | tuple[str, ...], layout: str = "odd-r",
                  setup_letters: dict | None = None) -> "Board":
        terrain = {}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                terrain[hx.offset_to_axial(c, r, layout)] = MAP_LETTERS[ch]
        letters = {t: {k: hx.offset_to_axial(int(v[0]), int(v[1]), layout) for k, v in m.items()}
                   for t, m in (setup_letters or {}).items()}
        return cls(layout=layout, terrain=terrain, setup_letters=letters)

    @classmethod
    def base(cls) -> "Board":
        layout, rows, letters = base_map()
        return cls.from_rows(rows, layout, letters)

    def rows(self) -> list[str]:
        """The terrain as printed rows of letters (the map file's form)."""
        cells: dict[tuple[int, int], str] = {}
        for h, t in self.terrain.items():
            cells[hx.axial_to_offset(h, self.layout)] = LETTER_OF[t]
        n_rows = max(r for _, r in cells) + 1
        n_cols = max(c for c, _ in cells) + 1
        out = []
        for r in range(n_rows):
            row = "".join(cells.get((c, r), "?") for c in range(n_cols))
            if "?" in row:
                raise StateError(f"the board is not a full grid of rows (row {r + 1} has holes)")
            out.append(row)
        return out

    def to_dict(self) -> dict:
        return {"layout": self.layout, "rows": self.rows(),
                "buildings": [{"hex": list(h), **b.to_dict()} for h, b in sorted(self.buildings.items())],
                "tools": [list(h) for h in sorted(self.tools)],
                "fallow": [list(h) for h in sorted(self.fallow)],
                "blighted": [list(h) for h in sorted(self.blighted)],
                "setup_letters": {t: {k: list(hx.axial_to_offset(h, self.layout)) for k, h in m.items()}
                                  for t, m in self.setup_letters.items()}}

    @classmethod
    def from_dict(cls, d: dict) -> "Board":
        if not isinstance(d, dict):
            raise StateError("board: expected an object")
        layout = d.get("layout", "odd-r")
        if layout not in ("odd-r", "even-r"):
            raise StateError(f"board.layout: {layout!r} is not odd-r or even-r")
        rows = d.get("rows")
        if not isinstance(rows, list) or not rows or len(rows) > 40:
            raise StateError("board.rows: expected 1-40 rows of terrain letters")
        for i, row in enumerate(rows):
            if not isinstance(row, str) or not 0 < len(row) <= 40 or any(ch not in MAP_LETTERS for ch in row):
                raise StateError(f"board.rows[{i}]: letters must be {''.join(MAP_LETTERS)} (1-40 of them)")
        letters = d.get("setup_letters", {})
        if not isinstance(letters, dict) or any(t not in TERRAINS or not isinstance(m, dict) for t, m in letters.items()):
            raise StateError("board.setup_letters: expected terrain -> {letter: [column, row]}")
        try:
            board = cls.from_rows(rows, layout, letters)
        except (TypeError, ValueError, IndexError):
            raise StateError("board.setup_letters: each letter needs a [column, row] pair") from None
        buildings, tools = d.get("buildings", []), d.get("tools", [])
        fallow, blighted = d.get("fallow", []), d.get("blighted", [])
        if not all(isinstance(v, list) for v in (buildings, tools, fallow, blighted)) \
                or len(buildings) + len(tools) + len(fallow) + len(blighted) > 1600:
            raise StateError("board.buildings, tools, fallow and blighted: expected lists")
        for i, b in enumerate(buildings):
            h = _hex(b.get("hex") if isinstance(b, dict) else None, f"board.buildings[{i}].hex")
            if h in board.buildings:
                raise StateError(f"board.buildings[{i}]: two buildings on hex {board.label(h)}")
            board.buildings[h] = Building(str(b.get("owner")), str(b.get("kind")), bool(b.get("marked", False)))
        board.tools = {_hex(t, f"board.tools[{i}]") for i, t in enumerate(tools)}
        board.fallow = {_hex(t, f"board.fallow[{i}]") for i, t in enumerate(fallow)}
        board.blighted = {_hex(t, f"board.blighted[{i}]") for i, t in enumerate(blighted)}
        board.validate()
        return board

    def copy(self) -> "Board":
        return Board(self.layout, dict(self.terrain),
                     {h: Building(b.owner, b.kind, b.marked) for h, b in self.buildings.items()},
                     set(self.tools), set(self.fallow), set(self.blighted),
                     {t: dict(m) for t, m in self.setup_letters.items()})

    def validate(self) -> None:
        pieces = components()
        for h, b in self.buildings.items():
            where = f"building on {self.label(h) if h in self.terrain else h}"
            if h not in self.terrain:
                raise StateError(f"{where}: the hex is not on the board")
            if self.terrain[h] == RIVER:
                raise StateError(f"{where}: buildings stand on land, not on a river hex")
            if b.owner not in OWNERS:
                raise StateError(f"{where}: owner {b.owner!r} is not one of {', '.join(OWNERS)}")
            if b.kind not in pieces.buildings:
                raise StateError(f"{where}: {b.kind!r} is not a building ({', '.join(pieces.buildings)})")
            if b.marked and b.owner != "automa":
                raise StateError(f"{where}: only the Automa's buildings carry a power token")
        for owner in OWNERS:
            for kind, limit in pieces.buildings.items():
                n = sum(1 for b in self.buildings.values() if b.owner == owner and b.kind == kind)
                if n > limit:
                    raise StateError(f"{owner} has {n} {kind}s on the board; there are only {limit}")
        for what, hexes in (("tool", self.tools), ("fallow land", self.fallow), ("blighted land", self.blighted)):
            for h in hexes:
                if h not in self.terrain or self.terrain[h] == RIVER:
                    raise StateError(f"{what} on {h}: not a land hex of the board")
        if self.fallow & self.blighted:
            raise StateError(f"{self.label(min(self.fallow & self.blighted))}: fallow land or blighted land, not both")
        for t, m in self.setup_letters.items():
            for k, h in m.items():
                if self.terrain.get(h) in (None, RIVER):
                    raise StateError(f"setup letter {t} {k}: not a land hex of the board")

    # -- reading the board -----------------------------------------------------------------
    def named(self, h: Hex) -> Text:
        """The hex as a trace line says it (``label``'s words, in a page's language)."""
        c, r = hx.axial_to_offset(h, self.layout)
        return text("row {row}, hex {col}", row=r + 1, col=c + 1)

    def label(self, h: Hex) -> str:
        return str(self.named(h))

    def is_land(self, h: Hex) -> bool:
        return self.terrain.get(h, RIVER) != RIVER and h in self.terrain

    def owned(self, owners: tuple[str, ...] | str) -> list[Hex]:
        owners = (owners,) if isinstance(owners, str) else owners
        return sorted(h for h, b in self.buildings.items() if b.owner in owners)

    def empty_land(self) -> list[Hex]:
        return sorted(h for h, t in self.terrain.items() if t != RIVER and h not in self.buildings)

    def reach(self, start: Hex, navigation: int) -> set[Hex]:
        """Land hexes within Reach of a building on ``start``: adjacent, or across at most
        ``navigation`` river hexes (the base game's indirect adjacency)."""
        out: set[Hex] = set()
        frontier = [start]
        seen = {start}
        for depth in range(navigation + 1):
            rivers = []
            for h in frontier:
                for n in hx.neighbours(h):
                    if n not in self.terrain or n in seen:
                        continue
                    if self.terrain[n] == RIVER:
                        if depth < navigation:
                            seen.add(n)
                            rivers.append(n)
                    else:
                        out.add(n)
            frontier = rivers
        out.discard(start)
        return out

    def distances_from(self, sources: list[Hex] | set[Hex], player_owners: tuple[str, ...]) -> dict[Hex, int]:
        """Shortest distance (steps) from the nearest of ``sources`` to every hex, along paths
        that never pass *through* a hex with a player's building (seed 002). A player's building
        may end a path (distance *to* your buildings): such hexes get a distance but are not
        walked on from."""
        blocked = {h for h, b in self.buildings.items() if b.owner in player_owners}
        return hx.distances_from(sources, self.terrain.__contains__, ends=blocked.__contains__)

    def distance(self, a: Hex, b: Hex, player_owners: tuple[str, ...]) -> int | None:
        return self.distances_from([a], player_owners).get(b)

    def power_for_players(self, h: Hex, player_owners: tuple[str, ...]) -> int:
        """Power the players could gain from a building on ``h``: the power values of their
        buildings next to it (the base game's rule for neighbours' buildings)."""
        power = components().power
        return sum(power[b.kind] for n in hx.neighbours(h)
                   if (b := self.buildings.get(n)) is not None and b.owner in player_owners)

    def areas(self, owner: str, navigation: int) -> list[set[Hex]]:
        """``owner``'s buildings grouped into areas: buildings linked by Reach (adjacent or
        across up to ``navigation`` river hexes), largest first."""
        mine = set(self.owned(owner))
        groups: list[set[Hex]] = []
        seen: set[Hex] = set()
        for start in sorted(mine):
            if start in seen:
                continue
            group, stack = {start}, [start]
            while stack:
                h = stack.pop()
                for n in self.reach(h, navigation) & mine:
                    if n not in group:
                        group.add(n)
                        stack.append(n)
            seen |= group
            groups.append(group)
        return sorted(groups, key=len, reverse=True)


def _hex(value, where: str) -> Hex:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and -100 < v < 100 for v in value)):
        raise StateError(f"{where}: expected [q, r], two whole numbers")
    return (value[0], value[1])
