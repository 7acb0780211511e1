"""The Flask app factory: configuration, shared services, the home page, every game's page
and the error handlers.

A game's page is a subpackage ``web/<package>/`` exposing ``bp`` (its Blueprint) and
``GAME_ID``; the factory finds them all, so adding a page is adding a folder (docs/web.md).
Errors never escape as tracebacks: API routes answer JSON ``{"error": ...}``,
pages answer a short HTML page, both with the right status code.
"""
from __future__ import annotations

import importlib
import logging
import pkgutil

from flask import Blueprint, Flask, jsonify, render_template, request
from flask_babel import gettext, lazy_gettext
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

import web
from automa.common.errors import StateError

from . import i18n
from .forms import FormError
from .services import Services, WebConfig
from .store import Store, StoreError

log = logging.getLogger(__name__)
# what a page says for werkzeug's errors raised without words of their own
GENERIC = {404: lazy_gettext("there is no such page"), 405: lazy_gettext("this address does not take that method")}


def game_pages() -> list[tuple[str, Blueprint]]:
    """(game id, blueprint) of every subpackage of ``web`` that is a game's page."""
    pages = []
    for info in pkgutil.iter_modules(web.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"web.{info.name}")
        bp, game_id = getattr(module, "bp", None), getattr(module, "GAME_ID", None)
        if isinstance(bp, Blueprint) and isinstance(game_id, str):
            pages.append((game_id, bp))
    return pages


def create_app(config: WebConfig | None = None) -> Flask:
    config = config or WebConfig()
    config.data_dir.mkdir(parents=True, exist_ok=True)
    config.profiles_dir.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = config.max_upload
    app.config["JSON_SORT_KEYS"] = False
    app.extensions["automa_vision"] = Services(config, Store(config.data_dir / "sessions.sqlite3"))
    if config.pairing is not None:          # serve --lan: nothing for a browser that has not paired
        from .lan import install
        install(app, config.pairing)

    from .calibration_views import bp as calibration_bp
    from .home import bp as home_bp
    app.register_blueprint(home_bp)
    pages = game_pages()
    for game_id, bp in pages:
        app.register_blueprint(bp)
        app.extensions["automa_vision"].pages[game_id] = f"{bp.url_prefix}/"
    app.register_blueprint(calibration_bp)
    i18n.init_app(app, pages)
    _error_handlers(app)
    return app


def _wants_json() -> bool:
    """An API call: ``/api/...``, ``/calibration/api/...``, ``/<game>/api/...``."""
    return "api" in request.path.split("/")[1:3] or request.is_json


def _error(status: int, message: str, problems: list[str] | None = None):
    if _wants_json():
        body = {"error": message}
        if problems:
            body["problems"] = problems
        return jsonify(body), status
    return render_template("error.html", status=status, message=message, problems=problems or []), status


def _error_handlers(app: Flask) -> None:
    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc):
        return _error(413, gettext("the upload is larger than %(mb)d MB", mb=app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if exc.description == type(exc).description and exc.code in GENERIC:     # werkzeug's own words
            return _error(exc.code, str(GENERIC[exc.code]))
        return _error(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(FormError)
    def form_error(exc: FormError):
        return _error(400, gettext("please correct the form"), exc.problems)

    @app.errorhandler(StateError)
    @app.errorhandler(StoreError)
    def refused(exc: Exception):
        return _error(getattr(exc, "status", 400), str(exc))

    @app.errorhandler(Exception)
    def crash(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error(500, gettext("internal error (%(kind)s); the game state was not changed", kind=type(exc).__name__))
