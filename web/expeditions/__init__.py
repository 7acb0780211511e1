"""Expeditions' page under ``/expeditions``: a new game, the location layout with both Automa
mechs, each Automa turn's instruction per mech, the progress track and glory, the player's side
of the table, the final scores, undo; sessions in the shared store (``web.sessions``)."""
from __future__ import annotations

from flask import Blueprint

from ..sessions import own_sessions
from .views import GAME_ID, register

bp = Blueprint("expeditions", __name__, url_prefix=f"/{GAME_ID}", template_folder="templates",
               static_folder="static")
register(bp)
own_sessions(bp, GAME_ID)
