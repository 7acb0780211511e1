"""Render a run of consecutive seeds to a folder, on several processes.

Image i is rendered from seed ``first_seed + i`` and written as ``NNNN.jpg`` + ``NNNN.json``
(NNNN = i, zero-padded), so the folder is the same whatever the number of processes.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Callable, Iterable

from ..parallel import ordered_map
from .render import Options, Sample, render


def write_samples(out: Path, first_seed: int, n: int, options: Options, jobs: int = 1,
                  on_written: Callable[[int], None] = lambda done: None) -> None:
    """Render and write ``n`` images; ``on_written(done)`` after each, for a progress bar."""
    out.mkdir(parents=True, exist_ok=True)
    digits = max(4, len(str(n - 1)))
    draw = functools.partial(render, options=options)
    _write_all(out, digits, ordered_map(draw, range(first_seed, first_seed + n), jobs, chunksize=2), on_written)


def _write_all(out: Path, digits: int, samples: Iterable[Sample], on_written: Callable[[int], None]) -> None:
    for i, sample in enumerate(samples):
        stem = out / f"{i:0{digits}d}"
        stem.with_suffix(".jpg").write_bytes(sample.jpeg)
        stem.with_suffix(".json").write_text(json.dumps(sample.truth, indent=1))
        on_written(i + 1)
