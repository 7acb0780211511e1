"""lab/training/gpu_round.sh runs only on a lent GPU machine, where a flag the commands refuse
costs the lease: its image flags must be ones ``synth`` and the training commands take."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from automa_vision.cli import build_parser
from lab.synth.cli import shot_options

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

SCRIPT = Path(__file__).resolve().parents[2] / "lab" / "training" / "gpu_round.sh"


def _flags(name: str) -> list[str]:
    value = re.search(rf'^{name}="([^"]*)"$', SCRIPT.read_text(), re.M)
    assert value, f"{name}= not found in {SCRIPT.name}"
    return shlex.split(value.group(1))


def test_the_rounds_image_flags_are_the_commands_own():
    mix, more, wet = _flags("MIX"), _flags("MORE"), _flags("WET")
    parser = build_parser()
    plain = parser.parse_args(["synth", "--n", "1", "--out", "x", *mix])
    every = parser.parse_args(["synth", "--n", "1", "--out", "x", *mix, *more])
    # The headstream counter's images keep the game's tiles beside the wet ones.
    assert {o.headstreams for o in shot_options(parser.parse_args(["synth", "--n", "1", "--out", "x", *mix, *more, *wet]))} == {"game", "wet"}
    assert {o.headstreams for o in shot_options(every)} == {"game"}
    # The second half draws every look the generator has, each of its values.
    assert {o.shapes for o in shot_options(every)} == {"blocks", "moulded"}
    assert {o.lighting for o in shot_options(every)} == {"one", "lamps", "low"}
    assert {o.finish for o in shot_options(every)} == {"matte", "glossy", "clear"}
    assert {o.processing for o in shot_options(every)} == {"none", "webcam"}
    assert {o.games for o in shot_options(every)} == {"any", "late"}
    assert {(o.shapes, o.lighting, o.games) for o in shot_options(plain)} == {("blocks", "one", "any")}
    for command in ("train", "train-heights", "train-drops"):
        args = parser.parse_args([command, *mix, *more])
        assert args.shapes == ["blocks", "moulded"] and args.games == ["any", "late"]
    assert parser.parse_args(["train-drops", "--kind", "headstream", *mix, *more, *wet]).headstreams == ["game", "wet"]


# Stands in for ``python3 -m automa_vision.cli``: notes each command's arguments on a line of its
# own and makes the folder it was told to write, so the script runs through in a second.
RECORDER = """#!/bin/bash
echo "$*" >> "$CALLS"
while [ $# -gt 0 ]; do
  case $1 in --out) mkdir -p "$2"; touch "$2/0000.png";; esac
  shift
