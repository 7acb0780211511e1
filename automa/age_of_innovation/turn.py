"""What the Automa does next: its initial workshops, a turn, its pass, the end of a round and
the final scoring (seed 002, *Tura Automy*, *Pasowanie*, *Koniec gry*).

The turn: at the Automa's first turn of a round draw 2 cards, the second to the left of the
first (the left card is the action card, the right one the support card). At its other turns,
the previous action card goes onto the support pile and becomes the support card; if the deck
is exhausted the Automa passes; otherwise draw 1 card as the action card, and if it is one of
the 2 sideways cards and shows the pass icon, ignore it and pass. Otherwise carry out every
action of the action card, top to bottom.

``decide`` is pure: state in, Decision out (the ops replayed by ``apply_ops``).
"""
from __future__ import annotations

import random
from dataclasses import asdict

from automa.common.decision import Decision
from automa.common.trace import Trace

from .actions import Turn, carried_out, perform
from .data import cards, components, factions, final_tiles, levels, round_tiles
from .ops import Op, apply_op
from .scoring import final_scoring
from .state import GameState
from .trace_words import word, words


def decide(state: GameState) -> Decision:
    if state.phase == "over":
        over = Trace()
        over.add("the game is over: nothing to decide")
        return Decision("automa", "none", None, "The game is over.", over.lines(),
                        details=_details(state, sentences=[{"kind": "over"}]))
    if state.phase == "setup":
        return initial_workshops(state)
    if state.automa.passed:
        waiting = [p.name for p in state.players if not p.passed]
        if waiting:
            why = Trace()
            why.add("the Automa passed this round; waiting for {players}", players=words(waiting))
            return Decision("automa", "wait", None,
                            f"The Automa has passed; {' and '.join(waiting)} still play{'s' if len(waiting) == 1 else ''} "
                            "this round.", why.lines(),
                            details=_details(state, sentences=[{"kind": "wait", "waiting": waiting}]))
        return end_of_round(state)
    return automa_turn(state)


# -- set-up -------------------------------------------------------------------------------------
def initial_workshops(state: GameState) -> Decision:
    """*Umieszczanie pierwszych Warsztatów*: after you place your first workshop, draw a random
    decision card; its 2 setup letters name the hexes of the Automa's preferred terrain on the
    Initial Workshop Setup card; a workshop on each, the one under the power-token letter marked."""
    trace = Trace()
    work = state.copy()
    ops: list[Op] = []

    def emit(op: Op) -> None:
        apply_op(work, op)
        ops.append(op)

    trace.add("the Automa places its workshops after you have placed your first one")
    if state.setup_card is not None:
        drawn = state.setup_card
        trace.add("the decision card drawn at the table: {card}", card=cards()[drawn].label)
    else:
        drawn = random.Random(f"{state.seed}:setup-card").choice(sorted(cards()))
        trace.add("random decision card {card}", card=cards()[drawn].label)
        emit({"op": "setup_card", "card": drawn})
    c = cards()[drawn]
    trace.add("setup letters {marked} (under it the power token) and {unmarked}", marked=c.setup_marked,
              unmarked=c.setup_unmarked)
    letters = state.board.setup_letters.get(state.terrain, {})
    target_hex = None
    if c.setup_marked in letters and c.setup_unmarked in letters:
        placed, where = [], []
        for letter, marked in ((c.setup_marked, True), (c.setup_unmarked, False)):
            h = letters[letter]
            if h in work.board.buildings:
                trace.add("{letter}: {hex} is taken; place this workshop by hand", letter=letter, hex=state.board.named(h))
                continue
            emit({"op": "build", "hex": list(h), "owner": "automa", "kind": "workshop", "marked": marked})
            placed.append(f"{state.board.label(h)} ({letter}{', with a power token' if marked else ''})")
            where.append({"hex": list(h), "letter": letter, "marked": marked})
            target_hex = target_hex or h
        instruction = f"Place the Automa's initial workshops on {' and '.join(placed)}."
        sentence = {"kind": "setup", "placed": where}
    else:
        trace.add("the setup card's {terrain} letters are not on this map: the players place the workshops",
                  terrain=word(state.terrain))
        instruction = (f"Place the Automa's initial workshops on the {state.terrain} hexes marked {c.setup_marked} "
                       f"(with a power token) and {c.setup_unmarked} on the Initial Workshop Setup card, "
                       "and mark them on the map.")
        sentence = {"kind": "setup_by_hand", "terrain": state.terrain, "marked": c.setup_marked,
                    "unmarked": c.setup_unmarked}
    emit({"op": "setup_done"})
    trace.add("a coin on each round bonus tile left in the line; round 1 begins, you play first")
    return Decision("automa", "setup", f"letters {c.setup_marked}/{c.setup_unmarked}", instruction, trace.lines(), ops,
                    details=_details(work, target_hex=target_hex, cards_shown={"setup": c.label},
                                     sentences=[sentence]))


