"""Age of Innovation's page under ``/age-of-innovation``: a new game, the map (SVG) with the
Automa's target hex, the action and support cards with the instruction and its trace, the
players' moves and the map editor, undo; sessions in the shared store (``web.sessions``)."""
from __future__ import annotations

from flask import Blueprint

from ..sessions import own_sessions
from .views import GAME_ID, register

bp = Blueprint("age_of_innovation", __name__, url_prefix=f"/{GAME_ID}", template_folder="templates",
               static_folder="static")
register(bp)
own_sessions(bp, GAME_ID)
