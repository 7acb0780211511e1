"""Whole situations of the Expeditions Automa, each worked out by hand from seed 003 alone.

Each docstring sets the table, then walks the Automa's five steps ("Verificar Baralho",
"Comprar Carta", "Avançar Token de Progresso", "Ações do Mech Norte", "Ações do Mech Central")
quoting the seed phrase that decides each one; the test then asks the engine. Card lines are read
from ``data/cards.json`` (the seed gives no card faces), progress tracks from ``data/progress.json``
and the card spaces' adjacency from ``data/layout.json`` (E1): North N1-N7 on row 0, the card
spaces K1-K5 under N2-N6 on row 1 (odd row, shifted right), Central C1-C7 on row 2, so a location
in column c of row 0 or 2 touches the card spaces of columns c-1 and c.
"""
import pytest

from automa.common.deck import Deck, seeded_order
from automa.common.errors import StateError
from automa.expeditions.game import GAME
from automa.expeditions.ops import apply_ops
from automa.expeditions.scoring import automa_score, player_score, winner
from automa.expeditions.setup import new_game
from automa.expeditions.state import LAIR_TOKEN, PlayerFigures, Token
from automa.expeditions.turn import decide

from .scenario import at_progress, corrupt, game, lair, top_card, valid


def turn(state, card=None):
    """The Automa's turn with ``card`` on top of the deck: the decision and the state after it."""
    if card is not None:
        top_card(state, card)
    d = decide(valid(state))
    return d, apply_ops(state, d.ops)


def explored(state, *pids):
    """Locations face up with no corruption left (the player explored and cleared them)."""
    for pid in pids:
        corrupt(state, pid)


def mech_trace(d, mech):
    """The trace lines of step 4 (North) or 5 (Central)."""
    header = "4. North mech" if mech == "north" else "5. Central mech"
    start = next(i for i, line in enumerate(d.trace) if line.startswith(header))
    out = []
    for line in d.trace[start + 1:]:
        if not line.startswith(" "):
            break
        out.append(line.strip())
    return out


def said(lines, *fragments):
    return any(all(f in line for f in fragments) for line in lines)


# ---------------------------------------------------------------- 1. the opening turn


def test_1_opening_turn_from_setup():
    """Setup, level left to its default: "O Nível 2 é sugerido"; "Coloque 1 mech na localização
    mais a oeste da região Norte ... e 1 mech na localização mais a leste da região Central": N1
    and C7, both face down with "1 ficha de mapa". Progress token on "Start" (0), no glory.

    Card 11 (progress icon; North: corruption x2 needing 5 glory, distance 2; Central: map needing
    0 glory, distance 2).
    1. 12 cards in the deck: no reshuffle.  3. "avance o token 1 espaço": 0 -> 1; level 2's first
    glory space is 2, so still 0 glory.
    4. North: 0 < 5, "Se a Automa não tiver glória suficiente ... move-se o número de localizações
    indicado pelo ícone de distância": 2 east, N1 -> N3, nothing explored on the way (E15).
    5. Central: 0 >= 0; window 0 is C7 itself, face down with its map token: "Alvo [mapa]:
    Corresponde a uma localização com ficha de mapa. Ação: EXPLORE": it stays, takes the token and
    flips C7. What the flip shows must be entered before the Automa's next turn (E11)."""
    s = new_game({"seed": 5, "first": "automa"})
    assert s.level == 2 and s.mechs == {"north": "N1", "central": "C7"} and s.progress == 0 and s.glory == 0
    d, after = turn(s, 11)
    assert after.progress == 1 and after.glory == 0
    assert after.mechs == {"north": "N3", "central": "C7"}
    assert d.details["mechs"]["north"]["action"] == "move" and d.details["mechs"]["central"]["action"] == "explore"
    assert not after.locations["N3"].face_up and after.locations["N3"].map_token
    assert after.automa_maps == 1 and after.locations["C7"].awaiting_reveal
    assert said(mech_trace(d, "north"), "needs 5 glory", "has 0", "not enough")
    assert said(mech_trace(d, "north"), "distance line: move 2 east from N1 to N3")
    assert said(mech_trace(d, "central"), "0: C7", "matches the map token icon")
    after.turn = "automa"
    with pytest.raises(StateError, match="C7"):
        decide(after)


