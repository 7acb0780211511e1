"""Replaying ops: the primitive, JSON-plain changes a turn is made of (``Game.apply``).

A game names a handler per op (``{"draw": op_draw, ...}``: each changes the state in place,
or raises StateError naming the problem) and a check of the whole state. ``replay`` applies
a list of ops to a copy, in order: an unknown op, an op after the game is over, a handler's
refusal or a state that fails its check raises StateError naming the op, and nothing is
applied (the caller's state is never touched).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from .errors import StateError

MAX_OPS = 64            # far more than any turn needs; bounds what a file or a form can ask


class Copyable(Protocol):
    def copy(self) -> Any: ...


S = TypeVar("S", bound=Copyable)
Handler = Callable[[S, dict], None]


def replay(state: S, ops: Any, handlers: Mapping[str, Handler], check: Callable[[S], None],
           over: Callable[[S, dict], bool] = lambda s, op: False, max_ops: int = MAX_OPS) -> S:
    """A new state: ``ops`` applied in order to a copy of ``state`` by ``handlers``, then
    ``check``-ed whole. ``over(state, op)``: the game is over for this op (it is refused)."""
    if not isinstance(ops, list) or len(ops) > max_ops:
        raise StateError(f"ops: expected a list of at most {max_ops} ops")
    s = state.copy()
    for i, op in enumerate(ops):
        if not isinstance(op, dict) or op.get("op") not in handlers:
            raise StateError(f"ops[{i}]: unknown op {op.get('op') if isinstance(op, dict) else op!r}")
        if over(s, op):
            raise StateError(f"ops[{i}]: the game is over")
        try:
            handlers[op["op"]](s, op)
        except StateError as exc:
            raise StateError(f"ops[{i}] ({op['op']}): {exc}") from None
    check(s)
    return s
