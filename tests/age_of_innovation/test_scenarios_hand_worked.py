"""Twelve whole situations of an Age of Innovation game against the Automa, each worked out by
hand from the seed's text (002, Polish) before the engine was asked.

Every test plays the Automa's whole turn (``decide`` then ``apply_ops``) where it can, so the
card pair, the actions in order, their fall-backs and every tie-breaker meet in one answer. Each
docstring gives the hand reasoning and the seed phrase that decides each step; the numbers
asserted are the hand-worked ones, not read back from the engine.

Boards are small hand-made maps (``scenario.table``), hexes named ``at(column, row)`` of the
printed rows (odd rows shoved right). Where a distance matters the docstring counts it in steps.
"""
from automa.age_of_innovation.board import Building
from automa.age_of_innovation.ops import apply_ops
from automa.age_of_innovation.turn import decide
from automa.common.deck import Deck

from .scenario import at, later_turn, table

FLAT = ["PPPPPP", "PPPPPP", "PPPPPP", "PPPPPP"]
# round scoring tiles for rounds 1-6 (tile 1: banking, 3/7 VP; tile 11: medicine, 3/5 VP) and the
# final round tile 3 (engineering, 7 VP), so every number below can be read off by hand
TILES, FINAL = [2, 1, 4, 11, 8, 10], 3


def play(state):
    d = decide(state)
    return d, apply_ops(state, d.ops)


def ops_of(decision, kind):
    return [op for op in decision.ops if op["op"] == kind]


def why(decision) -> str:
    return "\n".join(decision.trace)


# 1 -------------------------------------------------------------------------------------------
def test_first_turn_of_round_3_innovation_then_catching_up_wraps_around():
    """Round 3, level *Automa*, the Automa's first turn; the deck's top cards are *3 then *6.

    - "dobierz 2 karty Decyzji ... Umieść drugą z nich na lewo od pierwszej" and "Karta po lewej
      to karta Akcji": *6 (drawn second) is the action card, *3 the support card.
    - *6: Gain an innovation, then Advance 1 level. "Warunek: Jest runda 3-6, a Automa ma mniej
      niż 3 Innowacje": round 3, none yet, so it takes one. The player took innovation 2, so
      the eligible ones are 1, 3, 4, 5, 6; *3's arrow: left to right, 3 -> the third, "4".
    - Advance: the Simpletons start with 1 in each discipline, so "znacznik Automy na 0" keeps
      none (all stay); "najbliższy twojego znacznika": you have banking 5, law 2, engineering 8,
      medicine 2 -> law and medicine are 1 away; directional selection left to right 3 over
      (law, medicine): 1 law, 2 medicine, "kontynuuj od pierwszej opcji" 3 law. Law 1 -> 2.
    """
    s = table(FLAT, round=3, level=2)
    s.deck = Deck(draw_pile=[3, 6, 1, 2, 4, 5], seed=1, sideways=[4, 5])
    s.reserve = list(range(7, 15))
    s.innovations = ["1", None, "3", "4", "5", "6"]
    s.players[0].science = {"banking": 5, "law": 2, "engineering": 8, "medicine": 2}
    d, after = play(s)
    assert d.to_dict()["cards"] == {"action": "*6", "support": "*3"}
    assert d.action == "gain innovation + advance discipline"
    assert after.automa.innovations == ["4"] and after.innovations[3] is None
    assert after.automa.science == {"banking": 1, "law": 2, "engineering": 1, "medicine": 1}
    lines = why(d)
    assert "catching up: the Automa's marker on 0: none qualifies, all 4 stay" in lines
    assert "catching up: closest to your marker (1): 2 left (law, medicine)" in lines
    assert "counting 1:law, 2:medicine (wrapping around) -> law" in lines


