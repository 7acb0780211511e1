"""The Barrage game state: everything an Automa decision reads.

The state is plain typed data (dataclasses) that round-trips through JSON.
``GameState.from_dict`` validates everything before returning, so an
impossible state (two structures on one space, more drops than a dam holds,
an unknown space id, more pieces than a company owns) raises
:class:`~automa.common.errors.StateError` naming the problem, and nothing
half-built is ever returned.

Conventions
-----------
- Companies are keyed by company id (``usa``, ``germany``, ``italy``,
  ``france``, ``netherlands``); ``data.company_colours()`` gives piece colours.
- A dam is a base plus 0-2 elevations of one owner; ``pieces`` (1-3) is also
  its capacity in water drops, but for Del Monte's level 3 dams (``capacity``).
  Neutral dams have owner ``"neutral"``.
- The construction wheel is a list of 6 segments; segment 0 is the current
  (entry) segment where a construction invests its tile and machinery.
- The Contract Office holds two private slots per colour (left, right) and
  the face-up national contracts (left to right).
"""
from __future__ import annotations

import copy
from collections import Counter
import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

from automa.common.deck import Deck
from automa.common.errors import StateError

from .data import CONTRACT_COLOURS, STRUCTURES, barrage_map, components

NEUTRAL = "neutral"
# Graziano Del Monte: "Your level 3 Dams can hold up to 4 Water Drops" (``capacity``)
DEL_MONTE_LEVEL, DEL_MONTE_DROPS = 3, 4
# The four Automa levels, as the rulebook orders them: "Low Voltage" (Easy), Medium,
# "High Voltage" (Hard), "Overpowered" (Very Hard).
LEVELS = ("easy", "medium", "hard", "very-hard")
DIFFICULTIES = LEVELS
LEVEL_NAMES = {"easy": "Low Voltage (Easy)", "medium": "Medium", "hard": "High Voltage (Hard)",
               "very-hard": "Overpowered (Very Hard)"}
SCHEMA_VERSION = 1

# Management-board sections and their action spaces, in the order an Automa
# fills "the first free action space" (left column top to bottom, then right
# column). ``min_players``: the space exists only with at least that many
# companies. Source: shared/reference/barrage/base_rules.md section 10.
ACTION_SECTIONS: dict[str, list[tuple[str, int]]] = {
    "turbine": [("b2", 1), ("b1", 4), ("0", 1), ("m1", 3), ("m2", 1),
                ("b2c", 1), ("b1c", 4), ("0c", 1), ("m1c", 3), ("m2bis", 1)],
    "water": [("p2", 1), ("d1", 1), ("p2c", 1), ("d1c", 1)],
    "contracts": [("o", 1), ("ob", 4), ("t", 1), ("oc", 1), ("obc", 4), ("tbis", 1)],
    "workshop": [("r1", 1), ("r2", 3), ("r3", 1), ("r1bis", 1), ("r2c", 1), ("r3c", 1)],
    "machinery": [("e", 1), ("a", 4), ("b", 1), ("ec", 1), ("abis", 4), ("bc", 1)],
    "patent": [("p1", 1), ("p2", 1), ("p3", 1)],
    "bank": [("b", 1)],
    "external": [("w1", 1), ("w2", 1), ("w3", 1)],     # Leeghwater Project: External Works
    "officer": [("xo", 1)],                            # an executive officer's own space (Grasso's reminder)
}
UNLIMITED_SECTIONS = ("bank", "company")   # any number of placements


@dataclass
class Dam:
    owner: str
    pieces: int = 1
    drops: int = 0


class MapPieces(Protocol):
    """What the map rules read of a board: a :class:`GameState`, or the map the camera saw
    (``vision.board_state.MapState``), which has the same three fields."""
    dams: dict[str, Dam]
    conduits: dict[str, str]       # space -> owner
    powerhouses: dict[str, str]    # space -> owner


