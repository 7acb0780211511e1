"""The Automa's tie-breakers (seed 002, *Rozstrzyganie remisów*), each narrowing a list of
options and saying in the trace how many are left.

"Each action has a list of tie-breakers the Automa uses in the order given. It always applies
the next tie-breaker to the options left by the previous one." A tie-breaker that would leave
nothing keeps every option (it can only choose among them, never rule them all out).
"""
from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from automa.common import hexgrid as hx
from automa.common.trace import Trace

from .board import Board, Hex
from .data import Support, terrain_priority

T = TypeVar("T")
INF = 10 ** 6


def narrow(options: list[T], keep: list[T], trace: Trace, what: str, name: Callable[[T], str] = str) -> list[T]:
    """``keep`` when it is not empty (else every option), with a trace line."""
    if not keep:
        trace.add(f"{what}: none qualifies, all {len(options)} stay")
        return options
    shown = ", ".join(name(o) for o in keep[:8]) + (", ..." if len(keep) > 8 else "")
    trace.add(f"{what}: {len(keep)} left ({shown})")
    return keep


def by_minimum(options: list[T], score: Callable[[T], int], trace: Trace, what: str,
               name: Callable[[T], str] = str, largest: bool = False) -> list[T]:
    """The options with the lowest (``largest``: highest) score."""
    scores = {i: score(o) for i, o in enumerate(options)}
    best = max(scores.values()) if largest else min(scores.values())
    keep = [o for i, o in enumerate(options) if scores[i] == best]
    shown = "unreachable" if best >= INF else str(best)
    return narrow(options, keep, trace, f"{what} ({shown})", name)


def directional(ordered: Sequence[T], support: Support, trace: Trace, name: Callable[[T], str] = str) -> T:
    """*Wybór kierunkowy*: with the arrow left to right, count the eligible options in reading
    order from the top-left one; right to left, in reverse reading order from the bottom-right
    one; the option reached at the arrow's number is chosen, wrapping around past the last."""
    seq = hx.cyclic_from(list(ordered), ordered[-1] if support.direction == "reverse" else ordered[0],
                         reverse=support.direction == "reverse")
    pick = seq[(support.count - 1) % len(seq)]
    arrow = "left to right" if support.direction == "reading" else "right to left"
    counted = ", ".join(f"{i + 1}:{name(o)}" for i, o in enumerate(seq))
    wrap = " (wrapping around)" if support.count > len(seq) else ""
    trace.add(f"directional selection, arrow {arrow} {support.count}: counting {counted}{wrap} -> {name(pick)}")
    return pick


def hexes_in_reading_order(hexes: list[Hex]) -> list[Hex]:
    return hx.reading_order(hexes, "pointy")


def terrain_order(hexes: list[Hex], board: Board, row: str, card_terrain: str, trace: Trace,
                  what: str = "terrain priority") -> list[Hex]:
    """*Priorytet Terenu*: walk row A or B of the terrain priority card from left to right and
    stop at the first terrain some option has; those hexes stay."""
    order = terrain_priority()[row][card_terrain]
    for terrain in order:
        keep = [h for h in hexes if board.terrain[h] == terrain]
        if keep:
            return narrow(hexes, keep, trace, f"{what} row {row} ({card_terrain} card: {', '.join(order)}): "
                                              f"{terrain} first", board.label)
    return hexes


def nearest_to(hexes: list[Hex], board: Board, players: tuple[str, ...], trace: Trace) -> list[Hex]:
    """Hexes nearest to any of your buildings (shortest distance, seed 002)."""
    dist = board.distances_from(board.owned(players), players)
    return by_minimum(hexes, lambda h: dist.get(h, INF), trace, "nearest to your buildings", board.label)