# 2 -------------------------------------------------------------------------------------------
def test_transform_and_build_impossible_becomes_an_upgrade_of_the_workshop_giving_least_power():
    """Round 1 (navigation 0), action card *4 (Transform and Build), support *1 (marked icon).

    - The marked workshop on (1, 1) is ringed by river hexes and your workshop on (2, 1); with
      navigation 0 no empty terrain hex is "w Zasięgu dowolnego oznaczonego budynku".
      "Jeśli nie można wykonać akcji Przekształcenia Terenu i Budowy, zamiast tego wykonywana
      jest akcja Rozbudowy."
    - Upgrade: a guild is in the Automa's area, so "Warsztaty Automy sąsiadujące z twoimi
      budynkami": both the marked (1, 1) and the unmarked (3, 2) touch your workshop (2, 1).
      "Zapewniając ci jak najmniej Mocy": (1, 1) gives you 1 (the workshop), (3, 2) gives 3
      (the workshop and your guild on (4, 2)) -> (1, 1) becomes a guild ("budynkiem o
      najwyższej wartości Mocy": a workshop can only become a guild). *4 scores nothing.
    """
    rows = ["PRRPP", "RPPPP", "PRRPP"]
    built = [((1, 1), "automa", "workshop", True), ((3, 2), "automa", "workshop"),
             ((2, 1), "player", "workshop"), ((4, 2), "player", "guild")]
    s = later_turn(table(rows, built, level=2, round=1), action=4, support=1, pile=(2,))
    d, after = play(s)
    assert d.action == "upgrade" and not ops_of(d, "build") and not ops_of(d, "vp")
    assert after.board.buildings[at(1, 1)].kind == "guild" and after.board.buildings[at(1, 1)].marked
    assert after.board.buildings[at(3, 2)].kind == "workshop"
    lines = why(d)
    assert "marked buildings: 0" in lines and "no eligible hex -> Upgrade instead" in lines
    assert "a guild is available: workshops next to your buildings: 2 left" in lines
    assert "giving you the least power (1): 1 left (row 2, hex 2" in lines


# 3 -------------------------------------------------------------------------------------------
def test_two_players_sideways_pass_card_round_4_scores_the_tile_once_and_takes_the_middle_tile():
    """Two players + Automa, round 4; you passed first, player 2 still plays. The Automa's
    support card is *5 (last turn's action card); it draws card 8, one of the 2 sideways cards.

    - "Jeśli dobrana karta to 1 z 2 kart ze spodu talii ... oraz w jej sekcji Pasowania znajduje
      się [ikona] należy zignorować resztę karty. Automa pasuje": card 8 has the pass icon, so
      its Send a Scholar and 3 VP are ignored.
    - "dokładnie raz, ustaloną liczbę punktów ... bieżącego żetonu Punktowania Rundy": round 4
      reads the rounds 4-6 side of tile 11: 5 VP, once (the Simpletons have no pass ability).
    - "żeton Premii Rundy wskazany przez strzałkę ... na karcie Wsparcia": *5 points at the
      middle of the 3 tiles left (3, 5, 8) -> tile 5; its coin goes back to the supply; "Umieść
      poprzedni żeton ... w tym samym miejscu": tile 1 takes its place.
    - The round's cards (*5, 8, 9) and the top reserve card (*1) make the next deck, the bottom
      2 sideways; the Automa passed second, so it plays second next round. Player 2 still plays:
      the next decision is a wait.
    """
    rows = ["PPPPP", "PPLPP", "PPPPP"]
    built = [((1, 0), "automa", "workshop", True), ((3, 2), "automa", "workshop"), ((0, 2), "player", "workshop")]
    s = table(rows, built, players=2, round=4)
    s.round_tiles, s.final_tile = list(TILES), FINAL
    s.bonus_line, s.bonus_coins = [3, None, 5, None, 8, None], {3: 2, 5: 1, 8: 1}
    s.automa.bonus_tile, s.players[0].bonus_tile, s.players[1].bonus_tile = 1, 2, 4
    s.players[0].passed, s.pass_order = True, ["player"]
    s = later_turn(s, action=8, support=5, pile=(9,), sideways=(8, 9))
    d, after = play(s)
    assert d.action == "pass" and not ops_of(d, "science")
    assert [op["points"] for op in ops_of(d, "vp")] == [5] and after.automa.vp == s.automa.vp + 5
    assert after.automa.bonus_tile == 5 and after.bonus_line == [3, None, 1, None, 8, None]
    assert 5 not in after.bonus_coins and "returning its 1 coin to the supply" in d.instruction
    assert sorted(after.deck.draw_pile) == [1, 5, 8, 9] and after.deck.sideways == after.deck.draw_pile[-2:]
    assert after.pass_order == ["player", "automa"]
    assert "8 is one of the 2 sideways cards and shows the pass icon" in why(d)
    wait = decide(after)
    assert wait.action == "wait" and "player2" in wait.instruction and wait.ops == []


