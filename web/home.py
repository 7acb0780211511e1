"""The home page: every registered game, each with its page or, without one, its command line."""
from __future__ import annotations

from flask import Blueprint, render_template

from automa.games import registry

from .services import services

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    pages = services().pages
    games = [{"id": g.id, "name": g.name, "summary": g.summary, "page": pages.get(g.id)} for g in registry().values()]
    return render_template("home.html", games=games)
