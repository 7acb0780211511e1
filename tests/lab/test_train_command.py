"""`automa-vision train` end to end on a tiny synthetic set: generate, crop, train, export, load.

Needs the optional training extra (torch); the runtime never imports torch.
"""
import datetime
import hashlib
import json

import numpy as np
import pytest

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

pytest.importorskip("torch")

from automa_vision.cli import main  # noqa: E402
from vision.barrage.slot_model import MASTER_MODEL, load_session    # noqa: E402


def test_train_writes_a_loadable_model_and_report(tmp_path):
    out = tmp_path / "m.onnx"
    assert main(["train", "--data", str(tmp_path / "data"), "--n-train", "6", "--n-val", "2",
                 "--epochs", "1", "--device", "cpu", "--jobs", "2", "--hard-share", "0.25", "--out", str(out)]) == 0
    session = load_session(out)
    shape = session.get_inputs()[0].shape
    probs = session.run(None, {session.get_inputs()[0].name: np.zeros((2, *shape[1:]), np.float32)})
    assert len(probs) == 4 and probs[0].shape[0] == 2, "piece, owner, drops, occluded for each crop"
    report = json.loads((tmp_path / "m_report.json").read_text())
    assert report["n_train"] == 6 and "synth --n 6" in report["data"]["train"]
    assert report["settings"]["hard_share"] == 0.25, "the epochs saw their worst-read crops again"
    # flat provenance: the file by its bytes, the day, and the command that makes it again
    assert report["file"] == "m.onnx" and report["bytes"] == out.stat().st_size
    assert report["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    assert report["date"] == datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    assert report["command"].startswith("automa-vision train ")
    for option in ("--n-train 6", "--n-val 2", "--epochs 1", "--hard-share 0.25", f"--out {out}", "--seed 0"):
        assert option in report["command"], option
    assert [row["epoch"] for row in report["history"]] == [1] and "val_error.piece" in report["history"][0]
    assert _depth(report) <= 3, "a report is flat"
    # each head divided by its temperature, fitted on the validation images, in the file itself
    written = json.loads(session.get_modelmeta().custom_metadata_map["temperatures"])
    assert set(written) == {"piece", "owner", "drops", "occluded"} == set(report["temperatures"])
    assert all(report["val_nll"][h]["scaled"] <= report["val_nll"][h]["raw"] + 1e-6 for h in written)


def test_train_with_kinds_writes_a_specialist_the_pipeline_loads(tmp_path):
    """``--kinds``: trained on those boxes only, and the file names them for ``vision.barrage.specialist``."""
    from vision.layout import load_layout
    from vision.barrage.pipeline import Pipeline
    from vision.barrage.specialist import Specialist

    out = tmp_path / "s.onnx"
    assert main(["train", "--kinds", "conduit,powerhouse", "--data", str(tmp_path / "data"), "--n-train", "4",
                 "--n-val", "2", "--epochs", "1", "--device", "cpu", "--out", str(out)]) == 0
    layout = load_layout()
    specialist = Specialist.load(layout, out)
    assert set(specialist.kinds) == {"conduit", "powerhouse"}
    assert len(specialist.boxes) == sum(k in ("conduit", "powerhouse") for k in layout.kinds)
    report = json.loads((tmp_path / "s_report.json").read_text())
    assert report["kinds"] == ["conduit", "powerhouse"]
    # its validation crops are those boxes' only: no drop count was ever asked of it
    assert report["val_error"]["drops"] == 0.0 and report["temperatures"]["drops"] == 1.0
    assert Pipeline.load(specialist=out).specialist.kinds == specialist.kinds
    # its weights are stored as float16 (as the slot model's are) and read as float32
    assert out.stat().st_size < 0.6 * sum(np.prod(i.shape) * 4 for i in _weights(out))
    assert {o.type for o in specialist.session.get_outputs()} == {"tensor(float)"}
    with pytest.raises(SystemExit, match="--kinds conduit,bridge: each must be one of"):
        main(["train", "--kinds", "conduit,bridge", "--data", str(tmp_path / "data")])


def _depth(value) -> int:
    """How deep a JSON value nests: 0 for a number or a string."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _weights(path):
    """The file's weights as float32 arrays, whatever they are stored as."""
    from lab.training.onnx_weights import initializers

    return list(initializers(path).values())


def _raw_logits(path, x):
    """A model file's outputs with its temperatures, if it has any, taken back out: the net's
    own logits."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    temperatures = json.loads(session.get_modelmeta().custom_metadata_map.get("temperatures", "{}"))
    outs = session.run(None, {session.get_inputs()[0].name: x})
    return [o * temperatures.get(out.name, 1.0) for o, out in zip(outs, session.get_outputs())]


def _raw_heights(path, dams, roles, temperature=None):
    """A dam-height reader's outputs with its temperature taken back out: ``temperature``,
    or the one its metadata records."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    if temperature is None:
        temperature = json.loads(session.get_modelmeta().custom_metadata_map["temperatures"])["heights"]
    return session.run(["heights"], {"dams": dams, "roles": roles})[0] * temperature


def _scrambled_norms(net):
    """``net`` in eval mode with norm statistics and scales far from a fresh net's 0 / 1."""
    import torch

    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.2, 3.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.3, 0.3)
    return net.eval()


