"""The image sets the training commands generate: no torch needed, so these run on every
machine, as the commands' image generation does."""
import json

import pytest

from automa_vision.cli import build_parser
from lab.training.cli import image_sets

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


def test_training_images_can_mix_webcams(tmp_path):
    """--size, --placement, --lighting and --finish, as synth takes them: the images a training
    command generates are shot with that mix of cameras, lights and pieces, and the command that
    made them is the one recorded."""
    args = build_parser().parse_args(["train-heights", "--data", str(tmp_path), "--n-train", "4", "--n-val", "1",
                                      "--jobs", "2", "--size", "640x480", "--size", "1280x720",
                                      "--placement", "turn", "--lighting", "lamps", "--lighting", "low",
                                      "--finish", "glossy"])
    sets = image_sets(args)
    train_folder, seed, command = sets["train"]
    truths = [json.loads(p.read_text()) for p in sorted(train_folder.glob("*.json"))]
    assert len(truths) == 4 and {t["style"]["camera"]["placement"] for t in truths} == {"turn"}
    assert {tuple(t["image_size"]) for t in truths} <= {(640, 480), (1280, 720)}
    assert {t["style"]["lighting"]["kind"] for t in truths} <= {"lamps", "low"}
    assert {t["style"]["finish"]["kind"] for t in truths} == {"glossy"}
    assert command.endswith("--size 640x480 --size 1280x720 --placement turn --lighting lamps --lighting low"
                            " --finish glossy")
    assert f"--seed {seed}" in command
