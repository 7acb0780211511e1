"""A turn being worked out: the state so far, the ops taken, the trace and the lines a player
reads. Each phase calls ``do`` with ops, which are applied at once so the next rule sees what
the last one did; ``decide`` returns the ops and ``apply`` replays them."""
from __future__ import annotations

from dataclasses import dataclass, field

from automa.common.trace import Trace

from .ops import apply_ops
from .state import GameState


@dataclass
class Work:
    state: GameState
    trace: Trace = field(default_factory=Trace)
    ops: list[dict] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def do(self, *ops: dict) -> None:
        self.state = apply_ops(self.state, list(ops))
        self.ops.extend(ops)

    def say(self, line: str) -> None:
        self.lines.append(line)
