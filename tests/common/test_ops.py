"""automa.common.ops.replay: ops applied to a copy in order, every refusal named by its op, and
nothing applied when any op or the final check fails."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from automa.common.errors import StateError
from automa.common.ops import MAX_OPS, replay


@dataclass
class Tally:
    total: int = 0
    log: list[str] = field(default_factory=list)
    over: bool = False

    def copy(self) -> "Tally":
        return replace(self, log=list(self.log))


def op_add(s: Tally, op: dict) -> None:
    if not isinstance(op.get("n"), int):
        raise StateError("n must be a whole number")
    s.total += op["n"]
    s.log.append(f"+{op['n']}")


def op_end(s: Tally, op: dict) -> None:
    s.over = True


HANDLERS = {"add": op_add, "end": op_end}


def check(s: Tally) -> None:
    if s.total > 10:
        raise StateError("total: at most 10")


def test_ops_apply_in_order_to_a_copy():
    start = Tally()
    after = replay(start, [{"op": "add", "n": 2}, {"op": "add", "n": 3}], HANDLERS, check)
    assert (after.total, after.log) == (5, ["+2", "+3"])
    assert (start.total, start.log) == (0, []), "the caller's state is never touched"


@pytest.mark.parametrize("ops, problem", [
    ("add", "expected a list of at most"),
    ([{"op": "add", "n": 1}] * (MAX_OPS + 1), f"at most {MAX_OPS} ops"),
    ([{"op": "add", "n": 1}, {"op": "jump"}], "ops[1]: unknown op 'jump'"),
    ([7], "ops[0]: unknown op 7"),
    ([{"op": "add", "n": 1}, {"op": "add", "n": "x"}], "ops[1] (add): n must be a whole number"),
    ([{"op": "add", "n": 8}, {"op": "add", "n": 8}], "total: at most 10"),
    ([{"op": "end"}, {"op": "add", "n": 1}], "ops[1]: the game is over"),
])
def test_a_bad_op_is_named_and_nothing_is_applied(ops, problem):
    start = Tally()
    with pytest.raises(StateError) as exc:
        replay(start, ops, HANDLERS, check, over=lambda s, op: s.over)
    assert problem in str(exc.value)
    assert start == Tally()


def test_over_may_let_some_ops_through_after_the_end():
    after = replay(Tally(), [{"op": "end"}, {"op": "add", "n": 1}], HANDLERS, check,
                   over=lambda s, op: s.over and op["op"] != "add")
    assert after.over and after.total == 1
