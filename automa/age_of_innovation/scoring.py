"""The end of the game for the Automa (seed 002, *Koniec gry i ostateczna punktacja*).

"The Automa takes part in Area and Science scoring like any player. For Area scoring it uses
the highest navigation value on its difficulty card. Having no resources it scores nothing for
them. Its faction card may add scoring."

Area: the Automa's largest group of buildings linked by Reach; players' sizes are what they
counted (``area`` op). Science: each discipline ranked by level. Faction scoring: the Wanderers'
2 VP per building; the Gognomes' achievements were scored as the players entered them, so the
end lists them ("make sure the Gognomes got their achievements' points") and adds nothing. Places pay the points of
``components.json``; tied players add the points of the places they share and split them,
rounded down; a marker on 0 scores nothing.
"""
from __future__ import annotations

from automa.common.trace import Line, Trace, text

from .data import DISCIPLINES, components, factions, levels
from .ops import Op
from .state import GameState
from .trace_words import word


def shared_points(mine: int, others: list[int], table: tuple[int, ...]) -> int:
    """Points for a value ``mine`` against the ``others``: the places it shares, split."""
    ahead = sum(1 for o in others if o > mine)
    tied = sum(1 for o in others if o == mine) + 1
    pool = sum(table[ahead:ahead + tied])
    return pool // tied


def final_scoring(state: GameState) -> tuple[list[Op], list[Line]]:
    """The Automa's final scoring ops and the trace lines that explain them (``Line``: the
    English, and its words for a page in another language)."""
    comp = components()
    nav = max(levels()[state.level].navigation)
    ops: list[Op] = []
    lines = Trace()
    areas = state.board.areas("automa", nav)
    size = len(areas[0]) if areas else 0
    others = [p.area for p in state.players]
    pts = shared_points(size, others, comp.area_points) if size else 0
    lines.add("area: the Automa's largest area has {size} buildings (navigation {nav}); yours: {yours} -> {points} VP",
              size=size, nav=nav, yours=others, points=pts)
    if pts:
        ops.append({"op": "vp", "who": "automa", "points": pts, "why": "area scoring"})
    for d in DISCIPLINES:
        mine = state.automa.science[d]
        theirs = [p.science[d] for p in state.players]
        pts = shared_points(mine, theirs, comp.science_points) if mine else 0
        lines.add("science {discipline}: the Automa on {level}, yours {yours} -> {points} VP", discipline=word(d),
                  level=mine, yours=theirs, points=pts)
        if pts:
            ops.append({"op": "vp", "who": "automa", "points": pts, "why": f"science scoring {d}"})
    if "final_two_points_per_building" in factions()[state.faction].rules:
        n = len(state.board.owned("automa"))
        lines.add("Wanderers: 2 VP for each of the Automa's {n} buildings -> {points} VP", n=n, points=2 * n)
        if n:
            ops.append({"op": "vp", "who": "automa", "points": 2 * n, "why": "Wanderers final scoring"})
    if "achievements" in factions()[state.faction].rules:
        got = state.automa.achievements
        listed = [text("token {n} ({points} VP)", n=k, points=v) for k, v in sorted(got.items())] or \
            text("none entered")
        lines.add("Gognomes: achievements scored during the game: {listed}, {points} VP in all; an achievement "
                  "reached but not entered is entered now, before the game ends", listed=listed,
                  points=sum(got.values()))
    lines.add("resources: the Automa has none, 0 VP")
    return ops, lines.lines()
