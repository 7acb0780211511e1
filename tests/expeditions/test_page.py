"""The Expeditions page through Flask's test client: new game, the Automa's turn, the player's
side, reveals, errors named, stale clicks refused, undo back to any step, the final scores, the
whole game exported and imported."""
from __future__ import annotations

import re

import pytest

from automa.expeditions.selfplay import play as selfplay
from automa.expeditions.state import dump
from automa.expeditions.turn import decide
from tests.pages import exported_and_imported, import_file, seq, started, state_of, steps_of
from web.services import services


def start(client, **form) -> str:
    return started(client, "/expeditions", {"level": "2", "seed": "8", "first": "automa", **form})


def test_index_lists_the_form_and_home_links_here(client):
    html = client.get("/expeditions/").get_data(as_text=True)
    assert 'id="new-game"' in html and "Maszyna" in html
    assert "/expeditions/" in client.get("/").get_data(as_text=True)


def test_new_game_with_bad_options_names_them(client):
    res = client.post("/expeditions/new", data={"level": "7", "seed": "x"})
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert "level" in html and "seed" in html


def test_automa_turn_then_player_turn(client):
    url = start(client)
    html = client.get(url).get_data(as_text=True)
    assert html.count('class="loc ') == 20 and 'id="mech-north-at"' in html and 'id="mech-central-at"' in html
    assert 'id="automa-done"' in html and 'id="mech-north"' in html and "Why?" in html
    res = client.post(f"{url}/automa", data={"seq": seq(html)})
    assert res.status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert 'data-turn="player"' in html and 'id="last-turn"' in html
    stale = client.post(f"{url}/automa", data={"seq": "0"})
    assert stale.status_code == 409, "a second click on an old page plays nothing"
    res = client.post(f"{url}/player", data={"seq": seq(html), "action": "move", "to": "C2"})
    assert res.status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert 'id="reveal-C2"' in html, "a flipped tile asks what it shows"
    bad = client.post(f"{url}/player", data={"seq": seq(html), "action": "reveal", "location": "C2",
                                             "tile": "9", "tokens": "4x"})
    assert bad.status_code == 400 and "4x" in bad.get_data(as_text=True)
    client.post(f"{url}/player", data={"seq": seq(html), "action": "reveal", "location": "C2", "tile": "9",
                                       "tokens": "4o 3t"})
    html = client.get(url).get_data(as_text=True)
    assert 'data-tile="9"' in html and 'id="vanquish"' in html
    client.post(f"{url}/player", data={"seq": seq(html), "action": "vanquish", "count": "1"})
    html = client.get(url).get_data(as_text=True)
    client.post(f"{url}/player", data={"seq": seq(html), "action": "end"})
    html = client.get(url).get_data(as_text=True)
    assert 'data-turn="automa"' in html
    client.post(f"{url}/undo")
    assert 'data-turn="player"' in client.get(url).get_data(as_text=True)


def test_player_errors_are_named_not_500(client):
    url = start(client, first="player")
    html = client.get(url).get_data(as_text=True)
    s = seq(html)
    for data, expect in [({"action": "move", "to": "N1"}, "Automa mech"), ({"action": "move", "to": "Z9"}, "location"),
                         ({"action": "vanquish", "count": "2"}, "vanquish"), ({"action": "nope"}, "unknown"),
                         ({"action": "reveal", "location": "S1", "tile": "99"}, "tile")]:
        res = client.post(f"{url}/player", data={"seq": s, **data})
        assert res.status_code == 400, data
        assert expect in res.get_data(as_text=True), data


def test_another_games_session_is_not_found_here(client, app):
    with app.app_context():
        store = services().store
        first = {"kind": "start", "label": "x", "state": {}, "flow": {}, "payload": {}}
        other = store.create("b", {}, first, game="barrage")
    assert client.get(f"/expeditions/{other}").status_code == 404


def test_final_scores_from_the_players_figures(client, app):
    steps = list(selfplay(seed=6))
    over = next(s.state for s in steps if s.state.turn == "over")
    with app.app_context():
        first = {"kind": "start", "label": "end", "state": dump(over), "flow": {}, "payload": {}}
        sid = services().store.create("end", {}, first, game="expeditions")
    html = client.get(f"/expeditions/{sid}").get_data(as_text=True)
    assert 'id="figures"' in html
    res = client.post(f"/expeditions/{sid}/player", data={
        "seq": seq(html), "action": "figures", "coins": "200", "quests": "2", "glory": "3", "upgraded": "5",
        "corruption": "4"})
    assert res.status_code == 302
    html = client.get(f"/expeditions/{sid}").get_data(as_text=True)
    assert 'id="scores"' in html and "You win!" in html
    assert "<td>24</td>" in html, "3 glory at $8 with 2 quests"


