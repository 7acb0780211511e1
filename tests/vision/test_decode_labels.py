"""Decoding the model's heads by slot kind, training labels from ground truth, and the
marker geometry shared with the synthetic generator."""
import json
from pathlib import Path

import numpy as np
import pytest

from lab.synth.markers import MARKER_CORNERS
from lab.training.dataset import IGNORE, box_labels
from vision.barrage.labels import KINDS, MAX_DROPS, OWNERS, PIECES, piece_mask
from vision.barrage.slot_model import SEEN, companies_seen, decode, reading_table
from vision.registration import default_markers
from vision.runner import softmax

from .drawn import LAYOUT

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"


def raw_logits(n, piece, owner, drops, occluded):
    out = {"piece": np.zeros((n, len(PIECES)), np.float32), "owner": np.zeros((n, len(OWNERS)), np.float32),
           "drops": np.zeros((n, MAX_DROPS + 1), np.float32), "occluded": np.full((n, 1), occluded, np.float32)}
    out["piece"][:, PIECES.index(piece)] = 8
    out["owner"][:, OWNERS.index(owner)] = 8
    out["drops"][:, drops] = 8
    return out


def test_decoding_only_allows_what_a_kind_can_hold():
    kinds = ["conduit", "dam", "headstream", "lake", "powerhouse"]
    readings = decode(raw_logits(5, "base+1", "italy", 2, -8.0), kinds)
    conduit, dam, head, lake, power = readings
    assert conduit.piece in ("empty", "conduit") and power.piece in ("empty", "powerhouse")
    assert dam.piece == "base+1" and dam.owner == "italy" and dam.drops is None
    assert head.piece is None and head.drops == 2 and lake.drops == 2
    assert all(0 < r.confidence <= 1 and not r.occluded for r in readings)
    assert all(r.occluded for r in decode(raw_logits(2, "empty", "none", 0, 8.0), ["dam", "lake"]))


def test_a_company_nobody_plays_is_never_read_and_a_forced_choice_is_unsure():
    """Rulings V4: with the game's companies known, a white piece that the net takes for
    France (not in the game) is read as its next likeliest owner, with that owner's share
    of the allowed readings as its confidence; a piece read as a player's grows surer."""
    raw = raw_logits(3, "conduit", "france", 0, -8.0)
    raw["owner"][0, OWNERS.index("germany")] = 6        # France first, Germany a clear second
    raw["owner"][1, OWNERS.index("usa")] = 9            # the USA, who play, just ahead of France
    raw["owner"][2] = 0
    raw["owner"][2, OWNERS.index("france")] = 8         # France alone: no player's colour comes close
    free = decode(raw, ["conduit"] * 3)
    bound = decode(raw, ["conduit"] * 3, companies=["usa", "germany"])
    assert [r.owner for r in free] == ["france", "usa", "france"]
    assert [r.owner for r in bound[:2]] == ["germany", "usa"]
    assert free[0].confidence > 0.8 and bound[0].confidence > 0.8      # Germany's share among the readings left
    assert bound[1].confidence > 0.99 > free[1].confidence              # France, its rival, is out
    # No player's colour comes close: even whether a piece stands there is in doubt
    # (the empty reading is one of those left), and the reading is flagged as unsure.
    assert free[2].confidence > 0.99 and bound[2].confidence < 0.5
    # the page says why: the colour it saw belongs to a company nobody plays
    assert [r.conflict for r in free] == [None] * 3
    assert [r.conflict for r in bound] == ["looks like france's colour, but france is not in this game", None,
                                           "looks like france's colour, but france is not in this game"]


def test_a_piece_is_read_with_a_colour_and_a_colourless_one_is_noted_and_unsure():
    """Rulings V11: a piece with no owner colour is a reading no table shows. Where the two
    heads read alone give one, the box takes its likeliest reading that a table does show,
    with a note, and the heads' chance of a colourless piece counts as doubt."""
    raw = raw_logits(3, "conduit", "none", 0, -8.0)
    raw["owner"][0, OWNERS.index("germany")] = 6        # box 0: a sure conduit, no colour first, Germany second
    raw["piece"][1, PIECES.index("conduit")] = 1.0      # box 1: a conduit only 73 % sure, no colour at all
    raw["owner"][2] = 0
    raw["owner"][2, OWNERS.index("italy")] = 8          # box 2: Italy's conduit, nothing to note
    kinds = ["conduit"] * 3
    table = reading_table(softmax(raw["piece"] + np.stack([piece_mask(k) for k in kinds])), softmax(raw["owner"]))
    assert (table[:, PIECES.index("conduit"), OWNERS.index("none")] == 0).all()
    for readings in (decode(raw, kinds), decode(raw, kinds, seen=SEEN), decode(raw, kinds, companies=["germany", "italy"])):
        germany, empty, italy = readings
        assert (germany.piece, germany.owner) == ("conduit", "germany")
        assert germany.conflict == "read alone: conduit with no owner colour; taken as germany's conduit"
        assert germany.confidence < 0.2               # e^6 against the colourless e^8: the page asks
        assert (empty.piece, empty.owner) == ("empty", None)
        assert empty.conflict == "read alone: conduit with no owner colour; taken as empty"
        assert 0.2 < empty.confidence < 0.35          # the empty reading's 27 %, the rest doubt
        assert (italy.piece, italy.owner, italy.conflict) == ("conduit", "italy", None) and italy.confidence > 0.99


