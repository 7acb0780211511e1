"""The mechs: fixed movement with wrap-around, the player's location ignored, the sweep, the
0-3 target window, each target kind with its multiplier, the glory threshold (seed 003)."""
import pytest

from automa.expeditions.ops import apply_ops
from automa.expeditions.turn import decide

from .scenario import at_progress, corrupt, game, lair, top_card, valid


def turn(state, card):
    top_card(state, card)
    d = decide(valid(state))
    return d, apply_ops(state, d.ops)


# ---- movement


def test_north_wraps_east_and_central_wraps_west():
    s = game()
    s.mechs = {"north": "N7", "central": "C1"}
    # card 9: North needs 4 glory (none yet) so moves 3; Central has no target and moves 2.
    d, after = turn(s, 9)
    assert after.mechs == {"north": "N3", "central": "C6"}
    assert d.details["mechs"]["north"]["action"] == "move"



def test_a_distance_move_explores_nothing():
    """E15: only the map target's action EXPLOREs ("Alvo [mapa] ... Ação: EXPLORE"); a mech
    moving its distance passes over and stops on face-down locations without flipping them."""
    s = game()
    d, after = turn(s, 9)                       # North needs 4 glory: moves 3 over face-down N2-N4
    assert after.mechs["north"] == "N4"
    assert all(not after.locations[p].face_up and after.locations[p].map_token for p in ("N2", "N3", "N4"))
    assert after.automa_maps == 0 and not any(op["op"] == "explore" for op in d.ops)

def test_north_moves_east_from_its_start_and_central_west():
    s = game()       # N1 and C7
    d, after = turn(s, 7)      # card 7: North needs 3 glory -> distance 1; Central: no target, 1
    assert after.mechs == {"north": "N2", "central": "C6"}


def test_the_players_location_is_skipped_by_a_distance_move():
    """E2: "Mechs da Automa ignoram a localização do jogador humano": the player's location is
    not counted in a distance and a mech never ends there."""
    s = game()
    s.player_at = "N2"
    d, after = turn(s, 7)      # card 7: North needs 3 glory (none yet) -> distance 1 from N1
    assert after.mechs["north"] == "N3" and after.player_at == "N2"
    assert any("skipped" in line for line in d.trace)
    s = game()
    s.player_at = "C6"
    d, after = turn(s, 9)      # card 9: Central has no target, distance 2 west from C7: C6 skipped
    assert after.mechs["central"] == "C4"
    s = game()
    s.mechs["north"], s.player_at = "N6", "N7"
    d, after = turn(s, 9)      # North needs 4 glory: distance 3 east from N6, wrapping, N7 skipped
    assert after.mechs["north"] == "N3"


def test_the_players_location_is_never_a_target_nor_counted_in_the_window():
    """E2, set like the printed Automa rulebook's Vanquish example (not in the seed): 3 glory, a
    x2 corruption target; the player's location holds corruption but is ignored and does not
    count towards the 0-3 locations; a face-down location with a map token is no candidate; the
    first candidate is chosen and the Automa takes the topmost 2 tokens, "4" and "3"."""
    s = game()
    at_progress(s, 11)                         # glory 3; card 8: North corruption x2, needs 3
    corrupt(s, "N1")                           # where the mech stands: explored, no corruption
    corrupt(s, "N2", 5)
    s.player_at = "N2"
    corrupt(s, "N4", 4, 3, 5)                  # N3 face down with its map token
    corrupt(s, "N5", 3)
    d, after = turn(s, 8)
    assert after.mechs["north"] == "N4"
    assert [t.value for t in after.automa_corruption] == [4, 3]
    assert [t.value for t in after.locations["N2"].corruption] == [5]
    s = game()
    at_progress(s, 11)
    corrupt(s, "N1")
    corrupt(s, "N2", 5)
    s.player_at = "N2"
    corrupt(s, "N5", 4)                        # N5 is the 3rd location counted once N2 is skipped
    d, after = turn(s, 8)
    assert after.mechs["north"] == "N5" and [t.value for t in after.automa_corruption] == [4]
    window = [line.strip() for line in d.trace if line.strip()[:2] in ("0:", "1:", "2:", "3:", "-:")]
    assert [w.split(" (")[0] for w in window] == ["0: N1", "-: N2", "1: N3", "2: N4", "3: N5"]


def test_an_automa_mech_never_moves_onto_the_players_location():
    s = game()
    s.player_at = "N2"
    with pytest.raises(Exception, match="skip"):
        apply_ops(s, [{"op": "move", "mech": "north", "to": "N2"}])