# 4 -------------------------------------------------------------------------------------------
def test_round_6_exhausted_deck_pass_then_final_scoring_with_the_levels_highest_navigation():
    """Level *Automistrzyni* (navigation 1, 1, 2, 2, 2, 2), round 6; the Automa has played *2
    and *1 and its deck is empty.

    - "Umieść poprzednią kartę Akcji na poprzedniej karcie Wsparcia ... Jeśli talia Automy jest
      wyczerpana, Automa pasuje": it passes; round 6's tile is the final round tile 3: 7 VP.
      No round bonus tile and no new deck in the last round (ruling A4).
    - You pass (your largest area: 5). Final scoring, "Do Punktacji Obszaru wykorzystuje
      najwyższą wartość Żeglugi" = 2: (0, 0), (1, 0) and, across the 2 river hexes (2, 0) and
      (3, 0), (4, 0) form one area of 3; (8, 0) lies 3 river hexes away, alone. 3 < your 5:
      second place, 12 VP (18/12/6, ruling A21).
    - Science (8/4/2): banking 7 = your 7, first shared -> (8 + 4) // 2 = 6; law 3 < 5 -> 4;
      engineering 2 < 4 -> 4; medicine 9 > 2 -> 8. In all 12 + 6 + 4 + 4 + 8 = 34 VP.
    """
    rows = ["PPRRPRRRP", "PPPPPPPPP"]
    built = [((0, 0), "automa", "workshop", True), ((1, 0), "automa", "guild"), ((4, 0), "automa", "workshop"),
             ((8, 0), "automa", "workshop"), ((0, 1), "player", "workshop")]
    s = table(rows, built, level=3, round=6)
    s.round_tiles, s.final_tile = list(TILES), FINAL
    s.deck = Deck(draw_pile=[], discard=[2, 1], seed=0)
    s.reserve = [c for c in range(3, 15)]
    s.automa.turns = 2
    s.automa.science = {"banking": 7, "law": 3, "engineering": 2, "medicine": 9}
    s.players[0].science = {"banking": 7, "law": 5, "engineering": 4, "medicine": 2}
    d, s = play(s)
    assert d.action == "pass" and [op["points"] for op in ops_of(d, "vp")] == [7]
    assert "the Automa deck is exhausted" in why(d)
    assert not ops_of(d, "bonus_tile") and not ops_of(d, "rebuild_deck")
    s = apply_ops(s, [{"op": "pass", "who": "player"}, {"op": "area", "who": "player", "size": 5}])
    d, after = play(s)
    points = {op["why"]: op["points"] for op in ops_of(d, "vp")}
    assert points == {"area scoring": 12, "science scoring banking": 6, "science scoring law": 4,
                      "science scoring engineering": 4, "science scoring medicine": 8}
    assert "largest area has 3 buildings (navigation 2)" in why(d)
    assert after.phase == "over" and after.automa.vp == s.automa.vp + 34


