"""How an Automa mech moves, what it sweeps and which location its target line picks.

Seed 003, "Ações e Movimento da Automa (Mechs)":

- *Fixed movement*: the North mech always moves east, wrapping from the east-most North
  location back to the west-most; the Central mech always moves west, wrapping around Central.
  The mechs ignore the player's location: it is skipped, neither counted in a distance or in the
  0-3 window nor a target, and a mech never ends there (E2).
- *Sweep*: with the sweep icon, every face-up card adjacent to the mech (where it stands before
  it moves) goes to the sweep pile (E5).
- *Target*: with at least the glory the target line needs, the next 0-3 locations (0 = where the
  mech stands, the player's location skipped) are checked in its direction; the first that
  matches a target icon is where the mech goes and acts:
  map icon - a location with a map token (explore it);
  20 icon - the location with the 20-value token and no other corruption (vanquish the 20);
  corruption icon - a location with at least 1 corruption token, the 20 ignored (vanquish up to
  the card's x1/x2/x3 from the top).
- *Distance*: without enough glory, or with no match, the mech moves the distance line's number
  of locations.

Everything here is a pure function of the state; the trace says what was tried and why.
"""
from __future__ import annotations

from dataclasses import dataclass

from automa.common import hexgrid
from automa.common.trace import Text, Trace, chained, text

from .data import MECH_REGION, MOVES_WEST, MechLine, layout
from .state import GameState, Location

WINDOW = 3                      # "Verifica as próximas 0-3 localizações"
ICON_NAMES = {"map": text("map token"), "lair": text("20-value corruption alone"),
              "corruption": text("corruption")}
WAYS = {True: text("west"), False: text("east")}      # MOVES_WEST -> the way a mech moves, in words


@dataclass(frozen=True)
class MechPlan:
    """What one mech does this turn."""
    mech: str
    start: str
    sweep: tuple[str, ...]          # card spaces swept (empty: no sweep icon, or no card adjacent)
    action: str                     # "explore", "vanquish_lair", "vanquish" or "move"
    to: str                         # where the mech ends
    steps: int                      # locations travelled (the player's, skipped, not counted)
    take: int = 0                   # corruption tokens a vanquish takes


def ring(state: GameState, mech: str) -> list[str]:
    """The mech's region in its direction of travel, starting where it stands, wrapping around."""
    lay = layout()
    ordered = list(lay.regions[MECH_REGION[mech]])
    cells = [lay.positions[p] for p in ordered]
    by_cell = dict(zip(cells, ordered))
    here = lay.positions[state.mechs[mech]]
    return [by_cell[c] for c in hexgrid.cyclic_from(cells, here, reverse=MOVES_WEST[mech])]


def route(state: GameState, mech: str) -> list[str]:
    """:func:`ring` with the player's location left out: "Mechs da Automa ignoram a localização do
    jogador humano" (E2), so it counts for no distance and no window. Where the mech itself stands
    is kept (0) even if the player stands there too (only a hand-made state has that)."""
    around = ring(state, mech)
    return around[:1] + [p for p in around[1:] if p != state.player_at]


def matches(loc: Location, kind: str) -> bool:
    """Whether ``loc`` matches one target icon."""
    if kind == "map":
        return loc.map_token
    if kind == "lair":
        return loc.lair_alone()
    return bool(loc.bag_corruption())


def describe(loc: Location) -> Text:
    """The location as a trace line says it: face down, or its tile, map token and corruption."""
    if not loc.face_up:
        return text("face down, map token")
    face = text("tile {tile}", tile=loc.tile) if loc.tile else text("face up")
    tokens = [t.said() for t in loc.corruption] if loc.corruption else text("none")
    if loc.map_token:
        return text("{face}, map token, corruption {tokens}", face=face, tokens=tokens)
    return text("{face}, corruption {tokens}", face=face, tokens=tokens)


def either(words: list[Text]) -> Text:
    """``a or b or c``: a target line's icons, each said in words."""
    return chained(words, text("{first} or {rest}"))


def plan(state: GameState, mech: str, line: MechLine, trace: Trace) -> MechPlan:
    """The mech's actions for one decision card section, in the seed's order: sweep, target,
    otherwise distance."""
    lay = layout()
    here = state.mechs[mech]
    way = WAYS[MOVES_WEST[mech]]
    path = route(state, mech)
    if state.player_at in lay.regions[MECH_REGION[mech]]:
        trace.add("the player's mech is on {location}: that location is skipped (not counted, "
                  "never a target, never ended on)", location=state.player_at)

    swept: tuple[str, ...] = ()
    if line.sweep:
        swept = tuple(lay.adjacent_card_spaces(here))
        trace.add("sweep icon: the face-up cards adjacent to {location} go to the sweep pile: {spaces}",
                  location=here, spaces=list(swept) if swept else text("none is adjacent"))
    else:
        trace.add("no sweep icon")

    target = line.target
    if target is None:
        trace.add("no target line on this card")
    elif state.glory < target.glory:
        trace.add("target line needs {needs} glory, the Automa has {glory}: not enough",
                  needs=target.glory, glory=state.glory)
    else:
        icons = either([ICON_NAMES[k] for k in target.kinds])
        with trace.section("target line ({icons}) needs {needs} glory, the Automa has {glory}: "
                           "checking the next 0-{window} locations {way}",
                           icons=icons, needs=target.glory, glory=state.glory, window=WINDOW, way=way):
            # path[0-3], numbered as travelled; the ring also names the player's location skipped.
            shown = ring(state, mech)
            for pid in shown[:shown.index(path[WINDOW]) + 1]:
                if pid == state.player_at:
                    trace.add("-: {location} (the player's location): skipped, not counted", location=pid)
                    continue
                steps, loc = path.index(pid), state.locations[pid]
                hit = next((k for k in target.kinds if matches(loc, k)), None)
                if hit is None:
                    trace.add("{steps}: {location} ({described}): no match",
                              steps=steps, location=pid, described=describe(loc))
                    continue
                trace.add("{steps}: {location} ({described}): matches the {icon} icon, the first match",
                          steps=steps, location=pid, described=describe(loc), icon=ICON_NAMES[hit])
                if hit == "map":
                    return MechPlan(mech, here, swept, "explore", pid, steps)
                if hit == "lair":
                    return MechPlan(mech, here, swept, "vanquish_lair", pid, steps)
                take = min(target.multiplier, len(loc.bag_corruption()))
                return MechPlan(mech, here, swept, "vanquish", pid, steps, take=take)
            trace.add("no location in reach matches")
    to = path[line.distance]
    trace.add("distance line: move {distance} {way} from {start} to {to}",
              distance=line.distance, way=way, start=here, to=to)
    return MechPlan(mech, here, swept, "move", to, line.distance)
