"""``automa-vision bench``: measured speed figures (printed, never asserted by tests).

Engine: every Automa turn of several self-played games is decided again
under a timer (median, p95, decisions per second). Vision figures are added
when the vision pipeline and its model are installed (``lab.vision_bench``), and
the turns the page lists right on the fixtures (``lab.turn_eval``).
"""
from __future__ import annotations

import json
import platform
import statistics
import time

from automa.barrage.engine import apply_decision, decide
from automa.barrage.selfplay import play


def register(sub) -> None:
    p = sub.add_parser("bench", help="measure engine (and vision) speed")
    p.add_argument("--json", action="store_true", help="print one JSON object of figures")
    p.add_argument("--games", type=int, default=4, help="self-played games whose turns are timed")
    p.set_defaults(func=run)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def engine_figures(games: int = 4) -> dict:
    states = [ev.before for seed in range(games) for ev in play(automas=3, seed=seed) if ev.kind == "turn"]
    decide_ms, apply_ms = [], []
    for s in states:
        t0 = time.perf_counter()
        d = decide(s)
        t1 = time.perf_counter()
        apply_decision(s, d)
        t2 = time.perf_counter()
        decide_ms.append((t1 - t0) * 1000)
        apply_ms.append((t2 - t1) * 1000)
    med = statistics.median(decide_ms)
    return {"turns_timed": len(states), "decide_ms_median": round(med, 3),
            "decide_ms_p95": round(percentile(decide_ms, 0.95), 3),
            "decisions_per_second": round(1000 / med, 1),
            "apply_ms_median": round(statistics.median(apply_ms), 3)}


def rounded(value):
    """Figures to 3 decimals, in nested dicts and lists too."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    return value


def run(args) -> int:
    figures = {"machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}"}
    figures.update(engine_figures(args.games))
    try:
        from .vision_bench import accuracy_figures, frame_figures, stability_figures
        figures.update(frame_figures())
        figures.update(accuracy_figures())
        figures.update(stability_figures())
        from .turn_eval import fixture_figures
        figures.update(fixture_figures())
    except Exception as exc:    # a missing optional part (model file, package) must not hide the engine figures
        figures["vision"] = f"not measured: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    figures = rounded(figures)
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        for k, v in figures.items():
            print(f"{k:<{width}}  {v}")
    return 0