def test_random_posts_never_crash(client):
    """Whatever a form sends, the answer is a step, a named refusal, or not found: never a 500."""
    import random
    url = start(client, first="player")
    rng = random.Random(3)
    values = ["", "0", "1", "-1", "99999999999999999999", "N1", "C3", "S2", "x" * 300, "4o 3t", "20t", "1.5",
              "\u0663", "NaN", "true"]
    fields = ["seq", "action", "to", "count", "location", "tile", "tokens", "coins", "quests", "glory"]
    actions = ["move", "vanquish", "glory", "end", "reveal", "figures", "bogus"]
    for _ in range(80):
        data = {f: rng.choice(values) for f in rng.sample(fields, rng.randint(0, len(fields)))}
        if rng.random() < 0.7:
            data["action"] = rng.choice(actions)
        path = rng.choice([f"{url}/player", f"{url}/automa", f"{url}/undo", "/expeditions/new",
                           "/expeditions/99999999999999999999999/player"])
        res = client.post(path, data=data)
        assert res.status_code in (302, 400, 404, 409), (path, data, res.status_code)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("lang,text", [("pt_BR", "Novo jogo"), ("pl", "Nowa gra"), ("en", "New game")])
def test_the_page_speaks_each_language(client, lang, text):
    assert text in client.get(f"/expeditions/?lang={lang}").get_data(as_text=True)
    url = start(client)
    html = client.get(f"{url}?lang={lang}").get_data(as_text=True)
    assert {"pt_BR": "Mech Norte", "pl": "Mech północny", "en": "North mech"}[lang] in html


# The Automa's "Why?" in each language: fixed words, and lines with values (the card drawn, where
# each mech stands, its way said as a word) that must come from the catalogue with the values put in.
WHY = {
    "pt_BR": ("1. verificar o baralho de decisão", "carta {card}", "4. Mech Norte em {north}",
              "5. Mech Central em {central}", "para o leste", "para o oeste"),
    "pl": ("1. sprawdź talię decyzji", "karta {card}", "4. Mech północny na {north}",
           "5. Mech centralny na {central}", "na wschód", "na zachód"),
}
ENGLISH_WHY = ("check the decision deck", "draw a decision card", "North mech on", "Central mech on",
               "distance line", "target line")


@pytest.mark.parametrize("lang", sorted(WHY))
def test_the_automas_why_is_said_in_the_pages_language(client, app, lang):
    url = start(client)
    state = state_of(app, url)
    decision = decide(state)
    html = client.get(f"{url}?lang={lang}").get_data(as_text=True)
    why = html[html.index('id="why"'):]
    why = why[:why.index("</pre>")]
    values = {"card": decision.details["card"], "north": state.mechs["north"], "central": state.mechs["central"]}
    for line in WHY[lang]:
        assert line.format(**values) in why, line
    for english in ENGLISH_WHY:
        assert english not in why, english
    assert sum(english in "\n".join(decision.trace) for english in ENGLISH_WHY) >= 4, "the English has them"


def test_a_mech_on_the_players_location_is_drawn_beside_the_players():
    """A hand-made state may put a mech on the player's location (the rules never do, E2): both
    pieces are drawn."""
    from automa.expeditions.setup import new_game
    from web.expeditions.board import board
    s = new_game({"level": 2, "seed": 3, "first": "player"})
    s.player_at = s.mechs["north"]
    pieces = {m["who"]: m for m in board(s)["mechs"]}
    assert pieces["player"]["at"] == pieces["north"]["at"] == s.mechs["north"]
    assert pieces["player"]["cx"] != pieces["north"]["cx"]


def test_undo_back_to_any_step_of_the_history(client, app):
    url = start(client)
    for _ in range(2):
        client.post(f"{url}/automa", data={"seq": seq(client.get(url).get_data(as_text=True))})
        client.post(f"{url}/player", data={"seq": seq(client.get(url).get_data(as_text=True)), "action": "end"})
    seqs = [s.seq for s in steps_of(app, url)]
    assert len(seqs) == 5 and state_of(app, url).turns == 4
    html = client.get(url).get_data(as_text=True)
    assert html.count("back to here") == 4, "every step but the last has its way back"
    assert client.post(f"{url}/undo", data={"to": str(seqs[-1] + 1)}).status_code == 400
    assert client.post(f"{url}/undo", data={"to": str(seqs[1])}).status_code == 302
    assert [s.seq for s in steps_of(app, url)] == seqs[:2], "back to the state after the Automa's first turn"
    assert state_of(app, url).turns == 1 and state_of(app, url).turn == "player"


def test_a_whole_game_exported_and_imported_again(client, app):
    url = start(client, name="Exported game")
    client.post(f"{url}/automa", data={"seq": seq(client.get(url).get_data(as_text=True))})
    client.post(f"{url}/player", data={"seq": seq(client.get(url).get_data(as_text=True)), "action": "end"})
    copy = exported_and_imported(client, app, url)
    assert dump(state_of(app, copy)) == dump(state_of(app, url))
    first, again = client.get(url).get_data(as_text=True), client.get(copy).get_data(as_text=True)
    mech = re.compile(r'id="mech-north">(.*?)</li>', re.S)
    assert mech.search(first).group(1) == mech.search(again).group(1), "the same Automa turn comes next"
    assert "Exported game" in client.get("/expeditions/").get_data(as_text=True)


def test_a_game_file_of_another_game_is_refused_and_nothing_stored(client, app):
    other = started(client, "/brasil-imperial", {"p0_name": "you", "p0_capital": "green", "seed": "5"})
    body = client.get(f"{other}/export").get_data()
    res = import_file(client, "/expeditions", body)
    assert res.status_code == 400 and "Brasil Imperial" in res.get_data(as_text=True)
    assert import_file(client, "/expeditions", b"").status_code == 400
    with app.app_context():
        assert services().store.sessions("expeditions") == []
