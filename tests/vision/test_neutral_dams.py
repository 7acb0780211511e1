"""Reading dam slots with the map's neutral dams (vision.barrage.neutral_dams): one per area, on a
candidate space, at the area's height."""
from dataclasses import replace

import numpy as np
import pytest

from vision.barrage.labels import MAX_DROPS, OWNERS, PIECES
from vision.barrage.neutral_dams import PRESENT, NeutralDams
from vision.barrage.slot_model import decode, reading_table

from .drawn import LAYOUT
from .heads import logits

NEUTRAL = NeutralDams.from_map(LAYOUT)
KINDS = LAYOUT.kinds


def read(raw, neutral=NEUTRAL):
    return {b.key: r for b, r in zip(LAYOUT.boxes, decode(raw, KINDS, neutral))}


def test_the_map_gives_each_area_its_candidate_spaces_and_height():
    areas = [{LAYOUT.boxes[box].key: PIECES[piece] for box, piece in area} for area in NEUTRAL.areas]
    assert areas == [dict.fromkeys(["1L", "2L", "3L", "4L"], "base"), dict.fromkeys(["5L", "6L", "7L"], "base+1"),
                     dict.fromkeys(["8L", "9L", "10L"], "base+2")]
    assert all(LAYOUT.boxes[box].kind == "dam" for area in NEUTRAL.areas for box, _ in area)


def test_a_grey_dam_is_read_at_its_areas_height():
    # Clearly grey, and the net leans to one elevation: in the mountains a neutral dam is a base.
    raw = logits({"3L": ({"base": 0.3, "base+1": 0.6, "base+2": 0.1}, {"neutral": 0.95, "france": 0.05})})
    plain = read(raw, None)["3L"]
    assert (plain.piece, plain.owner) == ("base+1", "neutral")
    dam = read(raw)["3L"]
    assert (dam.piece, dam.owner) == ("base", "neutral")
    # Its grey share among the readings a table can show (grey at this height, or France at
    # any height), then weighed as the area's one neutral dam against none (rulings V1): the
    # mountains' other candidate spaces are empty, so the placements are "3L" and "none".
    allowed = 0.3 * 0.95 + 0.05 * (0.3 + 0.6 + 0.1)
    grey = 0.3 * 0.95 / allowed
    chance = PRESENT * grey / (PRESENT * grey + (1 - PRESENT) * (1 - grey))
    assert dam.confidence == pytest.approx(chance, rel=1e-3) and dam.confidence > grey


def test_an_areas_only_grey_looking_dam_is_likelier_its_neutral_dam_than_none():
    # 6L looks a little more white than grey, and no other hills dam looks grey at all. An
    # area without its neutral dam is possible but the rarer case (rulings V1), so 6L is
    # read as the area's neutral dam, unsure; a clearly white dam stays France's.
    raw = logits({"6L": ({"base+1": 1.0}, {"neutral": 0.4, "france": 0.6}),
                  "9L": ({"base+2": 1.0}, {"neutral": 0.05, "france": 0.95})})
    dams = read(raw)
    assert (dams["6L"].piece, dams["6L"].owner) == ("base+1", "neutral")
    assert dams["6L"].confidence == pytest.approx(PRESENT * 0.4 / (PRESENT * 0.4 + (1 - PRESENT) * 0.6), rel=1e-2)
    assert (dams["9L"].piece, dams["9L"].owner) == ("base+2", "france")
    # Weighing "none" like any one dam's placement, as before, read 6L as France's.
    assert read(raw, replace(NEUTRAL, present=0.5))["6L"].owner == "france"


def test_no_neutral_dam_stands_off_the_candidate_spaces():
    raw = logits({"3U": ({"base": 1.0}, {"neutral": 0.6, "france": 0.4})})
    assert read(raw, None)["3U"].owner == "neutral"
    dam = read(raw)["3U"]
    assert (dam.piece, dam.owner) == ("base", "france") and dam.confidence == pytest.approx(1.0, rel=1e-3)


def test_one_neutral_dam_per_area_goes_to_the_likeliest():
    # Two grey-looking dams in the hills: 6L is grey beyond doubt, 5L might be white (France).
    raw = logits({"5L": ({"base+1": 1.0}, {"neutral": 0.6, "france": 0.4}),
                  "6L": ({"base+1": 1.0}, {"neutral": 0.9, "france": 0.1}),
                  "9L": ({"base+2": 1.0}, {"neutral": 0.9, "france": 0.1})})
    dams = read(raw)
    assert (dams["6L"].owner, dams["5L"].owner, dams["9L"].owner) == ("neutral", "france", "neutral")
    # An area with no neutral dam at all stays possible.
    assert all(dams[s].piece == "empty" for s in ("1L", "2L", "3L", "4L"))


