"""Calibration wizard pages (placeholder until the wizard lands)."""
from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("calibration", __name__, url_prefix="/calibration")


@bp.get("/")
def wizard():
    return render_template("error.html", status=501, message="calibration wizard not ready", problems=[])
