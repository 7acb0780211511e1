"""Reading a dam together with its lake (vision.barrage.held_water): a dam of n pieces holds at
most n drops, an empty dam space none; every count a dam holds is as likely, whatever
the training lakes mostly held."""
import json

import numpy as np
import pytest

from lab.training.lake_shares import lake_counts
from vision.barrage.board_state import build_map, slot_readings
from vision.barrage.drop_counter import widen
from vision.barrage.held_water import FITS, LAKE_SHARES, HeldWater, choose, lake_shares, pair_weights
from vision.barrage.labels import MAX_DROPS, MAX_HEADSTREAM_DROPS, OWNERS, PIECES
from vision.barrage.slot_model import decode

from .drawn import LAYOUT
from .heads import INDEX, logits

WATER = HeldWater.from_layout(LAYOUT)


def w(piece, drops):
    """The shipped weight of a lake reading of ``drops`` for a dam ``piece``."""
    return WATER.weights[PIECES.index(piece), drops]


def held(piece, drops):
    """The chance a lake reading (count -> probability) leaves to a dam ``piece``: its
    counts that fit, weighed."""
    return sum(p * w(piece, d) for d, p in drops.items())


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
    drops = {2: 0.95, 1: 0.05}
    fits = 0.55 * held("base", drops) + 0.45 * held("base+1", drops)
    assert together["3U"].confidence == pytest.approx(0.45 * held("base+1", drops) / fits, rel=1e-3)
    assert together["3U"].conflict == "read alone: base with 2 drops, more than it holds; taken as base+1 with 2 drops"


def test_scores_widened_for_a_headstream_counter_read_a_dam_and_its_lake_as_before():
    """A headstream counter that reads more counts than the slot model widens every box's drop
    scores (``vision.barrage.drop_counter.widen``); counts past what any dam holds change nothing."""
    raw = logits({"3U": ({"base": 0.55, "base+1": 0.45}, {"italy": 1.0})}, drops={"lake:3U": {2: 0.95, 1: 0.05}})
    wide = dict(raw, drops=widen(raw["drops"], MAX_HEADSTREAM_DROPS + 1))
    assert wide["drops"].shape[1] > MAX_DROPS + 1
    pair = ("3U", "lake:3U")
    assert [read(wide)[k] for k in pair] == [read(raw)[k] for k in pair]


def test_a_clear_base_caps_a_doubtful_drop_count():
    raw = logits({"7L": ({"base": 0.95, "base+1": 0.05}, {"usa": 1.0})}, drops={"lake:7L": {2: 0.55, 1: 0.45}})
    dam = read(raw)
    assert (dam["7L"].piece, dam["lake:7L"].drops) == ("base", 1)
    # The whole reading's share of the readings that fit: base with 1 drop against
    # base + 1 with 0-2 drops (and the dam's confidence times its lake's).
    slot = slot_readings(LAYOUT, decode(raw, LAYOUT.kinds, None, WATER))[INDEX["7L"]]
    base = 0.95 * 0.45 * w("base", 1)
    assert slot.confidence == pytest.approx(base / (base + 0.05 * held("base+1", {2: 0.55, 1: 0.45})), rel=1e-3)
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
    # Both heights hold both counts the lake gives weight to; a base + 2 shares its chance
    # among four counts, a base + 1 among three, so the taller reading keeps 3/4 of its chance.
    assert together["5L"].confidence == pytest.approx(0.9 / (0.9 + 0.1 * 3 / 4), rel=1e-3)


def test_a_lake_is_not_read_as_the_training_lakes_mostly_were():
    # Most training lakes lie below an empty dam space and hold no water, so a reader unsure
    # of a drop leans to none: 60 % none, 40 % one drop. Below a clear base, whose lake
    # holds 0 or 1 drop alike, that lean is taken out and the drop is read.
    drops = {0: 0.6, 1: 0.4}
    raw = logits({"7L": ({"base": 0.99, "empty": 0.01}, {"usa": 1.0})}, drops={"lake:7L": drops})
    assert read(raw, None)["lake:7L"].drops == 0
    dam = read(raw)
    assert (dam["7L"].piece, dam["lake:7L"].drops) == ("base", 1)
    assert dam["lake:7L"].confidence == pytest.approx(held("base", {1: 0.4}) / held("base", drops), rel=1e-3)
    # With capacity alone (every fitting pair weighed 1) the lean stays.
    table = np.zeros((len(PIECES), len(OWNERS)))
    table[PIECES.index("base"), OWNERS.index("usa")] = 1.0
    p = np.array([drops.get(d, 0.0) for d in range(MAX_DROPS + 1)])
    assert choose(table, p, FITS.astype(float)).drops == 0
    # Below a clear empty space the same lake holds nothing.
    raw = logits({}, drops={"lake:7L": drops})
    assert read(raw)["lake:7L"].drops == 0


def test_pair_weights_divide_the_training_shares_out_of_each_count_a_dam_holds():
    shares = np.array([0.5, 0.25, 0.125, 0.125, 0, 0, 0, 0])
    weights = pair_weights(shares)
    assert (weights[~FITS] == 0).all()
    for piece, n in (("empty", 1), ("base", 2), ("base+1", 3), ("base+2", 4)):
        row = weights[PIECES.index(piece)]
        assert row[:n] == pytest.approx(1 / n / shares[:n])
    # Equal shares leave each dam's counts equally likely.
    flat = pair_weights(np.full(MAX_DROPS + 1, 1 / (MAX_DROPS + 1)))
    assert flat[PIECES.index("base+1"), :3] == pytest.approx([8 / 3] * 3)


