"""Which changes of the water held in dams one company's turn can make (rulings V5).

In the actions phase a dam's drops leave it only through a production (base_rules.md §8):
from the producer's own dam or a neutral one ("never another company's dam"), through a
built conduit that starts in its basin, to one of the producer's powerhouses in that
conduit's group. Drops arrive in a dam that is not the mover's only by flowing (§7): they
enter at a headstream (Water Management "1 drop ↓", flowing incomes and rewards) or at a
group that holds one of the mover's powerhouses (the water of a production), and each stops
in the first dam with room. Every effect that puts drops straight into a dam (the L1 Base and
L2 Elevation tiles, the Netherlands ability, executive officers) puts them into the mover's
own dams.

These are necessary conditions, not a model of every action: a change they allow may still
be a misreading, but a change they refuse cannot have happened on that turn.
"""
from __future__ import annotations

from .data import barrage_map
from .rules import production_systems
from .state import MapPieces
from .water import group_path, headstream_path


def can_drain(before: MapPieces, mover: str, space: str) -> bool:
    """Whether ``mover``'s turn can take drops out of the dam on ``space``: only a
    production of theirs can, which needs the pieces of a production system already on
    the map before the turn (a turn that produces builds nothing)."""
    return any(system.dam == space for system in production_systems(before, mover))


def can_flow_into(before: MapPieces, after: MapPieces, mover: str, space: str) -> bool:
    """Whether water that ``mover``'s turn sets flowing can come to rest in the dam on
    ``space``: on some river path from where such water enters, every dam the water meets
    before ``space`` has no room after the turn, or lost water to this turn's production
    (it was full when the water passed, and drained afterwards: a second production)."""
    bmap = barrage_map()
    groups = sorted({bmap.powerhouses[s].group for s, owner in before.powerhouses.items() if owner == mover})
    paths = [headstream_path(h) for h in bmap.headstreams] + [group_path(g) for g in groups]
    return any(space in path and all(_passed(before, after, dam) for dam in path[:path.index(space)])
               for path in paths)


def _passed(before: MapPieces, after: MapPieces, space: str) -> bool:
    """Whether flowing water can have gone past the dam space ``space``."""
    dam = after.dams.get(space)
    if dam is None:                      # an empty dam space (or one the camera could not see)
        return True
    was = before.dams.get(space)
    return dam.drops >= dam.pieces or (was is not None and dam.drops < was.drops)