# 5 -------------------------------------------------------------------------------------------
def test_send_scholar_round_tile_discipline_topped_out_falls_back_to_catching_up():
    """Druids (medicine 2, the rest 0), round 2, action card 8 (Send a Scholar, 3 VP), support *3
    (round scoring tile icon).

    - "Żeton Punkowania Rundy: Dyscyplina odpowiadająca kolorowi ikony Automy": round 2's tile 1
      is banking, but your banking marker is on 12 ("bez znacznika na Poziomie 12"), so "Jeśli
      nie jest to Dopuszczalna Dyscyplina, użyj ... Doganianie".
    - Catching up: on "0" are law and engineering; "najbliższy twojego znacznika": your law 4,
      engineering 3 -> engineering.
    - "na polu Uczonego o najwyższym numerze": your scholar stands on engineering's 3-space, so
      the Automa's goes on the next (2 levels): engineering 0 -> 2. Then 3 VP.
    """
    s = table(FLAT, faction="druids", level=2, round=2)
    s.round_tiles, s.final_tile = list(TILES), FINAL
    s.players[0].science = {"banking": 12, "law": 4, "engineering": 3, "medicine": 0}
    s.scholar_spaces["engineering"] = ["player", None, None, None]
    s = later_turn(s, action=8, support=3, pile=(1,))
    d, after = play(s)
    assert d.action == "send scholar + score points"
    assert ops_of(d, "science") == [{"op": "science", "who": "automa", "discipline": "engineering",
                                     "levels": 2, "space": 1}]
    assert after.automa.science["engineering"] == 2 and after.automa.scholars == s.automa.scholars - 1
    assert after.automa.vp == s.automa.vp + 3
    lines = why(d)
    assert "round scoring tile: banking is not eligible, catch up instead" in lines
    assert "catching up: the Automa's marker on 0: 2 left (law, engineering)" in lines
    assert "catching up: closest to your marker (3): 1 left (engineering)" in lines


# 6 -------------------------------------------------------------------------------------------
def test_block_a_spell_when_every_book_action_is_covered_then_x_points():
    """Level *Ultoma*, round 3; action card 12 (Block a spell and a book action, X VP), support
    card 9 (arrow left to right, 2).

    - Spells 1, 3 and 6 already carry an X: "Wszystkie Zaklęcia ... które nie są zakryte" are
      2, 4, 5; left to right, 2 -> spell 4.
    - "Powtórz punkty 1-4, tym razem dla akcji Księgi": its condition fails, every book action
      is covered, so no book X (the spell stays blocked).
    - X on the *Ultoma* card in round 3 is 3 VP.
    """
    s = table(FLAT, level=4, round=3)
    s.spells = ["player", None, "player", None, None, "player"]
    s.books = ["player", "player", "player"]
    s = later_turn(s, action=12, support=9, pile=(1,))
    d, after = play(s)
    assert d.action == "block a spell and a book action + score points"
    assert after.spells == ["player", None, "player", "automa", None, "player"]
    assert after.books == ["player", "player", "player"]
    assert after.automa.vp == s.automa.vp + 3
    assert "book action: condition fails, every book action is covered" in why(d)


# 7 -------------------------------------------------------------------------------------------
def test_autotrauma_card_13_brings_together_across_a_river_transforms_and_marks():
    """Level *Autotrauma* (navigation 1 in round 1), lake Automa; action card 13 (Transform and
    Build, 3 VP), support 14 (marked icon, bring-together icon, row B, left to right 3).

    - Eligible: empty terrain hexes "w Zasięgu dowolnego oznaczonego budynku": around the marked
      (2, 1), and across the river (3, 1) (navigation 1) also (4, 0), (4, 1), (4, 2).
    - "Zbliżanie": the marked (2, 1) and the unmarked (6, 3) are 5 steps apart, not within Reach;
      keep the hexes that shorten it: (3, 2) 4 from (6, 3), (4, 1) 3, (4, 2) 3, (4, 0) 4; the
      others are 5 or 6 away. 4 left.
    - "Priorytet Terenu Automy", row B of the lake card (lake, forest, swamp, ...): no lake;
      forest on (4, 0) and (4, 2) -> 2 left ((4, 1) swamp and (3, 2) plains drop).
    - "Heksy najbliżej dowolnego z twoich budynków": your workshop (6, 0) is 2 from (4, 0) and 3
      from (4, 2) -> (4, 0).
    - "Jeśli wymagane było Przekształcenie terenu": forest -> lake; the nearest Automa building
      is the marked (2, 1) (2 steps, the unmarked 4): a power token. Then 3 VP.
    """
    rows = ["PPPPFPPP", "PPPRSPPP", "PPPPFPPP", "PPPPPPPP"]
    built = [((2, 1), "automa", "workshop", True), ((6, 3), "automa", "workshop"), ((6, 0), "player", "workshop")]
    s = later_turn(table(rows, built, level=5, round=1, terrain="lake", player_terrain="desert"),
                   action=13, support=14, pile=(1,))
    d, after = play(s)
    assert d.action == "transform and build + score points"
    assert ops_of(d, "terrain") == [{"op": "terrain", "hex": list(at(4, 0)), "terrain": "lake"}]
    b = after.board.buildings[at(4, 0)]
    assert (b.owner, b.kind, b.marked) == ("automa", "workshop", True)
    assert after.automa.vp == s.automa.vp + 3
    lines = why(d)
    assert "bringing together (shortest distance marked-unmarked now 5): 4 left" in lines
    assert "forest first: 2 left (" in lines and "(row 1, hex 5, row 3, hex 5)" in lines
    assert "nearest to your buildings (2): 1 left (row 1, hex 5)" in lines


