"""``automa-vision demo [--game GAME]``: watch Automas play in the terminal.

Every Automa turn prints the instruction a player would read, the moves to
make on the table and, with ``--why``, the full decision trace; phases of the
game's own (Barrage's income, water flow and scoring) print their moves too.
"""
from __future__ import annotations

import time

from automa.games import get, registry


def register(sub) -> None:
    p = sub.add_parser("demo", help="watch Automa players play a game in the terminal")
    p.add_argument("--game", default="barrage", choices=list(registry()), help="which game (default barrage)")
    p.add_argument("--automa", type=int, default=2, help="number of Automa players, where a game has several")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=5, help="rounds to play (Barrage: 1-5)")
    p.add_argument("--turns", type=int, default=400, help="stop after this many steps")
    p.add_argument("--why", action="store_true", help="print each decision's full trace")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each turn")
    p.set_defaults(func=run)


def run(args) -> int:
    game = get(args.game)
    if args.game == "barrage" and (not 1 <= args.automa <= 3 or not 1 <= args.rounds <= 5):
        print("error: --automa must be 1-3 and --rounds 1-5")
        return 2
    names = {o.name for o in game.options}
    options = {k: v for k, v in (("automa", args.automa), ("seed", args.seed)) if k in names}
    options["rounds"] = args.rounds
    state = None
    try:
        for ev in game.selfplay(options, max_turns=args.turns):
            state = ev.state
            if ev.kind == "phase":
                if ev.lines:
                    print(f"\n== {ev.title}")
                    for line in ev.lines:
                        print(f"   {line}")
                continue
            print(f"\n{ev.title}")
            for line in ev.decision.get("moves", []):
                print(f"     - {line}")
            if args.why:
                for line in ev.decision["trace"]:
                    print(f"       | {line}")
            if args.delay:
                time.sleep(args.delay)
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    scores = game.scores(state) if state is not None else {}
    if scores:
        print("\nScores: " + ", ".join(f"{who} {vp} {game.score_unit}" for who, vp in scores.items()))
    return 0