# ---------------------------------------------------------------- 2. the deck runs out


def test_2_last_card_then_reshuffle_with_the_two_set_aside():
    """The draw pile holds one card (7); 11 are discarded; 3 and 12 were "separe 2 cartas sem
    olhar".
    Turn A: 1. "Se o baralho de decisão estiver vazio" - it is not (1 card): no reshuffle. 2. Draw
    card 7. The pile is now empty but nothing is reshuffled until the next turn's step 1.
    3. Card 7 has the progress icon: 0 -> 1. 4. North: corruption needs 3, glory 0: distance 1,
    N1 -> N2. 5. Central: card 7 has no Central target: distance 1, C7 -> C6.
    Turn B: 1. empty: "reembaralhe todas as cartas (incluindo as 2 separadas) ... Separe as 2
    cartas do topo novamente": all 14 shuffled, the top 2 set aside, the 3rd is drawn."""
    s = game()
    others = [c for c in range(1, 15) if c not in (7, 3, 12)]
    s.deck = Deck(draw_pile=[7], discard=others, seed=s.deck.seed, set_aside=[3, 12])
    d, after = turn(s)
    assert d.details["card"] == 7 and not any(op["op"] == "reshuffle" for op in d.ops)
    assert said(d.trace, "1 card left: no reshuffle")
    assert after.deck.draw_pile == [] and after.deck.set_aside == [3, 12]
    assert after.progress == 1 and after.mechs == {"north": "N2", "central": "C6"}
    assert said(mech_trace(d, "central"), "no target line on this card")

    after.turn = "automa"
    d, again = turn(after)
    assert d.ops[0] == {"op": "reshuffle"} and said(d.trace, "empty", "2 set aside again")
    order = seeded_order(list(range(1, 15)), s.deck.seed, 1)
    assert again.deck.set_aside == order[:2], "the top 2 of the new deck are set aside"
    assert d.details["card"] == order[2], "the card under them is drawn"
    assert again.deck.cards() == list(range(1, 15)) and len(again.deck.draw_pile) == 11


# ---------------------------------------------------------------- 3. difficulty levels


@pytest.mark.parametrize("level,glory,north_to,north_action", [
    (3, 2, "N1", "explore"),        # level 3 glory spaces 2, 5, ...: space 5 gives glory token 2
    (1, 1, "N3", "move"),           # level 1 glory spaces 3, 8, ...: space 5 gives nothing
    (2, 1, "N3", "move"),           # level 2 glory spaces 2, 6, ...: space 5 gives nothing
])
def test_3_the_progress_card_decides_whether_the_target_applies(level, glory, north_to, north_action):
    """The same table on each progress card: token on space 4, card 2 (progress icon; North: map
    needing 2 glory, distance 2; Central: corruption x1 needing 3, distance 2).
    3. 4 -> 5. "Se o token atingir um espaço com [glória], pegue a próxima ficha de glória":
    level 3 has a glory space at 5 (glory 1 -> 2); levels 1 and 2 do not (glory stays 1).
    4. North, "Se a Automa tiver a glória necessária" (2), counting the token just taken (E6): on
    level 3 it does, and window 0 is N1, face down with its map token: explore N1 in place. On
    levels 1 and 2 it does not: distance 2, N1 -> N3.  5. Central: glory < 3 on every level: distance 2, C7 -> C5."""
    s = game(level=level)
    at_progress(s, 4)
    d, after = turn(s, 2)
    assert after.progress == 5 and after.glory == glory
    assert ({"op": "glory", "token": 2} in d.ops) is (level == 3)
    assert after.mechs == {"north": north_to, "central": "C5"}
    assert d.details["mechs"]["north"]["action"] == north_action
    if level == 3:
        assert said(d.trace, "space 5 is a glory space", "glory token 2")
        assert after.automa_maps == 1 and after.locations["N1"].awaiting_reveal
    else:
        assert said(mech_trace(d, "north"), "needs 2 glory", "has 1", "not enough")


