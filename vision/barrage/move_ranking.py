"""Which of the moves a turn can make the camera saw: each ranked by the reading's evidence.

Between two steady looks the map changes by one legal action of the player whose turn it is
(``automa.barrage.human_moves``). Each candidate says what every slot holds after it: the
slots it changes hold its pieces, the others what the game knew. The camera read each slot
with a calibrated chance ``c`` of being right (``MapState.confidence``), so a slot read as the
candidate has it is evidence ``c`` for the candidate, and a slot read otherwise ``(1 - c)``
shared among the other things the slot could hold (``ALTERNATIVES``). A candidate's score is
its log-likelihood against the move that changes nothing: the sum, over the slots it changes,
of ``log P(read | candidate) - log P(read | unchanged)``; a slot it leaves alone counts the
same for it as for "nothing", so only its own slots tell candidates apart. A hidden slot is no
evidence either way. The ranked list's confidences are the scores' softmax.

A slot read differently from the game that the best move does not explain is returned
flagged, never applied: with the reason that no legal move makes it, or that one could but
not together with the best one (a turn is one action). The players look there.
"""
from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from automa.barrage.data import barrage_map
from automa.barrage.human_moves import HumanMove
from automa.barrage.state import Dam

from ..reader import Flag
from .board_state import MapState

# What a slot read wrong may be read as instead, besides the truth: a dam's other heights or
# water, a piece read as empty or another colour. The share is a modelling choice, not
# measured; 3 keeps a slot read as a candidate has it at 0.3 of chance a little above "nothing".
ALTERNATIVES = 3
SURE, UNSURE = 0.995, 0.02          # a reading's chance, bounded: no slot settles a turn alone
HELD = 0.995                        # a slot whose picture has not changed, or set by hand (rulings V8, V12)
NO_CONFIDENCE = 0.9                 # a map read without confidences (typed in, a test)
# How often a slot's picture changed since the game last read the table (rulings V8), for a slot
# a turn changed and one it left alone: measured on the 30 fixtures' turns (lab.turn_eval's
# build, production and Water Management turns, --pairs): 75 of 75 moved slots, 393 of 4646
# others (a piece's lean or shadow, a hand); 0.99 bounds the first.
PICTURE_MOVED, PICTURE_UNMOVED = 0.99, 393 / 4646
# How often the drop-sized shapes that came on a headstream tile's picture (rulings V9) number the
# drops put there: 78 of 81 tiles on the printed look's replays (``lab.printed_turns``, tables
# 900-907; the 3 others counted fewer, drops side by side); 0.95 bounds it.
ARRIVED_RIGHT = 0.95
TOP = 3                             # the page offers the best move and the next ones


@dataclass(frozen=True)
class Scored:
    """A candidate, its score (log-likelihood against "nothing changed") and its share of the
    softmax over every candidate's score."""
    move: HumanMove
    score: float
    confidence: float


@dataclass(frozen=True)
class Ranking:
    moves: list[Scored]             # best first
    unexplained: list[Flag]         # slots read changed that the best move does not explain

    @property
    def best(self) -> Scored:
        return self.moves[0]

    def offered(self) -> list[Scored]:
        """The best move and the runner-ups the page offers, one tap each."""
        return self.moves[:TOP]


def holds(board: MapState, slot: str) -> object:
    """What ``board`` has on ``slot``: a dam, an owner, a drop count, or None for nothing."""
    if slot in board.headstreams or slot in barrage_map().headstreams:
        return board.headstreams.get(slot, 0)
    return board.dams.get(slot) or board.conduits.get(slot) or board.powerhouses.get(slot)