def test_a_net_read_back_from_its_onnx_file_computes_what_the_file_does(tmp_path):
    """Export folds each batch norm into its convolution; the loader must undo that
    exactly: any norm statistics, a slot net (its weights stored as float16), a drop counter."""
    import torch

    from lab.training.net import DropNet, SlotNet
    from lab.training.onnx_weights import load_weights
    from lab.training.train import export
    from lab.training.train_drops import export as export_counter

    torch.manual_seed(3)
    net = _scrambled_norms(SlotNet())
    x = torch.rand(5, 6, 48, 48)
    with torch.no_grad():
        want = [o.numpy() for o in net(x)]
    path = tmp_path / "n.onnx"
    export(net, path, 48)
    with torch.no_grad():
        half = [o.numpy() for o in load_weights(SlotNet(), path)(x)]
    for g, w in zip(half, want):
        np.testing.assert_allclose(g, w, atol=0.05, rtol=0.02)   # float16 weights
    for g, w in zip(half, _raw_logits(path, x.numpy())):
        np.testing.assert_allclose(g, w, atol=1e-4, rtol=1e-4)   # the net read back is the file
    counter = _scrambled_norms(DropNet())
    export_counter(counter, tmp_path / "d.onnx", (40, 30))
    x = torch.rand(3, 3, 30, 40)
    with torch.no_grad():
        np.testing.assert_allclose(load_weights(DropNet(), tmp_path / "d.onnx")(x).numpy(), counter(x).numpy(),
                                   atol=1e-4, rtol=1e-4)
    with pytest.raises(ValueError, match="no weight head.2.weight"):
        load_weights(DropNet(), path)              # a slot model is no drop counter
    # the shipped float slot model itself: the net equals the file, temperatures aside
    shipped = load_weights(SlotNet(), MASTER_MODEL)
    x = np.random.default_rng(0).random((4, 6, 48, 48)).astype(np.float32)
    with torch.no_grad():
        mine = [o.numpy() for o in shipped(torch.from_numpy(x))]
    for g, w in zip(mine, _raw_logits(MASTER_MODEL, x)):
        np.testing.assert_allclose(g, w, atol=2e-3, rtol=1e-4)


