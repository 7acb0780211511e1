"""``automa-vision GAME new|decide|apply``: every registered game's engine from the shell.

This is a stable contract that scripts rely on, the same for every game:

- ``GAME new [--OPTION VALUE ...]`` prints a valid starting state as JSON (the options
  are the game's own: ``automa-vision GAME new --help`` lists them);
- ``GAME decide STATE.json [--automa WHO] [--json]`` prints the decision and its trace;
  ``--json`` prints one JSON object with at least ``automa``, ``action``, ``target``,
  ``instruction``, ``ops`` and ``trace`` (Barrage adds ``engineers`` and ``vp_delta``);
- ``GAME apply STATE.json DECISION.json`` prints the state after the decision.
Files may be ``-`` for standard input. Every refusal is one line on stderr and exit code 2.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from automa.common.errors import StateError
from automa.games import Game, parse_json, registry


def register(sub) -> None:
    for game in registry().values():
        register_game(sub, game)


def register_game(sub, game: Game) -> None:
    p = sub.add_parser(game.id, help=f"{game.name}: new games and Automa decisions", description=game.summary)
    gsub = p.add_subparsers(dest="game_command", metavar="SUBCOMMAND", required=True)
    n = gsub.add_parser("new", help="print a starting state as JSON")
    for opt in game.options:
        flag = "--" + opt.name.replace("_", "-")
        if opt.type is bool:
            n.add_argument(flag, dest=opt.name, action="store_true", help=opt.help)
        elif opt.multiple:      # a list: comma-separated, the flag repeated, or both
            n.add_argument(flag, dest=opt.name, action="append", default=None,
                           help=opt.help + " (comma-separated, or the flag repeated)")
        else:
            n.add_argument(flag, dest=opt.name, default=None,
                           help=opt.help + (f" (default {opt.default})" if opt.default not in (None, "") else ""))
    n.set_defaults(func=lambda args: cmd_new(game, args))
    d = gsub.add_parser("decide", help="decide the next turn of an Automa")
    d.add_argument("state", help="state JSON file ('-' for standard input)")
    d.add_argument("--automa", help="which Automa (default: the first in turn order)")
    d.add_argument("--json", action="store_true", help="print one JSON object")
    d.set_defaults(func=lambda args: cmd_decide(game, args))
    a = gsub.add_parser("apply", help="print the state after a decision (from decide --json)")
    a.add_argument("state")
    a.add_argument("decision")
    a.set_defaults(func=lambda args: cmd_apply(game, args))


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise StateError(f"cannot read {path}: not UTF-8 text") from None


def _fail(exc: Exception) -> int:
    print(f"error: {exc}", file=sys.stderr)
    return 2


def cmd_new(game: Game, args) -> int:
    raw = {opt.name: getattr(args, opt.name) for opt in game.options}
    raw = {k: ",".join(v) if isinstance(v, list) else v for k, v in raw.items()}
    try:
        state = game.new_game(raw)
    except ValueError as exc:           # StateError is a ValueError too
        return _fail(exc)
    print(game.dumps(state))
    return 0


def cmd_decide(game: Game, args) -> int:
    try:
        state = game.loads(_read(args.state))
        decision = game.decide(state, args.automa).to_dict()
    except StateError as exc:
        return _fail(exc)
    if args.json:
        print(json.dumps(decision, ensure_ascii=False))
        return 0
    print(decision["instruction"])
    if decision.get("moves"):
        print()
        print("Moves on the table:")
        for line in decision["moves"]:
            print(f"  - {line}")
    print()
    print("Why:")
    for line in decision["trace"]:
        print(f"  {line}")
    return 0


def cmd_apply(game: Game, args) -> int:
    try:
        state = game.loads(_read(args.state))
        decision = parse_json(_read(args.decision))
        if not isinstance(decision, dict):
            raise StateError(f"the decision file must be the JSON object printed by '{game.id} decide --json'")
        print(game.dumps(game.apply(state, decision)))
    except StateError as exc:
        return _fail(exc)
    return 0
