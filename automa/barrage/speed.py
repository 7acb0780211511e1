"""Decision time per Automa level, for ``make bench``: every turn of self-played games decided again
under a timer, by the Automa that took it."""
from __future__ import annotations

import statistics
import time

from .data import components
from .engine import decide
from .selfplay import play
from .state import LEVELS


def decide_ms_by_level(games: int = 2) -> dict[str, float]:
    """Median milliseconds of ``decide`` for 3 Automas all at one level, per level (``decide_ms_<level>``).
    Very Hard games give each Automa a different officer in turn, with the Leeghwater Project."""
    officers = list(components().officers())
    out: dict[str, float] = {}
    for level in LEVELS:
        times = []
        for seed in range(games):
            chosen = [officers[(3 * seed + i) % len(officers)] for i in range(3)] if level == "very-hard" else None
            for ev in play(automas=3, seed=seed, levels=[level] * 3, officers=chosen, leeghwater=level == "very-hard"):
                if ev.kind == "turn" and ev.decision.action != "human_first_action":
                    t0 = time.perf_counter()
                    decide(ev.before, ev.decision.automa)
                    times.append((time.perf_counter() - t0) * 1000)
        out[f"decide_ms_{level.replace('-', '_')}"] = round(statistics.median(times), 3)
    return out