def test_the_dam_height_reader_read_back_computes_what_its_file_does(tmp_path):
    """Its transformer's linear weights are stored transposed under made-up names; the
    loader finds them by the call the exporter recorded. The head that reads each dam
    alone is not in the file and starts fresh."""
    import torch

    from lab.training.dam_net import DamSetNet, OneFrame, from_file
    from lab.training.train_heights import export
    from vision.barrage.dam_heights import DEFAULT_HEIGHTS_MODEL

    torch.manual_seed(4)
    net = _scrambled_norms(DamSetNet())
    with torch.no_grad():
        # as after training: a fresh net's equal weights (zero biases, unit norm scales)
        # would be stored once by the exporter, under one layer's name
        for weight in net.parameters():
            weight.add_(0.05 * torch.randn_like(weight))
    dams, roles = torch.rand(6, 4, 64, 64), torch.tensor([0, 2, 0, 0, 1, 3])
    with torch.no_grad():
        want = OneFrame(net).eval()(dams, roles).numpy()
    export(net, tmp_path / "h.onnx")
    back = from_file(tmp_path / "h.onnx")
    with torch.no_grad():
        np.testing.assert_allclose(OneFrame(back).eval()(dams, roles).numpy(), want, atol=1e-4, rtol=1e-4)
        for name in ("mix.layers.1.self_attn.in_proj_weight", "mix.layers.0.linear2.weight"):
            np.testing.assert_array_equal(back.get_parameter(name).numpy(), net.get_parameter(name).numpy())
        assert not torch.equal(back.alone.weight, net.alone.weight)
    # the shipped reader itself (a soup of fine-tunes, lab/training/soup.py), its temperature from its metadata
    x = np.random.default_rng(5).random((5, 4, 64, 64)).astype(np.float32)
    r = np.array([0, 0, 2, 0, 1])
    with torch.no_grad():
        mine = OneFrame(from_file(DEFAULT_HEIGHTS_MODEL)).eval()(torch.from_numpy(x), torch.from_numpy(r)).numpy()
    np.testing.assert_allclose(mine, _raw_heights(DEFAULT_HEIGHTS_MODEL, x, r), atol=2e-3, rtol=1e-3)
    from lab.training.net import DropNet
    from lab.training.onnx_weights import load_weights
    with pytest.raises(ValueError, match="no weight conv.0.0.weight"):
        load_weights(DropNet(), DEFAULT_HEIGHTS_MODEL)       # its trunk is named net.conv...


