"""A second page beside Countdown's, for tests/web/test_i18n.py: its catalogue translates
texts that Countdown's and the shared catalogues translate too, otherwise, as two games may
("round" is a game's round there and a shape here)."""
from __future__ import annotations

from flask import Blueprint, render_template

GAME_ID = "stub-twin"
bp = Blueprint("stub_twin", __name__, url_prefix=f"/{GAME_ID}", template_folder="templates", static_folder="static")


@bp.get("/")
def index():
    return render_template("stub_twin/index.html")
