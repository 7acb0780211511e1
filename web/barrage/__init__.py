"""Barrage's page: the new-game form, the play page and its JSON API, under ``/barrage``.

The package also starts the table camera (``services().live``): the camera reads Barrage's
board, and the calibration wizard uses the same camera. The page's addresses before games
had their own prefix (``/play/...``, ``/api/...``) answer with a permanent redirect here.
"""
from __future__ import annotations

from flask import Blueprint, redirect, request
from flask.blueprints import BlueprintSetupState

from ..services import services
from ..sessions import own_sessions
from .api import bp as api_bp
from .game import GAME_ID
from .live import Live
from .play import bp as play_bp

bp = Blueprint("barrage", __name__, url_prefix=f"/{GAME_ID}", template_folder="templates",
               static_folder="static")
bp.register_blueprint(play_bp)
bp.register_blueprint(api_bp)
own_sessions(bp, GAME_ID)


@bp.record_once
def _start(state: BlueprintSetupState) -> None:
    app = state.app
    with app.app_context():
        s = services()
        s.live = Live(s.config.source, s.config.model, s.config.profiles_dir)
    for old in ("/play/<path:rest>", "/api/<path:rest>"):
        app.add_url_rule(old, f"barrage_moved_{old.split('/')[1]}", _moved, methods=["GET", "POST", "DELETE"])


def _moved(rest: str):
    """308 keeps the method and the body, so an old POST lands as a POST."""
    query = request.query_string.decode("latin-1")
    return redirect(f"/{GAME_ID}{request.path}" + (f"?{query}" if query else ""), code=308)
