"""The movement phase (seed 001, "Segunda fase: Movimento"), played only while the Autômato has
military units on the map.

1. The movement pile was turned face up when the first unit was summoned: that turn uses the
   top card's first row; when that row names no direction the compass is pointed to the nearest
   player's capital (the most experienced player's on a tie), and its bonus is taken.
2. Later turns take the top card and lay it to the left; its arrow chooses the row (direction
   or bonus) of the next card. The last card taken: shuffle the pile face up, first row.
   Card 7's shuffle icon shuffles every movement card into a new pile used next turn.
3. Bonuses: the adder (+1 movement, at most 1), combat cards (+1 movement each, at most 3),
   or losing one of either; the gold card icon gives 1 gold card (no limit, ruling B23). Movements = adder + combat cards, at most 3; none without bonuses.
4. The compass turns to the row's direction (:mod:`.compass`).
5. A unit left on a construction it dominates: with more than one unit there the weakest (least
   FC, then leftmost on the board) stays lying and the others move; a lone unit moves and the
   domination ends.
6. Standing on a revealed flag with movements and enough FC, it wins the flag; the phase ends.
7. A face-down exploration tile adjacent in the card's exploration order: all the standing
   units move onto it with the compass and explore it; the phase ends.
8. Otherwise the moves in the card's order relative to the compass's tip, as many as the
   movements; a step off the map is skipped for the next one on the card. Entering a face-down
   tile explores it, entering a player's construction or units starts a combat: either ends the
   phase at once.
"""
from __future__ import annotations

from automa.common import hexgrid
from automa.common.trace import Text, text

from .cards import MovementCard
from .compass import nearest_capital, target_of, turn_towards
from .piles import MOVEMENT, turn_up
from .state import AUTOMA, MAX_ADDER, MAX_COMBAT_CARDS, GameState, Hex, hex_key
from .steps import Work

MAX_MOVES = 3
RELATIVE = (text("ahead"), text("ahead right"), text("behind right"), text("behind"), text("behind left"),
            text("ahead left"))


def card_and_row(w: Work) -> tuple[MovementCard, int, bool]:
    """(the card, its row 1-4, whether the pile was just turned up for the first unit)."""
    s = w.state
    with w.trace.section("movement pile"):
        first = s.movement_fresh and s.movement_deck.shuffles == 0 and not s.movement_deck.discard
        card, row = turn_up(w, MOVEMENT)
        w.trace.add("movement card {card}, row {row}", card=card.id, row=row)
    return card, row, first


def bonus_ops(s: GameState, bonus: str) -> tuple[dict | None, Text]:
    """The op and the sentence of one bonus, capped (adder at most 1, combat cards at most 3): the
    trace's line, and with an op the players' instruction too."""
    a = s.automa
    if bonus == "adder+":
        if a.adder >= MAX_ADDER:
            return None, text("adder: it holds its one adder already (at most 1)")
        return {"op": "bonus", "kind": "adder", "to": a.adder + 1}, text("Give the Autômato the adder (+1 movement).")
    if bonus == "adder-":
        if a.adder == 0:
            return None, text("lose the adder: it has none")
        return {"op": "bonus", "kind": "adder", "to": 0}, text("Take the adder back from the Autômato.")
    if bonus == "combat+":
        if a.combat_cards >= MAX_COMBAT_CARDS:
            return None, text("combat card: it holds 3 already (at most 3)")
        return ({"op": "bonus", "kind": "combat", "to": a.combat_cards + 1},
                text("Give the Autômato 1 combat card (now {n}).", n=a.combat_cards + 1))
    if bonus == "combat-":
        if a.combat_cards == 0:
            return None, text("lose a combat card: it has none")
        return ({"op": "bonus", "kind": "combat", "to": a.combat_cards - 1},
                text("Discard 1 of the Autômato's combat cards (now {n}).", n=a.combat_cards - 1))
    if bonus == "gold":
        return ({"op": "gold", "to": a.gold + 1},
                text("Give the Autômato 1 gold card, face down (no limit; revealed at the end)."))
    raise ValueError(bonus)


def strength(s: GameState, uids: list[str]) -> int:
    """The FC the Autômato brings without combat cards: its units' and its frames'."""
    return s.fc_of(uids) + sum(s.board.frame(f).fc for f in s.automa.frames)


