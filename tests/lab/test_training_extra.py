"""The training commands without the optional [train] extra (torch and the ONNX exporter): the
run time never needs them, so a plain install lacks them, and training says how to get them."""
import importlib.util

import pytest

from automa_vision.cli import main

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


@pytest.mark.parametrize("command", ["train", "train-heights", "train-drops"])
def test_training_without_torch_says_how_to_install_it_before_any_image_is_made(tmp_path, monkeypatch, command):
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else find_spec(name, *a))
    data = tmp_path / "data"
    with pytest.raises(SystemExit, match=r"training needs torch.*\(the optional \[train\] extra\).*pip install torch"):
        main([command, "--data", str(data), "--n-train", "2", "--n-val", "1", "--out", str(tmp_path / "m.onnx")])
    assert not data.exists() and not (tmp_path / "m.onnx").exists()