done
"""


def _round(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    recorder = tmp_path / "av"
    recorder.write_text(RECORDER)
    recorder.chmod(0o755)
    env = {"PATH": os.environ["PATH"], "AV": str(recorder), "CALLS": str(tmp_path / "calls"),
           "OUT": str(tmp_path / "out"), "DATA": str(tmp_path / "data"), **env}
    return subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)


def _trainings(tmp_path: Path) -> dict[str, list[str]]:
    """Each training the round asked for, by the file it writes, with its arguments."""
    calls = [shlex.split(line) for line in (tmp_path / "calls").read_text().splitlines()]
    return {Path(c[c.index("--out") + 1]).stem: c for c in calls if c[0] != "synth"}


def test_readers_of_other_shapes_are_trained_from_random_weights_beside_the_fine_tunes(tmp_path):
    """``SCRATCH=heights READERS=...``: one reader of each shape asked for, from random
    weights at the command's own learning rate, while the other three nets are fine-tuned
    from their shipped files; the script's own example parses as the command's flags."""
    example = re.search(r"(\d+(?:,\d+){3})/(\d) keeps the six files", SCRIPT.read_text())
    assert example, "the script's comment gives an example"
    args = build_parser().parse_args(["train-heights", "--widths", example.group(1), "--layers", example.group(2)])
    assert (args.widths, args.layers) == ((32, 64, 128, 192), 1)

    run = _round(tmp_path, SEED="7", NA="2", NB="2", SCRATCH="heights", E3="30",
                 READERS=f"{example.group(1)}/{example.group(2)} 24,48,96,128/2")
    assert run.returncode == 0, run.stderr
    trainings = _trainings(tmp_path)
    assert set(trainings) == {"slots7", "specialist7", "lake7", "headstream7", "heights7-w32-64-128-192-l1", "heights7-w24-48-96-128-l2"}
    for name in ("heights7-w32-64-128-192-l1", "heights7-w24-48-96-128-l2"):
        reader = trainings[name]
        assert reader[0] == "train-heights" and "--init" not in reader and "--lr" not in reader
        assert reader[reader.index("--epochs") + 1] == "30"
        widths, layers = name.split("-w")[1].rsplit("-l", 1)
        assert (reader[reader.index("--widths") + 1], reader[reader.index("--layers") + 1]) == (widths.replace("-", ","), layers)
    for name, shipped in (("slots7", "barrage_slots"), ("specialist7", "barrage_specialist"), ("lake7", "barrage_lake_drops"),
                          ("headstream7", "barrage_headstream_drops")):
        net = trainings[name]
        assert Path(net[net.index("--init") + 1]).stem == shipped and net[net.index("--lr") + 1] == "5e-4"
    assert trainings["slots7"][trainings["slots7"].index("--epochs") + 1] == "12"
    # the slot model, the specialist and the lake counter see their hard examples again
    # (lab/training/hard_examples.py); the readers and the headstream counter, whose CPU fine-tunes read worse so, do not
    shares = {name: args[args.index("--hard-share") + 1] for name, args in trainings.items() if "--hard-share" in args}
    assert shares == {"slots7": "0.25", "specialist7": "0.25", "lake7": "0.25"}
    # HARD=0 turns them all off
    plain = tmp_path / "plain"
    plain.mkdir()
    run = _round(plain, SEED="6", NA="1", NB="1", HARD="0")
    assert run.returncode == 0, run.stderr
    shares = {name: args[args.index("--hard-share") + 1] for name, args in _trainings(plain).items() if "--hard-share" in args}
    assert shares == {"slots6": "0", "specialist6": "0", "lake6": "0"}


def test_the_headstream_counter_learns_from_wet_tiles_of_its_own(tmp_path):
    """The headstream counter is fine-tuned on images of its own, half of their tiles wet, so
    that it keeps the counts a game seldom reaches; the other nets never see those images."""
    run = _round(tmp_path, SEED="9", NA="3", NB="2", NW="5")
    assert run.returncode == 0, run.stderr
    calls = [shlex.split(line) for line in (tmp_path / "calls").read_text().splitlines()]
    wet_images = [c for c in calls if c[0] == "synth" and c[c.index("--out") + 1] == str(tmp_path / "data-w" / "train")]
    assert len(wet_images) == 1 and wet_images[0][wet_images[0].index("--n") + 1] == "5"
    assert wet_images[0][wet_images[0].index("--seed") + 1] == "9300000"
    trainings = _trainings(tmp_path)
    counter = trainings["headstream9"]
    assert counter[:3] == ["train-drops", "--kind", "headstream"]
    assert counter[counter.index("--data") + 1] == str(tmp_path / "data-w")
    assert counter[counter.index("--n-train") + 1] == "5"
    assert [counter[i + 1] for i, a in enumerate(counter) if a == "--headstreams"] == ["game", "wet"]
    for name in ("slots9", "heights9", "specialist9", "lake9"):
        args = trainings[name]
        assert args[args.index("--data") + 1] == str(tmp_path / "data") and "--headstreams" not in args
        assert args[args.index("--n-train") + 1] == "5"


def test_every_net_from_random_weights_with_scratch_1(tmp_path):
    run = _round(tmp_path, SEED="8", NA="1", NB="1", SCRATCH="1")
    assert run.returncode == 0, run.stderr
    trainings = _trainings(tmp_path)
    assert set(trainings) == {"slots8", "heights8", "specialist8", "lake8", "headstream8"}
    assert not any("--init" in args for args in trainings.values())


@pytest.mark.parametrize("env, refusal", [
    ({"READERS": "32,64,128,192/1"}, "needs heights in SCRATCH"),
    ({"SCRATCH": "slots", "READERS": "32,64,128,192/1"}, "needs heights in SCRATCH"),
    ({"SCRATCH": "heights", "READERS": "32,64,128/1"}, "want WIDTHS/LAYERS"),
    ({"SCRATCH": "heights", "READERS": "32,64,128,192/4"}, "want WIDTHS/LAYERS"),
    ({"SCRATCH": "heights", "READERS": "32,64,128,192"}, "want WIDTHS/LAYERS"),
    ({"SCRATCH": "height"}, "not height"),
    ({"SCRATCH": "slots,lakes"}, "not lakes"),
    ({"HARD": "2"}, "want a share from 0 to 1"),
    ({"HARD": "0,25"}, "want a share from 0 to 1"),
])
def test_a_reader_shape_is_refused_before_any_image_is_made(tmp_path, env, refusal):
    """A fine-tune keeps its file's shape, a shape the command would refuse costs the lease
    only once the images are made, and a misspelt net would be fine-tuned unasked: all are
    refused at once."""
    run = _round(tmp_path, **env)
    assert run.returncode == 2 and refusal in run.stderr
    assert not (tmp_path / "calls").exists()
    assert not (tmp_path / "out").exists() and not (tmp_path / "data").exists()
