"""A legal starting state: standard set-up for humans and 1-3 Automa players.

The state is the one at the start of round 1's Actions phase (income is empty
in round 1; the headstream tiles' round-I drops are on the headstreams). Every
random choice comes from one seed, so the same seed gives the same game.
"""
from __future__ import annotations

import random

from automa.common.deck import Deck

from .data import CONTRACT_COLOURS, STRUCTURES, barrage_map, components
from .state import NEUTRAL, Company, ContractOffice, Dam, GameState, PatentOffice, validate

BASE_COMPANIES = ("usa", "germany", "italy", "france")


def new_game(automas: int = 1, humans: int = 1, seed: int = 0, *, companies: list[str] | None = None,
             difficulty: str = "medium", leeghwater: bool = False) -> GameState:
    """Set up a game. ``companies`` (optional) names them in turn order, Automas first."""
    if not 1 <= automas <= 3:
        raise ValueError("Barrage plays with 1-3 Automa players")
    if humans < 0 or automas + humans > (5 if leeghwater else 4):
        raise ValueError(f"{automas} Automas and {humans} humans do not fit: at most {5 if leeghwater else 4} companies")
    rng = random.Random(seed)
    comps = components().raw
    pool = list(BASE_COMPANIES) + (["netherlands"] if leeghwater else [])
    if companies is None:
        companies = rng.sample(pool, automas + humans)
    elif len(companies) != automas + humans or len(set(companies)) != len(companies) or not set(companies) <= set(pool):
        raise ValueError(f"companies must be {automas + humans} different ids among {', '.join(pool)}")
    start = comps["starting"]
    players: dict[str, Company] = {}
    for i, cid in enumerate(companies):
        automa = i < automas     # Automas take the first turn-order positions
        players[cid] = Company(
            company=cid, automa=automa, vp=start["vp_automa"] if automa else start["vp_human"],
            engineers=start["engineers"], excavators=start["excavators"], mixers=start["mixers"],
            credits=0 if automa else start["credits_human"], structures=dict(start["structures"]),
            tiles=list(STRUCTURES), difficulty=difficulty if automa else "medium")
    bonus_pool = [b["id"] for b in comps["round_bonus_tiles"] if leeghwater or b["expansion"] == "base"]
    headstream_tiles = rng.sample([h["tile"] for h in comps["headstream_tiles"]], 4)
    state = GameState(
        companies=players, turn_order=list(companies), round=1,
        bonus_tiles=rng.sample(bonus_pool, comps["rounds"]),
        objective_tile=rng.choice([o["id"] for o in comps["objective_tiles"]]),
        headstream_tiles=dict(zip("ABCD", headstream_tiles)),
        energy={c: 0 for c in companies}, leeghwater=leeghwater,
        deck=Deck.new(list(range(1, 21)), seed),
    )
    tiles = {h["tile"]: h["drops"] for h in comps["headstream_tiles"]}
    state.headstreams = {h: tiles[t][0] for h, t in state.headstream_tiles.items()}
    for nd in barrage_map().neutral_dams:
        space = rng.choice(nd["candidate_spaces"])
        state.dams[space] = Dam(NEUTRAL, nd["pieces"], nd["drops"])
    state.contract_office = _contract_office(rng, len(companies))
    state.patent_office = _patent_office(rng, leeghwater)
    validate(state)
    return state


def _contract_office(rng: random.Random, n_companies: int) -> ContractOffice:
    contracts = components().raw["contracts"]
    office = ContractOffice()
    for colour in CONTRACT_COLOURS:
        pile = [c["id"] for c in contracts if c["kind"] == colour]
        rng.shuffle(pile)
        office.private[colour] = [pile.pop(0), pile.pop(0)]
        office.piles[colour] = pile
    national = [c["id"] for c in contracts if c["kind"] == "national"]
    office.national = sorted(rng.sample(national, max(0, n_companies - 1)))
    return office


def _patent_office(rng: random.Random, leeghwater: bool) -> PatentOffice:
    tiles = [t for t in components().raw["advanced_technology_tiles"] if leeghwater or t["expansion"] == "base"]
    piles = {}
    for level in ("1", "2", "3"):
        pile = [t["id"] for t in tiles if str(t["level"]) == level]
        rng.shuffle(pile)
        piles[level] = pile
    slots = [piles["1"].pop(0) for _ in range(3)]
    return PatentOffice(slots=slots, piles=piles)
