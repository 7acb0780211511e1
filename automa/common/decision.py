"""What every Automa decision gives back, whatever the game.

A decision is data: the action the Automa takes, its target, the sentence a
player reads, the trace that explains it, and the ops (primitive state changes,
plain JSON) that ``Game.apply`` replays. Pages and the command line read only
these keys; a game adds its own in ``details``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .trace import trace_json


@dataclass
class Decision:
    automa: str                      # who acts (a company, a faction, "automa")
    action: str                      # the action taken ("pass" when none)
    target: str | None               # where or what it acts on, in the game's own ids
    instruction: str                 # what the players do on the table, in one or two sentences
    trace: list[str]                 # every action tried, why it failed, what narrowed the choice
    ops: list[dict] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"automa": self.automa, "action": self.action, "target": self.target,
                "instruction": self.instruction, "trace": list(self.trace), "trace_words": trace_json(self.trace),
                "ops": list(self.ops),
                **self.details}
