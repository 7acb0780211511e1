"""The page reads water with the engine's one rule of what a dam holds
(``automa.barrage.state.capacity``): Graziano Del Monte, a Very Hard Automa's officer, "Your level 3
Dams can hold up to 4 Water Drops". A human's turn is judged, its moves listed and a slot corrected
with the game's companies, not the camera's map alone (which has none)."""
from __future__ import annotations

from dataclasses import asdict

from automa.barrage.setup import new_game
from automa.barrage.state import Dam, GameState
from web.barrage import game

DROP_IN_8U = "1 drop added to the dam on 8U"


def step_of(state: GameState) -> game.Step:
    """A stored step at which italy (human) plays next."""
    return game.Step(1, "human", "", state.to_dict(), asdict(game.Flow("actions", "italy")), {}, 0.0)


def table(officer: str | None) -> GameState:
    """germany (Automa; Very Hard with ``officer``) has a level 3 dam with 3 drops on 1U, the first
    dam headstream A's water meets; a neutral dam on 8U is next down the river (1U, 1L, 8U, 8L): a
    dam not italy's gains water on italy's turn only by flowing past every dam with room (rulings V5)."""
    s = new_game(1, 1, 1, companies=["germany", "italy"])
    s.dams, s.conduits, s.powerhouses = {"1U": Dam("germany", 3, 3), "8U": Dam("neutral", 1, 0)}, {}, {}
    s.headstreams = {h: 0 for h in "ABCD"}
    s.companies["germany"].level, s.companies["germany"].officer = ("very-hard", officer) if officer else ("medium", None)
    s.companies["germany"].structures.update(dam_base=4, elevation=3)
    return GameState.from_dict(s.to_dict())


def test_water_seen_below_a_del_monte_dam_with_room_is_a_misreading():
    for officer, taken in ((None, True), ("adler", True), ("del-monte", False)):
        step = step_of(table(officer))
        seen = game.map_of(table(officer))
        seen.dams["8U"] = Dam("neutral", 1, 1)              # a drop let flow from headstream A, read in 8U
        fixed, moves, refused = game.detected_moves(step, seen)
        assert ([m.text for m in moves] == [DROP_IN_8U]) is taken, officer
        assert ([m.text for m in refused] == [f"{DROP_IN_8U} (no water italy's turn sets flowing can reach it)"]) \
            is not taken, officer


def test_the_listed_water_move_fills_the_del_monte_dam_with_a_fourth_drop():
    after = GameState.from_dict(game.human_move(step_of(table("del-monte")), "water:d1:A")["state"])
    assert after.dams["1U"] == Dam("germany", 3, 4) and after.dams["8U"].drops == 0
    after = GameState.from_dict(game.human_move(step_of(table(None)), "water:d1:A")["state"])
    assert after.dams["1U"].drops == 3 and after.dams["8U"].drops == 1


def test_a_dam_read_two_elevations_higher_keeps_the_drops_a_del_monte_dam_holds():
    s = table("del-monte")
    s.dams["1U"] = Dam("germany", 2, 2)
    s.companies["germany"].structures.update(elevation=4)
    seen = game.map_of(s)
    seen.dams["1U"] = Dam("germany", 3, 4)               # read as level 3 with 4 drops: one elevation
    fixed, _ = game.read_against(game.map_of(s), seen, "germany", automa=True, companies=s.companies)
    assert fixed.dams["1U"] == Dam("germany", 3, 4)
    s.dams["1U"] = Dam("germany", 1, 1)
    s.companies["germany"].structures.update(elevation=5)
    fixed, _ = game.read_against(game.map_of(s), seen, "germany", automa=True, companies=s.companies)
    assert fixed.dams["1U"] == Dam("germany", 2, 2)      # taken as one elevation: a level 2 dam holds 2


def test_a_correction_may_put_4_drops_in_a_del_monte_level_3_dam_only(client):
    res = client.post("/barrage/api/sessions", json={"role_usa": "automa", "level_usa": "very-hard",
                                                    "officer_usa": "del-monte", "role_germany": "human", "seed": "7"})
    sid = res.json["id"]
    ok = client.post(f"/barrage/api/sessions/{sid}/correct",
                     json={"seq": 0, "slot": "1U", "piece": "base+2", "owner": "usa", "drops": 4})
    assert ok.status_code == 200, ok.json
    assert {"slot": "1U", "piece": "base+2", "owner": "usa", "drops": 4} in ok.json["pieces"]
    bad = client.post(f"/barrage/api/sessions/{sid}/correct",
                      json={"seq": 1, "slot": "2U", "piece": "base+2", "owner": "germany", "drops": 4})
    assert bad.status_code == 400 and "capacity is 3" in bad.json["error"]