# -- a turn -------------------------------------------------------------------------------------
def automa_turn(state: GameState) -> Decision:
    trace = Trace()
    work = state.copy()
    first = work.automa.turns == 0
    ops: list[Op] = []

    def emit(op: Op) -> None:
        apply_op(work, op)
        ops.append(op)

    with trace.section("Round {round}, Automa turn {turn}", round=work.round, turn=work.automa.turns + 1):
        if first:
            if len(work.deck.draw_pile) < 2:
                trace.add("first turn of the round but fewer than 2 cards in the deck: the Automa passes")
                return _pass(state, work, trace, ops, support_id=work.deck.discard_top)
            emit({"op": "draw", "count": 2})
            trace.add("first turn of the round: draw 2 cards; the second goes left of the first")
        else:
            trace.add("card {card} (the previous action card) becomes the support card",
                      card=cards()[work.deck.discard_top].label)
            if not work.deck.draw_pile:
                trace.add("the Automa deck is exhausted: the Automa passes")
                return _pass(state, work, trace, ops, support_id=work.deck.discard_top)
            emit({"op": "draw", "count": 1})
        action_id, support_id = work.deck.discard[-1], work.deck.discard[-2]
        action, support = cards()[action_id], cards()[support_id]
        trace.add("action card {action}, support card {support}", action=action.label, support=support.label)
        if work.deck.is_sideways(action_id) and action.pass_icon:
            trace.add("{card} is one of the 2 sideways cards and shows the pass icon: ignore it, the Automa passes",
                      card=action.label)
            return _pass(state, work, trace, ops, support_id=support_id)
        if work.deck.is_sideways(action_id):
            trace.add("{card} is sideways but has no pass icon: play it", card=action.label)
        emit({"op": "turn"})
        t = Turn(work, support.support, trace, ops)
        perform(t, action)
    said = t.said or ["The Automa's action card gives no eligible action: it does nothing this turn."]
    sentences = t.sentences or [{"kind": "nothing"}]
    return Decision("automa", carried_out(t), t.target,
                    " ".join(said), trace.lines(), ops,
                    details={**_details(work, target_hex=t.target_hex,
                                        cards_shown={"action": action.label, "support": support.label},
                                        sentences=sentences),
                             "support": asdict(support.support)})


def _pass(state: GameState, work: GameState, trace: Trace, ops: list[Op], support_id: int | None) -> Decision:
    """*Pasowanie*: the round tile's points exactly once; the bonus tile the support card's
    arrow points at (its coins to the supply, the old tile in its place); every card of the
    round and the top reserve card shuffled into the next round's deck, its 2 bottom cards
    sideways; the turn-order marker to the highest free space of the next round."""
    def emit(op: Op) -> None:
        apply_op(work, op)
        ops.append(op)

    said, sentences = [], []
    with trace.section("the Automa passes"):
        points = round_tile_points(work)
        first = not work.pass_order
        emit({"op": "vp", "who": "automa", "points": points, "why": "round scoring tile"})
        trace.add("round {round} scoring tile: {points} VP (once)", round=work.round, points=points)
        said.append(f"The Automa passes and scores {points} VP from the round scoring tile.")
        sentences.append({"kind": "pass", "points": points})
        if first and "first_to_pass_scores_again" in factions()[work.faction].rules:
            emit({"op": "vp", "who": "automa", "points": points, "why": "Racelings: passed first"})
            trace.add("Racelings: first to pass this round, the tile's {points} VP again", points=points)
            said.append(f"Racelings passed first: {points} VP again.")
            sentences.append({"kind": "racelings", "points": points})
        target = None
        if work.round < 6:
            support = cards()[support_id].support if support_id is not None else None
            line = [i for i, tile in enumerate(work.bonus_line) if tile is not None]
            if support is not None and line:
                pos = pick_bonus_position(line, support.bonus_tile)
                tile = work.bonus_line[pos]
                coins = work.bonus_coins.get(tile, 0)
                old = work.automa.bonus_tile
                emit({"op": "bonus_tile", "who": "automa", "position": pos})
                trace.add("support card {card}: arrow to the {arrow} tile of {n} -> bonus tile {tile}",
                          card=cards()[support_id].label, arrow=word(support.bonus_tile), n=len(line), tile=tile)
                said.append(f"It takes round bonus tile {tile} ({support.bonus_tile}, position {pos + 1} of the line)"
                            + (f", returning its {coins} coin{'s' if coins != 1 else ''} to the supply" if coins else "")
                            + (f", and leaves tile {old} in its place." if old is not None else "."))
                target = f"bonus tile {tile}"
                sentences.append({"kind": "bonus_tile", "tile": tile, "arrow": support.bonus_tile, "position": pos + 1,
                                  "coins": coins, "old": old})
            emit({"op": "rebuild_deck"})
            trace.add("this round's cards and the top reserve card shuffled: {n} cards, the bottom 2 turned sideways",
                      n=len(work.deck.draw_pile))
            said.append("Shuffle every decision card of this round with the top reserve card into the new deck; "
                        "turn the bottom 2 sideways.")
            sentences.append({"kind": "rebuild_deck"})
        else:
            trace.add("round 6: no bonus tile and no new deck")
        emit({"op": "pass", "who": "automa"})
        trace.add("turn order next round: position {position}", position=len(work.pass_order))
    return Decision("automa", "pass", target, " ".join(said), trace.lines(), ops,
                    details=_details(work, sentences=sentences))


