"""Temperature scaling (lab/training/temperature.py): the fitted T undoes a net's overconfidence,
and is written into the model file (lab/training/slot_temperatures.py for the slot model)."""
import json
from pathlib import Path

import numpy as np
import pytest

from lab.training.temperature import fit_temperature, nll

from tests.vision.small_models import slot_shaped_model

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"


def _sampled(rng, n=4000, k=3):
    """Logits whose softmax is the true chance of each label, and labels drawn from it."""
    z = rng.normal(0, 1.5, (n, k))
    p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    labels = np.array([rng.choice(k, p=row) for row in p])
    return z, labels


def test_the_fitted_temperature_undoes_a_scaling_of_honest_logits():
    rng = np.random.default_rng(0)
    z, labels = _sampled(rng)
    for scale in (0.5, 1.0, 3.0):
        assert abs(fit_temperature(z * scale, labels) / scale - 1.0) < 0.15


def test_scaling_keeps_every_argmax_and_lowers_the_loss_of_an_overconfident_net():
    rng = np.random.default_rng(1)
    z, labels = _sampled(rng)
    loud = z * 4
    t = fit_temperature(loud, labels)
    assert t > 2
    assert (np.argmax(loud / t, 1) == np.argmax(loud, 1)).all()
    assert nll(loud, labels, t) < nll(loud, labels) - 0.2


def test_nothing_to_fit_gives_one():
    assert fit_temperature(np.zeros((0, 3)), np.zeros(0, np.int64)) == 1.0


# -- written into the model file ---------------------------------------------------------
def test_temperatures_are_written_into_the_graph_once(tmp_path):
    import onnxruntime as ort
    pytest.importorskip("onnx")
    from lab.training.temperature import scale_outputs

    path = tmp_path / "m.onnx"
    slot_shaped_model(path, np.random.default_rng(0))
    x = {"crops": np.random.default_rng(1).random((3, 6, 48, 48), np.float32)}
    before = ort.InferenceSession(str(path)).run(None, x)
    scale_outputs(path, {"piece": 2.0, "occluded": 0.5})
    session = ort.InferenceSession(str(path))
    after = session.run(None, x)
    np.testing.assert_allclose(after[0], before[0] / 2.0, rtol=1e-6)
    np.testing.assert_allclose(after[1], before[1])                       # owner: not named, untouched
    np.testing.assert_allclose(after[3], before[3] / 0.5, rtol=1e-6)
    assert json.loads(session.get_modelmeta().custom_metadata_map["temperatures"]) == {"piece": 2.0, "occluded": 0.5}
    with pytest.raises(ValueError, match="already divides"):
        scale_outputs(path, {"piece": 2.0})
    other = tmp_path / "other.onnx"
    slot_shaped_model(other, np.random.default_rng(0))
    with pytest.raises(ValueError, match="no output heights"):
        scale_outputs(other, {"heights": 1.5})


def test_the_slot_models_heads_are_fitted_on_validation_images_and_scaled(tmp_path, capsys):
    import onnxruntime as ort
    pytest.importorskip("onnx")
    from lab.training.slot_temperatures import main

    path = tmp_path / "slots.onnx"
    slot_shaped_model(path, np.random.default_rng(0))     # loud: logits in the tens
    x = {"crops": np.random.default_rng(1).random((3, 6, 48, 48), np.float32)}
    before = ort.InferenceSession(str(path)).run(None, x)
    val = tmp_path / "val"
    val.mkdir()
    for name in ("clean_00", "clean_01"):
        for suffix in (".jpg", ".json"):
            (val / f"{name}{suffix}").write_bytes((FIXTURES / f"{name}{suffix}").read_bytes())
    assert main(["--model", str(path), "--val", str(val)]) == 0
    session = ort.InferenceSession(str(path))
    temperatures = json.loads(session.get_modelmeta().custom_metadata_map["temperatures"])
    assert set(temperatures) == {"piece", "owner", "drops", "occluded"}
    assert temperatures["piece"] > 1.5 and temperatures["owner"] > 1.5, "a random, loud net is far too sure"
    for head, old, new in zip(("piece", "owner", "drops", "occluded"), before, session.run(None, x)):
        np.testing.assert_allclose(new, old / temperatures[head], rtol=1e-4)
    assert "piece: T" in capsys.readouterr().out
    assert main(["--model", str(path), "--val", str(val)]) == 2            # never divided twice
    assert "already divides" in capsys.readouterr().err
    assert main(["--model", str(tmp_path / "missing.onnx"), "--val", str(val)]) == 2
    assert main(["--model", str(path), "--val", str(tmp_path / "nothing")]) == 2
