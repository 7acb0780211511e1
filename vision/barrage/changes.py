"""What happened between two stable board states, as moves a person would say."""
from __future__ import annotations

from dataclasses import dataclass

from .board_state import MapState


@dataclass(frozen=True)
class Move:
    kind: str          # dam | elevation | conduit | powerhouse | drops | removed | owner
    space: str
    owner: str | None
    text: str


def _drops(n: int, where: str) -> str:
    word = "drop" if abs(n) == 1 else "drops"
    return f"{n} {word} added to {where}" if n > 0 else f"{-n} {word} left {where}"


def diff(before: MapState, after: MapState) -> list[Move]:
    """Moves from ``before`` to ``after``; slots unknown in either are left out."""
    skip = set(before.unknown) | set(after.unknown)
    moves: list[Move] = []
    for s in sorted(set(before.dams) | set(after.dams)):
        if s in skip:
            continue
        a, b = before.dams.get(s), after.dams.get(s)
        if b is None:
            moves.append(Move("removed", s, a.owner, f"the dam on {s} was removed"))
            continue
        if a is None:
            extra = f" with {b.pieces - 1} elevation{'s' if b.pieces > 2 else ''}" if b.pieces > 1 else ""
            moves.append(Move("dam", s, b.owner, f"{b.owner} built a dam on {s}{extra}"))
        elif a.owner != b.owner:
            moves.append(Move("owner", s, b.owner, f"the dam on {s} changed from {a.owner} to {b.owner}"))
        elif b.pieces > a.pieces:
            n = b.pieces - a.pieces
            moves.append(Move("elevation", s, b.owner, f"{b.owner} added {n} elevation{'s' if n > 1 else ''} to the dam on {s}"))
        elif b.pieces < a.pieces:
            moves.append(Move("removed", s, b.owner, f"the dam on {s} lost {a.pieces - b.pieces} elevation(s)"))
        change = b.drops - (a.drops if a else 0)
        if change:
            moves.append(Move("drops", s, b.owner, _drops(change, f"the dam on {s}")))
    for kind, b_map, a_map in (("conduit", before.conduits, after.conduits),
                               ("powerhouse", before.powerhouses, after.powerhouses)):
        for s in sorted(set(b_map) | set(a_map)):
            if s in skip or b_map.get(s) == a_map.get(s):
                continue
            if s not in a_map:
                moves.append(Move("removed", s, b_map[s], f"the {kind} on {s} was removed"))
            elif s not in b_map:
                moves.append(Move(kind, s, a_map[s], f"{a_map[s]} built a {kind} on {s}"))
            else:
                moves.append(Move("owner", s, a_map[s], f"the {kind} on {s} changed from {b_map[s]} to {a_map[s]}"))
    for h in sorted(set(before.headstreams) & set(after.headstreams)):
        change = after.headstreams[h] - before.headstreams[h]
        if h not in skip and change:
            moves.append(Move("drops", h, None, _drops(change, f"headstream {h}")))
    return moves
