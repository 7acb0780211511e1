"""The Automa's tie-breakers (seed 002, *Rozstrzyganie remisów*), each narrowing a list of
options and saying in the trace how many are left.

"Each action has a list of tie-breakers the Automa uses in the order given. It always applies
the next tie-breaker to the options left by the previous one." A tie-breaker that would leave
nothing keeps every option (it can only choose among them, never rule them all out).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from automa.common import hexgrid as hx
from automa.common.trace import Text, Trace, text

from .board import Board, Hex
from .data import Support, terrain_priority
from .trace_words import word, words

T = TypeVar("T")
INF = 10 ** 6


Name = Callable[[T], Any]     # an option as a trace line says it: a number, an id, or words (``text``)

TERRAIN_PRIORITY = text("terrain priority")


def narrow(options: list[T], keep: list[T], trace: Trace, what: Text, name: Name = str) -> list[T]:
    """``keep`` when it is not empty (else every option), with a trace line."""
    if not keep:
        trace.add("{what}: none qualifies, all {n} stay", what=what, n=len(options))
        return options
    shown = [name(o) for o in keep[:8]]
    if len(keep) > 8:
        trace.add("{what}: {n} left ({shown}, ...)", what=what, n=len(keep), shown=shown)
    else:
        trace.add("{what}: {n} left ({shown})", what=what, n=len(keep), shown=shown)
    return keep


def by_minimum(options: list[T], score: Callable[[T], int], trace: Trace, what: Text,
               name: Name = str, largest: bool = False) -> list[T]:
    """The options with the lowest (``largest``: highest) score."""
    scores = {i: score(o) for i, o in enumerate(options)}
    best = max(scores.values()) if largest else min(scores.values())
    keep = [o for i, o in enumerate(options) if scores[i] == best]
    shown = text("{what} (unreachable)", what=what) if best >= INF else text("{what} ({best})", what=what, best=best)
    return narrow(options, keep, trace, shown, name)


def directional(ordered: Sequence[T], support: Support, trace: Trace, name: Name = str) -> T:
    """*Wybór kierunkowy*: with the arrow left to right, count the eligible options in reading
    order from the top-left one; right to left, in reverse reading order from the bottom-right
    one; the option reached at the arrow's number is chosen, wrapping around past the last."""
    seq = hx.cyclic_from(list(ordered), ordered[-1] if support.direction == "reverse" else ordered[0],
                         reverse=support.direction == "reverse")
    pick = seq[(support.count - 1) % len(seq)]
    arrow = text("left to right") if support.direction == "reading" else text("right to left")
    counted = [text("{i}:{option}", i=i + 1, option=name(o)) for i, o in enumerate(seq)]
    if support.count > len(seq):
        trace.add("directional selection, arrow {arrow} {count}: counting {counted} (wrapping around) -> {pick}",
                  arrow=arrow, count=support.count, counted=counted, pick=name(pick))
    else:
        trace.add("directional selection, arrow {arrow} {count}: counting {counted} -> {pick}",
                  arrow=arrow, count=support.count, counted=counted, pick=name(pick))
    return pick


def hexes_in_reading_order(hexes: list[Hex]) -> list[Hex]:
    return hx.reading_order(hexes, "pointy")


def terrain_order(hexes: list[Hex], board: Board, row: str, card_terrain: str, trace: Trace,
                  what: Text = TERRAIN_PRIORITY) -> list[Hex]:
    """*Priorytet Terenu*: walk row A or B of the terrain priority card from left to right and
    stop at the first terrain some option has; those hexes stay."""
    order = terrain_priority()[row][card_terrain]
    for terrain in order:
        keep = [h for h in hexes if board.terrain[h] == terrain]
        if keep:
            return narrow(hexes, keep, trace, text("{what} row {row} ({card} card: {order}): {terrain} first",
                                                   what=what, row=row, card=word(card_terrain), order=words(order),
                                                   terrain=word(terrain)), board.named)
    return hexes


def nearest_to(hexes: list[Hex], board: Board, players: tuple[str, ...], trace: Trace) -> list[Hex]:
    """Hexes nearest to any of your buildings (shortest distance, seed 002)."""
    dist = board.distances_from(board.owned(players), players)
    return by_minimum(hexes, lambda h: dist.get(h, INF), trace, text("nearest to your buildings"), board.named)