def test_the_player_still_cannot_move_onto_an_automa_mech():
    """"Mova seu mech para outra localização desocupada": the player's own move rule stands."""
    s = game(turn="player")
    with pytest.raises(Exception, match="unoccupied"):
        apply_ops(s, [{"op": "player_move", "to": "N1"}])


# ---- the target window


@pytest.mark.parametrize("where,hit", [("N1", True), ("N2", True), ("N4", True), ("N5", False)])
def test_target_window_is_the_next_zero_to_three_locations(where, hit):
    s = game()
    at_progress(s, 6)
    corrupt(s, where, 5)
    d, after = turn(s, 6)                      # North: corruption x1 (2 glory), else distance 3
    if hit:
        assert after.mechs["north"] == where and len(after.automa_corruption) == 1
    else:
        assert after.mechs["north"] == "N4" and not after.automa_corruption


def test_first_match_in_the_direction_of_travel_wins():
    s = game()
    at_progress(s, 6)
    s.mechs["central"] = "C5"
    corrupt(s, "C3", 4)
    corrupt(s, "C4", 3)
    corrupt(s, "C6", 5)                         # east of C5: behind the Central mech
    d, after = turn(s, 6)                       # Central: corruption x1 (2 glory)
    assert after.mechs["central"] == "C4" and [t.value for t in after.automa_corruption][-1] == 3


# ---- target kinds


def test_map_target_explores_take_token_and_flip():
    s = game()
    at_progress(s, 2)
    d, after = turn(s, 1)                       # card 1 North: map token, 1 glory; no progress icon
    loc = after.locations["N1"]
    assert after.mechs["north"] == "N1" and after.automa_maps == 1
    assert loc.face_up and not loc.map_token and loc.awaiting_reveal
    assert "flip" in d.details["mechs"]["north"]["instruction"]


def test_map_target_skips_explored_locations():
    s = game()
    at_progress(s, 2)
    corrupt(s, "N1", 3)
    corrupt(s, "N2", 4)
    d, after = turn(s, 1)
    assert after.mechs["north"] == "N3" and after.locations["N3"].awaiting_reveal


def test_the_automa_waits_for_a_reveal_to_be_entered():
    s = game()
    at_progress(s, 2)
    _, after = turn(s, 1)
    after.turn = "automa"
    with pytest.raises(Exception, match="N1"):
        decide(after)
    revealed = apply_ops(after, [{"op": "reveal", "location": "N1", "tile": 15,
                                  "tokens": [{"value": 4, "colour": "orange"}]}])
    assert [t.value for t in revealed.locations["N1"].corruption] == [4]
    decide(revealed)


def test_revealing_location_20_places_the_20_token_not_the_bag():
    s = game()
    at_progress(s, 2)
    _, after = turn(s, 1)
    with pytest.raises(Exception, match="20"):
        apply_ops(after, [{"op": "reveal", "location": "N1", "tile": 20, "tokens": [{"value": 3, "colour": "orange"}]}])
    done = apply_ops(after, [{"op": "reveal", "location": "N1", "tile": 20, "tokens": []}])
    assert done.locations["N1"].lair_alone() and done.bag() == 37


def test_lair_target_needs_the_20_alone():
    s = game()
    at_progress(s, 18)                          # glory 4; card 13 advances to 19 -> glory 5
    lair(s, "N3")
    d, after = turn(s, 13)                      # North: the 20 alone, needs 5 glory
    assert after.glory == 5, "the glory taken in step 3 counts for the mechs"
    assert after.mechs["north"] == "N3" and after.automa_corruption[-1].is_lair
    assert after.locations["N3"].corruption == []

    s = game()
    at_progress(s, 18)
    lair(s, "N3", 4)                            # a token on top: not the 20 alone
    d, after = turn(s, 13)
    assert after.mechs["north"] == "N3" and not after.automa_corruption, "no match: moved its distance (2)"
    assert d.details["mechs"]["north"]["action"] == "move"


def test_corruption_target_takes_the_multiplier_from_the_top():
    s = game()
    at_progress(s, 11)                          # glory 3; card 8 has no progress icon
    corrupt(s, "N2", 4, 3, 5)
    d, after = turn(s, 8)                       # North: corruption x2, needs 3
    assert [t.value for t in after.automa_corruption] == [4, 3]
    assert [t.value for t in after.locations["N2"].corruption] == [5]


def test_multiplier_takes_what_there_is():
    s = game()
    at_progress(s, 15)                          # glory 4; card 9 -> 16, still 4
    corrupt(s, "N1", 4, 3)
    d, after = turn(s, 9)                       # North: x3, needs 4
    assert [t.value for t in after.automa_corruption] == [4, 3] and after.locations["N1"].corruption == []