def test_read_blind_a_colour_no_piece_shows_surely_is_left_out():
    """Rulings V10: without the game's companies, those the frame shows a piece of with at
    least ``SEEN`` of a visible box's chance stand for them. A colour seen only unsurely, or
    only on a hidden box, is read as its box's next likeliest owner, with a note."""
    raw = raw_logits(4, "conduit", "usa", 0, -8.0)                     # box 0: the USA's, sure
    raw["owner"][1] = 0
    raw["owner"][1, [OWNERS.index("france"), OWNERS.index("usa")]] = [2.0, 1.6]   # France first, 43 %
    raw["owner"][2] = 0
    raw["owner"][2, OWNERS.index("germany")] = 8
    raw["piece"][2, PIECES.index("conduit")] = 1.1                      # Germany's colour, a piece 75 % sure
    raw["owner"][3] = 0
    raw["owner"][3, OWNERS.index("italy")] = 8
    raw["occluded"][3] = 8.0                                            # Italy's, hidden
    kinds = ["conduit"] * 4
    masks = np.stack([piece_mask(k) for k in kinds])
    table = reading_table(softmax(raw["piece"] + masks), softmax(raw["owner"]))
    hidden = np.array([False, False, False, True])
    assert SEEN == 0.7 and companies_seen(table, kinds, hidden) == ["usa", "germany"]
    assert companies_seen(table, kinds, hidden, sure=0.8) == ["usa"]
    assert companies_seen(table, kinds, np.zeros(4, bool)) == ["usa", "germany", "italy"]
    free = decode(raw, kinds)
    seen = decode(raw, kinds, seen=SEEN)
    assert [r.owner for r in free] == ["usa", "france", "germany", "italy"]
    assert [r.owner for r in seen[:3]] == ["usa", "usa", "germany"]
    assert seen[3].occluded and [r.conflict for r in free] == [None] * 4       # the hidden box is unknown either way
    assert [r.conflict for r in seen[:3]] == [None, "looks like france's colour, but no piece on the map is surely france's",
                                              None]
    # the companies given, as in a session, the note says the company is not playing
    assert decode(raw, kinds, companies=["usa", "germany"])[1].conflict.endswith("france is not in this game")


def test_unknown_company_names_are_refused():
    with pytest.raises(ValueError, match="unknown company 'spain'"):
        decode(raw_logits(1, "conduit", "usa", 0, -8.0), ["conduit"], companies=["usa", "spain"])


def test_training_labels_follow_the_ground_truth_contract():
    truth = json.loads(sorted(FIXTURES.glob("*.json"))[0].read_text())
    labels = box_labels(truth, LAYOUT)
    assert len(labels) == len(LAYOUT.slots) + len(LAYOUT.lakes)
    slots = {s["id"]: s for s in truth["slots"]}
    for box, (kind, piece, owner, drops, occluded) in zip(LAYOUT.boxes, labels):
        s = slots[box.id]
        assert KINDS[kind] == box.kind and occluded == int(s["occluded"])
        if s["occluded"]:
            assert piece == owner == drops == IGNORE
        elif box.kind == "lake":
            assert drops == min(s["drops"], MAX_DROPS) and piece == IGNORE
        elif box.kind in ("dam", "conduit", "powerhouse"):
            assert PIECES[piece] == s["piece"] and OWNERS[owner] == (s["owner"] or "none")


def test_marker_geometry_sits_just_outside_each_board_corner():
    """Markers 0-3 are 80 px squares, 12 px out from the top-left, top-right, bottom-right and
    bottom-left board corners: what the printed sheet, the renderer and registration share."""
    ours = default_markers(LAYOUT.width, LAYOUT.height)
    w, h = LAYOUT.width, LAYOUT.height
    nearest = {0: (-12, -12), 1: (w + 12, -12), 2: (w + 12, h + 12), 3: (-12, h + 12)}
    for i, corners in ours.items():
        assert np.allclose(corners.max(0) - corners.min(0), (80, 80))
        inner = corners[np.argmin(np.linalg.norm(corners - np.array([w / 2, h / 2]), axis=1))]
        assert np.allclose(inner, nearest[i])
    assert MARKER_CORNERS.keys() == ours.keys()
