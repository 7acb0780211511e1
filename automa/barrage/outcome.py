"""What trying one action of the Actions side gives: done (with its target) or the failed condition."""
from __future__ import annotations

from dataclasses import dataclass

from automa.common.trace import Text


@dataclass
class Outcome:
    done: bool
    reason: Text | str = ""         # the failed condition in words (a trace line's value)
    target: str | None = None


def failed(reason: Text) -> Outcome:
    return Outcome(False, reason)
