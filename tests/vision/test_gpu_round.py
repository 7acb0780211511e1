"""models/gpu_round.sh runs only on a lent GPU machine, where a flag the commands refuse
costs the lease: its image flags must be ones ``synth`` and the training commands take."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from automa.cli import build_parser
from vision.synth.cli import shot_options

SCRIPT = Path(__file__).resolve().parents[2] / "models" / "gpu_round.sh"


def _flags(name: str) -> list[str]:
    value = re.search(rf'^{name}="([^"]*)"$', SCRIPT.read_text(), re.M)
    assert value, f"{name}= not found in {SCRIPT.name}"
    return shlex.split(value.group(1))


def test_the_rounds_image_flags_are_the_commands_own():
    mix, more = _flags("MIX"), _flags("MORE")
    parser = build_parser()
    plain = parser.parse_args(["synth", "--n", "1", "--out", "x", *mix])
    every = parser.parse_args(["synth", "--n", "1", "--out", "x", *mix, *more])
    # The second half draws every look the generator has, each of its values.
    assert {o.shapes for o in shot_options(every)} == {"blocks", "moulded"}
    assert {o.lighting for o in shot_options(every)} == {"one", "lamps", "low"}
    assert {o.finish for o in shot_options(every)} == {"matte", "glossy", "clear"}
    assert {o.processing for o in shot_options(every)} == {"none", "webcam"}
    assert {(o.shapes, o.lighting) for o in shot_options(plain)} == {("blocks", "one")}
    for command in ("train", "train-heights", "train-drops"):
        args = parser.parse_args([command, *mix, *more])
        assert args.shapes == ["blocks", "moulded"]
