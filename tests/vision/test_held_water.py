"""Reading a dam together with its lake (vision.held_water): a dam of n pieces holds at
most n drops, an empty dam space none."""
import numpy as np
import pytest

from vision.board_state import build_map, slot_readings
from vision.held_water import FITS, HeldWater, choose
from vision.labels import MAX_DROPS, OWNERS, PIECES
from vision.model import decode

from .drawn import LAYOUT
from .heads import INDEX, logits

WATER = HeldWater.from_layout(LAYOUT)


def read(raw, water=WATER):
    return {b.key: r for b, r in zip(LAYOUT.boxes, decode(raw, LAYOUT.kinds, None, water))}


def test_every_dam_is_paired_with_its_own_lake():
    pairs = {LAYOUT.boxes[d].key: LAYOUT.boxes[lake].key for d, lake in WATER.pairs}
    dams = [s.id for s in LAYOUT.of_kind("dam")]
    assert len(dams) == 20 and pairs == {d: f"lake:{d}" for d in dams}


def test_capacity_is_one_drop_per_piece():
    fits = {p: [d for d in range(MAX_DROPS + 1) if FITS[PIECES.index(p), d]]
            for p in ("empty", "base", "base+1", "base+2")}
    assert fits == {"empty": [0], "base": [0, 1], "base+1": [0, 1, 2], "base+2": [0, 1, 2, 3]}


def test_two_clear_drops_raise_a_dam_the_net_is_unsure_of():
    # The dam alone reads as a base (55 %) rather than base + 1 (45 %); its lake shows 2
    # drops beyond doubt, which a base cannot hold.
    raw = logits({"3U": ({"base": 0.55, "base+1": 0.45}, {"italy": 1.0})}, drops={"lake:3U": {2: 0.95, 1: 0.05}})
    alone = read(raw, None)
    assert (alone["3U"].piece, alone["lake:3U"].drops) == ("base", 2)
    together = read(raw)
    assert (together["3U"].piece, together["3U"].owner, together["lake:3U"].drops) == ("base+1", "italy", 2)
    # Of the pairs a dam can hold: base with 0-1 drops, base + 1 with 0-2.
    fits = 0.55 * (1e-9 * 6 + 0.05) + 0.45 * 1.0
    assert together["3U"].confidence == pytest.approx(0.45 * 1.0 / fits, rel=1e-3)
    assert together["3U"].conflict == "read alone: base with 2 drops, more than it holds; taken as base+1 with 2 drops"


def test_a_clear_base_caps_a_doubtful_drop_count():
    raw = logits({"7L": ({"base": 0.95, "base+1": 0.05}, {"usa": 1.0})}, drops={"lake:7L": {2: 0.55, 1: 0.45}})
    dam = read(raw)
    assert (dam["7L"].piece, dam["lake:7L"].drops) == ("base", 1)
    # The whole reading's share of the readings that fit: base with 1 drop against
    # base + 1 with 0-2 drops (and the dam's confidence times its lake's).
    slot = slot_readings(LAYOUT, decode(raw, LAYOUT.kinds, None, WATER))[INDEX["7L"]]
    assert slot.confidence == pytest.approx(0.95 * 0.45 / (0.95 * 0.45 + 0.05 * 1.0), rel=1e-3)
    assert slot.conflict is not None                # and flagged for the players to check


def test_drops_in_an_empty_dam_space_make_it_a_dam_or_no_drops():
    # A pale dam the net takes for an empty space (60 %) with one clear drop in its lake.
    raw = logits({"1U": ({"empty": 0.6, "base": 0.4}, {"france": 0.9, "none": 0.1})},
                 drops={"lake:1U": {1: 0.9, 0: 0.1}})
    dam = read(raw)
    assert (dam["1U"].piece, dam["1U"].owner, dam["lake:1U"].drops) == ("base", "france", 1)
    # Where the space is clearly empty, the drop goes instead.
    raw = logits({}, drops={"lake:1U": {1: 0.9, 0: 0.1}})
    dam = read(raw)
    assert (dam["1U"].piece, dam["lake:1U"].drops) == ("empty", 0)
    assert dam["1U"].conflict == "read alone: empty with 1 drop, more than it holds; taken as empty with 0 drops"


def test_a_pair_that_fits_is_read_as_before_and_carries_no_note():
    raw = logits({"5L": ({"base+1": 0.9, "base+2": 0.1}, {"germany": 1.0})}, drops={"lake:5L": {1: 0.8, 2: 0.2}})
    alone, together = read(raw, None), read(raw)
    for key in ("5L", "lake:5L"):
        assert together[key].piece == alone[key].piece and together[key].drops == alone[key].drops
    assert together["5L"].conflict is None
    # The confidences are shares of the pairs that fit: here every pair the heads give weight to.
    assert together["5L"].confidence == pytest.approx(alone["5L"].confidence, rel=1e-3)


def test_the_note_reaches_the_players_as_a_flag():
    raw = logits({"3U": ({"base": 0.55, "base+1": 0.45}, {"italy": 1.0})}, drops={"lake:3U": {2: 0.95, 1: 0.05}})
    readings = slot_readings(LAYOUT, decode(raw, LAYOUT.kinds, None, WATER))
    board, flags = build_map(readings)
    assert board.dams["3U"].pieces == 2 and board.dams["3U"].drops == 2
    assert [f.problem for f in flags if f.slot == "3U" and "read alone" in f.problem] == \
        ["read alone: base with 2 drops, more than it holds; taken as base+1 with 2 drops"]


def test_choose_always_finds_a_reading():
    # Heads certain of a reading no dam can show (a base with 5 drops): the likeliest pair
    # that fits is still returned, with its small share.
    table = np.zeros((len(PIECES), len(OWNERS)))
    table[PIECES.index("base"), OWNERS.index("usa")] = 1 - 1e-6
    table[PIECES.index("empty"), OWNERS.index("none")] = 1e-6
    drops = np.full(MAX_DROPS + 1, 1e-6)
    drops[1], drops[5] = 2e-6, 1.0
    c = choose(table, drops)
    assert (PIECES[c.piece], OWNERS[c.owner], c.drops) == ("base", "usa", 1)
    assert c.conflict == "read alone: base with 5 drops, more than it holds; taken as base with 1 drop"
    assert c.piece_share == pytest.approx(1.0, rel=1e-3) and c.drops_share == pytest.approx(2 / 3, rel=1e-3)


def test_a_dam_keeps_both_notes_when_its_colour_and_its_water_break_a_rule():
    """Rulings V2 and V4 together: a white base (France, not in the game; Italy a distant
    second) with two clear drops, more than a base holds."""
    raw = logits({"3U": ({"base": 0.55, "base+1": 0.45}, {"france": 0.9, "italy": 0.1})},
                 drops={"lake:3U": {2: 0.95, 1: 0.05}})
    dam = {b.key: r for b, r in zip(LAYOUT.boxes, decode(raw, LAYOUT.kinds, None, WATER, ["italy", "usa"]))}["3U"]
    assert (dam.piece, dam.owner) == ("base+1", "italy")
    assert dam.conflict == ("looks like france's colour, but france is not in this game; "
                            "read alone: base with 2 drops, more than it holds; taken as base+1 with 2 drops")