def phase(w: Work) -> None:
    s = w.state
    if not s.units_on_map():
        w.trace.add("movement: no military unit on the map, no movement phase")
        return
    card, row, first = card_and_row(w)
    w.details["movement_card"], w.details["movement_row"] = card.id, row
    line = card.rows[row - 1]
    with w.trace.section("movement row {row}: direction {direction}, bonus {bonus}", row=row,
                         direction=line.direction or "-", bonus=line.bonus or "-"):
        bonus = line.bonus
        if bonus == "era":
            bonus = card.era_bonus[w.state.era - 1]
            w.trace.add("the Era bonus of Era {era}: {bonus}", era=w.state.era, bonus=bonus)
        if bonus:
            op, words = bonus_ops(w.state, bonus)
            w.trace.add(words)
            if op:
                w.do(op)
                w.say(str(words))
        _point(w, line.direction, first)
    _move(w, card)
    if card.shuffle:
        w.trace.add("card {card} shows the shuffle icon: every movement card into a new pile for next turn",
                    card=card.id)
        w.do({"op": "movement_reshuffle", "fresh": True})
        w.say("Shuffle all the movement cards into a new face-up pile (card's shuffle icon); next turn reads "
              "the first row of its top card.")


def _point(w: Work, direction: str | None, first: bool) -> None:
    s = w.state
    if direction is None and first:
        target, why = nearest_capital(s, s.compass_at)
        w.trace.add("first card, no direction: the players' nearest capital, {why}", why=why)
    elif direction is None:
        w.trace.add("no direction on this row: the compass stays as it is")
        return
    else:
        target, why = target_of(s, direction)
        w.trace.add("direction {direction}: {why}", direction=direction, why=why)
    t = turn_towards(s.orientation, s.compass_at, s.heading, target)
    w.trace.add(t.words)
    w.details["compass_turn"] = t.steps
    if t.steps:
        w.do({"op": "compass", "heading": t.heading})
        side = "clockwise" if t.steps > 0 else "anticlockwise"
        w.say(f"Turn the compass {abs(t.steps)} x 60 degrees {side} (towards {hex_key(target)}).")
    w.details["compass_target"] = hex_key(target) if target else None


def _leave_dominated(w: Work) -> None:
    s = w.state
    here = s.compass_at
    b = s.cells[here].building
    if not (b and b.dominated):
        return
    units = [u for u in s.board.ids("units") if s.automa.units[u].at == here]
    if len(units) > 1:
        order = {u: i for i, u in enumerate(s.board.ids("units"))}
        weakest = min(units, key=lambda u: (s.board.unit(u).fc, order[u]))
        w.trace.add("{hex} is a construction it dominates: unit {unit} (least FC, leftmost) "
                    "stays lying there, the others move", hex=hex_key(here), unit=weakest)
        for u in units:
            if u != weakest and s.automa.units[u].lying is not None:
                w.do({"op": "stand", "unit": u})
        if w.state.automa.units[weakest].lying is None:
            w.do({"op": "lie", "unit": weakest})
        w.say(f"Leave the Autômato's unit {weakest} lying on the dominated construction at {hex_key(here)}.")
    elif units:
        w.trace.add("its only unit on the dominated construction at {hex} moves: the domination ends",
                    hex=hex_key(here))
        if s.automa.units[units[0]].lying is not None:
            w.do({"op": "stand", "unit": units[0]})
        w.do({"op": "undominate", "hex": hex_key(here)})
        w.say(f"The construction at {hex_key(here)} is no longer dominated.")