def test_corruption_target_ignores_the_20():
    s = game()
    at_progress(s, 11)
    lair(s, "N2")
    d, after = turn(s, 8)
    assert not after.automa_corruption and after.mechs["north"] == "N3", "the 20 alone is no corruption target"
    s = game()
    at_progress(s, 11)
    lair(s, "N2", 3)
    d, after = turn(s, 8)                       # x2, but only one token besides the 20
    assert [t.value for t in after.automa_corruption] == [3] and after.locations["N2"].lair_alone()


@pytest.mark.parametrize("progress,acts", [(11, True), (10, False)])
def test_glory_threshold_is_at_least(progress, acts):
    s = game()
    at_progress(s, progress)                    # 11 -> glory 3 (card 8 needs 3); 10 -> glory 2
    corrupt(s, "N1", 4)
    d, after = turn(s, 8)
    assert bool(after.automa_corruption) is acts
    assert any(("not enough" in line) is (not acts) for line in d.trace if "needs 3 glory" in line)


def test_or_target_matches_either_icon(monkeypatch):
    """A printed OR line (E3): the first location matching any icon."""
    from dataclasses import replace
    import automa.expeditions.turn as turn_module
    from automa.expeditions.data import Target, cards
    c = cards()[8]
    both = replace(c, north=replace(c.north, target=Target(glory=3, kinds=("map", "corruption"), multiplier=2)))
    monkeypatch.setattr(turn_module, "cards", lambda: {**cards(), 8: both})
    s = game()
    at_progress(s, 11)
    corrupt(s, "N1", 3)                         # N2 still face down with its map token
    d, after = turn(s, 8)
    assert after.mechs["north"] == "N1" and after.automa_corruption
    s = game()
    at_progress(s, 11)
    corrupt(s, "N1")                            # explored, no corruption: N2's map token is next
    d, after = turn(s, 8)
    assert after.mechs["north"] == "N2" and after.automa_maps == 1


# ---- sweep


def test_sweep_takes_the_cards_adjacent_before_moving():
    s = game()
    s.mechs["north"] = "N3"
    d, after = turn(s, 3)                       # North: sweep; needs 3 glory for its target -> moves 3
    north = d.details["mechs"]["north"]
    assert north["sweep"] == ["K1", "K2"] and after.mechs["north"] == "N6"
    assert after.swept == 2
    assert d.ops.index({"op": "sweep", "mech": "north", "spaces": ["K1", "K2"]}) < d.ops.index(
        {"op": "move", "mech": "north", "to": "N6"})


def test_sweep_with_no_adjacent_card():
    s = game()                                  # N1 has no card space next to it
    d, after = turn(s, 4)
    assert d.details["mechs"]["north"]["sweep"] == [] and after.swept == 0


def test_the_target_window_wraps_around_the_region():
    """"Circulando pela região Central": from C2 the Central mech checks C2, C1, then C7 and C6."""
    s = game()
    at_progress(s, 6)                           # glory 2: card 6's Central target (x1, needs 2)
    s.mechs["central"] = "C2"
    corrupt(s, "C6", 4)
    corrupt(s, "C5", 3)                         # the 4th location on: out of the window
    d, after = turn(s, 6)
    assert after.mechs["central"] == "C6" and [t.value for t in after.automa_corruption] == [4]


def test_a_hand_made_mech_on_the_players_location_checks_from_the_next_one():
    """E2: the rules never put a mech on the player's location; a state that does ignores that
    location as a target and counts the distance from it."""
    s = game()
    at_progress(s, 11)                         # glory 3; card 8: North corruption x2, else distance 2
    corrupt(s, "N1", 5)
    s.player_at = "N1"
    corrupt(s, "N4", 4)
    d, after = turn(s, 8)
    assert after.mechs["north"] == "N4" and [t.value for t in after.automa_corruption] == [4]
    s = game()
    at_progress(s, 11)
    corrupt(s, "N1", 5)
    s.player_at = "N1"
    d, after = turn(s, 8)
    assert after.mechs["north"] == "N3" and not after.automa_corruption


def test_a_zero_glory_target_applies_from_the_start():
    """Card 10's Central target needs 0 glory: at the start (no glory yet) the Central mech explores
    the face-down location it stands on (location 0 of the window)."""
    s = game()
    d, after = turn(s, 10)                      # progress to 1 (no glory space on level 2)
    assert after.glory == 0
    assert after.mechs["central"] == "C7" and d.details["mechs"]["central"]["action"] == "explore"
    assert after.automa_maps == 1 and after.locations["C7"].awaiting_reveal