def test_the_shipped_shares_are_the_generators_lakes():
    shipped = json.loads(LAKE_SHARES.read_text())
    assert sum(shipped["counts"]) == shipped["lakes"]
    assert shipped["shares"] == pytest.approx([c / shipped["lakes"] for c in shipped["counts"]], abs=1e-5)
    # A recount over fewer games comes out near them: most lakes dry, a few full.
    counts = np.array(lake_counts(400, 3_100_000))
    assert counts.sum() == 400 * len(LAYOUT.of_kind("dam")) and counts[4:].sum() == 0
    assert counts / counts.sum() == pytest.approx(lake_shares(), abs=0.03)
    assert lake_shares()[0] > 0.7


def test_shares_that_leave_a_count_a_dam_holds_out_are_refused(tmp_path):
    path = tmp_path / "shares.json"
    path.write_text(json.dumps({"shares": [0.9, 0.1, 0.0, 0.0, 0, 0, 0, 0]}))
    with pytest.raises(ValueError, match="each count a dam holds above 0"):
        lake_shares(path)
    for broken in ("{not json", json.dumps({"counts": [1, 2]}), json.dumps({"shares": "many"})):
        path.write_text(broken)
        with pytest.raises(ValueError, match="not a lake shares file"):
            lake_shares(path)


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
    c = WATER.choose(table, drops)
    assert (PIECES[c.piece], OWNERS[c.owner], c.drops) == ("base", "usa", 1)
    assert c.conflict == "read alone: base with 5 drops, more than it holds; taken as base with 1 drop"
    one = 2 * w("base", 1)
    assert c.piece_share == pytest.approx(1.0, rel=1e-3) and c.drops_share == pytest.approx(one / (one + w("base", 0)), rel=1e-3)


def test_a_dam_keeps_both_notes_when_its_colour_and_its_water_break_a_rule():
    """Rulings V2 and V4 together: a white base (France, not in the game; Italy a distant
    second) with two clear drops, more than a base holds."""
    raw = logits({"3U": ({"base": 0.55, "base+1": 0.45}, {"france": 0.9, "italy": 0.1})},
                 drops={"lake:3U": {2: 0.95, 1: 0.05}})
    dam = {b.key: r for b, r in zip(LAYOUT.boxes, decode(raw, LAYOUT.kinds, None, WATER, ["italy", "usa"]))}["3U"]
    assert (dam.piece, dam.owner) == ("base+1", "italy")
    assert dam.conflict == ("looks like france's colour, but france is not in this game; "
                            "read alone: base with 2 drops, more than it holds; taken as base+1 with 2 drops")


def test_a_del_monte_level_3_dam_is_read_with_four_drops():
    """Rulings V14: Graziano Del Monte's level 3 dams hold 4 drops; other companies' 3, and
    his level 2 dams still 2. A lake reading 4 drops beside a base + 2 dam of each."""
    raw = logits({"3U": ({"base+2": 0.9, "base+1": 0.1}, {"italy": 1.0}),
                  "4U": ({"base+2": 0.9, "base+1": 0.1}, {"usa": 1.0}),
                  "5U": ({"base+1": 1.0}, {"italy": 1.0})},
                 drops={"lake:3U": {4: 0.8, 3: 0.2}, "lake:4U": {4: 0.8, 3: 0.2}, "lake:5U": {4: 0.8, 2: 0.2}})
    out = {b.key: r for b, r in zip(LAYOUT.boxes, decode(raw, LAYOUT.kinds, None, WATER, del_monte=["italy"]))}
    assert (out["3U"].piece, out["lake:3U"].drops, out["3U"].conflict) == ("base+2", 4, None)
    assert (out["4U"].piece, out["lake:4U"].drops) == ("base+2", 3)
    assert "more than it holds" in out["4U"].conflict
    assert (out["5U"].piece, out["lake:5U"].drops) == ("base+1", 2)
    # without Del Monte in the game, Italy's dam holds 3 like any other
    plain = {b.key: r for b, r in zip(LAYOUT.boxes, decode(raw, LAYOUT.kinds, None, WATER))}
    assert plain["lake:3U"].drops == 3


def test_four_drops_are_weighed_as_the_training_weighed_three():
    """No training lake held 4 drops (Del Monte is not in the generator's games): the count
    is divided by the share of 3, the most any held (rulings V14)."""
    shares = lake_shares()
    assert shares[4] == 0 and shares[3] > 0
    deep = pair_weights(shares, del_monte=True)
    top = PIECES.index("base+2")
    assert deep[top, 4] == pytest.approx(deep[top, 3]) and deep[top, 5] == 0
    assert (deep[PIECES.index("base+1")] == WATER.weights[PIECES.index("base+1")]).all()
    weights = WATER.owner_weights(["italy"])
    assert weights.shape == (len(PIECES), len(OWNERS), MAX_DROPS + 1)
    assert weights[top, OWNERS.index("italy"), 4] > 0 and weights[top, OWNERS.index("usa"), 4] == 0
