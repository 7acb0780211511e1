"""A 4-player table with 3 Automas at three levels plays a whole game through Barrage's page API:
each Automa's level and officer from the new-game form, Battista's second turn at once, and Sekibo's
tile for the human's first action of each round shown on the human's turn (issue 81)."""


def test_a_whole_game_with_three_levels_battista_and_sekibo(client):
    res = client.post("/barrage/play/new", data={
        "role_usa": "automa", "role_germany": "automa", "role_italy": "automa", "role_france": "human",
        "level_usa": "easy", "level_germany": "very-hard", "officer_germany": "battista",
        "level_italy": "very-hard", "officer_italy": "sekibo", "leeghwater": "on", "seed": "5"})
    assert res.status_code == 302
    sid = res.headers["Location"].rstrip("/").split("/")[-1]
    view = client.get(f"/barrage/api/sessions/{sid}").json
    assert view["settings"]["levels"] == ["easy", "very-hard", "very-hard"]
    extra_turns, tiles_shown, movers_after_extra = 0, 0, []
    for _ in range(400):
        view = client.get(f"/barrage/api/sessions/{sid}").json
        if view["phase"] == "over":
            break
        if view["phase"] == "round_end":
            res = client.post(f"/barrage/api/sessions/{sid}/round-end", json={"seq": view["seq"]})
        elif view["next_view"]["automa"]:
            extra = view["decision"]["extra_turn"]
            mover = view["next_view"]["company"]
            res = client.post(f"/barrage/api/sessions/{sid}/automa-done", json={"seq": view["seq"], "use_camera": False})
            if extra:
                extra_turns += 1
                nxt = client.get(f"/barrage/api/sessions/{sid}").json
                movers_after_extra.append((mover, nxt["next_view"]["company"] if nxt["phase"] == "actions" else mover))
        else:
            decision = view["decision"]
            if decision is not None:
                tiles_shown += 1
                assert decision["action"] == "human_first_action"
                assert "Sekibo" in decision["instruction"] and decision["human_first_action"]["tile"]
            res = client.post(f"/barrage/api/sessions/{sid}/pass", json={"seq": view["seq"]})
        assert res.status_code == 200, res.get_data(as_text=True)[:300]
    assert view["phase"] == "over"
    assert tiles_shown == 5, "one Sekibo tile for the human each round"
    assert extra_turns >= 1 and all(a == b for a, b in movers_after_extra), "Battista plays again at once"
