"""Thousands of Automa turns from random legal states: invariants that must always hold.

The states cover every level (Easy to Very Hard, each officer), the Leeghwater Project and
acquired advanced tiles of every kind.

- a turn with engineers always ends in a legal, performed action (never "pass");
- every structure goes on a legal, empty space of the right kind;
- water drops are conserved (only supply -> map and map -> exit change the count);
- VP arithmetic is exact (the decision's vp_delta is the sum of its VP ops and of its steps);
- the ops replay to a valid state; decide is deterministic and leaves its input alone.
"""
import random

import pytest

from automa.barrage.actions import DASHED
from automa.barrage.data import barrage_map, components
from automa.barrage.engine import apply_decision, decide
from automa.barrage.ops import apply_op
from automa.barrage.random_states import random_state
from automa.barrage.rules import legal_spaces
from automa.barrage.state import LEVELS, Segment, validate

TURNS = 2500


def perturb(state, rng: random.Random):
    """Vary what random_state leaves at set-up values: round, energy, engineers, machinery,
    wheels, tiles, offices, the deck, levels and officers, always within the rules."""
    state.round = rng.randint(1, 5)
    adv = list(components().advanced_tiles())
    base_adv = [t for t in adv if state.leeghwater or components().advanced_tiles()[t]["expansion"] == "base"]
    officers = [o for o, info in components().officers().items() if state.leeghwater or not info["needs_leeghwater"]]
    rng.shuffle(officers)
    for c in state.companies.values():
        if c.automa:
            c.level = rng.choice(LEVELS)
            if c.level == "very-hard":
                c.officer = officers.pop()
                c.architect = c.officer == "battista" and rng.random() < 0.7
                c.excamixers = rng.randint(0, 8) if c.officer == "audia" else 0
                if c.officer in ("krylov", "spencer"):
                    c.tiles.append("anton" if c.officer == "krylov" else "leslie")
        c.engineers = rng.randint(0, 12) if rng.random() < 0.15 else rng.randint(1, 12)
        c.excavators, c.mixers = rng.randint(0, 12), rng.randint(0, 9)
        c.wheel = [Segment() for _ in range(6)]
        for _ in range(rng.randint(0, 3)):
            seg = c.wheel[rng.randrange(6)]
            seg.excavators += rng.randint(0, 3)
            seg.mixers += rng.randint(0, 2)
            if c.tiles and rng.random() < 0.5:
                seg.tiles.append(c.tiles.pop(rng.randrange(len(c.tiles))))
        if rng.random() < 0.4:
            c.tiles.append(rng.choice(base_adv))
    state.energy = {c: rng.randint(0, 30) for c in state.companies}
    state.patent_office.slots = [rng.choice(base_adv + [None]) for _ in range(3)]
    for _ in range(rng.randint(0, 40)):
        state.deck = state.deck.flip()
    office = state.contract_office
    for colour in office.private:
        if rng.random() < 0.2:
            office.discards[colour].extend(c for c in office.private[colour] if c is not None)
            office.private[colour] = [None, None]
    for b in state.private_buildings:
        b.built_by = rng.sample(state.turn_order, rng.randint(0, min(2, len(state.turn_order))))
    if state.leeghwater and rng.random() < 0.3:
        state.external_works.slots[rng.randrange(3)] = None
    validate(state)
    return state


def drops_on_map(state) -> int:
    return sum(state.headstreams.values()) + sum(d.drops for d in state.dams.values())


def states():
    for seed in range(TURNS):
        rng = random.Random(seed)
        s = random_state(seed, automas=rng.randint(1, 3), humans=rng.randint(0, 1), moves=rng.randint(0, 60),
                         leeghwater=rng.random() < 0.4)
        yield seed, perturb(s, rng)


def check_turn(seed: int, s) -> str:
    """Check one decision on ``s``; return the action that ended the turn."""
    bmap = barrage_map()
    before = s.to_json()
    who = random.Random(seed).choice(s.automas)
    d = decide(s, who)
    assert s.to_json() == before, "decide must not modify its input"
    me = s.companies[who]
    if me.workers() == 0:
        assert d.action == "pass" and not d.ops
        return d.action
    assert d.action != "pass", f"seed {seed}: a turn with engineers must end with an action"
    assert d.steps and (d.steps[-1].action not in DASHED or d.engineers == me.workers()), \
        f"seed {seed}: the turn ends on a turn-ending action unless the engineers ran out"
    after = apply_decision(s, d)           # validates the resulting state
    # -- structures ------------------------------------------------------------------
    work = s.copy()
    for op in d.ops:
        if op["op"] == "build":
            kind, space = op["structure"], op["space"]
            assert space in legal_spaces(work, op["company"], kind), f"seed {seed}: {kind} on illegal {space}"
            table = {"dam_base": bmap.dams, "elevation": bmap.dams, "conduit": bmap.conduits,
                     "powerhouse": bmap.powerhouses}[kind]
            assert space in table
        apply_op(work, op)
    # -- drops -----------------------------------------------------------------------
    added = sum(op["count"] for op in d.ops if op["op"] == "drops" and op["source"] == "supply")
    gone = sum(op["count"] for op in d.ops if op["op"] == "drops" and op["target"] == "exit")
    assert drops_on_map(after) == drops_on_map(s) + added - gone, f"seed {seed}: drops not conserved"
    # -- VP and engineers ------------------------------------------------------------
    vp_ops = sum(op["delta"] for op in d.ops if op["op"] == "vp" and op["company"] == who)
    assert d.vp_delta == vp_ops == after.companies[who].vp - me.vp == sum(st.vp_delta for st in d.steps)
    assert d.engineers == me.workers() - after.companies[who].workers() == sum(st.engineers for st in d.steps)
    # Only a construction may place no engineer: an engineer-free tile (Hard), Grasso's discounted building.
    assert 1 <= d.engineers or [st.action for st in d.steps] == ["construction"]
    assert decide(s, who).to_dict() == d.to_dict(), "decide is deterministic"
    return d.action


def test_thousands_of_random_turns_keep_every_invariant():
    actions = set()
    seen = set()
    for seed, s in states():
        actions.add(check_turn(seed, s))
        seen |= {(c.level, c.officer) for c in s.companies.values() if c.automa}
    # the random states must actually exercise the engine, not just the Bank
    assert {"production", "construction", "workshop", "machinery_shop", "bank", "external_work"} <= actions, actions
    assert {level for level, _ in seen} == set(LEVELS)
    assert {o for _, o in seen if o} == set(components().officers())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_full_games_play_out(seed):
    """Five rounds of 2 Automas and a passive human: every turn valid, the game ends."""
    from automa.barrage import phases
    from automa.barrage.setup import new_game
    s = new_game(2, 1, seed=seed)
    for _ in range(5):
        s2 = s.copy()
        phases.income_phase(s2)
        phases.headstream_phase(s2)
        s = s2
        for _ in range(40):
            movers = [c for c in s.automas if s.companies[c].engineers > 0]
            if not movers:
                break
            for c in movers:
                s = apply_decision(s, decide(s, c))
        assert all(s.companies[c].engineers == 0 for c in s.automas), "the Actions phase ends when engineers run out"
        s2 = s.copy()
        phases.round_end(s2)
        validate(s2)
        s = s2
    assert s.round == 5
