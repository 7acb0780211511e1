"""Barrage's sessions as JSON files (web.sessions): each step's kind and flow checked too."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from automa.common.errors import StateError
from automa.games import Game

from .. import sessions
from .game import GAME_ID, Flow

KINDS = ("start", "automa", "human", "correction", "phases")


def parse(data: bytes) -> tuple[str, dict, list[dict[str, Any]]]:
    """(name, settings, steps) from an exported Barrage session; SessionFileError names the first problem."""
    return sessions.parse(data, GAME_ID, _step)


def _step(game: Game, step: Any) -> dict[str, Any]:
    """A step with Barrage's kinds and its ``flow`` (whose turn, who passed) checked against the state."""
    if not isinstance(step, dict):
        raise StateError("a step must be an object")
    if step.get("kind") not in KINDS:
        raise StateError(f"unknown kind {step.get('kind')!r} (one of {', '.join(KINDS)})")
    if not isinstance(step.get("label"), str):
        raise StateError("\"label\" must be text")
    state = game.load(step.get("state"))
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
