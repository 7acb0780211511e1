"""The Flask app factory: configuration, shared services, blueprints and error handlers.

Errors never escape as tracebacks: API routes answer JSON ``{"error": ...}``,
pages answer a short HTML page, both with the right status code.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from automa.common.errors import StateError
from vision.model import DEFAULT_MODEL

from .forms import FormError
from .live import Live, Source
from .store import Store, StoreError

log = logging.getLogger(__name__)
MAX_UPLOAD_BYTES = 8 * 1024 * 1024      # a 12 MP JPEG fits; anything bigger is not a board photo


@dataclass
class WebConfig:
    data_dir: Path = Path("data/web")
    source: Source = field(default_factory=lambda: Source("demo"))
    model: Path = DEFAULT_MODEL
    max_upload: int = MAX_UPLOAD_BYTES

    @property
    def profiles_dir(self) -> Path:
        return self.data_dir / "profiles"


@dataclass
class Services:
    config: WebConfig
    store: Store
    live: Live


def services() -> Services:
    return current_app.extensions["automa_vision"]


def create_app(config: WebConfig | None = None) -> Flask:
    config = config or WebConfig()
    config.data_dir.mkdir(parents=True, exist_ok=True)
    config.profiles_dir.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = config.max_upload
    app.config["JSON_SORT_KEYS"] = False
    app.extensions["automa_vision"] = Services(
        config, Store(config.data_dir / "sessions.sqlite3"),
        Live(config.source, config.model, config.profiles_dir))

    from .api import bp as api_bp
    from .calibration_views import bp as calibration_bp
    from .play import bp as play_bp
    app.register_blueprint(play_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(calibration_bp)
    _error_handlers(app)
    return app


def _wants_json() -> bool:
    return request.path.startswith(("/api/", "/calibration/api/")) or request.is_json


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
        return _error(413, f"the upload is larger than {app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return _error(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(FormError)
    def form_error(exc: FormError):
        return _error(400, "please correct the form", exc.problems)

    @app.errorhandler(StateError)
    @app.errorhandler(StoreError)
    def refused(exc: Exception):
        return _error(getattr(exc, "status", 400), str(exc))

    @app.errorhandler(Exception)
    def crash(exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return _error(500, f"internal error ({type(exc).__name__}); the game state was not changed")