def test_train_init_fine_tunes_a_model_from_its_file(tmp_path):
    """``--init``: the run starts from the file's weights with its norms frozen, so a run
    that cannot move the weights (learning rate ~0) writes the same net back; a file that
    is not a slot model is refused before any image is cut."""
    data = str(tmp_path / "data")
    common = ["--data", data, "--n-train", "4", "--n-val", "2", "--epochs", "1", "--device", "cpu", "--jobs", "2"]
    base, tuned = tmp_path / "base.onnx", tmp_path / "tuned.onnx"
    assert main(["train", *common, "--out", str(base)]) == 0
    assert main(["train", *common, "--seed", "0", "--init", str(base), "--lr", "1e-12", "--out", str(tuned)]) == 0
    x = np.random.default_rng(1).random((6, 6, 48, 48)).astype(np.float32)
    for a, b in zip(_raw_logits(tuned, x), _raw_logits(base, x)):
        # norms in training mode would have moved their statistics, and so every output
        np.testing.assert_allclose(a, b, atol=1e-3, rtol=1e-4)
    report = json.loads((tmp_path / "tuned_report.json").read_text())
    assert report["settings"]["init"] == str(base) and report["settings"]["lr"] == 1e-12
    assert report["init_sha256"] == hashlib.sha256(base.read_bytes()).hexdigest() and report["init_file"] == "base.onnx"
    # the start is named by its bytes; its report, which says how it was made, is not copied in
    base_report = json.loads((tmp_path / "base_report.json").read_text())
    assert "init_report" not in report and base_report["sha256"] == report["init_sha256"]
    assert "init_sha256" not in base_report and f"--init {base}" in report["command"]
    # a drop counter the same way
    counter, tuned_counter = tmp_path / "lake.onnx", tmp_path / "lake_tuned.onnx"
    assert main(["train-drops", "--kind", "lake", *common, "--out", str(counter)]) == 0
    assert main(["train-drops", "--kind", "lake", *common, "--init", str(counter), "--lr", "1e-12",
                 "--out", str(tuned_counter)]) == 0
    from vision.barrage.drop_counter import KINDS
    w, h = KINDS["lake"].size
    crops = np.random.default_rng(2).random((3, 3, h, w)).astype(np.float32)
    np.testing.assert_allclose(_raw_logits(tuned_counter, crops)[0], _raw_logits(counter, crops)[0], atol=1e-3, rtol=1e-4)
    # a headstream counter started from a file that reads 0..7 (as the slot model and the lake
    # counter do) gets a tail that splits its "7 or more" into 7..12; trained alone, the tail
    # learns the split, and every count the file read below 7, and 7 or more together, read
    # as the file read them, its temperature and all
    import torch

    from lab.training.net import DropNet
    from lab.training.temperature import scale_outputs
    from lab.training.train_drops import export as export_counter
    torch.manual_seed(4)
    narrow_file, wide = tmp_path / "headstream_narrow.onnx", tmp_path / "headstream_wide.onnx"
    export_counter(_scrambled_norms(DropNet()), narrow_file, KINDS["headstream"].size)
    scale_outputs(narrow_file, {"drops": 1.5})
    wet = ["--data", str(tmp_path / "wet"), "--headstreams", "wet", *common[2:]]     # tiles of 0-12 drops
    assert main(["train-drops", "--kind", "headstream", *wet, "--init", str(narrow_file), "--only", "tail",
                 "--lr", "0.5", "--epochs", "4", "--out", str(wide)]) == 0
    assert KINDS["headstream"].most == 12
    w, h = KINDS["headstream"].size
    crops = np.random.default_rng(4).random((3, 3, h, w)).astype(np.float32)
    narrow, widened = _raw_logits(narrow_file, crops)[0] / 1.5, _raw_logits(wide, crops)[0]
    assert narrow.shape == (3, 8) and widened.shape == (3, 13)
    narrow = narrow - np.log(np.exp(narrow).sum(1, keepdims=True))
    np.testing.assert_allclose(widened[:, :7], narrow[:, :7], atol=1e-4)
    np.testing.assert_allclose(np.log(np.exp(widened[:, 7:]).sum(1)), narrow[:, 7], atol=1e-4)
    assert np.ptp(widened[:, 7:], axis=1).max() > 1e-3, "the tail learned a split"
    report = json.loads((tmp_path / "headstream_wide_report.json").read_text())
    assert report["settings"]["only"] == "tail" and report["temperature"] == 1.0
    # "last": the head's last layer learns too, on the file's features, which stay
    from lab.training.onnx_weights import initializers
    last = tmp_path / "headstream_last.onnx"
    assert main(["train-drops", "--kind", "headstream", *wet, "--init", str(narrow_file), "--only", "last",
                 "--lr", "0.5", "--epochs", "4", "--out", str(last)]) == 0
    before, after = initializers(narrow_file), initializers(last)
    features = [k for k in before if k.startswith(("conv.", "head.0."))]
    assert len(features) == 10 and all(np.array_equal(after[k], before[k]) for k in features)
    assert not np.allclose(after["head.2.weight"], before["head.2.weight"] / 1.5, atol=1e-3)
    with pytest.raises(SystemExit, match="--init .*headstream_wide.onnx.*reads 13 counts, more than 8"):
        main(["train-drops", "--kind", "lake", *common, "--init", str(wide)])
    # refused before any image is made or cut
    never = ["--data", str(tmp_path / "never"), *common[2:]]
    with pytest.raises(SystemExit, match="--only tail trains the tail"):
        main(["train-drops", "--kind", "lake", *never, "--init", str(counter), "--only", "tail"])
    with pytest.raises(SystemExit, match="--only last trains the last layers of an --init file"):
        main(["train-drops", "--kind", "headstream", *never, "--only", "last"])
    assert not (tmp_path / "never").exists()
    # and the dam-height reader, from a file of trained-like weights (a run on four images
    # hardly moves a fresh net's equal weights apart: ``lab.training.onnx_weights``)
    from lab.training.dam_net import DamSetNet
    from lab.training.train_heights import export as export_heights
    torch.manual_seed(5)
    reader, tuned_reader = tmp_path / "heights.onnx", tmp_path / "heights_tuned.onnx"
    net = DamSetNet()
    with torch.no_grad():
        for weight in net.parameters():
            weight.add_(0.05 * torch.randn_like(weight))
    export_heights(net, reader)
    assert main(["train-heights", *common, "--init", str(reader), "--lr", "1e-12", "--out", str(tuned_reader)]) == 0
    dams, roles = np.random.default_rng(3).random((4, 4, 64, 64)).astype(np.float32), np.array([0, 1, 0, 0])
    np.testing.assert_allclose(_raw_heights(tuned_reader, dams, roles), _raw_heights(reader, dams, roles, 1.0), atol=1e-3, rtol=1e-4)
    assert json.loads((tmp_path / "heights_tuned_report.json").read_text())["init_sha256"] == \
        hashlib.sha256(reader.read_bytes()).hexdigest()
    with pytest.raises(SystemExit, match="--init .*lake.onnx.*no weight net.conv.0.0.weight"):
        main(["train-heights", *common, "--init", str(counter)])
    (tmp_path / "junk.onnx").write_text("not a model")
    with pytest.raises(SystemExit, match="--init .*junk.onnx.*not an ONNX file"):
        main(["train", *common, "--init", str(tmp_path / "junk.onnx")])
    with pytest.raises(SystemExit, match="--init .*h.onnx.*no weight conv.0.0.weight"):
        from lab.training.dam_net import DamSetNet
        from lab.training.train_heights import export as export_heights
        export_heights(DamSetNet(), tmp_path / "h.onnx")
        main(["train", *common, "--init", str(tmp_path / "h.onnx")])


