"""Which changes of the water held in dams one company's turn can make (rulings V5).

In the actions phase a dam's drops leave it only through a production (base_rules.md §8):
from the producer's own dam or a neutral one ("never another company's dam"), through a
built conduit that starts in its basin, to one of the producer's powerhouses in that
conduit's group (the L2 Powerhouse tile's production comes with a build, and may use the
powerhouse just built). Drops arrive in a dam that is not the mover's only by flowing (§7):
they enter at a headstream (Water Management "1 drop ↓", flowing incomes and rewards) or at a
group that holds one of the mover's powerhouses (the water of a production), and each stops
in the first dam with room. Every effect that puts drops straight into a dam (the L1 Base and
L2 Elevation tiles, the Netherlands ability, executive officers) puts them into the mover's
own dams.

These are necessary conditions, not a model of every action: a change they allow may still
be a misreading, but a change they refuse cannot have happened on that turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .data import barrage_map
from .rules import production_systems
from .state import Company, Dam, MapPieces, capacity
from .water import group_path, headstream_path


@dataclass
class _Produced:
    """The dams as they were before the turn, with the conduits and powerhouses before it and
    any it built: a production may use a structure the same turn built (the L2 Powerhouse
    tile's production follows the build), and a structure is never taken off the map, so one
    missing from ``after`` is only unseen."""
    dams: dict[str, Dam]
    conduits: dict[str, str]
    powerhouses: dict[str, str]

    @classmethod
    def of(cls, before: MapPieces, after: MapPieces) -> "_Produced":
        return cls(before.dams, {**after.conduits, **before.conduits}, {**after.powerhouses, **before.powerhouses})


def can_drain(before: MapPieces, after: MapPieces, mover: str, space: str) -> bool:
    """Whether ``mover``'s turn can take drops out of the dam on ``space``: only a
    production of theirs can, from a dam that held water before the turn, through a
    conduit and to a powerhouse on the map before or after it."""
    return any(system.dam == space for system in production_systems(_Produced.of(before, after), mover))


def can_flow_into(before: MapPieces, after: MapPieces, mover: str, space: str,
                  companies: Mapping[str, Company]) -> bool:
    """Whether water that ``mover``'s turn sets flowing can come to rest in the dam on
    ``space``: on some river path from where such water enters, every dam the water meets
    before ``space`` has no room after the turn, or lost water to this turn's production
    (it was full when the water passed, and drained afterwards: a second production).
    ``companies``: the game's, whose officers change what a dam holds (``state.capacity``)."""
    bmap = barrage_map()
    powerhouses = _Produced.of(before, after).powerhouses
    groups = sorted({bmap.powerhouses[s].group for s, owner in powerhouses.items() if owner == mover})
    paths = [headstream_path(h) for h in bmap.headstreams] + [group_path(g) for g in groups]
    return any(space in path and all(_passed(before, after, dam, companies) for dam in path[:path.index(space)])
               for path in paths)


def _passed(before: MapPieces, after: MapPieces, space: str, companies: Mapping[str, Company]) -> bool:
    """Whether flowing water can have gone past the dam space ``space``: it is full after the
    turn (a Del Monte level 3 dam with 3 drops still has room), or it lost water."""
    dam = after.dams.get(space)
    if dam is None:                      # an empty dam space (or one the camera could not see)
        return True
    was = before.dams.get(space)
    return dam.drops >= capacity(dam, companies) or (was is not None and dam.drops < was.drops)
