"""Figures told by band: a value falls in the first band (top, name), lowest first, whose top
it is under. Eval's confidence, board-chance and height-cue bands and the reader's lean bands
are all told so."""
from __future__ import annotations

Bands = tuple[tuple[float, str], ...]


def band(bands: Bands, value: float) -> str:
    """The name of the first of ``bands`` whose top ``value`` is under (the last band's top is
    infinite, so every finite value has one)."""
    return next(name for top, name in bands if value < top)