def test_a_model_that_reads_other_inputs_is_refused_with_a_way_out(tmp_path):
    """A model file from before the kind context (3 channels per crop) must not fail deep
    inside onnxruntime on the first frame: loading it says what to do."""
    import torch

    old = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.Flatten())
    path = tmp_path / "old.onnx"
    torch.onnx.export(old, (torch.zeros(2, 3, 48, 48),), str(path), input_names=["crops"],
                      dynamic_shapes=({0: "N"},), dynamo=True, external_data=False)
    with pytest.raises(ValueError, match="reads 3 channels.*automa-vision train"):
        load_session(path)


def test_train_heights_writes_a_model_the_pipeline_loads(tmp_path):
    from vision.barrage.dam_heights import DamHeights
    from vision.layout import load_layout
    from vision.barrage.neutral_dams import NeutralDams

    out = tmp_path / "h.onnx"
    assert main(["train-heights", "--data", str(tmp_path / "data"), "--n-train", "4", "--n-val", "2",
                 "--epochs", "1", "--out", str(out)]) == 0
    layout = load_layout()
    heights = DamHeights.load(layout, NeutralDams.from_map(layout).heights(), out)
    read = heights.session.run(["heights"], {"dams": np.zeros((3, 4, 64, 64), np.float32),
                                             "roles": np.array([0, 2, 0])})[0]
    assert read.shape == (3, 3), "three height scores for each of the frame's dams"
    report = json.loads((tmp_path / "h_report.json").read_text())
    assert set(report["val_error"]) == {"base", "base+1", "base+2", "all"}
    assert report["temperature"] > 0
    written = json.loads(heights.session.get_modelmeta().custom_metadata_map["temperatures"])
    assert written == {"heights": round(report["temperature"], 4)}
    assert report["val_nll"]["scaled"] <= report["val_nll"]["raw"] + 1e-6, "the fitted temperature never fits worse than none"


def test_train_heights_widths_and_layers_make_another_reader_that_reads_back(tmp_path, capsys):
    """``--widths --layers``: a reader trained from random weights with another trunk and
    attention; a fine-tune of its file is built to the file's shape (``file_shape``); with
    --init they are refused."""
    import torch

    from lab.training.dam_net import DamSetNet, OneFrame, file_shape, from_file
    from lab.training.train_heights import export

    out = tmp_path / "wide.onnx"
    assert main(["train-heights", "--data", str(tmp_path / "data"), "--n-train", "4", "--n-val", "2",
                 "--epochs", "1", "--widths", "8,16,24,40", "--layers", "1", "--out", str(out)]) == 0
    assert file_shape(out) == {"widths": (8, 16, 24, 40), "layers": 1}
    settings = json.loads((tmp_path / "wide_report.json").read_text())["settings"]
    assert (settings["widths"], settings["layers"]) == ([8, 16, 24, 40], 1)
    # read back at its widths (weights moved off a fresh net's, which the exporter stores once)
    torch.manual_seed(6)
    net = _scrambled_norms(DamSetNet((8, 16, 24, 40), layers=3))
    with torch.no_grad():
        for weight in net.parameters():
            weight.add_(0.05 * torch.randn_like(weight))
    export(net, tmp_path / "w.onnx")
    assert file_shape(tmp_path / "w.onnx") == {"widths": (8, 16, 24, 40), "layers": 3}
    dams, roles = torch.rand(4, 4, 64, 64), torch.tensor([0, 1, 0, 3])
    with torch.no_grad():
        np.testing.assert_allclose(OneFrame(from_file(tmp_path / "w.onnx")).eval()(dams, roles).numpy(),
                                   OneFrame(net).eval()(dams, roles).numpy(), atol=1e-4, rtol=1e-4)
    for shape in (["--widths", "8,16,24,40"], ["--layers", "1"]):
        with pytest.raises(SystemExit, match="keeps its file's shape"):
            main(["train-heights", "--data", str(tmp_path / "data"), "--n-train", "4", "--n-val", "2",
                  "--init", str(out), *shape, "--out", str(tmp_path / "x.onnx")])
    for bad in ("8,16,24", "8,16,24,x", "0,16,24,40"):
        with pytest.raises(SystemExit):
            main(["train-heights", "--widths", bad])
        assert "four positive channel counts" in capsys.readouterr().err


