"""``automa-vision bench``: measured speed figures (printed, never asserted by tests).

Engines: every Automa turn of several self-played games is decided again,
by the Automa whose turn it was, under a timer (median, p95, decisions per
second): Barrage at each of its four levels (Very Hard with officers and The
Leeghwater Project), and every other registered game. Vision figures are added
when the vision pipeline and its model are installed (``lab.vision_bench``), and
the turns the page lists right on the fixtures (``lab.turn_eval``).
"""
from __future__ import annotations

import json
import platform
import statistics
import time

from automa.barrage.data import components
from automa.barrage.selfplay import play
from automa.barrage.state import LEVELS
from automa.games import registry


def register(sub) -> None:
    p = sub.add_parser("bench", help="measure engine (and vision) speed")
    p.add_argument("--json", action="store_true", help="print one JSON object of figures")
    p.add_argument("--games", type=int, default=4, help="self-played games whose turns are timed")
    p.set_defaults(func=run)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _timed(states_and_automas) -> tuple[list[float], list[float]]:
    decide_ms, apply_ms = [], []
    for game, state, automa in states_and_automas:
        t0 = time.perf_counter()
        d = game.decide(state, automa)
        t1 = time.perf_counter()
        game.apply(state, d.to_dict())
        t2 = time.perf_counter()
        decide_ms.append((t1 - t0) * 1000)
        apply_ms.append((t2 - t1) * 1000)
    return decide_ms, apply_ms


def _summary(prefix: str, decide_ms: list[float], apply_ms: list[float]) -> dict:
    med = statistics.median(decide_ms)
    return {f"{prefix}turns_timed": len(decide_ms), f"{prefix}decide_ms_median": round(med, 3),
            f"{prefix}decide_ms_p95": round(percentile(decide_ms, 0.95), 3),
            f"{prefix}decisions_per_second": round(1000 / med, 1),
            f"{prefix}apply_ms_median": round(statistics.median(apply_ms), 3)}


def barrage_turns(games: int, level: str) -> list[tuple]:
    """Every Automa turn of ``games`` self-played 3-Automa games at ``level``; Very Hard games
    give the Automas different officers in turn and play The Leeghwater Project."""
    game = registry()["barrage"]
    officers = list(components().officers())
    out = []
    for seed in range(games):
        chosen = [officers[(3 * seed + i) % len(officers)] for i in range(3)] if level == "very-hard" else None
        for ev in play(automas=3, seed=seed, levels=[level] * 3, officers=chosen, leeghwater=level == "very-hard"):
            if ev.kind == "turn" and ev.decision.action != "human_first_action":
                out.append((game, ev.before, ev.decision.automa))
    return out


def other_game_turns(game, games: int) -> list[tuple]:
    """The state before every Automa turn of ``games`` self-played games of ``game``."""
    out = []
    for seed in range(games):
        before = game.new_game({"seed": seed})
        for ev in game.selfplay({"seed": seed}):
            if ev.kind == "turn":
                out.append((game, before, None))
            before = ev.state
    return out


def engine_figures(games: int = 4) -> dict:
    """Barrage's figures at its default level (the keys the docs quote), at each level, and
    every other game's."""
    figures = _summary("", *_timed(barrage_turns(games, "medium")))
    for level in LEVELS:
        figures[f"barrage_{level.replace('-', '_')}_decide_ms_median"] = round(
            statistics.median(_timed(barrage_turns(games, level))[0]), 3)
    for game in registry().values():
        if game.id != "barrage":
            figures.update(_summary(game.id.replace("-", "_") + "_", *_timed(other_game_turns(game, games))))
    return figures


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
        from .vision_bench import accuracy_figures, frame_figures, reference_frame_figures, stability_figures
        figures.update(frame_figures())
        figures.update(reference_frame_figures())
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