# 8 -------------------------------------------------------------------------------------------
KUDDLER_ROWS = ["PPDFPP", "PSPPPP", "PPWMPP"]
KUDDLER_BUILT = [((2, 1), "automa", "workshop"), ((5, 2), "player", "workshop")]


def test_kuddlers_tie_breakers_apply_only_to_the_faction_actions_build():
    """Kuddlers (lake), you play forest; the same board and support card *6 (unmarked, row A,
    left to right 1) with two action cards.

    Around the unmarked (2, 1): (1, 1) swamp, (3, 1) plains, (3, 2) mountain, (2, 0) desert,
    (3, 0) forest, (2, 2) wasteland. Your workshop (5, 2) is 2 from (3, 1) and (3, 2), 3 or 4
    from the rest.

    - Card *4, Transform and Build straight from the card: "Rozstrzygnięcie remisów w ramach
      akcji Frakcji, jeśli budowa wykonywana jest w wyniku akcji Frakcji" does not apply; row A
      of the lake card (lake, swamp, ...) -> the swamp (1, 1). No points.
    - Card *5, the faction action: the Kuddlers' own tie-breakers first ("przed zastosowaniem
      ogólnych metod"): nearest to you -> (3, 1), (3, 2); then YOUR terrain card, row A of
      forest (forest, lake, mountain, ...) -> the mountain (3, 2). Then X + 1 = 2 VP (level 2,
      round 1).
    """
    s = table(KUDDLER_ROWS, KUDDLER_BUILT, faction="kuddlers", terrain="lake", player_terrain="forest")
    d, after = play(later_turn(s.copy(), action=4, support=6, pile=(1,)))
    assert d.action == "transform and build" and [tuple(op["hex"]) for op in ops_of(d, "build")] == [at(1, 1)]
    assert after.board.terrain[at(1, 1)] == "lake" and after.automa.vp == s.automa.vp
    assert "your terrain priority" not in why(d) and "swamp first: 1 left" in why(d)
    d, after = play(later_turn(s.copy(), action=5, support=6, pile=(1,)))
    assert d.action == "faction action (transform and build + score points)"
    assert [tuple(op["hex"]) for op in ops_of(d, "build")] == [at(3, 2)]
    assert after.board.terrain[at(3, 2)] == "lake" and after.automa.vp == s.automa.vp + 2
    lines = why(d)
    assert "nearest to your buildings (2): 2 left" in lines
    assert "your terrain priority row A (forest card" in lines and "mountain first: 1 left" in lines


