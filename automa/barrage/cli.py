"""``automa-vision barrage``: new starting states and Automa decisions from the shell.

This is a stable contract that scripts rely on:

- ``barrage new --automa N [--humans M] [--seed S]`` prints a valid starting state as JSON;
- ``barrage decide STATE.json [--automa COMPANY|COLOUR] [--json]`` prints the decision
  and its trace; ``--json`` prints one JSON object with at least ``automa``,
  ``action``, ``target``, ``engineers``, ``vp_delta`` and ``trace``;
- ``barrage apply STATE.json DECISION.json`` prints the state after the decision.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from automa.common.errors import StateError

from .engine import apply_decision, decide
from .setup import new_game
from .state import GameState


def register(sub) -> None:
    p = sub.add_parser("barrage", help="Barrage Automa: new games and decisions")
    bsub = p.add_subparsers(dest="barrage_command", metavar="SUBCOMMAND", required=True)
    n = bsub.add_parser("new", help="print a starting state as JSON")
    n.add_argument("--automa", type=int, default=1, help="number of Automa players (1-3)")
    n.add_argument("--humans", type=int, default=1, help="number of human players (default 1)")
    n.add_argument("--seed", type=int, default=0, help="seed for every random set-up choice")
    n.add_argument("--difficulty", choices=["easy", "medium"], default="medium")
    n.set_defaults(func=cmd_new)
    d = bsub.add_parser("decide", help="decide the next turn of an Automa")
    d.add_argument("state", help="state JSON file ('-' for standard input)")
    d.add_argument("--automa", help="the Automa's company or colour (default: first Automa in turn order)")
    d.add_argument("--json", action="store_true", help="print one JSON object")
    d.set_defaults(func=cmd_decide)
    a = bsub.add_parser("apply", help="print the state after a decision (from decide --json)")
    a.add_argument("state")
    a.add_argument("decision")
    a.set_defaults(func=cmd_apply)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from None


def _fail(exc: Exception) -> int:
    print(f"error: {exc}", file=sys.stderr)
    return 2


def cmd_new(args) -> int:
    try:
        state = new_game(automas=args.automa, humans=args.humans, seed=args.seed, difficulty=args.difficulty)
    except ValueError as exc:
        return _fail(exc)
    print(state.to_json())
    return 0


def cmd_decide(args) -> int:
    try:
        state = GameState.from_json(_read(args.state))
        decision = decide(state, args.automa)
    except StateError as exc:
        return _fail(exc)
    if args.json:
        print(json.dumps(decision.to_dict()))
        return 0
    print(decision.instruction)
    print()
    print("Moves on the table:")
    for line in decision.to_dict()["moves"]:
        print(f"  - {line}")
    print()
    print("Why:")
    for line in decision.trace:
        print(f"  {line}")
    return 0


def cmd_apply(args) -> int:
    try:
        state = GameState.from_json(_read(args.state))
        raw = json.loads(_read(args.decision))
        if not isinstance(raw, dict) or not isinstance(raw.get("ops"), list):
            raise StateError("the decision file must be the JSON printed by 'barrage decide --json'")
        print(apply_decision(state, raw).to_json())
    except json.JSONDecodeError as exc:
        return _fail(StateError(f"decision is not valid JSON: {exc.msg}"))
    except (StateError, KeyError, TypeError) as exc:
        return _fail(exc)
    return 0
