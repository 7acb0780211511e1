"""The game's words the page shows from the engine's ids (terrains, buildings, disciplines, the
support column's icons), in the page's language."""
from __future__ import annotations

from flask_babel import lazy_gettext

NAMES = {
    "plains": lazy_gettext("plains"), "swamp": lazy_gettext("swamp"), "lake": lazy_gettext("lake"),
    "forest": lazy_gettext("forest"), "mountain": lazy_gettext("mountain"), "wasteland": lazy_gettext("wasteland"),
    "desert": lazy_gettext("desert"), "river": lazy_gettext("river"),
    "workshop": lazy_gettext("workshop"), "guild": lazy_gettext("guild"), "palace": lazy_gettext("palace"),
    "school": lazy_gettext("school"), "university": lazy_gettext("university"),
    "banking": lazy_gettext("banking"), "law": lazy_gettext("law"), "engineering": lazy_gettext("engineering"),
    "medicine": lazy_gettext("medicine"),
    "marked": lazy_gettext("near marked buildings"), "unmarked": lazy_gettext("near unmarked buildings"),
    "round_tile": lazy_gettext("science: round tile colour"), "catch_up": lazy_gettext("science: catch up"),
    "left": lazy_gettext("left"), "middle": lazy_gettext("middle"), "right": lazy_gettext("right"),
    # the seats in the turn order (the state's player names)
    "player": lazy_gettext("you"), "player2": lazy_gettext("player 2"), "automa": lazy_gettext("Automa"),
}
