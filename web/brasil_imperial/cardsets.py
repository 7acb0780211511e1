"""The players' card sets: JSON files in ``<data dir>/brasil_imperial/cards/``, one per set, each
checked by the engine (``automa.brasil_imperial.cards.load_cards``) before it is written; the
bundled EXAMPLE set is always there as ``example`` and cannot be overwritten."""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from automa.brasil_imperial.cards import CardSet, dump_cards, example_cards, load_cards
from automa.games import parse_json

from ..services import services

EXAMPLE = "example"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,39}")
MAX_SETS = 50


def folder() -> Path:
    path = services().config.data_dir / "brasil_imperial" / "cards"
    path.mkdir(parents=True, exist_ok=True)
    return path


def valid_name(name: str) -> bool:
    return bool(NAME.fullmatch(name or "")) and name != EXAMPLE


def names() -> list[str]:
    return [EXAMPLE] + sorted(p.stem for p in folder().glob("*.json") if valid_name(p.stem))


def get(name: str) -> CardSet:
    """A saved set (KeyError when there is none; StateError when its file is no longer valid)."""
    if name == EXAMPLE:
        return example_cards()
    if not valid_name(name) or not (folder() / f"{name}.json").exists():
        raise KeyError(name)
    return load_cards(parse_json((folder() / f"{name}.json").read_text(encoding="utf-8")))


def save(name: str, cards: CardSet) -> None:
    """Write atomically (a temporary file renamed over the old one)."""
    if not valid_name(name):
        raise ValueError(name)
    if name not in names() and len(names()) > MAX_SETS:
        raise OverflowError(MAX_SETS)
    data = dump_cards(cards)
    data["example"] = False
    data["notes"] = [n for n in data["notes"] if "EXAMPLE" not in n]
    fd, tmp = tempfile.mkstemp(dir=folder(), suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
    os.replace(tmp, folder() / f"{name}.json")


def delete(name: str) -> None:
    if valid_name(name):
        (folder() / f"{name}.json").unlink(missing_ok=True)
