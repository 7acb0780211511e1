"""What trying one action of the Actions side gives: done (with its target) or the failed condition."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Outcome:
    done: bool
    reason: str = ""
    target: str | None = None


def failed(reason: str) -> Outcome:
    return Outcome(False, reason)