# ---------------------------------------------------------------- 4. sweep, then a distance move past the player


def test_4_sweep_where_it_stands_then_distance_skipping_the_player():
    """North on N4, the player's mech on N5, no glory. Card 5 (no progress icon; North: sweep, map
    needing 4, distance 2; Central: corruption x1 needing 3, distance 3).
    3. No progress icon: the token stays on Start.
    4. North: "Se o ícone [sweep] estiver presente, varra todas as cartas viradas para cima
    adjacentes ao mech": N4 (column 3) touches K2 and K3 - swept before it moves (E5). Glory 0 < 4:
    distance 2 east. "Mechs da Automa ignoram a localização do jogador humano": N5 is not counted,
    so 1 = N6, 2 = N7.
    5. Central: 0 < 3, distance 3 west: C7 -> C4."""
    s = game()
    s.mechs["north"] = "N4"
    explored(s, "N5")
    s.player_at = "N5"
    d, after = turn(s, 5)
    assert after.progress == 0
    assert d.details["mechs"]["north"]["sweep"] == ["K2", "K3"] and after.swept == 2
    assert after.mechs == {"north": "N7", "central": "C4"}
    assert d.ops.index({"op": "sweep", "mech": "north", "spaces": ["K2", "K3"]}) < d.ops.index(
        {"op": "move", "mech": "north", "to": "N7"})
    north = mech_trace(d, "north")
    assert said(north, "N5", "skipped") and said(north, "move 2 east from N4 to N7")
    assert said(mech_trace(d, "central"), "no sweep icon")


# ---------------------------------------------------------------- 5. map target: wrap, skip, direction


def test_5_map_target_wraps_skips_the_player_and_never_looks_back():
    """North on N6, glory 1 (level 2, space 2). N6, N7, N1, N2 explored and empty, the player's
    mech on N7; N3 and N5 still face down with their map tokens. Card 1 (no progress icon; North:
    map needing 1, distance 1; Central: corruption x2 needing 5, distance 1).
    4. North: 1 >= 1, "Verifica as próximas 0-3 localizações" east, "circulando pela região
    Norte" (E4): 0 = N6 (no map), N7 is the player's - ignored, not counted (E2) - 1 = N1, 2 = N2 (no map),
    3 = N3: map token, explore it. N5 is one step away but west: "O Mech Norte move-se sempre
    para o leste", so it is never checked.
    5. Central: 1 < 5: distance 1, C7 -> C6."""
    s = game()
    at_progress(s, 2)
    s.mechs["north"] = "N6"
    explored(s, "N6", "N7", "N1", "N2")
    s.player_at = "N7"
    d, after = turn(s, 1)
    assert after.mechs == {"north": "N3", "central": "C6"}
    assert d.details["mechs"]["north"]["action"] == "explore" and d.details["mechs"]["north"]["steps"] == 3
    assert after.locations["N3"].awaiting_reveal and after.locations["N5"].map_token
    north = mech_trace(d, "north")
    assert said(north, "-: N7", "skipped") and said(north, "3: N3", "matches the map token icon", "first match")
    assert not said(north, "N5")


# ---------------------------------------------------------------- 6. corruption xN takes what there is


