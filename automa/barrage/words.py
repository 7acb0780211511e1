"""The English words the Automa's trace lines put inside themselves, as ``text``s that a page
says in its own language (``automa.common.trace``): the structures, colours, machines and areas,
counted words, and lists joined by a separator other than ", " (a list value is said joined by
", " already). The players' sentences (``ops.describe``, ``engine.summary``) keep their plain
English from ``ops.NAMES``, ``ops.a_name`` and ``ops.plural``; a test holds these words to them."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from automa.common.trace import Text, chained, text

STRUCTURE = {"dam_base": text("Dam Base"), "elevation": text("Elevation"), "conduit": text("Conduit"),
             "powerhouse": text("Powerhouse"), "building": text("building")}
A_STRUCTURE = {"dam_base": text("a Dam Base"), "elevation": text("an Elevation"), "conduit": text("a Conduit"),
               "powerhouse": text("a Powerhouse"), "building": text("a building")}
# a contract's kind: its colour, or the national and starting contracts
CONTRACT_KIND = {"green": text("green"), "yellow": text("yellow"), "red": text("red"),
                 "national": text("national"), "starting": text("starting")}
MACHINE = {"excavator": text("excavator"), "mixer": text("mixer"), "any": text("any")}
AREA = {"mountains": text("Mountains"), "hills": text("Hills"), "plains": text("Plains")}
AREA_LOWER = {"mountains": text("mountains"), "hills": text("hills"), "plains": text("plains")}


def tile(tile_id: str) -> Text | str:
    """A Technology tile as a player names it: a base tile by its structure ("Dam Base"), an
    advanced one by its level and name ("L2 Base" for ``L2_BASE``)."""
    if tile_id in STRUCTURE:
        return STRUCTURE[tile_id]
    level, _, name = tile_id.partition("_")
    return f"{level} {name.replace('_', ' ').title()}" if name else tile_id


def engineers(n: int) -> Text:
    return text("{n} engineer", n=n) if n == 1 else text("{n} engineers", n=n)


def drops(n: int) -> Text:
    return text("{n} drop", n=n) if n == 1 else text("{n} drops", n=n)


def segments(n: int) -> Text:
    return text("{n} segment", n=n) if n == 1 else text("{n} segments", n=n)


def commas(items: Sequence[Any]) -> Any:
    """"a, b, c" as one value that is a ``text`` (a list value is said so too, but is no ``text``)."""
    return chained(items, text("{first}, {rest}"))


def semicolons(items: Sequence[Any]) -> Any:
    """"a; b; c"."""
    return chained(items, text("{first}; {rest}"))


def pluses(items: Sequence[Any]) -> Any:
    """"a+b" (a machinery shop's machines)."""
    return chained(items, text("{first}+{rest}"))


def or_else(items: Sequence[Any]) -> Any:
    """"a; or b" (the ways a cost may be met)."""
    return chained(items, text("{first}; or {rest}"))
