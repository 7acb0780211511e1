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

from .data import DISCIPLINES, components, factions, levels
from .ops import Op
from .state import GameState


def shared_points(mine: int, others: list[int], table: tuple[int, ...]) -> int:
    """Points for a value ``mine`` against the ``others``: the places it shares, split."""
    ahead = sum(1 for o in others if o > mine)
    tied = sum(1 for o in others if o == mine) + 1
    pool = sum(table[ahead:ahead + tied])
    return pool // tied


def final_scoring(state: GameState) -> tuple[list[Op], list[str]]:
    comp = components()
    nav = max(levels()[state.level].navigation)
    ops: list[Op] = []
    lines: list[str] = []
    areas = state.board.areas("automa", nav)
    size = len(areas[0]) if areas else 0
    others = [p.area for p in state.players]
    pts = shared_points(size, others, comp.area_points) if size else 0
    lines.append(f"area: the Automa's largest area has {size} buildings (navigation {nav}); "
                 f"yours: {', '.join(map(str, others))} -> {pts} VP")
    if pts:
        ops.append({"op": "vp", "who": "automa", "points": pts, "why": "area scoring"})
    for d in DISCIPLINES:
        mine = state.automa.science[d]
        theirs = [p.science[d] for p in state.players]
        pts = shared_points(mine, theirs, comp.science_points) if mine else 0
        lines.append(f"science {d}: the Automa on {mine}, yours {', '.join(map(str, theirs))} -> {pts} VP")
        if pts:
            ops.append({"op": "vp", "who": "automa", "points": pts, "why": f"science scoring {d}"})
    if "final_two_points_per_building" in factions()[state.faction].rules:
        n = len(state.board.owned("automa"))
        lines.append(f"Wanderers: 2 VP for each of the Automa's {n} buildings -> {2 * n} VP")
        if n:
            ops.append({"op": "vp", "who": "automa", "points": 2 * n, "why": "Wanderers final scoring"})
    if "achievements" in factions()[state.faction].rules:
        got = state.automa.achievements
        listed = ", ".join(f"token {k} ({v} VP)" for k, v in sorted(got.items())) or "none entered"
        lines.append(f"Gognomes: achievements scored during the game: {listed}, {sum(got.values())} VP in all; "
                     f"an achievement reached but not entered is entered now, before the game ends")
    lines.append("resources: the Automa has none, 0 VP")
    return ops, lines