def test_6_corruption_x3_takes_only_what_the_first_match_holds():
    """Glory 4 (level 2, space 15). Central on C7, explored and empty; C6 holds one token (2); C5
    holds 4, 3, 5. Card 3 (progress icon; North: sweep, map needing 3, distance 3; Central:
    corruption x3 needing 4, distance 3).
    3. 15 -> 16, not a glory space: glory 4.
    4. North: sweep from N1 - no card space touches column 0. 4 >= 3: window 0 = N1, face down with
    its map token: explore in place.
    5. Central: 4 >= 4; 0 = C7 (no corruption), 1 = C6, "Corresponde a uma localização com >= 1
    corrupção": the first match. "Automa ganha fichas do topo para baixo até o número indicado
    pelo multiplicador": up to 3, C6 has 1, so it takes the 2 (E7). C5, richer but further, is left."""
    s = game()
    at_progress(s, 15)
    explored(s, "C7")
    corrupt(s, "C6", 2)
    corrupt(s, "C5", 4, 3, 5)
    d, after = turn(s, 3)
    assert after.progress == 16 and after.glory == 4
    assert d.details["mechs"]["north"]["sweep"] == [] and d.details["mechs"]["north"]["action"] == "explore"
    assert after.mechs == {"north": "N1", "central": "C6"}
    assert d.details["mechs"]["central"]["take"] == 1 and [t.value for t in after.automa_corruption] == [2]
    assert [t.value for t in after.locations["C5"].corruption] == [4, 3, 5]
    assert said(mech_trace(d, "central"), "1: C6", "matches the corruption icon")
    assert "top 1 corruption token (2 orange)" in d.details["mechs"]["central"]["instruction"]


# ---------------------------------------------------------------- 7. the 20 target


@pytest.mark.parametrize("on_top", [(4,), ()])
def test_7_the_20_target_needs_the_20_alone(on_top):
    """Glory 6 (level 2, space 23). North on N2 (explored, empty); N3 is location 20 with its 20
    token, under a 4 in the first case; N4 holds a 3. Central on C4 (explored, empty), C3 face down.
    Card 12 (progress icon; North: the 20, needing 6, distance 3; Central: sweep, map needing 1,
    distance 1).
    3. 23 -> 24, not a glory space: glory 6.
    4. North: 6 >= 6. "Alvo [20]: Corresponde à localização com o token [20] e nenhuma outra
    corrupção". With the 4 on top, N3 does not match, and N4's corruption is no 20 icon: "não
    houver alvo correspondente": distance 3, N2 -> N5. With the 20 alone: N3 (1) matches,
    "VANQUISH THE 20 TOKEN": the Automa takes it.
    5. Central: sweep where it stands: C4 (column 3) touches K2 and K3. 6 >= 1; 0 = C4 (no map),
    1 = C3 (map token): move and explore."""
    s = game()
    at_progress(s, 23)
    s.mechs = {"north": "N2", "central": "C4"}
    explored(s, "N2", "C4")
    lair(s, "N3", *on_top)
    corrupt(s, "N4", 3)
    d, after = turn(s, 12)
    assert after.progress == 24 and after.glory == 6
    north = mech_trace(d, "north")
    if on_top:
        assert after.mechs["north"] == "N5" and not after.automa_corruption
        assert said(north, "2: N4", "no match") and said(north, "no location in reach matches")
    else:
        assert after.mechs["north"] == "N3" and after.automa_corruption == [LAIR_TOKEN]
        assert d.details["mechs"]["north"]["action"] == "vanquish_lair" and after.locations["N3"].corruption == []
        assert said(north, "1: N3", "20-value corruption alone")
    assert d.details["mechs"]["central"]["sweep"] == ["K2", "K3"]
    assert after.mechs["central"] == "C3" and after.locations["C3"].awaiting_reveal


# ---------------------------------------------------------------- 8. corruption ignores the 20; no target line


def test_8_corruption_target_passes_the_lone_20_and_a_missing_target_line_moves():
    """Glory 4 (level 2, space 16). North on N1, which is location 20 with the 20 alone; N2 explored
    and empty; N3 face down; N4 holds 5, 4. Central on C5, which holds a 3, as does C4.
    Card 9 (progress icon; North: corruption x3 needing 4, distance 3; Central: no target, 2).
    3. 16 -> 17: glory 4.
    4. North: 4 >= 4. "Alvo [corrupção]: ... >= 1 corrupção (ignorando a ficha de valor 20)": 0 =
    N1 holds only the 20 - no match; 1 = N2, 2 = N3 no corruption; 3 = N4 matches: it takes up to
    3 from the top, both tokens (5, 4).
    5. Central: the card has no Central target, so the corruption under it and next to it does not
    matter: distance 2 west, C5 -> C3."""
    s = game()
    at_progress(s, 16)
    s.mechs["central"] = "C5"
    lair(s, "N1")
    explored(s, "N2")
    corrupt(s, "N4", 5, 4)
    corrupt(s, "C5", 3)
    corrupt(s, "C4", 3)
    d, after = turn(s, 9)
    assert after.mechs == {"north": "N4", "central": "C3"}
    assert [t.value for t in after.automa_corruption] == [5, 4] and after.locations["N1"].lair_alone()
    assert said(mech_trace(d, "north"), "0: N1", "no match")
    assert said(mech_trace(d, "central"), "no target line on this card")
    assert [t.value for t in after.locations["C5"].corruption] == [3]


