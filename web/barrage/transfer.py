"""A session as one JSON file: export, and an import that checks every step before storing any."""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from automa.barrage.state import GameState
from automa.common.errors import StateError

from ..store import SessionInfo, Step
from .game import Flow

FORMAT = "automa-vision-session"
VERSION = 1
KINDS = ("start", "automa", "human", "correction", "phases")


class SessionFileError(ValueError):
    """The file is not a session this version can load; nothing was stored."""


def export(info: SessionInfo, steps: list[Step]) -> dict:
    return {"format": FORMAT, "version": VERSION, "name": info.name, "settings": info.settings,
            "steps": [{"kind": s.kind, "label": s.label, "state": s.state, "flow": s.flow, "payload": s.payload}
                      for s in steps]}


def parse(data: bytes) -> tuple[str, dict, list[dict[str, Any]]]:
    """(name, settings, steps) from an exported file; raises SessionFileError naming the first problem."""
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SessionFileError(f"not a JSON file ({exc})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SessionFileError(f"not an exported session (expected \"format\": \"{FORMAT}\")")
    if raw.get("version") != VERSION:
        raise SessionFileError(f"session file version {raw.get('version')!r} is not supported (this is version {VERSION})")
    name, settings, steps = raw.get("name"), raw.get("settings"), raw.get("steps")
    if not isinstance(name, str) or not name.strip():
        raise SessionFileError("the session has no name")
    if not isinstance(settings, dict):
        raise SessionFileError("\"settings\" must be an object")
    if not (settings.get("profile") is None or isinstance(settings["profile"], str)):
        raise SessionFileError("\"settings\": \"profile\" must be a calibration profile's name, or null")
    if not isinstance(steps, list) or not steps:
        raise SessionFileError("\"steps\" must be a non-empty list")
    out = []
    for i, step in enumerate(steps):
        try:
            out.append(_step(step))
        # the state's own checks, and what int() and friends raise on values of the wrong type
        except (StateError, TypeError, KeyError, ValueError, OverflowError) as exc:
            raise SessionFileError(f"step {i}: {exc}") from None
    return name.strip()[:80], settings, out


def _step(step: Any) -> dict[str, Any]:
    if not isinstance(step, dict):
        raise StateError("a step must be an object")
    if step.get("kind") not in KINDS:
        raise StateError(f"unknown kind {step.get('kind')!r} (one of {', '.join(KINDS)})")
    if not isinstance(step.get("label"), str):
        raise StateError("\"label\" must be text")
    state = GameState.from_dict(step.get("state"))
    if not isinstance(step.get("flow"), dict):
        raise StateError("\"flow\" must be an object")
    flow = Flow.from_dict(step["flow"])
    for company in [flow.next, *flow.passed]:
        if company is not None and company not in state.companies:
            raise StateError(f"flow: {company!r} is not playing")
    payload = step.get("payload", {})
    if not isinstance(payload, dict):
        raise StateError("\"payload\" must be an object")
    return {"kind": step["kind"], "label": step["label"], "state": state.to_dict(), "flow": asdict(flow),
            "payload": payload}