def _move(w: Work, card: MovementCard) -> None:
    s = w.state
    moves = min(MAX_MOVES, s.automa.adder + s.automa.combat_cards)
    counts = {"adder": s.automa.adder, "cards": s.automa.combat_cards, "moves": moves}
    if s.automa.adder + s.automa.combat_cards > MAX_MOVES:
        title = text("moves: adder {adder} + combat cards {cards} -> {moves} (at most 3)", **counts)
    else:
        title = text("moves: adder {adder} + combat cards {cards} -> {moves}", **counts)
    with w.trace.section(title):
        w.details["movements"], w.details["path"] = moves, [hex_key(s.compass_at)]
        if moves == 0:
            w.trace.add("no bonus: the Autômato does not move this turn")
            return
        _leave_dominated(w)
        s = w.state
        if not s.group():
            w.trace.add("no standing unit with the compass: nothing moves")
            return
        tile = s.cells[s.compass_at].tile
        if tile and not tile.face_down and tile.kind == "flag":
            fc = strength(s, s.group())
            if fc >= tile.fc:
                w.trace.add("standing on a flag needing FC {need} with FC {fc}: it wins the flag, the phase ends",
                            need=tile.fc, fc=fc)
                w.do({"op": "flag", "hex": hex_key(s.compass_at)})
                w.say(f"The Autômato wins the flag at {hex_key(s.compass_at)} (FC {fc} >= {tile.fc}): give it the "
                      "flag and its useful bonuses.")
                return
            w.trace.add("standing on a flag needing FC {need}, its FC is {fc}: not enough", need=tile.fc, fc=fc)
        for rel in card.explore:
            h = hexgrid.neighbour(s.compass_at, hexgrid.turn(s.heading, rel))
            c = s.cells.get(h)
            if c and c.tile and c.tile.face_down:
                w.trace.add("exploration check {side}: face-down tile at {hex}: go and explore it",
                            side=RELATIVE[rel], hex=hex_key(h))
                _step(w, h)
                _explore(w, h)
                return
            w.trace.add("exploration check {side}: {hex} has no face-down tile", side=RELATIVE[rel], hex=hex_key(h))
        used = 0
        for i, rel in enumerate(card.moves):
            if used == moves:
                break
            s = w.state
            h = hexgrid.neighbour(s.compass_at, hexgrid.turn(s.heading, rel))
            if h not in s.cells:
                w.trace.add("move {n} {side}: {hex} is off the map, skipped for the next one",
                            n=i + 1, side=RELATIVE[rel], hex=hex_key(h))
                continue
            used += 1
            w.trace.add("move {n} {side}: to {hex}", n=i + 1, side=RELATIVE[rel], hex=hex_key(h))
            _step(w, h)
            c = w.state.cells[h]
            if c.tile and c.tile.face_down:
                _explore(w, h)
                return
            if _enemy(w.state, h):
                _attack(w, h)
                return
        if used < moves:
            w.trace.add("the card shows no further possible step: {used} of {moves} movements made",
                        used=used, moves=moves)


def _enemy(s: GameState, h: Hex) -> bool:
    c = s.cells[h]
    building = c.building is not None and c.building.owner != AUTOMA and not c.building.dominated
    return building or bool(c.foes)


def _step(w: Work, h: Hex) -> None:
    group = w.state.group()
    w.do({"op": "move", "to": hex_key(h)})
    w.details["path"].append(hex_key(h))
    w.say(f"Move the compass with the Autômato's unit{'s' if len(group) > 1 else ''} {', '.join(group)} "
          f"to {hex_key(h)}.")


def _explore(w: Work, h: Hex) -> None:
    w.trace.add("exploration tile at {hex}: it explores it, the movement ends", hex=hex_key(h))
    w.do({"op": "explore", "hex": hex_key(h)})
    w.say(f"Flip the exploration tile at {hex_key(h)} and enter what it is (a flag: the Autômato uses no "
          "combat card against it).")
    w.details["explore"] = hex_key(h)


def _attack(w: Work, h: Hex) -> None:
    s = w.state
    cards = min(2, s.automa.combat_cards)
    c = s.cells[h]
    what = [text("{owner}'s {ref}", owner=c.building.owner, ref=c.building.ref) if c.building else None,
            text("{n} unit(s)", n=len(c.foes)) if c.foes else None]
    w.trace.add("{hex} holds {what}: combat, the movement ends; it uses {cards} combat card(s)",
                hex=hex_key(h), what=[x for x in what if x is not None], cards=cards)
    w.do({"op": "attack", "hex": hex_key(h), "cards": cards})
    w.say(f"Combat at {hex_key(h)}: choose your combat cards first; then reveal the Autômato's {cards} combat "
          f"card(s) and enter the result. The Autômato's FC without cards: {strength(w.state, w.state.group())}.")
    w.details["combat"] = hex_key(h)
