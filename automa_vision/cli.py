"""The ``automa-vision`` command line.

Each subcommand lives in the module that owns it; this file only lists them
and imports a module when its command is used, so ``automa-vision barrage``
never loads OpenCV and a missing optional part (the lab's tools, absent from
an installed copy) cannot break the others. Each listed module exposes
``register(subparsers)``, which adds its parsers and sets ``func`` on them;
``func(args)`` returns the exit code. Every registered game (``automa.games``)
gets ``automa-vision GAME new|decide|apply`` without being listed here.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from automa.games import registry

from . import game_commands

DESCRIPTION = ("A camera-assisted companion for board games played against an Automa: "
               "each game's engine, the board reader, the page and the lab's tools.")

# command -> module that registers it
COMMANDS: dict[str, str] = {
    "demo": "automa_vision.demo",
    "bench": "lab.bench",
    "synth": "lab.synth.cli",
    "read": "vision.barrage.cli",
    "calibrate": "calibration.adapt",
    "adapt": "calibration.adapt",
    "eval": "lab.eval_cli",
    "eval-sets": "lab.eval_cli",
    "train": "lab.training.cli",
    "serve": "web.cli",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``only`` (a command or a game id) alone."""
    parser = argparse.ArgumentParser(prog="automa-vision", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    games = registry()
    for game in games.values():
        if not only or only == game.id:
            game_commands.register_game(sub, game)
    done: set[str] = set()
    for command, module in COMMANDS.items():
        if (only and command != only) or module in done or (only and only in games):
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if only:
                raise SystemExit(f"automa-vision {command}: not available ({exc})")
            continue
        mod.register(sub)
        done.add(module)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(first if first in COMMANDS or first in registry() else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
