"""Render a run of consecutive seeds to a folder, on several processes.

Image i is rendered from seed ``first_seed + i`` and written as ``NNNN.jpg`` + ``NNNN.json``
(NNNN = i, zero-padded), so the folder is the same whatever the number of processes.
"""
from __future__ import annotations

import functools
import json
import multiprocessing
from pathlib import Path
from typing import Callable, Iterable

from .render import Options, Sample, render


def write_samples(out: Path, first_seed: int, n: int, options: Options, jobs: int = 1,
                  on_written: Callable[[int], None] = lambda done: None) -> None:
    """Render and write ``n`` images; ``on_written(done)`` after each, for a progress bar."""
    out.mkdir(parents=True, exist_ok=True)
    digits = max(4, len(str(n - 1)))
    seeds = range(first_seed, first_seed + n)
    draw = functools.partial(render, options=options)
    if jobs <= 1 or n == 1:
        _write_all(out, digits, map(draw, seeds), on_written)
        return
    # spawn, not fork: a parent that imported torch or used OpenCV threads forks badly.
    with multiprocessing.get_context("spawn").Pool(min(jobs, n)) as pool:
        _write_all(out, digits, pool.imap(draw, seeds, chunksize=2), on_written)


def _write_all(out: Path, digits: int, samples: Iterable[Sample], on_written: Callable[[int], None]) -> None:
    for i, sample in enumerate(samples):
        stem = out / f"{i:0{digits}d}"
        stem.with_suffix(".jpg").write_bytes(sample.jpeg)
        stem.with_suffix(".json").write_text(json.dumps(sample.truth, indent=1))
        on_written(i + 1)