def test_an_occluded_dam_does_not_take_its_areas_neutral_dam():
    raw = logits({"5L": ({"base+1": 1.0}, {"neutral": 0.6, "france": 0.4}),
                  "6L": ({"base+1": 1.0}, {"neutral": 0.9, "france": 0.1})}, occluded={"6L"})
    dams = read(raw)
    assert dams["6L"].occluded and dams["5L"].owner == "neutral"


def test_a_dam_whose_area_mates_are_hidden_is_weighed_with_them():
    # 6L is the hills' only visible candidate space: 5L and 7L lie under a hand. The area's
    # neutral dam may stand on either hidden space, each placement weighing PRESENT like
    # 6L's, and those placements look to the camera like "none" (6L not grey). 6L still
    # reads neutral, but less sure than it looks, where before it kept its raw grey share.
    raw = logits({"6L": ({"base+1": 1.0}, {"neutral": 0.7, "france": 0.3})}, occluded={"5L", "7L"})
    dams = read(raw)
    placed, elsewhere = PRESENT * 0.7, (1 - PRESENT + 2 * PRESENT) * 0.3
    assert dams["5L"].occluded and dams["7L"].occluded
    assert (dams["6L"].piece, dams["6L"].owner) == ("base+1", "neutral")
    assert dams["6L"].confidence == pytest.approx(placed / (placed + elsewhere), rel=1e-3)
    # With its mates in view (and empty), the same dam is the area's likeliest placement.
    seen = read(logits({"6L": ({"base+1": 1.0}, {"neutral": 0.7, "france": 0.3})}))["6L"]
    assert seen.confidence == pytest.approx(PRESENT * 0.7 / (PRESENT * 0.7 + (1 - PRESENT) * 0.3), rel=1e-3)


def test_the_likeliest_whole_reading_wins_not_the_likeliest_piece():
    # 60 % a conduit, but of an owner nobody can tell: as a whole, "empty" (40 %) is likelier
    # than any one owner's conduit (30 %).
    probs = {"piece": np.log([[0.4, 1e-9, 1e-9, 1e-9, 0.6, 1e-9]]),
             "owner": np.log([[0.5, 0.5, 1e-9, 1e-9, 1e-9, 1e-9, 1e-9]])}
    table = reading_table(np.exp(probs["piece"]), np.exp(probs["owner"]))
    assert table.sum() == pytest.approx(1.0)
    raw = {**probs, "drops": np.zeros((1, MAX_DROPS + 1)), "occluded": np.full((1, 1), -8.0)}
    conduit = decode(raw, ["conduit"])[0]
    assert conduit.piece == "empty" and conduit.owner is None
    assert conduit.confidence == pytest.approx(0.4, rel=1e-3)


def test_two_grey_looking_dams_of_one_area_both_read_unsure():
    # 5L and 6L each look grey (55 / 52 %) or white (France). An area holds one neutral dam
    # or none, so the placements weigh: 5L the one 0.55 * 0.48, 6L the one 0.52 * 0.45,
    # each times PRESENT, none 0.45 * 0.48 times 1 - PRESENT. 5L is a little likelier the
    # neutral dam than not, 6L a little likelier French, and neither reading is sure: noise
    # that swaps which one looks greyer no longer swaps two sure readings (a phantom move
    # on the page), only unsure ones, which the page flags.
    raw = logits({"5L": ({"base+1": 1.0}, {"neutral": 0.55, "france": 0.45}),
                  "6L": ({"base+1": 1.0}, {"neutral": 0.52, "france": 0.48})})
    dams = read(raw)
    five, six, none = PRESENT * 0.55 * 0.48, PRESENT * 0.52 * 0.45, (1 - PRESENT) * 0.45 * 0.48
    placements = five + six + none
    assert (dams["5L"].owner, dams["6L"].owner) == ("neutral", "france")
    assert dams["5L"].confidence == pytest.approx(five / placements, rel=1e-3)
    assert dams["6L"].confidence == pytest.approx(1 - six / placements, rel=1e-3)
    assert max(dams["5L"].confidence, dams["6L"].confidence) < 0.8


def test_two_dams_grey_beyond_doubt_leave_one_neutral_dam():
    # No other reading left at all for either (a net can saturate): no placement weighs
    # anything, and the grey one with the larger share keeps the area's neutral dam.
    raw = logits({"5L": ({"base+1": 1.0}, {"neutral": 1.0}), "6L": ({"base+1": 1.0}, {"neutral": 1.0})})
    raw["owner"][:, :] = np.where(np.arange(raw["owner"].shape[1]) == OWNERS.index("neutral"), 0.0, -1e4)
    dams = read(raw)
    assert (dams["5L"].piece, dams["5L"].owner) == ("base+1", "neutral")      # a tie: the first keeps it
    assert dams["6L"].piece == "empty"             # nothing else was left for it to read
    assert not any(np.isnan(d.confidence) for d in dams.values())
