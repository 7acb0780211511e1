"""The working context of one Automa turn: the state being changed, the ops
recorded so far, the trace, and the tile pair being read.

Actions never mutate the state directly: they call :meth:`Turn.do` with an
op, which applies it to the working copy and records it, so the recorded ops
replay to exactly the same result (see ``ops.apply_ops``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from automa.common.trace import Trace

from .ops import Op, apply_op
from .state import GameState


@dataclass
class Turn:
    state: GameState
    company: str
    criteria: dict                      # Criteria side of the tile read this turn
    actions: dict = field(default_factory=dict)     # Actions side of the tile read this turn (its number, actions)
    trace: Trace = field(default_factory=Trace)
    ops: list[Op] = field(default_factory=list)
    use_architect: bool = False         # Battista: the next placement is the Architect's (its ability)

    @property
    def me(self):
        return self.state.companies[self.company]

    def do(self, op: Op) -> None:
        op = dict(op)
        if op["op"] in _COMPANY_OPS:
            op.setdefault("company", self.company)
        apply_op(self.state, op)
        self.ops.append(op)

    def vp(self, delta: int, why: str) -> None:
        if delta:
            self.do({"op": "vp", "delta": delta, "why": why})

    def place_engineers(self, section: str, printed: int, space: str | None = None,
                        architect: bool = False) -> tuple[int, str]:
        """Put the Automa's engineers on the first free space of ``section``.

        The Automa places the number printed on its tile, or its last
        engineer if it has fewer (it still performs the action). Spaces fill
        left column top to bottom, then right column; a space is free when no
        engineer stands on it. With no free space the engineers go next to
        the section. Construction engineers go on the company board, which
        has no limit for an Automa.

        ``architect``: Battista's Architect is placed for its ability (a one-engineer
        action). Otherwise the Architect is placed only as a last worker, when the
        engineers do not cover the printed number.
        """
        me = self.me
        architect = architect or (self.use_architect and me.architect)
        self.use_architect = False
        if architect:
            count, arch = min(printed - 1, me.engineers), True
        else:
            count = min(printed, me.engineers)
            arch = me.architect and count < printed
        space = space or self.first_free_space(section)
        op = {"op": "engineers", "section": section, "space": space, "count": count}
        if arch:
            op["architect"] = True
        self.do(op)
        return count + int(arch), space

    def first_free_space(self, section: str) -> str:
        if section == "company":
            return "board"
        if section == "bank":
            return "b"
        if section == "officer":
            return "xo"
        taken = self.state.action_spaces.get(section, {})
        free = [s for s in self.state.section_spaces(section) if not taken.get(s)]
        return free[0] if free else "overflow"


_COMPANY_OPS = {"build", "vp", "credits", "energy", "engineers", "machinery", "invest", "rotate", "fulfil", "take_tile",
                "external_work", "build_private", "human_first_action"}