def test_train_drops_writes_a_counter_of_each_kind_the_pipeline_loads(tmp_path):
    from vision.barrage.drop_counter import KINDS, DropCounter
    from vision.layout import load_layout

    for kind, counted in KINDS.items():
        out = tmp_path / "new" / kind / f"{kind}.onnx"      # --out's folder is made
        assert main(["train-drops", "--kind", kind, "--data", str(tmp_path / "data"), "--n-train", "4",
                     "--n-val", "2", "--epochs", "1", "--hard-share", "0.5", "--out", str(out)]) == 0
        counter = DropCounter.load(load_layout(), kind, out)
        w, h = counted.size
        read = counter.session.run(["drops"], {"crops": np.zeros((3, 3, h, w), np.float32)})[0]
        assert read.shape == (3, counted.most + 1), "a score for each count the kind is read to, on each box"
        report = json.loads(out.with_name(f"{kind}_report.json").read_text())
        assert report["kind"] == kind
        assert report["settings"]["hard_share"] == 0.5, "the epoch saw the boxes it read worst again"
        assert 0 <= report["val_error"] <= 1 and report["temperature"] > 0 and report["jitter"] == 2.5
        written = json.loads(counter.session.get_modelmeta().custom_metadata_map["temperatures"])
        assert written == {"drops": round(report["temperature"], 4)}


@pytest.mark.parametrize("command", ["train", "train-heights", "train-drops"])
def test_an_out_file_that_cannot_be_written_is_refused_before_any_image_is_made(tmp_path, command):
    """Found writing a fine-tune to a folder not made yet: the export failed after six minutes
    of training. Now a folder is made, and a path that can never be a file is refused first."""
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    data = tmp_path / "data"
    common = [command, "--data", str(data), "--n-train", "4", "--n-val", "2", "--epochs", "1", "--device", "cpu"]
    with pytest.raises(SystemExit, match="--out .*: is a folder"):
        main([*common, "--out", str(tmp_path)])
    with pytest.raises(SystemExit, match="--out .*a_file.*cannot make its folder"):
        main([*common, "--out", str(blocker / "m.onnx")])
    assert not data.exists(), "refused before the images are made"


def test_asking_for_a_gpu_that_is_not_there_says_so():
    import torch

    from lab.training.cli import device
    assert device("cpu") == "cpu"
    assert device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    if not torch.cuda.is_available():
        with pytest.raises(SystemExit, match="no CUDA GPU.*--device cpu"):
            device("cuda")


@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="needs a CUDA GPU")
def test_the_models_train_on_a_gpu(tmp_path):
    """The GPU path (crops in GPU memory, augmentation drawn there) trains and exports
    models that the CPU runtime loads."""
    for command, out in (("train", "m.onnx"), ("train-heights", "h.onnx"), ("train-drops", "d.onnx")):
        assert main([command, "--data", str(tmp_path / "data"), "--n-train", "6", "--n-val", "2", "--epochs", "2",
                     "--device", "cuda", "--out", str(tmp_path / out)]) == 0
        report = json.loads((tmp_path / out.replace(".onnx", "_report.json")).read_text())
        assert report["settings"]["device"] == "cuda" and len(report["history"]) == 2
    assert len(load_session(tmp_path / "m.onnx").get_outputs()) == 4
