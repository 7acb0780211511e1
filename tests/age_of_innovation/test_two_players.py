"""The two players + Automa variant (seed 002, *Gra dwuosobowa plus Automa*): "Gdziekolwiek
występuje słowo twój ... odnosi się ono do wszystkich graczy"; "zapewniając ci jak najmniej Mocy"
is the least power the players can gain together; every tie-breaker involving players (distance
from, power given) takes both players into account.

Each test is built so that reading "you" as the first player alone gives another answer.
"""
from automa.age_of_innovation.actions import transform_and_build, upgrade, would_be_marked
from automa.age_of_innovation.scoring import final_scoring

from .scenario import at, support, table, turn

FLAT = ["PPPPPPP", "PPPPPPP", "PPPPPPP", "PPPPPPP"]


def test_upgrade_gives_the_players_together_the_least_power():
    # (1, 1): your workshop (1) and player 2's guild (2) next to it = 3 together (1 for you alone);
    # (5, 1): your guild (2) next to it = 2. Together the least is (5, 1); for you alone it is (1, 1).
    s = table(FLAT, [((1, 1), "automa", "workshop"), ((0, 1), "player", "workshop"), ((2, 1), "player2", "guild"),
                     ((5, 1), "automa", "workshop"), ((6, 1), "player", "guild")], players=2)
    t = turn(s, support(count=1))
    upgrade(t)
    assert t.state.board.buildings[at(5, 1)].kind == "guild"
    assert t.state.board.buildings[at(1, 1)].kind == "workshop"
    assert "giving you the least power (2): 1 left" in "\n".join(t.trace.lines())


def test_upgrade_prefers_a_workshop_next_to_either_player():
    # a guild is available: the workshop next to player 2's building, not the lone one (first in reading order)
    s = table(FLAT, [((0, 0), "automa", "workshop"), ((4, 3), "automa", "workshop"), ((5, 3), "player2", "workshop")],
              players=2)
    t = turn(s, support(count=1))
    upgrade(t)
    assert t.state.board.buildings[at(4, 3)].kind == "guild"
    assert t.state.board.buildings[at(0, 0)].kind == "workshop"


def test_build_nearest_to_either_players_buildings():
    # the Automa's workshop at (3, 0) reaches (2, 0) and (4, 0): (2, 0) is 2 from your workshop on
    # (0, 0), (4, 0) is 1 from player 2's on (5, 0); for you alone it would be (2, 0)
    s = table(["PPPPPPP"], [((3, 0), "automa", "workshop"), ((0, 0), "player", "workshop"),
                            ((5, 0), "player2", "workshop")], players=2)
    t = turn(s, support(count=1))
    transform_and_build(t)
    assert [tuple(op["hex"]) for op in t.ops if op["op"] == "build"] == [at(4, 0)]
    assert "nearest to your buildings (1): 1 left" in "\n".join(t.trace.lines())


def test_paths_go_around_both_players_buildings():
    # (3, 0) is 2 steps from the unmarked (5, 0) in a straight line; player 2's workshops on (4, 0)
    # and (4, 1) force the path round (5 steps), so the marked (0, 0), 3 away, is the nearest
    rows = ["PPPPPPP", "PPPPPPP", "PPPPPPP"]
    automa = [((0, 0), "automa", "workshop", True), ((5, 0), "automa", "workshop")]
    s = table(rows, automa + [((4, 0), "player2", "workshop"), ((4, 1), "player2", "workshop")], players=2)
    assert would_be_marked(turn(s, support()), at(3, 0))


def test_final_scoring_ranks_the_automa_among_both_players():
    rows = ["PPPPPP", "PPPPPP"]
    built = [((0, 0), "automa", "workshop"), ((1, 0), "automa", "workshop"), ((2, 0), "automa", "workshop")]
    s = table(rows, built, players=2, round=6)
    s.players[0].area, s.players[1].area = 5, 3
    s.automa.science = {"banking": 4, "law": 1, "engineering": 0, "medicine": 6}
    s.players[0].science = {"banking": 7, "law": 1, "engineering": 2, "medicine": 2}
    s.players[1].science = {"banking": 5, "law": 1, "engineering": 3, "medicine": 6}
    why = {op["why"]: op["points"] for op in final_scoring(s)[0]}
    assert why["area scoring"] == 9                    # 3 buildings, tied second with player 2: (12 + 6) // 2
    assert why["science scoring banking"] == 2         # third behind 7 and 5
    assert why["science scoring law"] == 4             # all three on 1: (8 + 4 + 2) // 3
    assert why["science scoring medicine"] == 6        # tied first with player 2: (8 + 4) // 2
    assert "science scoring engineering" not in why    # on 0


def test_catching_up_reads_the_highest_marker_of_either_player():
    # the Automa: banking 3, law 5, engineering 2, medicine 4. You alone would make it banking (your 3);
    # player 2's law 6 is the highest law marker, 1 away, while banking's highest is player 2's 7
    from automa.age_of_innovation.actions import advance_discipline
    s = table(FLAT, players=2)
    s.automa.science = {"banking": 3, "law": 5, "engineering": 2, "medicine": 4}
    s.players[0].science = {"banking": 3, "law": 0, "engineering": 9, "medicine": 9}
    s.players[1].science = {"banking": 7, "law": 6, "engineering": 0, "medicine": 0}
    t = turn(s, support(count=1))
    advance_discipline(t)
    assert [op["discipline"] for op in t.ops if op["op"] == "science"] == ["law"]