@dataclass
class Segment:
    tiles: list[str] = field(default_factory=list)
    excavators: int = 0
    mixers: int = 0
    excamixers: int = 0        # Audia's wild machinery

    def empty(self) -> bool:
        return not self.tiles and not self.excavators and not self.mixers and not self.excamixers


@dataclass
class Company:
    company: str
    automa: bool
    vp: int
    engineers: int = 12
    excavators: int = 6
    mixers: int = 4
    credits: int = 0
    structures: dict[str, int] = field(default_factory=lambda: {"dam_base": 5, "elevation": 5, "conduit": 5, "powerhouse": 4})
    wheel: list[Segment] = field(default_factory=lambda: [Segment() for _ in range(6)])
    tiles: list[str] = field(default_factory=lambda: list(STRUCTURES))
    contracts: list[int] = field(default_factory=list)
    level: str = "medium"
    officer: str | None = None          # executive officer id (Very Hard Automas only)
    architect: bool = False             # Battista's Architect is in the supply (not yet placed this round)
    excamixers: int = 0                 # Audia's Excamixers in the supply
    external_works: list[int] = field(default_factory=list)    # External Works fulfilled (Leeghwater)

    @property
    def difficulty(self) -> str:
        """The level under its older name (states written before Hard existed say ``difficulty``)."""
        return self.level

    @difficulty.setter
    def difficulty(self, value: str) -> None:
        self.level = value

    def at_least(self, level: str) -> bool:
        """Whether this company plays at ``level`` or above (humans count as Medium)."""
        return LEVELS.index(self.level) >= LEVELS.index(level)

    def has_officer(self, officer: str) -> bool:
        """Whether this is a Very Hard Automa playing with ``officer``."""
        return self.automa and self.level == "very-hard" and self.officer == officer

    def workers(self) -> int:
        """Engineers in the supply, the Architect included."""
        return self.engineers + int(self.architect)

    def built(self, structure: str) -> int:
        start = components().raw["starting"]["structures"][structure]
        return start - self.structures[structure]

    def wheel_empty(self) -> bool:
        return all(s.empty() for s in self.wheel)

    def advanced_tiles(self) -> list[str]:
        """Advanced technology tiles acquired: in supply and on the wheel."""
        on_wheel = [t for s in self.wheel for t in s.tiles]
        advanced = components().advanced_tiles()
        return [t for t in self.tiles + on_wheel if t in advanced]


@dataclass
class Placement:
    company: str
    engineers: int


@dataclass
class ContractOffice:
    private: dict[str, list[int | None]] = field(default_factory=lambda: {c: [None, None] for c in CONTRACT_COLOURS})
    national: list[int] = field(default_factory=list)
    piles: dict[str, list[int]] = field(default_factory=lambda: {c: [] for c in CONTRACT_COLOURS})
    discards: dict[str, list[int]] = field(default_factory=lambda: {c: [] for c in CONTRACT_COLOURS})

    def face_up_private(self) -> list[tuple[str, int, int]]:
        """(colour, slot, contract id) for every face-up private contract, left to right."""
        return [(colour, slot, cid) for colour in CONTRACT_COLOURS
                for slot, cid in enumerate(self.private[colour]) if cid is not None]


@dataclass
class PatentOffice:
    slots: list[str | None] = field(default_factory=lambda: [None, None, None])
    piles: dict[str, list[str]] = field(default_factory=lambda: {"1": [], "2": [], "3": []})


@dataclass
class ExternalWorks:
    """The Leeghwater Project's External Works: 3 face-up tiles (position 1 at the top) and decks A, B, C."""
    slots: list[int | None] = field(default_factory=lambda: [None, None, None])
    piles: dict[str, list[int]] = field(default_factory=lambda: {"A": [], "B": [], "C": []})


@dataclass
class PrivateBuilding:
    """One Private Building of the display (top to bottom) and the companies that built on it, in order."""
    building: str
    built_by: list[str] = field(default_factory=list)


