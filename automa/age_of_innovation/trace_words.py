"""The game's words a trace line names from the engine's ids (terrains, buildings, disciplines,
the bonus tile arrow, the seats), as ``text``: the English is the id itself, so a line reads as
the engine always wrote it, and a page says the word in its language (``automa.common.trace``).

Each word is written out here so that ``python -m web.i18n`` finds it; the page's own
catalogue already has most of them (``web/age_of_innovation/words.py``), the same text."""
from __future__ import annotations

from automa.common.trace import Text, text

WORDS: dict[str, Text] = {
    "plains": text("plains"), "swamp": text("swamp"), "lake": text("lake"), "forest": text("forest"),
    "mountain": text("mountain"), "wasteland": text("wasteland"), "desert": text("desert"), "river": text("river"),
    "workshop": text("workshop"), "guild": text("guild"), "palace": text("palace"), "school": text("school"),
    "university": text("university"),
    "banking": text("banking"), "law": text("law"), "engineering": text("engineering"), "medicine": text("medicine"),
    "left": text("left"), "middle": text("middle"), "right": text("right"),
    # the seats (the state's player names): "player" is you, as the page says it
    "player": text("player"), "player2": text("player2"), "automa": text("automa"),
}


def word(name: str) -> Text:
    """``name`` (an id of the engine's) as a trace line says it; an id without a word as it is."""
    return WORDS.get(name) or Text(name)


def words(names: list[str] | tuple[str, ...]) -> list[Text]:
    """Each of ``names`` said as a word (a trace value: said joined by ", ")."""
    return [word(n) for n in names]
