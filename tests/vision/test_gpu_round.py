"""models/gpu_round.sh runs only on a lent GPU machine, where a flag the commands refuse
costs the lease: its image flags must be ones ``synth`` and the training commands take."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
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


def test_a_wider_reader_is_asked_for_only_when_training_from_random_weights(tmp_path):
    """``READER_WIDTHS`` and ``READER_LAYERS`` (the script's own example parses as
    ``train-heights --widths --layers``) are refused before any image is made unless
    ``SCRATCH=1``: a fine-tune keeps its file's shape."""
    example = re.search(r"READER_WIDTHS=(\S+) READER_LAYERS=(\d) \(with SCRATCH=1\)", SCRIPT.read_text())
    assert example, "the script's comment gives an example"
    args = build_parser().parse_args(["train-heights", "--widths", example.group(1), "--layers", example.group(2)])
    assert (args.widths, args.layers) == ((32, 64, 128, 192), 1)
    for name, value in (("READER_WIDTHS", example.group(1)), ("READER_LAYERS", example.group(2))):
        env = {"PATH": os.environ["PATH"], name: value, "OUT": str(tmp_path / "out"), "DATA": str(tmp_path / "data")}
        run = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and "need SCRATCH=1" in run.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "data").exists()