# 9 -------------------------------------------------------------------------------------------
def test_two_players_no_guild_left_the_guild_giving_both_players_least_power_becomes_the_palace():
    """Two players + Automa, round 3, action card *1 (Upgrade, X VP), support 10 (right to left 4).

    - All 4 of the Automa's guilds are on the map: "Jeśli Automa ma dostępną Gildię ... W
      przeciwnym razie dowolny budynek, który Automa może rozbudować": the four guilds.
    - "najmniejszą łączną Moc, którą razem mogą uzyskać gracze": (0, 0) touches player 2's guild
      (2), (3, 0) your workshop (1), (1, 2) your workshop (1), (5, 2) your guild (2) -> (3, 0)
      and (1, 2). (Reading "you" as the first player alone would take (0, 0), 0 for you.)
    - Directional right to left 4 over (3, 0), (1, 2): from the last, 1 (1, 2), 2 (3, 0), wrap,
      3 (1, 2), 4 (3, 0).
    - "budynkiem o najwyższej wartości Mocy": a guild becomes the palace (3), not a school (2).
      X in round 3 on *Automa* = 2 VP.
    """
    built = [((0, 0), "automa", "guild"), ((3, 0), "automa", "guild"), ((1, 2), "automa", "guild"),
             ((5, 2), "automa", "guild"), ((1, 0), "player2", "guild"), ((4, 0), "player", "workshop"),
             ((0, 2), "player", "workshop"), ((6, 2), "player", "guild"), ((6, 3), "automa", "workshop")]
    s = later_turn(table(["PPPPPPP"] * 4, built, players=2, round=3), action=1, support=10, pile=(2,))
    d, after = play(s)
    assert d.action == "upgrade + score points"
    assert ops_of(d, "upgrade") == [{"op": "upgrade", "hex": list(at(3, 0)), "kind": "palace"}]
    assert after.automa.vp == s.automa.vp + 2
    lines = why(d)
    assert "no guild available: any building the Automa can upgrade" in lines
    assert "giving you the least power (1): 2 left (row 1, hex 4 (plains), row 3, hex 2 (plains))" in lines
    assert "right to left 4" in lines and "(wrapping around) -> row 1, hex 4" in lines


# 10 ------------------------------------------------------------------------------------------
def test_the_same_faction_action_at_automcia_and_autotrauma():
    """The Simpletons' faction action (card *5; support *6: unmarked, row A, left to right 1) in
    round 1 at two levels. Lake Automa; its unmarked workshop (1, 0) has the river (2, 0) beside
    it and a lake (3, 0) beyond; your workshop is on (4, 0).

    - *Automcia*: navigation 0 in round 1, so only (0, 0), (0, 1), (1, 1) (all plains) are in
      Reach; all plains, so terrain priority keeps the three; nearest to you: (1, 1) is 3
      steps from (4, 0), the others 4 -> transform (1, 1) into a lake and build. X = 0 in round 1
      ("wartość X wynosi 0 punktów w rundach 1 i 2"): no points.
    - *Autotrauma*: navigation 1, across (2, 0) the lake (3, 0) is in Reach; "Priorytet Terenu"
      row A starts with lake -> build on (3, 0), no transformation. X = 3.
    """
    rows = ["PPRLP", "PPPPP"]
    built = [((1, 0), "automa", "workshop"), ((4, 0), "player", "workshop")]
    easy = later_turn(table(rows, built, level=1, round=1, terrain="lake"), action=5, support=6, pile=(1,))
    d, after = play(easy)
    assert d.action == "faction action (transform and build)"
    assert [tuple(op["hex"]) for op in ops_of(d, "build")] == [at(1, 1)] and ops_of(d, "terrain")
    assert after.automa.vp == easy.automa.vp and "0 points: nothing to score" in why(d)
    assert "nearest to your buildings (3): 1 left" in why(d)
    hard = later_turn(table(rows, built, level=5, round=1, terrain="lake"), action=5, support=6, pile=(1,))
    d, after = play(hard)
    assert d.action == "faction action (transform and build + score points)"
    assert [tuple(op["hex"]) for op in ops_of(d, "build")] == [at(3, 0)] and not ops_of(d, "terrain")
    assert after.automa.vp == hard.automa.vp + 3
    assert "navigation 1" in why(d) and "lake first: 1 left" in why(d)


