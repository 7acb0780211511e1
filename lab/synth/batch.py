"""Render a run of consecutive seeds to a folder, on several processes.

Image i is rendered from seed ``first_seed + i`` and written as ``NNNN.jpg`` + ``NNNN.json``
(NNNN = i, zero-padded), so the folder is the same whatever the number of processes. A run
may mix several cameras (frame sizes, placements): each image's seed then also picks its
options, so one image is still made again from its seed alone.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from ..parallel import ordered_map
from .render import Options, Sample, render

# The stream that picks an image's options in a mix; the render's own streams are [seed, 0-13].
_MIX_STREAM = 100


def options_for(seed: int, choices: Sequence[Options]) -> Options:
    """The options image ``seed`` is rendered with: one of ``choices``, drawn from the seed
    (the only one where there is one, so a single camera's images do not change)."""
    if len(choices) == 1:
        return choices[0]
    return choices[int(np.random.default_rng([seed, _MIX_STREAM]).integers(len(choices)))]


def render_one_of(seed: int, choices: Sequence[Options]) -> Sample:
    return render(seed, options_for(seed, choices))


def write_samples(out: Path, first_seed: int, n: int, options: Options | Sequence[Options], jobs: int = 1,
                  on_written: Callable[[int], None] = lambda done: None) -> None:
    """Render and write ``n`` images; ``on_written(done)`` after each, for a progress bar.
    ``options``: one camera's, or several to mix (``options_for``)."""
    out.mkdir(parents=True, exist_ok=True)
    digits = max(4, len(str(n - 1)))
    choices = (options,) if isinstance(options, Options) else tuple(options)
    if not choices:
        raise ValueError("no options to render with")
    draw = functools.partial(render_one_of, choices=choices)
    _write_all(out, digits, ordered_map(draw, range(first_seed, first_seed + n), jobs, chunksize=2), on_written)


def _write_all(out: Path, digits: int, samples: Iterable[Sample], on_written: Callable[[int], None]) -> None:
    for i, sample in enumerate(samples):
        stem = out / f"{i:0{digits}d}"
        stem.with_suffix(".jpg").write_bytes(sample.jpeg)
        stem.with_suffix(".json").write_text(json.dumps(sample.truth, indent=1))
        on_written(i + 1)
