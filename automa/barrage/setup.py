"""A legal starting state: standard set-up for humans and 1-3 Automa players.

The state is the one at the start of round 1's Actions phase (income is empty
in round 1; the headstream tiles' round-I drops are on the headstreams). Every
random choice comes from one seed, so the same seed gives the same game.
"""
from __future__ import annotations

import random

from automa.common.deck import Deck

from . import officers as officer_rules
from .data import CONTRACT_COLOURS, STRUCTURES, barrage_map, components
from .state import (LEVELS, NEUTRAL, Company, ContractOffice, Dam, ExternalWorks, GameState, PatentOffice,
                    PrivateBuilding, validate)

BASE_COMPANIES = ("usa", "germany", "italy", "france")


def new_game(automas: int = 1, humans: int = 1, seed: int = 0, *, companies: list[str] | None = None,
             difficulty: str = "medium", leeghwater: bool = False, levels: list[str] | None = None,
             officers: list[str | None] | None = None) -> GameState:
    """Set up a game. ``companies`` (optional) names them in turn order, Automas first.

    ``levels`` gives each Automa its level in turn order (default: ``difficulty`` for all);
    ``officers`` gives each Very Hard Automa its executive officer (None or missing: drawn from
    the seed among those not taken). With ``leeghwater`` the expansion is set up: the Netherlands
    in the company pool, 5 of the 10 Private Buildings, the External Works, the Building tiles.
    """
    levels = list(levels) if levels else [difficulty] * automas
    if len(levels) != automas or not set(levels) <= set(LEVELS):
        raise ValueError(f"levels must give one of {', '.join(LEVELS)} for each of the {automas} Automas")
    if officers is not None and len(officers) > automas:
        raise ValueError(f"officers: at most one per Automa ({automas})")
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
    chosen = _officers(rng, levels, officers, leeghwater)
    basic = list(STRUCTURES) + (["building"] if leeghwater else [])
    for i, cid in enumerate(companies):
        automa = i < automas     # Automas take the first turn-order positions
        players[cid] = Company(
            company=cid, automa=automa, vp=start["vp_automa"] if automa else start["vp_human"],
            engineers=start["engineers"], excavators=start["excavators"], mixers=start["mixers"],
            credits=0 if automa else start["credits_human"], structures=dict(start["structures"]),
            tiles=list(basic), level=levels[i] if automa else "medium",
            officer=chosen[i] if automa else None)
        if players[cid].officer:
            officer_rules.apply_start(players[cid])
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
    if leeghwater:
        state.external_works = _external_works(rng)
        pool = sorted(components().private_buildings())
        state.private_buildings = [PrivateBuilding(b) for b in
                                   rng.sample(pool, comps["starting"]["private_buildings_in_play"])]
    validate(state)
    return state


def _officers(rng: random.Random, levels: list[str], given: list[str | None] | None,
              leeghwater: bool) -> list[str | None]:
    """One officer per Very Hard Automa (given, else drawn among the free ones); None below Very Hard."""
    known = components().officers()
    given = list(given or []) + [None] * (len(levels) - len(given or []))
    for level, o in zip(levels, given):
        if o is not None and o not in known:
            raise ValueError(f"unknown executive officer {o!r} (known: {', '.join(known)})")
        if o is not None and level != "very-hard":
            raise ValueError(f"officer {o!r} given to a {level} Automa: only Very Hard Automas have officers")
        if o is not None and known[o]["needs_leeghwater"] and not leeghwater:
            raise ValueError(f"{known[o]['name']} needs the Leeghwater Project (--leeghwater)")
    taken = [o for o in given if o]
    if len(set(taken)) != len(taken):
        raise ValueError("each Automa needs a different executive officer")
    free = [o for o, info in known.items() if o not in taken and (leeghwater or not info["needs_leeghwater"])]
    out: list[str | None] = []
    for level, o in zip(levels, given):
        if level == "very-hard" and o is None:
            o = free.pop(rng.randrange(len(free)))
        out.append(o if level == "very-hard" else None)
    return out


def _external_works(rng: random.Random) -> ExternalWorks:
    """Each deck (A, B, C) shuffled; 3 face up from deck A."""
    piles = {}
    for deck in "ABC":
        pile = sorted(w["id"] for w in components().raw["external_works"] if w["deck"] == deck)
        rng.shuffle(pile)
        piles[deck] = pile
    slots = [piles["A"].pop(0) for _ in range(3)]
    return ExternalWorks(slots=slots, piles=piles)


def draw_external_works(piles: dict[str, list[int]]) -> tuple[list[int | None], dict[str, list[int]]]:
    """A new round's 3 External Works: from deck A, then B when A runs out, then C."""
    piles = {k: list(v) for k, v in piles.items()}
    slots: list[int | None] = []
    for _ in range(3):
        deck = next((d for d in "ABC" if piles[d]), None)
        slots.append(piles[deck].pop(0) if deck else None)
    return slots, piles


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
        if leeghwater:
            pile.pop()      # with the Building tiles, 1 tile per level is set aside unseen (BGA)
        piles[level] = pile
    slots = [piles["1"].pop(0) for _ in range(3)]
    return PatentOffice(slots=slots, piles=piles)
