"""Countdown: tokens lie on the table; on its turn the Automa takes one (two when
``greedy``), and passes when none is left. Small enough to read, real enough that a wrong
replay, undo or import shows."""
from __future__ import annotations

from typing import Any, Mapping

from automa.common.decision import Decision
from automa.common.errors import StateError
from automa.games import Game, Option

MAX_TOKENS = 99


class Countdown(Game):
    id = "stub-game"
    name = "Countdown"
    summary = "The Automa takes tokens until none is left (a test's stub game)."
    options = (Option("tokens", "tokens on the table at the start", 3, int),
               Option("greedy", "the Automa takes two at a time", False, bool))

    def new_game(self, options: Mapping[str, Any]) -> dict:
        chosen = self.parse_options(options)
        return self.load({"tokens": chosen["tokens"], "greedy": chosen["greedy"], "taken": 0})

    def load(self, data: Any) -> dict:
        if not isinstance(data, dict):
            raise StateError("the state must be an object")
        tokens, taken, greedy = data.get("tokens"), data.get("taken"), data.get("greedy")
        for key, value in (("tokens", tokens), ("taken", taken)):
            if type(value) is not int or not 0 <= value <= MAX_TOKENS:
                raise StateError(f"{key} must be a whole number 0-{MAX_TOKENS}, not {value!r}")
        if not isinstance(greedy, bool):
            raise StateError("greedy must be true or false")
        return {"tokens": tokens, "taken": taken, "greedy": greedy}

    def dump(self, state: dict) -> dict:
        return dict(state)

    def automas(self, state: dict) -> list[str]:
        return ["automa"]

    def decide(self, state: dict, automa: str | None = None) -> Decision:
        want = 2 if state["greedy"] else 1
        n = min(want, state["tokens"])
        if n == 0:
            return Decision("automa", "pass", None, "The Automa passes.", ["take: no token left"])
        return Decision("automa", "take", str(n), f"The Automa takes {n} token(s).",
                        [f"take: {state['tokens']} on the table, takes {n}"], [{"op": "take", "n": n}])

    def apply(self, state: dict, decision: Mapping[str, Any]) -> dict:
        out = dict(state)
        for op in decision.get("ops", []):
            if op.get("op") != "take" or not 0 < op.get("n", 0) <= out["tokens"]:
                raise StateError(f"op {op!r} does not fit this state")
            out["tokens"] -= op["n"]
            out["taken"] += op["n"]
        return out


GAME = Countdown()
