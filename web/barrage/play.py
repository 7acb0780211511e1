"""The pages: start/resume a game, and play it."""
from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, url_for

from automa.barrage.data import company_colours, components
from automa.barrage.setup import BASE_COMPANIES
from vision.barrage.labels import MAX_HEADSTREAM_DROPS

from ..forms import FormError
from ..services import services
from .api import create_session, profiles
from .game import GAME_ID
from .live import DEMO_DIR
from .views import COLOUR_HEX

bp = Blueprint("play", __name__)


def _home(errors: list[str] | None = None, form: dict | None = None, status: int = 200):
    live = services().live
    colours = {c: COLOUR_HEX[company_colours()[c]] for c in BASE_COMPANIES}
    return render_template("barrage/index.html", sessions=services().store.sessions(GAME_ID), companies=BASE_COMPANIES,
                           colours=colours, profiles=profiles(), errors=errors or [], form=form or {},
                           officers={o: info["name"] for o, info in components().officers().items()},
                           source=live.source.describe(), recognition=live.recognition_problem,
                           demo=live.demo is not None), status


@bp.get("/")
def index():
    return _home()


@bp.post("/play/new")
def new():
    try:
        sid = create_session(request.form.to_dict())
    except FormError as exc:
        return _home(exc.problems, request.form.to_dict(), 400)
    return redirect(url_for(".play", sid=sid))


@bp.post("/play/demo")
def demo():
    """The game the bundled replay shows, so the camera and the page agree."""
    g = json.loads((DEMO_DIR / "game.json").read_text())
    roles = {f"role_{c}": ("automa" if i < g["automas"] else "human") for i, c in enumerate(g["companies"])}
    sid = create_session({**roles, "difficulty": g["difficulty"], "seed": str(g["seed"]), "name": "Demo game"})
    return redirect(url_for(".play", sid=sid))


@bp.get("/play/<int:sid>")
def play(sid: int):
    info = services().store.session(sid)
    live = services().live
    return render_template("barrage/play.html", session=info, recognition=live.problem(info.settings.get("profile")),
                           source=live.source.describe(), max_drops=MAX_HEADSTREAM_DROPS,
                           replay_elsewhere=live.demo is not None and not replays(info.settings, live.demo.game))


def replays(settings: dict, replay: dict) -> bool:
    """Whether the bundled replay's pictures are of this game (its companies, seed and difficulty):
    any other game played in demo mode is told that the camera shows another game."""
    return all(settings.get(k) == replay.get(k) for k in ("companies", "seed", "difficulty"))
