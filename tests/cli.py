"""The command line as scripts run it (``python -m automa_vision.cli``), for every game's tests."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "automa_vision.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def new_decide_apply(folder: Path, game_id: str, *new_args: str) -> dict:
    """``GAME new NEW_ARGS``, ``decide STATE --json`` and ``apply STATE -`` (the decision piped
    in), each exiting 0 with a decision of the shared keys; the state after the Automa's turn."""
    new = run(game_id, "new", *new_args)
    assert new.returncode == 0, new.stderr
    path = folder / "state.json"
    path.write_text(new.stdout)
    decided = run(game_id, "decide", str(path), "--json")
    assert decided.returncode == 0, decided.stderr
    assert {"automa", "action", "target", "instruction", "trace", "ops"} <= set(json.loads(decided.stdout))
    applied = run(game_id, "apply", str(path), "-", stdin=decided.stdout)
    assert applied.returncode == 0, applied.stderr
    return json.loads(applied.stdout)
