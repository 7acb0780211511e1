"""``automa-vision demo``: watch Automas play Barrage in the terminal.

Every Automa turn prints the instruction a player would read, the moves to
make on the table and, with ``--why``, the full decision trace.
"""
from __future__ import annotations

import time

from automa.barrage.ops import describe
from automa.barrage.selfplay import play


def register(sub) -> None:
    p = sub.add_parser("demo", help="watch Automa players play a game of Barrage in the terminal")
    p.add_argument("--automa", type=int, default=2, help="number of Automa players (1-3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=5, help="rounds to play (1-5)")
    p.add_argument("--why", action="store_true", help="print each decision's full trace")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each turn")
    p.set_defaults(func=run)


def run(args) -> int:
    if not 1 <= args.automa <= 3 or not 1 <= args.rounds <= 5:
        print("error: --automa must be 1-3 and --rounds 1-5")
        return 2
    for ev in play(automas=args.automa, humans=0, seed=args.seed, rounds=args.rounds):
        if ev.kind == "phase":
            if ev.ops:
                print(f"\n== Round {ev.round}: {ev.name}")
                for op in ev.ops:
                    print(f"   {describe(op)}")
            continue
        d = ev.decision
        print(f"\n[round {ev.round}] tiles {d.tiles['actions']}/{d.tiles['criteria']}  {d.instruction}")
        for op in d.ops:
            if op["op"] != "deck":
                print(f"     - {describe(op)}")
        if args.why:
            for line in d.trace:
                print(f"       | {line}")
        if args.delay:
            time.sleep(args.delay)
    final = ev.after
    print("\nScores: " + ", ".join(f"{c} {final.companies[c].vp} VP" for c in final.turn_order))
    return 0