# 11 ------------------------------------------------------------------------------------------
def test_powermongers_upgrade_next_to_your_guild_advances_a_discipline_before_the_points():
    """Powermongers (engineering 1, medicine 1), round 2, action card *1 (Upgrade, X VP),
    support *3.

    - A guild is available: "Warsztaty Automy sąsiadujące z twoimi budynkami": only (1, 1),
      beside your guild (2, 1); it becomes a guild.
    - The faction's ongoing ability ("Whenever you gain 2 or more Power via buildings, Automa
      advances 1 Level in a Discipline"): your guild gives you 2 power from it -> an advance,
      which is the seed's "Awansowanie o 1 Poziom": catching up, not the support card's round
      tile icon. On 0: banking and law; your banking 3, law 1 -> law 0 -> 1.
    - Then the card's X: 1 VP (level 2, round 2).
    """
    built = [((1, 1), "automa", "workshop"), ((4, 3), "automa", "workshop", True), ((2, 1), "player", "guild")]
    s = table(FLAT, built, faction="powermongers", round=2)
    s.round_tiles, s.final_tile = list(TILES), FINAL          # round 2's tile is banking
    s.players[0].science = {"banking": 3, "law": 1, "engineering": 0, "medicine": 0}
    s = later_turn(s, action=1, support=3, pile=(2,))
    d, after = play(s)
    assert d.action == "upgrade + advance discipline + score points"
    assert after.board.buildings[at(1, 1)].kind == "guild" and after.board.buildings[at(4, 3)].kind == "workshop"
    assert after.automa.science == {"banking": 0, "law": 1, "engineering": 1, "medicine": 1}
    assert after.automa.vp == s.automa.vp + 1
    assert "Powermongers: you may gain 2 power from it -> the Automa advances 1 level" in why(d)


# 12 ------------------------------------------------------------------------------------------
def test_wanderers_final_scoring_area_tie_science_and_two_points_per_building():
    """Wanderers at level *Automa* (highest navigation 2); everybody has passed round 6.

    - Area: (0, 0)-(1, 0) and (5, 0)-(6, 0) are 3 river hexes apart, beyond navigation 2: two
      areas of 2. Your largest area is 2 too: first and second shared, (18 + 12) // 2 = 15.
    - Science: banking 5 = your 5 -> (8 + 4) // 2 = 6; law 1 < 3 -> 4; engineering 5 < 8 -> 4;
      medicine 2 = your 2 -> 6. 20 VP.
    - "Automa może mieć również na swojej karcie Frakcji dodatkowe warunki Punktacji": the
      Wanderers score 2 VP for each of their 4 buildings: 8.
    - "nie otrzymuje żadnych punktów podczas Punktacji Zasobów". In all 15 + 20 + 8 = 43 VP.
    """
    built = [((0, 0), "automa", "workshop", True), ((1, 0), "automa", "guild"), ((5, 0), "automa", "workshop"),
             ((6, 0), "automa", "workshop"), ((0, 1), "player", "workshop")]
    s = table(["PPRRRPP", "PPPPPPP"], built, faction="wanderers", level=2, round=6)
    s.automa.science = {"banking": 5, "law": 1, "engineering": 5, "medicine": 2}
    s.players[0].science = {"banking": 5, "law": 3, "engineering": 8, "medicine": 2}
    s.players[0].area = 2
    s.automa.passed = s.players[0].passed = True
    s.pass_order = ["automa", "player"]
    s.validate()
    d, after = play(s)
    assert d.action == "final_scoring"
    points = {op["why"]: op["points"] for op in ops_of(d, "vp")}
    assert points == {"area scoring": 15, "science scoring banking": 6, "science scoring law": 4,
                      "science scoring engineering": 4, "science scoring medicine": 6, "Wanderers final scoring": 8}
    assert f"the Automa scores 43 VP ({s.automa.vp + 43} in all)" in d.instruction
    assert "resources: the Automa has none, 0 VP" in why(d) and after.phase == "over"