def pick_bonus_position(line: list[int], arrow: str) -> int:
    """The line position the arrow points at among the tiles left in the line (left, middle or
    right of them; with an even number the middle is the left one of the two central tiles)."""
    if arrow == "left":
        return line[0]
    if arrow == "right":
        return line[-1]
    return line[(len(line) - 1) // 2]


def round_tile_points(state: GameState) -> int:
    """The fixed points in the lower right corner of this round's tile (rounds 1-3 side /
    4-6 side); round 6 reads the final round tile."""
    if state.round == 6:
        return final_tiles()[state.final_tile].points
    return round_tiles()[state.round_tiles[state.round - 1]].points[0 if state.round <= 3 else 1]


# -- end of a round -----------------------------------------------------------------------------
def end_of_round(state: GameState) -> Decision:
    trace = Trace()
    if state.round < 6:
        trace.add("everybody passed: round {round} ends; a coin on each tile left in the line, "
                  "spells and book actions uncovered, the round scoring tile removed", round=state.round)
        trace.add("turn order of round {round}: {players}", round=state.round + 1, players=words(state.pass_order))
        return Decision("automa", "round_end", None,
                        f"Round {state.round} is over: remove its round scoring tile; round {state.round + 1} "
                        f"begins ({state.pass_order[0]} first).", trace.lines(), [{"op": "round_end"}],
                        details=_details(state, sentences=[{"kind": "round_end", "round": state.round,
                                                            "first": state.pass_order[0]}]))
    ops, lines = final_scoring(state)
    for line in lines:
        trace.add(line.text)
    total = sum(op["points"] for op in ops if op["op"] == "vp")
    ops.append({"op": "game_over"})
    check = (" First make sure every achievement the Gognomes reached is entered (their points are scored as "
             "they are entered)." if "achievements" in factions()[state.faction].rules else "")
    return Decision("automa", "final_scoring", None,
                    f"Final scoring: the Automa scores {total} VP ({state.automa.vp + total} in all).{check}",
                    trace.lines(), ops,
                    details=_details(state, sentences=[{"kind": "final_scoring", "points": total,
                                                        "total": state.automa.vp + total, "gognomes": bool(check)}]))


def _details(state: GameState, target_hex=None, cards_shown: dict | None = None,
             sentences: list[dict] | None = None) -> dict:
    """The decision's data beside its sentence; ``sentences``: the instruction's sentences as
    data (``{"kind": ..., values}``), which a page composes in its own language."""
    lv = levels()[state.level]
    return {"round": state.round, "phase": state.phase, "vp": state.automa.vp,
            "target_hex": list(target_hex) if target_hex else None,
            "cards": cards_shown or {}, "deck_left": len(state.deck.draw_pile), "reserve_left": len(state.reserve),
            "navigation": lv.navigation[state.round - 1], "x_points": lv.x_points[state.round - 1],
            "scholars": state.automa.scholars, "workshops_left": state.automa_supply("workshop"),
            "pieces": {k: state.automa_supply(k) for k in components().buildings},
            "sentences": sentences or []}