def rank(known: MapState, seen: MapState, candidates: Sequence[HumanMove],
         held: Collection[str] = frozenset(), changed: Collection[str] = frozenset(),
         arrived: Mapping[str, int] | None = None) -> Ranking:
    """``candidates`` ranked by how well each explains ``seen`` read from a table that held
    ``known`` before the turn; ``held``: slots whose reading stands for what the game knows
    (a picture unchanged, a slot set by hand), counted as read ``known``'s way, surely;
    ``changed``: boxes whose picture changed since then (a slot's by its name, a dam's lake
    as ``lake:`` and the dam's), evidence of ``PICTURE_MOVED / PICTURE_UNMOVED`` for a move that
    changes what shows there: a dam's owner or height on its space, its water in its lake (none
    for a slot hidden now or held); ``arrived``:
    headstream tiles where the pictures show drop-sized shapes that came, and how many
    (rulings V9), a count of the drops put there that is right ``ARRIVED_RIGHT`` of the time,
    whatever the camera's count of the tile reads (printed drop icons mislead it)."""
    if not candidates:
        raise ValueError("no move to rank: a turn can always change nothing")

    def chance(slot: str) -> float:
        if slot in held:
            return HELD
        return min(SURE, max(UNSURE, seen.confidence.get(slot, NO_CONFIDENCE)))

    def reading(slot: str) -> object:
        return holds(known if slot in held else seen, slot)

    def log_p(slot: str, truth: object) -> float:
        c, read = chance(slot), reading(slot)
        return sum(math.log(c) if r == t else math.log((1 - c) / ALTERNATIVES)
                   for r, t in zip(_parts(slot, read), _parts(slot, truth)))

    came = {h: k for h, k in (arrived or {}).items() if h not in held}

    def log_came(slot: str, truth: object) -> float:
        """The drop shapes counted coming on ``slot``'s picture, had it held ``truth``."""
        if slot not in came:
            return 0.0
        put = int(truth or 0) - known.headstreams.get(slot, 0)
        return math.log(ARRIVED_RIGHT if put == came[slot] else 1 - ARRIVED_RIGHT)

    hidden = set(seen.unknown) - set(held)
    seen_change = math.log(PICTURE_MOVED / PICTURE_UNMOVED)

    def pictured(slot: str, truth: object) -> bool:
        """Whether the picture changed where ``truth`` shows otherwise than the game knew."""
        if slot in hidden or slot in held:
            return False
        if slot not in barrage_map().dams:
            return slot in changed
        was, now = _parts(slot, holds(known, slot)), _parts(slot, truth)
        return (was[:2] != now[:2] and slot in changed) or (was[2] != now[2] and f"lake:{slot}" in changed)

    scores = [sum(log_p(s, v) - log_p(s, holds(known, s)) + (seen_change if pictured(s, v) else 0)
                  + log_came(s, v) - log_came(s, holds(known, s))
                  for s, v in m.changes().items() if s not in hidden)
              for m in candidates]
    top = max(scores)
    weights = [math.exp(x - top) for x in scores]
    total = sum(weights)
    # stable: of two moves the camera cannot tell apart, the one listed first (nothing, then builds)
    order = sorted(range(len(candidates)), key=lambda i: -scores[i])
    ranked = [Scored(candidates[i], scores[i], weights[i] / total) for i in order]
    return Ranking(ranked, _unexplained(known, seen, ranked[0].move, candidates, hidden | set(held), reading))


def _unexplained(known: MapState, seen: MapState, best: HumanMove, candidates: Sequence[HumanMove],
                 skip: set[str], reading) -> list[Flag]:
    """The slots read otherwise than the game knew them, where the best move leaves something
    else: each flagged with what was read and why no move takes it."""
    after = best.changes()
    read_changed = sorted(s for s in _slots(known) | _slots(seen)
                          if s not in skip and reading(s) != holds(known, s))
    flags = []
    for s in read_changed:
        if s in after and after[s] == reading(s):
            continue
        other = any(m.changes().get(s, holds(known, s)) == reading(s) for m in candidates)
        why = ("another move would explain it, not together with the best one (a turn is one action)" if other
               else f"no legal move of {best.company}'s makes it")
        flags.append(Flag(s, f"read as {say(reading(s))}, the game had {say(holds(known, s))}: {why}"))
    return flags


def _parts(slot: str, value: object) -> tuple:
    """What a slot holds, in the parts the camera reads apart: a dam space's owner (None when
    empty), its height (pieces) and its lake's drops; any other slot, one part. So a new dam
    read taller than bare (the camera's likeliest miss, models/MODEL_CARD.md) or holding a drop
    is still evidence of the dam, and a height or a drop misread tells against that part alone."""
    if slot in barrage_map().dams:
        return (None, 0, 0) if value is None else (value.owner, value.pieces, value.drops)
    return (value,)


def _slots(board: MapState) -> set[str]:
    return set(board.dams) | set(board.conduits) | set(board.powerhouses) | set(board.headstreams)


def say(value: object) -> str:
    """What a slot holds, in words."""
    if value is None:
        return "nothing"
    if isinstance(value, Dam):
        water = f" holding {value.drops} drop{'' if value.drops == 1 else 's'}" if value.drops else ""
        return f"{value.owner}'s dam of {value.pieces} piece{'' if value.pieces == 1 else 's'}{water}"
    if isinstance(value, int):
        return f"{value} drop{'' if value == 1 else 's'}"
    return f"{value}'s piece"