# ---------------------------------------------------------------- 9. the player's mech on the map


def test_9_the_players_move_flip_and_the_automa_ignoring_that_location():
    """Glory 2 (level 2, space 6). N2 explored and empty, N4 holds a 3. The player's turn:
    MOVE "para outra localização desocupada": N1 holds the North mech - refused. To N3 (face
    down): "o movimento termina, o jogador ganha a ficha de mapa, vira a peça para cima e coloca
    fichas de corrupção do saco": N3 turns up, its map token is the player's, and what was drawn
    (a 4) is entered - until then the Automa cannot take its turn.
    The Automa, card 6 (progress icon; North: corruption x1 needing 2, distance 3; Central:
    corruption x1 needing 2, distance 1). 3. 6 -> 7: glory 2.
    4. North: 2 >= 2; 0 = N1 (face down), 1 = N2 (empty), N3 - the player's, with its 4 -
    "ignoram a localização do jogador humano", 2 = N4: the 3, taken (x1). N3's 4 stays.
    5. Central: 0-3 = C7-C4, all face down, no corruption: distance 1, C7 -> C6."""
    s = game(turn="player")
    at_progress(s, 6)
    explored(s, "N2")
    corrupt(s, "N4", 3)
    with pytest.raises(StateError, match="Automa mech"):
        apply_ops(s, [{"op": "player_move", "to": "N1"}])
    s = apply_ops(s, [{"op": "player_move", "to": "N3"}, {"op": "end_turn", "who": "player"}])
    assert s.player_at == "N3" and s.player_maps == 3 and s.locations["N3"].awaiting_reveal
    with pytest.raises(StateError, match="N3"):
        decide(s)
    s = apply_ops(s, [{"op": "reveal", "location": "N3", "tile": 15, "tokens": [{"value": 4, "colour": "orange"}]}])
    d, after = turn(s, 6)
    assert after.mechs == {"north": "N4", "central": "C6"}
    assert [t.value for t in after.automa_corruption] == [3]
    assert [t.value for t in after.locations["N3"].corruption] == [4]
    north = mech_trace(d, "north")
    assert said(north, "-: N3", "skipped") and said(north, "2: N4", "matches the corruption icon")


# ---------------------------------------------------------------- 10. Central wraps west past the player


def test_10_central_distance_wraps_west_past_the_player():
    """Central on C2, the player's mech on C7 (explored). No glory. Card 5 (no progress icon;
    North: sweep, map needing 4, distance 2; Central: corruption x1 needing 3, distance 3).
    4. North on N1: sweep - nothing adjacent; 0 < 4: distance 2 east, N1 -> N3.
    5. Central: 0 < 3: distance 3 west, "circulando pela região Central": 1 = C1, C7 is the
    player's and not counted, 2 = C6, 3 = C5."""
    s = game()
    s.mechs["central"] = "C2"
    explored(s, "C7")
    s.player_at = "C7"
    d, after = turn(s, 5)
    assert after.mechs == {"north": "N3", "central": "C5"}
    assert d.details["mechs"]["central"]["steps"] == 3
    assert said(mech_trace(d, "central"), "move 3 west from C2 to C5")
    assert said(mech_trace(d, "north"), "sweep icon", "none is adjacent")


# ---------------------------------------------------------------- 11. the end


