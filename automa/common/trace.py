"""Readable decision traces: every Automa decision explains itself.

A trace is an ordered list of lines with an indentation depth, so a page can
fold the detail and a terminal can print it as is.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Trace:
    entries: list[tuple[int, str]] = field(default_factory=list)
    depth: int = 0

    def add(self, text: str) -> None:
        self.entries.append((self.depth, text))

    @contextmanager
    def section(self, title: str):
        """Add ``title`` and indent everything added inside the ``with`` block."""
        self.add(title)
        self.depth += 1
        try:
            yield self
        finally:
            self.depth -= 1

    def lines(self) -> list[str]:
        return ["  " * depth + text for depth, text in self.entries]

    def __str__(self) -> str:
        return "\n".join(self.lines())