@dataclass
class GameState:
    companies: dict[str, Company]
    turn_order: list[str]
    round: int = 1
    bonus_tiles: list[int] = field(default_factory=list)
    objective_tile: int | None = None
    headstream_tiles: dict[str, int] = field(default_factory=dict)
    dams: dict[str, Dam] = field(default_factory=dict)
    conduits: dict[str, str] = field(default_factory=dict)
    powerhouses: dict[str, str] = field(default_factory=dict)
    headstreams: dict[str, int] = field(default_factory=lambda: {h: 0 for h in "ABCD"})
    energy: dict[str, int] = field(default_factory=dict)
    contract_office: ContractOffice = field(default_factory=ContractOffice)
    patent_office: PatentOffice = field(default_factory=PatentOffice)
    action_spaces: dict[str, dict[str, list[Placement]]] = field(default_factory=dict)
    deck: Deck = field(default_factory=lambda: Deck(draw_pile=list(range(1, 21))))
    leeghwater: bool = False
    external_works: ExternalWorks = field(default_factory=ExternalWorks)
    private_buildings: list[PrivateBuilding] = field(default_factory=list)
    human_first_actions: list[str] = field(default_factory=list)   # humans whose Sekibo tile was drawn this round

    # -- convenient views -----------------------------------------------------------
    @property
    def automas(self) -> list[str]:
        return [c for c in self.turn_order if self.companies[c].automa]

    @property
    def player_count(self) -> int:
        return len(self.companies)

    def owner_of(self, space: str) -> str | None:
        if space in self.dams:
            return self.dams[space].owner
        return self.conduits.get(space) or self.powerhouses.get(space)

    def copy(self) -> "GameState":
        return copy.deepcopy(self)

    def section_spaces(self, section: str) -> list[str]:
        """The section's action spaces that exist at this player count, in Automa fill order."""
        return [s for s, min_players in ACTION_SECTIONS[section] if self.player_count >= min_players]

    # -- JSON -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "barrage",
            "version": SCHEMA_VERSION,
            "round": self.round,
            "bonus_tiles": list(self.bonus_tiles),
            "objective_tile": self.objective_tile,
            "headstream_tiles": dict(self.headstream_tiles),
            "leeghwater": self.leeghwater,
            "turn_order": list(self.turn_order),
            "companies": [{
                "company": c.company, "automa": c.automa, "level": c.level, "officer": c.officer,
                "architect": c.architect, "excamixers": c.excamixers, "external_works": list(c.external_works),
                "vp": c.vp,
                "credits": c.credits, "engineers": c.engineers, "excavators": c.excavators, "mixers": c.mixers,
                "structures": dict(c.structures), "tiles": list(c.tiles), "contracts": list(c.contracts),
                "wheel": [{"tiles": list(s.tiles), "excavators": s.excavators, "mixers": s.mixers,
                           **({"excamixers": s.excamixers} if s.excamixers else {})} for s in c.wheel],
            } for c in (self.companies[k] for k in self.turn_order)],
            "energy": {k: self.energy.get(k, 0) for k in self.turn_order},
            "map": {
                "dams": [{"space": s, "owner": d.owner, "pieces": d.pieces, "drops": d.drops}
                         for s, d in sorted(self.dams.items(), key=_space_key)],
                "conduits": [{"space": s, "owner": o} for s, o in sorted(self.conduits.items(), key=_space_key)],
                "powerhouses": [{"space": s, "owner": o} for s, o in sorted(self.powerhouses.items(), key=_space_key)],
                "headstreams": dict(self.headstreams),
            },
            "contract_office": {
                "private": {k: list(v) for k, v in self.contract_office.private.items()},
                "national": list(self.contract_office.national),
                "piles": {k: list(v) for k, v in self.contract_office.piles.items()},
                "discards": {k: list(v) for k, v in self.contract_office.discards.items()},
            },
            "patent_office": {"slots": list(self.patent_office.slots),
                              "piles": {k: list(v) for k, v in self.patent_office.piles.items()}},
            "action_spaces": {sec: {sp: [{"company": p.company, "engineers": p.engineers} for p in ps]
                                    for sp, ps in spaces.items()}
                              for sec, spaces in self.action_spaces.items()},
            "automa_deck": self.deck.to_dict(),
            "external_works": {"slots": list(self.external_works.slots),
                               "piles": {k: list(v) for k, v in self.external_works.piles.items()}},
            "private_buildings": [{"building": b.building, "built_by": list(b.built_by)} for b in self.private_buildings],
            "human_first_actions": list(self.human_first_actions),
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls, text: str) -> "GameState":
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
        return cls.from_dict(raw)

    @classmethod
    def from_dict(cls, raw: Any) -> "GameState":
        """Build and validate a state; raises StateError naming the first problem found."""
        try:
            state = _parse(raw)
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"malformed state: {type(exc).__name__}: {exc}") from None
        validate(state)
        return state


