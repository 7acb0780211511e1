"""Barrage's board reader, registered for ``vision.reader.registry()``."""
from __future__ import annotations

from pathlib import Path

from ..reader import GameReader
from .pipeline import Pipeline


class BarrageReader(GameReader):
    game = "barrage"

    def load(self, profile: str | Path | None = None) -> Pipeline:
        """The pipeline with the shipped nets (``Pipeline.load``)."""
        return Pipeline.load(profile)


READER = BarrageReader()
