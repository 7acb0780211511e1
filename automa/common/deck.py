"""A seeded, replayable deck of Automa cards or tiles.

Every Automa in this project draws from a face-down pile and discards face up;
when the pile runs out the discards are shuffled into a new pile. The shuffle
is seeded by ``(seed, shuffles)`` so a saved game replays exactly: the same
seed and the same number of earlier reshuffles always give the same order.

The games differ only in what happens around a shuffle, and the deck carries
each of those once:

- cards *set aside unseen* at every shuffle (Expeditions sets 2 aside so the
  players cannot count the deck); they return at the next shuffle;
- cards *turned sideways* at the bottom of a new pile (Age of Innovation turns
  the last two, whose pass icon can end the Automa's round early);
- the *keep visible* cards on the discard pile that are still being read while
  the rest is shuffled (Barrage reads the Criteria side of the tile just flipped).

Cards are whole numbers; each game's data file says what a number is.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace


def seeded_order(cards: list[int], seed: int, shuffles: int) -> list[int]:
    """Return ``cards`` in the order of shuffle number ``shuffles`` of ``seed``."""
    order = sorted(cards)
    random.Random(f"{seed}:{shuffles}").shuffle(order)
    return order


def rows_from(first: int, count: int, wrap: bool = False) -> list[int]:
    """The rows of a card tried in order when row ``first`` is impossible: that row, then
    every row below it (cards with rows chosen by an arrow fall through downwards); with
    ``wrap``, past the last row back to the first, so every row is tried once. Rows are
    numbered from 0; an out-of-range ``first`` is an error."""
    if not 0 <= first < count:
        raise ValueError(f"row {first} is not one of the card's {count} rows")
    return [(first + i) % count for i in range(count)] if wrap else list(range(first, count))


@dataclass
class Deck:
    """Draw pile (top first), discard pile (top last) and the cards set aside unseen."""

    draw_pile: list[int]
    discard: list[int] = field(default_factory=list)
    seed: int = 0
    shuffles: int = 0
    set_aside: list[int] = field(default_factory=list)
    sideways: list[int] = field(default_factory=list)

    @classmethod
    def new(cls, cards: list[int], seed: int, *, set_aside: int = 0, sideways: int = 0) -> "Deck":
        """A new pile of ``cards`` (shuffle 0 of ``seed``), the top ``set_aside`` cards put
        aside unseen and the bottom ``sideways`` cards turned sideways."""
        return cls._shuffled(list(cards), seed, 0, set_aside, sideways)

    @classmethod
    def _shuffled(cls, cards: list[int], seed: int, shuffles: int, set_aside: int, sideways: int,
                  discard: list[int] | None = None) -> "Deck":
        if set_aside + sideways > len(cards):
            raise ValueError(f"cannot set {set_aside} aside and turn {sideways} sideways in a pile of {len(cards)}")
        order = seeded_order(cards, seed, shuffles)
        aside, pile = order[:set_aside], order[set_aside:]
        turned = pile[len(pile) - sideways:] if sideways else []
        return cls(draw_pile=pile, discard=discard or [], seed=seed, shuffles=shuffles,
                   set_aside=aside, sideways=turned)

    @property
    def top(self) -> int | None:
        return self.draw_pile[0] if self.draw_pile else None

    @property
    def discard_top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def cards(self) -> list[int]:
        """Every card of the deck, wherever it lies."""
        return sorted(self.draw_pile + self.discard + self.set_aside)

    def is_sideways(self, card: int) -> bool:
        return card in self.sideways

    def draw(self) -> tuple[int, "Deck"]:
        """Take the top card face up onto the discard pile; (the card, the new deck).

        An empty pile is not reshuffled here: when that happens is a rule of each game
        (``rebuilt``)."""
        if not self.draw_pile:
            raise ValueError("cannot draw: the draw pile is empty")
        card = self.draw_pile[0]
        return card, replace(self, draw_pile=self.draw_pile[1:], discard=self.discard + [card])

    def rebuilt(self, extra_cards: tuple[int, ...] | list[int] = (), *, set_aside: int = 0,
                sideways: int = 0) -> "Deck":
        """Every card (pile, discards, those set aside) and ``extra_cards`` shuffled into a new
        pile: the next shuffle of the seed, with cards set aside and turned sideways anew."""
        every = self.draw_pile + self.discard + self.set_aside + list(extra_cards)
        return self._shuffled(every, self.seed, self.shuffles + 1, set_aside, sideways)

    def flip(self, keep_visible: int = 1) -> "Deck":
        """Move the top card onto the discard pile and return the new deck.

        When the draw pile is then empty, the discards are reshuffled into a
        new pile, except the ``keep_visible`` cards on top of the discard pile
        that are still being read (Barrage reads the criteria side of the tile
        just flipped).
        """
        if not self.draw_pile:
            raise ValueError("cannot flip: the draw pile and the discard pile are both empty")
        _, deck = self.draw()
        if deck.draw_pile:
            return deck
        kept = deck.discard[len(deck.discard) - keep_visible:] if keep_visible else []
        rest = deck.discard[: len(deck.discard) - keep_visible] if keep_visible else deck.discard
        shuffles = self.shuffles + 1
        return replace(deck, draw_pile=seeded_order(rest, self.seed, shuffles), discard=kept, shuffles=shuffles)

    def to_dict(self) -> dict:
        out = {"draw_pile": list(self.draw_pile), "discard": list(self.discard),
               "seed": self.seed, "shuffles": self.shuffles}
        if self.set_aside:
            out["set_aside"] = list(self.set_aside)
        if self.sideways:
            out["sideways"] = list(self.sideways)
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "Deck":
        return cls(draw_pile=[int(c) for c in d["draw_pile"]], discard=[int(c) for c in d.get("discard", [])],
                   seed=int(d.get("seed", 0)), shuffles=int(d.get("shuffles", 0)),
                   set_aside=[int(c) for c in d.get("set_aside", [])],
                   sideways=[int(c) for c in d.get("sideways", [])])
