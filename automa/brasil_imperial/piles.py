"""The Autômato's two piles, read the same way (seed, "Fase de Ações" steps 1-4 and "Fase de
Movimento"): a pile just turned face up is read from its top card's first row; otherwise the
top card is drawn and laid face up to the left, and its arrow chooses the row of the new top
card; when that was the last card, the whole pile is shuffled face up and the first row is read.
"""
from __future__ import annotations

from dataclasses import dataclass

from automa.common.trace import Text, text

from .steps import Work


@dataclass(frozen=True)
class Pile:
    """One pile: its ops are ``<name>_draw`` and ``<name>_reshuffle``, and ``start_op`` reads a
    fresh pile; the sentences are what the players do at the table."""

    name: str            # "action" or "movement": the state's <name>_deck, <name>_fresh, cards.<name>
    start_op: str
    take: str            # with {card}
    last: Text           # the trace's line when the card drawn was the last: its template, with {card}
    reshuffle: str


ACTION = Pile("action", "action_start",
              "Take action card {card} from the pile and lay it face up to the left.",
              text("card {card} was the last: shuffle the whole pile face up, first row"),
              "It was the last card: shuffle all the action cards into a new face-up pile.")
MOVEMENT = Pile("movement", "movement_first",
                "Take movement card {card} and lay it face up to the left.",
                text("card {card} was the last: shuffle the movement pile face up, first row"),
                "It was the last card: shuffle all the movement cards into a new face-up pile.")


def turn_up(w: Work, pile: Pile):
    """The card to read and its row (1-4), the draw and any reshuffle done through ``w``."""
    s = w.state
    cards = getattr(s.cards, pile.name)
    if getattr(s, f"{pile.name}_fresh"):
        w.trace.add("the pile was just turned face up: the top card's first row")
        w.do({"op": pile.start_op})
        row = 1
    else:
        drawn = cards[getattr(s, f"{pile.name}_deck").top]
        w.do({"op": f"{pile.name}_draw", "card": drawn.id})
        w.say(pile.take.format(card=drawn.id))
        if not getattr(w.state, f"{pile.name}_deck").draw_pile:
            w.trace.add(pile.last.template, card=drawn.id)
            w.do({"op": f"{pile.name}_reshuffle"})
            w.say(pile.reshuffle)
            row = 1
        else:
            row = drawn.arrow
            w.trace.add("card {card} laid aside; its arrow chooses row {row} of the next card", card=drawn.id, row=row)
    return getattr(w.state.cards, pile.name)[getattr(w.state, f"{pile.name}_deck").top], row