def test_11_eighth_glory_then_one_final_turn_each():
    """Level 3, token on 22: glory spaces 2, 5, 9, 12, 15, 19, 21 passed - 7 glory.
    Card 14 (progress icon; North: the 20 needing 7, distance 3; Central: map needing 0,
    distance 2). 3. 22 -> 23, a glory space: the 8th glory token ("A Automa usa 8 tokens, não 4").
    4. North: 8 >= 7, but no location 20 in N1-N4: distance 3, N1 -> N4.  5. Central: C7 face
    down with its map token: explore it.
    "O jogo termina após o turno em que a Automa coloca sua 8ª ficha de glória" and "todos os
    jogadores, incluindo o que acionou, tem direito a uma rodada final": the player's turn, then
    the Automa's last (E8). In that last turn, card 13 (progress icon; North: the 20 needing 5,
    distance 2; Central: sweep, map needing 2, distance 3): 23 -> 24 (the last space); North
    N4 -> N6; Central: C7 now explored, 1 = C6 has its map token: explore C6. Then it is over."""
    s = game(level=3)
    at_progress(s, 22)
    assert s.glory == 7
    d, s = turn(s, 14)
    assert s.glory == 8 and {"op": "glory", "token": 8} in d.ops
    assert s.mechs == {"north": "N4", "central": "C7"} and d.details["mechs"]["central"]["action"] == "explore"
    assert s.end_trigger == "automa" and s.turn == "player" and s.final_turns == ["player", "automa"]
    assert said(d.trace, "8th glory token", "final turn")
    s = apply_ops(s, [{"op": "reveal", "location": "C7", "tile": 9, "tokens": [{"value": 3, "colour": "orange"}]},
                      {"op": "end_turn", "who": "player"}])
    assert s.turn == "automa"
    d, s = turn(s, 13)
    assert s.progress == 24 and s.mechs == {"north": "N6", "central": "C6"}
    assert d.details["mechs"]["central"]["sweep"] == ["K5"] and s.turn == "over"
    assert "game is over" in d.instruction
    with pytest.raises(StateError, match="over"):
        decide(s)


# ---------------------------------------------------------------- 12. scoring, the tie


def test_12_scoring_a_tie_goes_to_the_automa():
    """Level 1 (coins per token on its progress card: glory 4, corruption 1, map 1). The Automa
    ends with 8 glory, 4 map tokens and 5 corruption tokens, the 20 among them: "A Automa pontua
    moedas por seus tokens acumulados (Glória, Corrupção e Mapa)": 8x4 + 5x1 + 4x1 = $41 (E10: the
    glory value is the card's third figure; the 20 is one corruption token).
    The player: $15 in coins; 3 glory with 1 quest solved, "$5/$6/$8/$10 para 0/1/2/3+ missões" -
    3 x $6 = $18; upgraded items printed $4; 2 corruption tokens x $2 = $4: $41.
    "Se você e a Automa empatarem em moedas, a Automa vence." With 2 quests the glory is 3 x $8
    = $24, $47: the player wins."""
    s = game(level=1)
    at_progress(s, 29)
    for pid in ("N1", "N2", "N4"):
        explored(s, pid)
    lair(s, "N3")
    s.locations["N3"].corruption = []
    s.player_maps -= 4
    s.automa_maps = 4
    s.automa_corruption = [Token(3, "orange"), Token(4, "turquoise"), Token(5, "orange"),
                           Token(2, "turquoise"), LAIR_TOKEN]
    s.player_corruption = [Token(3, "turquoise"), Token(4, "orange")]
    s.player_glory, s.turn = 3, "over"
    figures = {"coins": 15, "quests": 1, "glory": 3, "upgraded": 4, "corruption": 2}
    s = apply_ops(valid(s), [{"op": "figures", "figures": figures}])
    assert automa_score(s).lines == {"glory": 32, "corruption": 5, "map": 4}
    assert GAME.scores(s) == {"automa": 41, "player": 41}
    assert winner(player_score(s.figures), automa_score(s)) == "automa"
    richer = player_score(PlayerFigures(**{**figures, "quests": 2}))
    assert richer.total == 47 and winner(richer, automa_score(s)) == "player"
