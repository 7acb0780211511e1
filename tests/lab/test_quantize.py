"""The slot model's int8 run-time file (``lab.training.quantize``): made from the float file
shipped beside it, and reading what that file reads."""
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from lab.evaluate import evaluate_folder
from vision.barrage.pipeline import Pipeline
from vision.barrage.slot_model import DEFAULT_MODEL, MASTER_MODEL

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"


def _metadata(path):
    import onnxruntime as ort

    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).get_modelmeta().custom_metadata_map


def test_the_run_time_file_is_the_shipped_float_file_quantized():
    """A float file trained or averaged anew must be quantized again: the pipeline runs the int8 file."""
    made = json.loads(_metadata(DEFAULT_MODEL)["quantized_from"])
    assert made["sha256"] == hashlib.sha256(MASTER_MODEL.read_bytes()).hexdigest(), \
        "models/barrage_slots_int8.onnx is stale: run python -m lab.training.quantize"
    assert "--seed 300000" in made["calibration"] and made["frames"] >= 30
    float_meta = _metadata(MASTER_MODEL)
    assert _metadata(DEFAULT_MODEL)["temperatures"] == float_meta["temperatures"]
    assert DEFAULT_MODEL.stat().st_size < 0.7 * MASTER_MODEL.stat().st_size   # int8 weights, float16 in the float file


@pytest.mark.skipif(not any(FIXTURES.glob("*.json")), reason="no synthetic fixtures committed")
def test_the_int8_file_reads_the_fixtures_as_the_float_file_does():
    def read(model):
        return evaluate_folder(FIXTURES, Pipeline.load(model=model), select=lambda p: not p.name.startswith("nomarkers"))

    quantized, full = read(DEFAULT_MODEL), read(MASTER_MODEL)
    assert quantized.images == full.images == 30
    assert quantized.slot_errors <= full.slot_errors + 3, (quantized.mistakes, full.mistakes)
    # A board is fully right or not: one low-confidence dam height that the 8 bits tip over costs
    # a whole board. The files of 2026-11-26, fourth session, read 7 boards in int8 and 10 in
    # float here (two dam heights at confidence 0.29 and 0.36), and the nine held-out sets 527
    # and 526 boards of 1500 (2430 and 2425 wrong slots), so the margin is three boards.
    assert quantized.boards_right >= full.boards_right - 3


@pytest.mark.skipif(not any(FIXTURES.glob("*.json")), reason="no synthetic fixtures committed")
def test_calibration_records_each_frames_one_batch_of_every_box():
    """The ranges come from each frame's batch of all its crops, as the pipeline cuts them, and
    from nothing else (not the second look's mirrored rows, which would make the file depend on
    what the model it calibrates is unsure of)."""
    from lab.training.quantize import calibration_batches

    batches = calibration_batches(FIXTURES, MASTER_MODEL, 2)
    boxes = len(Pipeline.load(heights=None, specialist=None).profile.layout.boxes)
    assert [b.shape for b in batches] == [(boxes, 6, 48, 48)] * 2


def test_float16_weights_are_stored_as_float32_again_computing_the_same(tmp_path):
    """The quantizer only quantizes weights it finds stored; a half-stored file's weights are
    behind Cast nodes until ``float32_weights`` stores them plainly, with the same values.
    A cast of anything but a stored float16 weight stays."""
    pytest.importorskip("onnx")
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from lab.training.quantize import float32_weights

    w = np.random.default_rng(1).normal(size=(8, 8)).astype(np.float16)
    graph = helper.make_graph(
        [helper.make_node("Cast", ["w_half"], ["w"], to=TensorProto.FLOAT), helper.make_node("MatMul", ["x", "w"], ["xw"]),
         helper.make_node("Cast", ["xw"], ["y"], to=TensorProto.FLOAT)],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])], [numpy_helper.from_array(w, "w_half")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = np.random.default_rng(2).normal(size=(2, 8)).astype(np.float32)

    def run(m):
        return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]

    before = run(model)
    float32_weights(model)
    assert [n.op_type for n in model.graph.node] == ["MatMul", "Cast"]
    assert [(i.name, i.data_type) for i in model.graph.initializer] == [("w", TensorProto.FLOAT)]
    np.testing.assert_array_equal(run(model), before)


def test_quantize_writes_an_int8_file_that_computes_about_the_same_and_records_its_source(tmp_path):
    onnx = pytest.importorskip("onnx")
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from lab.training.quantize import quantize

    rng = np.random.default_rng(3)
    kernel = rng.normal(scale=0.3, size=(4, 6, 3, 3)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["crops", "k"], ["piece"], pads=[1, 1, 1, 1])], "g",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["N", 6, 8, 8])],
        [helper.make_tensor_value_info("piece", TensorProto.FLOAT, ["N", 4, 8, 8])], [numpy_helper.from_array(kernel, "k")])
    master = tmp_path / "float.onnx"
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.metadata_props.append(onnx.StringStringEntryProto(key="temperatures", value='{"piece": 1.5}'))
    onnx.save(model, str(master))
    batches = [rng.random((5, 6, 8, 8)).astype(np.float32) for _ in range(4)]
    out = tmp_path / "int8.onnx"
    quantize(master, out, batches, "four random batches")
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    assert {n.op_type for n in onnx.load(str(out)).graph.node} >= {"QuantizeLinear", "DequantizeLinear", "Conv"}
    x = batches[0][:3]              # inside the calibrated ranges: off by int8's steps, nothing clipped
    want = ort.InferenceSession(str(master), providers=["CPUExecutionProvider"]).run(None, {"crops": x})[0]
    got = session.run(None, {"crops": x})[0]
    assert np.abs(got - want).max() < 0.05 * np.abs(want).max()      # within int8's steps
    meta = session.get_modelmeta().custom_metadata_map
    assert meta["temperatures"] == '{"piece": 1.5}'
    made = json.loads(meta["quantized_from"])
    assert made == {"sha256": hashlib.sha256(master.read_bytes()).hexdigest(), "calibration": "four random batches",
                    "frames": 4}


def test_the_command_names_a_wrong_model_file_or_frame_count_without_a_traceback(tmp_path, capsys):
    from lab.training.quantize import main

    garbage = tmp_path / "garbage.onnx"
    garbage.write_text("not a model")
    for model in (garbage, tmp_path / "missing.onnx"):
        with pytest.raises(SystemExit, match=f"--model: {model}: not a model file onnxruntime can load"):
            main(["--model", str(model), "--data", str(tmp_path / "calibration"), "--out", str(tmp_path / "q.onnx")])
    with pytest.raises(SystemExit):
        main(["--n", "0", "--data", str(tmp_path / "calibration"), "--out", str(tmp_path / "q.onnx")])
    assert "calibration needs at least one frame" in capsys.readouterr().err
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.raises(SystemExit, match="--out .*a_file.*cannot make its folder"):
        main(["--data", str(tmp_path / "calibration"), "--out", str(blocker / "q.onnx")])
    assert not (tmp_path / "calibration").exists() and not (tmp_path / "q.onnx").exists()
