"""Build small, explicit Barrage scenarios for tests: an empty map, a chosen
tile pair, fixed contracts. Tests then place exactly the pieces a rulebook
example shows."""
from __future__ import annotations

from automa.barrage.setup import new_game
from automa.barrage.state import Dam, GameState


def scenario(automa: str = "usa", others: tuple[str, ...] = ("france",), *, actions: int, criteria: int,
             round_: int = 1, automas: int = 1, leeghwater: bool = False) -> GameState:
    """A state where ``automa`` plays next with the Actions side of tile ``actions``
    and the Criteria side of tile ``criteria``; the map is empty (no neutral dams)."""
    s = new_game(automas=automas, humans=len(others) + 1 - automas, seed=0, companies=[automa, *others],
                 leeghwater=leeghwater)
    s.round = round_
    clear_map(s)
    set_tiles(s, actions=actions, criteria=criteria)
    for colour, ids in {"green": [205, 206], "yellow": [300, 310], "red": [405, 411]}.items():
        set_contracts(s, colour, ids)
    s.contract_office.national = []
    return s


def set_contracts(s: GameState, colour: str, face_up: list[int | None]) -> None:
    """Put ``face_up`` (left, right) in the Contract Office; the rest of the colour is its pile."""
    first = {"green": 200, "yellow": 300, "red": 400}[colour]
    office = s.contract_office
    office.private[colour] = list(face_up)
    office.piles[colour] = [i for i in range(first, first + 15) if i not in face_up]
    office.discards[colour] = []


def clear_map(s: GameState) -> GameState:
    """No structure (neutral dams included) and no water on the map."""
    s.dams.clear()
    s.conduits.clear()
    s.powerhouses.clear()
    s.headstreams = {h: 0 for h in "ABCD"}
    return s


def set_tiles(s: GameState, *, actions: int, criteria: int) -> None:
    """The next flip shows ``criteria``'s Criteria side and ``actions``'s Actions side."""
    rest = [t for t in range(1, 21) if t not in (actions, criteria)]
    s.deck.draw_pile = [criteria, actions] + rest
    s.deck.discard = []


def dam(s: GameState, space: str, owner: str, pieces: int = 1, drops: int = 0) -> None:
    s.dams[space] = Dam(owner, pieces, drops)
    if owner in s.companies:
        s.companies[owner].structures["dam_base"] -= 1
        s.companies[owner].structures["elevation"] -= pieces - 1


def conduit(s: GameState, space: str, owner: str) -> None:
    s.conduits[space] = owner
    s.companies[owner].structures["conduit"] -= 1


def powerhouse(s: GameState, space: str, owner: str) -> None:
    s.powerhouses[space] = owner
    s.companies[owner].structures["powerhouse"] -= 1


def set_external_works(s: GameState, slots: list[int | None]) -> None:
    """The External Works face up at positions 1-3 (top to bottom); every other work in its deck's pile."""
    from automa.barrage.data import components
    s.external_works.slots = list(slots)
    s.external_works.piles = {d: [w["id"] for w in components().raw["external_works"]
                                  if w["deck"] == d and w["id"] not in slots] for d in "ABC"}


def hard(s: GameState, company: str = "usa", level: str = "hard") -> GameState:
    """``company``'s Automa at ``level`` (default Hard)."""
    s.companies[company].level = level
    return s


def officer(s: GameState, name: str, company: str = "usa") -> GameState:
    """``company``'s Automa at Very Hard with the officer ``name``."""
    c = s.companies[company]
    c.level, c.officer = "very-hard", name
    return s


def invested(d) -> dict:
    """The decision's one investment op."""
    return next(op for op in d.ops if op["op"] == "invest")


def ops(d, kind: str) -> list[dict]:
    """The decision's ops of ``kind``."""
    return [op for op in d.ops if op["op"] == kind]


# the Private Buildings display, top to bottom
DISPLAY = ["wind_farm", "cofferdam", "research_lab", "robot_factory", "loan_agency"]
