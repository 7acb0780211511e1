"""A seeded, replayable deck of Automa cards or tiles.

Every Automa in this project draws from a face-down pile and discards face up;
when the pile runs out the discards are shuffled into a new pile. The shuffle
is seeded by ``(seed, shuffles)`` so a saved game replays exactly: the same
seed and the same number of earlier reshuffles always give the same order.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field


def seeded_order(cards: list[int], seed: int, shuffles: int) -> list[int]:
    """Return ``cards`` in the order of shuffle number ``shuffles`` of ``seed``."""
    order = sorted(cards)
    random.Random(f"{seed}:{shuffles}").shuffle(order)
    return order


@dataclass
class Deck:
    """Draw pile (top first) and discard pile (top last) of one shared deck."""

    draw_pile: list[int]
    discard: list[int] = field(default_factory=list)
    seed: int = 0
    shuffles: int = 0

    @classmethod
    def new(cls, cards: list[int], seed: int) -> "Deck":
        return cls(draw_pile=seeded_order(cards, seed, 0), discard=[], seed=seed, shuffles=0)

    @property
    def top(self) -> int | None:
        return self.draw_pile[0] if self.draw_pile else None

    @property
    def discard_top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    def cards(self) -> list[int]:
        return sorted(self.draw_pile + self.discard)

    def flip(self, keep_visible: int = 1) -> "Deck":
        """Move the top card onto the discard pile and return the new deck.

        When the draw pile is then empty, the discards are reshuffled into a
        new pile, except the ``keep_visible`` cards on top of the discard pile
        that are still being read (Barrage reads the criteria side of the tile
        just flipped).
        """
        if not self.draw_pile:
            raise ValueError("cannot flip: the draw pile and the discard pile are both empty")
        pile = self.draw_pile[1:]
        discard = self.discard + [self.draw_pile[0]]
        shuffles = self.shuffles
        if not pile:
            kept = discard[len(discard) - keep_visible:] if keep_visible else []
            rest = discard[: len(discard) - keep_visible] if keep_visible else discard
            shuffles += 1
            pile = seeded_order(rest, self.seed, shuffles)
            discard = kept
        return Deck(draw_pile=pile, discard=discard, seed=self.seed, shuffles=shuffles)

    def to_dict(self) -> dict:
        return {"draw_pile": list(self.draw_pile), "discard": list(self.discard),
                "seed": self.seed, "shuffles": self.shuffles}

    @classmethod
    def from_dict(cls, d: dict) -> "Deck":
        return cls(draw_pile=[int(c) for c in d["draw_pile"]], discard=[int(c) for c in d.get("discard", [])],
                   seed=int(d.get("seed", 0)), shuffles=int(d.get("shuffles", 0)))
