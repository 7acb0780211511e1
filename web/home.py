"""The home page: every registered game, each with its page or, without one, its command line.
A game's name and summary are the registry's (English, ``automa/``), shown in the page's
language from the catalogue of the game's page (``web.i18n.game_text``)."""
from __future__ import annotations

from flask import Blueprint, render_template

from automa.games import registry

from .i18n import game_text
from .services import services

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    pages = services().pages
    games = [{"id": g.id, "name": game_text(g.id, g.name), "summary": game_text(g.id, g.summary), "page": pages.get(g.id)}
             for g in registry().values()]
    return render_template("home.html", games=games)
