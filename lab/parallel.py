"""One function over many items, in order, on several processes: rendering synthetic
images and cutting training crops share it."""
from __future__ import annotations

import multiprocessing
from typing import Callable, Iterator, Sequence, TypeVar

import cv2

A = TypeVar("A")
R = TypeVar("R")


def ordered_map(func: Callable[[A], R], items: Sequence[A], jobs: int, chunksize: int = 4) -> Iterator[R]:
    """``func`` over ``items``, results in their order, on ``jobs`` processes (in this one
    when ``jobs`` <= 1). ``func`` must be picklable: a module-level function, or a
    ``functools.partial`` of one. Each worker runs OpenCV on one thread, as the workers
    already fill the cores."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(func, items)
        return
    # spawn, not fork: the parent may hold torch or OpenCV thread pools that a forked child
    # would inherit broken.
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(items)), initializer=cv2.setNumThreads,
                                                   initargs=(1,)) as pool:
        yield from pool.imap(func, items, chunksize)
