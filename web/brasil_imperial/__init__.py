"""Brasil Imperial's page under ``/brasil-imperial``: the card editor for the Autômato's two decks
(saved, exported, imported), a new game, each Autômato turn's action and movement on the hex map
with the compass drawn, what the players enter (explored tiles, combats, mission cards, the
table), undo; sessions in the shared store (``web.sessions``)."""
from __future__ import annotations

from flask import Blueprint

from ..sessions import own_sessions
from .views import GAME_ID, register

bp = Blueprint("brasil_imperial", __name__, url_prefix=f"/{GAME_ID}", template_folder="templates",
               static_folder="static")
register(bp)
own_sessions(bp, GAME_ID)