def _space_key(item: tuple[str, Any]) -> tuple:
    s = item[0]
    digits = "".join(ch for ch in s if ch.isdigit() or ch == "_")
    head = digits.split("_")
    return (s.startswith("P"), [int(x) for x in head if x], s)


def _int(v: Any, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise StateError(f"{name} must be an integer, got {v!r}")
    return v


def _str(v: Any, name: str) -> str:
    if not isinstance(v, str):
        raise StateError(f"{name} must be a text, got {v!r}")
    return v


def _parse(raw: Any) -> GameState:
    if not isinstance(raw, dict):
        raise StateError("a state must be a JSON object")
    if raw.get("game", "barrage") != "barrage":
        raise StateError(f"not a Barrage state (game = {raw.get('game')!r})")
    companies: dict[str, Company] = {}
    for i, c in enumerate(raw.get("companies") or []):
        if not isinstance(c, dict) or "company" not in c:
            raise StateError(f"companies[{i}] needs a 'company' id")
        cid = c["company"]
        if cid in companies:
            raise StateError(f"company {cid!r} appears twice")
        wheel_raw = c.get("wheel") or [{} for _ in range(6)]
        companies[cid] = Company(
            company=cid, automa=bool(c.get("automa", False)),
            vp=_int(c.get("vp", 10), f"{cid}.vp"),
            engineers=_int(c.get("engineers", 12), f"{cid}.engineers"),
            excavators=_int(c.get("excavators", 6), f"{cid}.excavators"),
            mixers=_int(c.get("mixers", 4), f"{cid}.mixers"),
            credits=_int(c.get("credits", 0), f"{cid}.credits"),
            structures={k: _int(v, f"{cid}.structures.{k}") for k, v in
                        (c.get("structures") or components().raw["starting"]["structures"]).items()},
            wheel=[Segment(list(s.get("tiles", [])), _int(s.get("excavators", 0), f"{cid}.wheel.excavators"),
                           _int(s.get("mixers", 0), f"{cid}.wheel.mixers"),
                           _int(s.get("excamixers", 0), f"{cid}.wheel.excamixers")) for s in wheel_raw],
            tiles=list(c.get("tiles", list(STRUCTURES))),
            contracts=[_int(x, f"{cid}.contracts") for x in c.get("contracts", [])],
            level=_str(c.get("level", c.get("difficulty", "medium")), f"{cid}.level"),
            officer=None if c.get("officer") is None else _str(c["officer"], f"{cid}.officer"),
            architect=bool(c.get("architect", False)),
            excamixers=_int(c.get("excamixers", 0), f"{cid}.excamixers"),
            external_works=[_int(x, f"{cid}.external_works") for x in c.get("external_works", [])],
        )
    if not companies:
        raise StateError("a state needs at least one company")
    m = raw.get("map") or {}
    dams: dict[str, Dam] = {}
    for d in m.get("dams", []):
        if d["space"] in dams:
            raise StateError(f"two dams on space {d['space']}")
        dams[d["space"]] = Dam(d["owner"], _int(d.get("pieces", 1), f"dam {d['space']}.pieces"),
                               _int(d.get("drops", 0), f"dam {d['space']}.drops"))
    conduits: dict[str, str] = {}
    for d in m.get("conduits", []):
        if d["space"] in conduits:
            raise StateError(f"two conduits on space {d['space']}")
        conduits[d["space"]] = d["owner"]
    powerhouses: dict[str, str] = {}
    for d in m.get("powerhouses", []):
        if d["space"] in powerhouses:
            raise StateError(f"two powerhouses on space {d['space']}")
        powerhouses[d["space"]] = d["owner"]
    co = raw.get("contract_office") or {}
    office = ContractOffice(
        private={k: [None if x is None else _int(x, f"contract_office.private.{k}") for x in co.get("private", {}).get(k, [None, None])]
                 for k in CONTRACT_COLOURS},
        national=[_int(x, "contract_office.national") for x in co.get("national", [])],
        piles={k: [_int(x, f"contract_office.piles.{k}") for x in co.get("piles", {}).get(k, [])] for k in CONTRACT_COLOURS},
        discards={k: [_int(x, f"contract_office.discards.{k}") for x in co.get("discards", {}).get(k, [])] for k in CONTRACT_COLOURS},
    )
    po = raw.get("patent_office") or {}
    patent = PatentOffice(slots=list(po.get("slots", [None, None, None])),
                          piles={k: list(v) for k, v in (po.get("piles") or {"1": [], "2": [], "3": []}).items()})
    spaces = {sec: {sp: [Placement(p["company"], _int(p["engineers"], f"action_spaces.{sec}.{sp}.engineers")) for p in ps]
                    for sp, ps in secs.items()} for sec, secs in (raw.get("action_spaces") or {}).items()}
    # Pieces left on a company board may be omitted: then they are what the map leaves.
    built = built_on_map(dams, conduits, powerhouses)
    for c in raw.get("companies") or []:
        if "structures" not in c:
            companies[c["company"]].structures = pieces_left(c["company"], built)
    deck_raw = raw.get("automa_deck")
    deck = Deck.from_dict(deck_raw) if deck_raw else Deck(draw_pile=list(range(1, 21)))
    turn_order = list(raw.get("turn_order") or companies.keys())
    ew = raw.get("external_works") or {}
    return GameState(
        companies=companies, turn_order=turn_order, round=_int(raw.get("round", 1), "round"),
        bonus_tiles=[_int(x, "bonus_tiles") for x in raw.get("bonus_tiles", [])],
        objective_tile=raw.get("objective_tile"),
        headstream_tiles=dict(raw.get("headstream_tiles") or {}),
        dams=dams, conduits=conduits, powerhouses=powerhouses,
        headstreams={h: _int((m.get("headstreams") or {}).get(h, 0), f"headstream {h}") for h in "ABCD"},
        energy={k: _int((raw.get("energy") or {}).get(k, 0), f"energy.{k}") for k in companies},
        contract_office=office, patent_office=patent, action_spaces=spaces, deck=deck,
        leeghwater=bool(raw.get("leeghwater", False)),
        external_works=ExternalWorks(
            slots=[None if x is None else _int(x, "external_works.slots") for x in ew.get("slots", [None, None, None])],
            piles={k: [_int(x, f"external_works.piles.{k}") for x in (ew.get("piles") or {}).get(k, [])] for k in "ABC"}),
        private_buildings=[PrivateBuilding(str(b["building"]), [str(x) for x in b.get("built_by", [])])
                           for b in raw.get("private_buildings") or []],
        human_first_actions=[str(x) for x in raw.get("human_first_actions") or []],
    )


def capacity(dam: Dam, companies: Mapping[str, Company]) -> int:
    """Drops ``dam`` can hold, the one place this is decided: one per piece (base_rules.md §3:
    "Capacity = number of pieces: 1, 2 or 3 drops"), but a level 3 dam of a Very Hard Automa
    with Graziano Del Monte holds 4 (his tile: "Your level 3 Dams can hold up to 4 Water Drops.
    Your level 1 and level 2 Dams can hold 1 or 2 Water Drops respectively"). ``companies``:
    the game's (a neutral dam, or one whose owner is not among them, holds one per piece)."""
    owner = companies.get(dam.owner)
    return holds(dam.pieces, owner is not None and owner.has_officer("del-monte"))


def holds(pieces: int, del_monte: bool = False) -> int:
    """Drops a dam of ``pieces`` pieces holds (``capacity``); ``del_monte``: its owner has
    Graziano Del Monte, whose level 3 dams hold 4. The camera's reader, which knows the
    companies by name only, asks this."""
    return DEL_MONTE_DROPS if del_monte and pieces == DEL_MONTE_LEVEL else pieces


def built_on_map(dams: dict[str, Dam], conduits: dict[str, str], powerhouses: dict[str, str]) -> Counter:
    """(owner, structure) -> how many pieces of that structure the owner has on the map."""
    used: Counter = Counter()
    for dam in dams.values():
        used[dam.owner, "dam_base"] += 1
        used[dam.owner, "elevation"] += dam.pieces - 1
    used.update((o, "conduit") for o in conduits.values())
    used.update((o, "powerhouse") for o in powerhouses.values())
    return used


def pieces_left(company: str, built: Counter) -> dict[str, int]:
    """The pieces still on ``company``'s board: what it owns less what ``built`` puts on the map."""
    start = components().raw["starting"]["structures"]
    return {k: max(0, start[k] - built[company, k]) for k in STRUCTURES}


def validate(state: GameState) -> None:
    """Raise StateError for the first rule the state breaks."""
    bmap = barrage_map()
    comps = components()
    known_companies = set(comps.companies())
    owners_ok = set(state.companies) | {NEUTRAL}
    if not 1 <= state.round <= comps.raw["rounds"]:
        raise StateError(f"round must be 1-{comps.raw['rounds']}, got {state.round}")
    if sorted(state.turn_order) != sorted(state.companies):
        raise StateError("turn_order must list every company exactly once")
    if len(state.companies) > 5:
        raise StateError("at most 5 companies play")
    start = comps.raw["starting"]
    all_tiles = set(comps.advanced_tiles()) | set(STRUCTURES) | {"any", "building"} | set(comps.special_tiles())
    for cid, c in state.companies.items():
        if cid not in known_companies:
            raise StateError(f"unknown company {cid!r} (known: {', '.join(sorted(known_companies))})")
        if c.level not in LEVELS:
            raise StateError(f"{cid}: level must be one of {', '.join(LEVELS)}, got {c.level!r}")
        if c.officer is not None:
            officers = comps.officers()
            if c.officer not in officers:
                raise StateError(f"{cid}: unknown executive officer {c.officer!r} (known: {', '.join(officers)})")
            if not (c.automa and c.level == "very-hard"):
                raise StateError(f"{cid}: only a Very Hard Automa plays with an executive officer")
            if officers[c.officer]["needs_leeghwater"] and not state.leeghwater:
                raise StateError(f"{cid}: {officers[c.officer]['name']} needs the Leeghwater Project")
        if c.architect and not c.has_officer("battista"):
            raise StateError(f"{cid}: only Tommaso Battista's Automa has the Architect")
        if c.excamixers < 0:
            raise StateError(f"{cid}: excamixers cannot be negative")
        for w in c.external_works:
            if w not in comps.external_works():
                raise StateError(f"{cid}: unknown External Work {w}")
        if not 0 <= c.engineers <= start["engineers"]:
            raise StateError(f"{cid}: engineers must be 0-{start['engineers']}, got {c.engineers}")
        for name in ("excavators", "mixers", "credits"):
            if getattr(c, name) < 0:
                raise StateError(f"{cid}: {name} cannot be negative")
        if set(c.structures) != set(STRUCTURES):
            raise StateError(f"{cid}: structures must list exactly {', '.join(STRUCTURES)}")
        for k, v in c.structures.items():
            if not 0 <= v <= start["structures"][k]:
                raise StateError(f"{cid}: {k} left on the board must be 0-{start['structures'][k]}, got {v}")
        if len(c.wheel) != comps.raw["wheel_segments"]:
            raise StateError(f"{cid}: the construction wheel has {comps.raw['wheel_segments']} segments, got {len(c.wheel)}")
        for s in c.wheel:
            if s.excavators < 0 or s.mixers < 0 or s.excamixers < 0:
                raise StateError(f"{cid}: negative machinery on the wheel")
            for t in s.tiles:
                if t not in all_tiles:
                    raise StateError(f"{cid}: unknown technology tile {t!r} on the wheel")
        for t in c.tiles:
            if t not in all_tiles:
                raise StateError(f"{cid}: unknown technology tile {t!r}")
        for k in c.contracts:
            if k not in comps.contracts:
                raise StateError(f"{cid}: unknown contract {k}")
    # -- map --------------------------------------------------------------------------
    dams_in_basin: dict[tuple[str, int], str] = {}
    for space, dam in state.dams.items():
        if space not in bmap.dams:
            raise StateError(f"unknown dam space {space!r}")
        if dam.owner not in owners_ok:
            raise StateError(f"dam {space}: unknown owner {dam.owner!r}")
        if not 1 <= dam.pieces <= bmap.costs["dam_max_pieces"]:
            raise StateError(f"dam {space}: a dam has 1-{bmap.costs['dam_max_pieces']} pieces (base + elevations), got {dam.pieces}")
        if not 0 <= dam.drops <= capacity(dam, state.companies):
            raise StateError(f"dam {space}: holds {dam.drops} drops but its capacity is {capacity(dam, state.companies)}")
        if dam.owner != NEUTRAL:
            basin = bmap.dams[space].basin
            other = dams_in_basin.get((dam.owner, basin))
            if other:
                raise StateError(f"{dam.owner} has two dams in basin {basin} ({other} and {space})")
            dams_in_basin[(dam.owner, basin)] = space
    for space, owner in state.conduits.items():
        if space not in bmap.conduits:
            raise StateError(f"unknown conduit space {space!r}")
        if owner not in state.companies:
            raise StateError(f"conduit {space}: unknown owner {owner!r}")
    groups_owned: dict[tuple[str, int], str] = {}
    for space, owner in state.powerhouses.items():
        if space not in bmap.powerhouses:
            raise StateError(f"unknown powerhouse space {space!r}")
        if owner not in state.companies:
            raise StateError(f"powerhouse {space}: unknown owner {owner!r}")
        g = bmap.powerhouses[space].group
        if (owner, g) in groups_owned:
            raise StateError(f"{owner} has two powerhouses in group {g} ({groups_owned[(owner, g)]} and {space})")
        groups_owned[(owner, g)] = space
    built = built_on_map(state.dams, state.conduits, state.powerhouses)
    for cid in state.companies:
        for s in STRUCTURES:
            n, total = built[cid, s], start["structures"][s]
            if n + state.companies[cid].structures[s] > total:
                raise StateError(f"{cid}: {n} {s} pieces on the map plus {state.companies[cid].structures[s]} "
                                 f"on the company board is more than the {total} it owns")
    for h, n in state.headstreams.items():
        if n < 0:
            raise StateError(f"headstream {h}: negative drops")
    # -- offices, spaces, deck -------------------------------------------------------
    contracts = comps.contracts
    seen: set[int] = set()
    office = state.contract_office
    for colour in CONTRACT_COLOURS:
        if len(office.private[colour]) != 2:
            raise StateError(f"contract office: {colour} has 2 slots")
        for cid in office.private[colour] + office.piles[colour] + office.discards[colour]:
            if cid is None:
                continue
            if cid not in contracts or contracts[cid]["kind"] != colour:
                raise StateError(f"contract office: {cid} is not a {colour} contract")
            if cid in seen:
                raise StateError(f"contract {cid} appears twice")
            seen.add(cid)
    for cid in office.national:
        if cid not in contracts or contracts[cid]["kind"] != "national":
            raise StateError(f"contract office: {cid} is not a national contract")
        if cid in seen:
            raise StateError(f"contract {cid} appears twice")
        seen.add(cid)
    for c in state.companies.values():
        for cid in c.contracts:
            if cid in seen:
                raise StateError(f"contract {cid} is both fulfilled by {c.company} and elsewhere")
            seen.add(cid)
    if len(state.patent_office.slots) != 3:
        raise StateError("the patent office has 3 slots")
    for t in state.patent_office.slots:
        if t is not None and t not in comps.advanced_tiles():
            raise StateError(f"patent office: unknown tile {t!r}")
    for sec, spaces in state.action_spaces.items():
        if sec not in ACTION_SECTIONS and sec != "company":
            raise StateError(f"unknown action section {sec!r}")
        for sp, ps in spaces.items():
            if sec not in ("company",) and sp not in dict(ACTION_SECTIONS[sec]) and sp != "overflow":
                raise StateError(f"unknown action space {sec}.{sp}")
            for p in ps:
                if p.company not in state.companies:
                    raise StateError(f"action space {sec}.{sp}: unknown company {p.company!r}")
    for h in state.human_first_actions:
        if h not in state.companies or state.companies[h].automa:
            raise StateError(f"human_first_actions: {h!r} is not a human company")
    if len(set(state.human_first_actions)) != len(state.human_first_actions):
        raise StateError("human_first_actions: a human's first-action tile is drawn once a round")
    _validate_leeghwater(state)
    tiles = set(range(1, 21))
    if sorted(state.deck.draw_pile + state.deck.discard) != sorted(tiles):
        raise StateError("the Automa deck must hold tiles 1-20 exactly once (draw pile + discard)")
    if not state.deck.draw_pile:
        raise StateError("the Automa draw pile cannot be empty (it is reshuffled when it runs out)")


def _validate_leeghwater(state: GameState) -> None:
    """External Works and Private Buildings exist only with the Leeghwater Project."""
    comps = components()
    works = comps.external_works()
    buildings = comps.private_buildings()
    if not state.leeghwater:
        if any(state.external_works.slots) or state.private_buildings:
            raise StateError("External Works and Private Buildings need the Leeghwater Project (leeghwater: true)")
        return
    if len(state.external_works.slots) != 3:
        raise StateError("the External Works have 3 positions")
    seen: set[int] = set()
    for w in [x for x in state.external_works.slots if x is not None] + [
            x for pile in state.external_works.piles.values() for x in pile] + [
            x for c in state.companies.values() for x in c.external_works]:
        if w not in works:
            raise StateError(f"unknown External Work {w}")
        if w in seen:
            raise StateError(f"External Work {w} appears twice")
        seen.add(w)
    names = [b.building for b in state.private_buildings]
    if len(set(names)) != len(names):
        raise StateError("a Private Building appears twice in the display")
    for b in state.private_buildings:
        if b.building not in buildings:
            raise StateError(f"unknown Private Building {b.building!r}")
        if len(set(b.built_by)) != len(b.built_by):
            raise StateError(f"{b.building}: a company builds each Private Building at most once")
        if len(b.built_by) > building_slots(state):
            raise StateError(f"{b.building}: at most {building_slots(state)} companies build it")
        for c in b.built_by:
            if c not in state.companies:
                raise StateError(f"{b.building}: unknown company {c!r}")
    for cid in state.companies:
        n = sum(cid in b.built_by for b in state.private_buildings)
        if n > comps.raw["starting"]["buildings"]:
            raise StateError(f"{cid}: built {n} Private Buildings but owns {comps.raw['starting']['buildings']}")


def building_slots(state: GameState) -> int:
    """Build slots of a Private Building: 4, the second closed below 4 players (BGA; unconfirmed)."""
    return 4 if state.player_count >= 4 else 3
