"""Model soups (lab/training/soup.py): the weights of fine-tunes of one net, averaged into one file."""
import hashlib
import json

import numpy as np
import pytest

from tests.vision.small_models import slot_shaped_model

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

pytest.importorskip("onnx")


def _run(path, x):
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return dict(zip((o.name for o in session.get_outputs()), session.run(None, {"crops": x}))), \
        session.get_modelmeta().custom_metadata_map


def _two_fine_tunes(tmp_path):
    """Two slot-shaped files of one graph, different weights, each with its own temperatures."""
    from lab.training.temperature import scale_outputs

    paths = [tmp_path / "a.onnx", tmp_path / "b.onnx"]
    for seed, path, piece in ((0, paths[0], 2.0), (1, paths[1], 4.0)):
        slot_shaped_model(path, np.random.default_rng(seed))
        scale_outputs(path, {"piece": piece, "occluded": 1.0})
    return paths


def test_the_soup_reads_with_the_mean_of_the_weights_and_the_temperatures(tmp_path):
    from lab.training.soup import main

    a, b = _two_fine_tunes(tmp_path)
    x = np.random.default_rng(2).random((5, 6, 48, 48), np.float32)
    (out_a, _), (out_b, _) = _run(a, x), _run(b, x)
    assert main([str(a), str(b), "--out", str(tmp_path / "new" / "s.onnx")]) == 0     # its folder is made
    out, meta = _run(tmp_path / "new" / "s.onnx", x)
    # the stand-in is linear, so the mean weights give the mean of the raw outputs, divided by the mean temperature
    np.testing.assert_allclose(out["piece"], (out_a["piece"] * 2.0 + out_b["piece"] * 4.0) / 2 / 3.0, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(out["owner"], (out_a["owner"] + out_b["owner"]) / 2, rtol=1e-4, atol=1e-4)
    assert json.loads(meta["temperatures"]) == {"piece": 3.0, "occluded": 1.0}
    assert json.loads(meta["soup"]) == [{"sha256": hashlib.sha256(p.read_bytes()).hexdigest(), "weight": 0.5}
                                        for p in (a, b)]
    report = json.loads((tmp_path / "new" / "s_report.json").read_text())
    assert [i["file"] for i in report["ingredients"]] == ["a.onnx", "b.onnx"]
    assert report["temperatures"] == {"piece": 3.0, "occluded": 1.0}
    assert report["sha256"] == hashlib.sha256((tmp_path / "new" / "s.onnx").read_bytes()).hexdigest()
    assert report["file"] == "s.onnx" and report["command"].endswith(f"{a} {b}")
    with pytest.raises(SystemExit, match="--out .*: is a folder"):
        main([str(a), str(b), "--out", str(tmp_path)])


def test_an_ingredients_report_is_named_not_copied_in(tmp_path):
    """A soup's report says how each ingredient was made (its report's command and parent) in a
    few flat fields, and names a soup among them by its SHA-256: a soup of soups stays small."""
    from lab.training.soup import main

    a, b = _two_fine_tunes(tmp_path)
    a_sha, b_sha = (hashlib.sha256(p.read_bytes()).hexdigest() for p in (a, b))
    (tmp_path / "b_report.json").write_text(json.dumps({
        "command": "automa-vision train --seed 7", "date": "2026-11-28", "init_file": "a.onnx",
        "init_sha256": a_sha, "history": [{"epoch": 1, "loss": 0.5}]}))
    first = tmp_path / "first.onnx"
    assert main([str(a), str(b), "--out", str(first)]) == 0
    report = json.loads((tmp_path / "first_report.json").read_text())
    assert report["ingredients"][0] == {"file": "a.onnx", "sha256": a_sha, "weight": 0.5}, "no report beside a.onnx"
    assert report["ingredients"][1] == {"file": "b.onnx", "sha256": b_sha, "weight": 0.5,
                                        "command": "automa-vision train --seed 7", "date": "2026-11-28",
                                        "init_file": "a.onnx", "init_sha256": a_sha}
    second = tmp_path / "second.onnx"
    assert main([str(first), str(b), "--out", str(second), "--weights", "2,1"]) == 0
    again = json.loads((tmp_path / "second_report.json").read_text())
    assert again["ingredients"][0] == {"file": "first.onnx", "sha256": report["sha256"], "weight": 0.6667,
                                       "command": report["command"], "date": report["date"]}
    assert "--weights 2,1" in again["command"]
    assert len((tmp_path / "second_report.json").read_text()) < 1.5 * len((tmp_path / "first_report.json").read_text())


def test_weights_lean_the_soup_toward_an_ingredient(tmp_path):
    from lab.training.soup import soup

    a, b = _two_fine_tunes(tmp_path)
    x = np.random.default_rng(3).random((4, 6, 48, 48), np.float32)
    (out_a, _), (out_b, _) = _run(a, x), _run(b, x)
    import onnx

    onnx.save(soup([a, b], [3, 1]), str(tmp_path / "s.onnx"))
    out, meta = _run(tmp_path / "s.onnx", x)
    np.testing.assert_allclose(out["drops"], 0.75 * out_a["drops"] + 0.25 * out_b["drops"], rtol=1e-4, atol=1e-4)
    assert json.loads(meta["temperatures"])["piece"] == 2.5
    # a file with itself is the file
    onnx.save(soup([a, a]), str(tmp_path / "same.onnx"))
    same, _ = _run(tmp_path / "same.onnx", x)
    for head in out_a:
        np.testing.assert_allclose(same[head], out_a[head], rtol=1e-6)


def test_files_that_are_not_one_net_are_refused(tmp_path, capsys):
    from lab.training.soup import main, soup
    from lab.training.temperature import scale_outputs

    a, _ = _two_fine_tunes(tmp_path)
    plain = tmp_path / "plain.onnx"          # no temperatures: another graph
    slot_shaped_model(plain, np.random.default_rng(4))
    with pytest.raises(ValueError, match="not the same net"):
        soup([a, plain])
    other = tmp_path / "other.onnx"          # temperatures on other heads
    slot_shaped_model(other, np.random.default_rng(5))
    scale_outputs(other, {"owner": 2.0, "drops": 1.0})
    assert main([str(a), str(other), "--out", str(tmp_path / "s.onnx")]) == 2
    assert "not the same net" in capsys.readouterr().err
    assert not (tmp_path / "s.onnx").exists()
    with pytest.raises(ValueError, match="at least two"):
        soup([a])
    with pytest.raises(ValueError, match="positive weights"):
        soup([a, a], [1, 0])
    assert main([str(a), str(tmp_path / "missing.onnx"), "--out", str(tmp_path / "s.onnx")]) == 2
    assert "no model file" in capsys.readouterr().err
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    assert main([str(a), str(junk), "--out", str(tmp_path / "s.onnx")]) == 2
    assert "junk.onnx is not an ONNX model file" in capsys.readouterr().err


def test_the_shipped_files_record_what_they_divide_by_and_stay_under_5_mb():
    import onnx
    from onnx import numpy_helper

    from lab.training.temperature import TEMPERATURE
    from vision.barrage.dam_heights import DEFAULT_HEIGHTS_MODEL
    from vision.barrage.slot_model import DEFAULT_MODEL, MASTER_MODEL

    files = sorted(DEFAULT_MODEL.parent.glob("barrage_*.onnx"))
    assert {DEFAULT_MODEL, MASTER_MODEL, DEFAULT_HEIGHTS_MODEL} <= set(files) and len(files) == 6
    assert sum(f.stat().st_size for f in files) < 5_000_000          # the budget for the model files
    for path in files:
        model = onnx.load(str(path))
        meta = {p.key: p.value for p in model.metadata_props}
        inits = {i.name: i for i in model.graph.initializer}
        for head, t in json.loads(meta["temperatures"]).items():
            assert float(numpy_helper.to_array(inits[head + TEMPERATURE])) == pytest.approx(t, abs=1e-4), (path.name, head)
        if "quantized_from" in meta:          # the int8 file: made from the float file, which has the report
            assert json.loads(meta["quantized_from"])["sha256"] == hashlib.sha256(MASTER_MODEL.read_bytes()).hexdigest()
            continue
        # each file's report beside it describes these very bytes, flat and small: a soup by its
        # ingredients (as its metadata lists them), a fine-tune by the file it started from
        report = path.with_name(path.stem + "_report.json")
        assert report.stat().st_size < 50_000, report.name
        made = json.loads(report.read_text())
        assert made["file"] == path.name and made["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest(), path.name
        if "soup" in meta:
            assert [(i["sha256"], i["weight"]) for i in made["ingredients"]] == \
                [(i["sha256"], i["weight"]) for i in json.loads(meta["soup"])] and len(made["ingredients"]) >= 2, path.name
        else:
            assert made["init_sha256"], path.name


def test_weights_listed_in_another_order_are_still_one_net(tmp_path):
    """A fresh export lists the temperatures after the other weights, a soup written back
    before them (seen on the shipped slot model): the files are one net all the same."""
    import onnx

    from lab.training.soup import soup

    a, b = _two_fine_tunes(tmp_path)
    model = onnx.load(str(b))
    inits = list(model.graph.initializer)
    del model.graph.initializer[:]
    model.graph.initializer.extend(inits[::-1])
    reordered = tmp_path / "reordered.onnx"
    onnx.save(model, str(reordered))
    x = np.random.default_rng(6).random((3, 6, 48, 48), np.float32)
    onnx.save(soup([a, b]), str(tmp_path / "s.onnx"))
    onnx.save(soup([a, reordered]), str(tmp_path / "s2.onnx"))
    (out, _), (out2, _) = _run(tmp_path / "s.onnx", x), _run(tmp_path / "s2.onnx", x)
    for head in out:
        np.testing.assert_allclose(out2[head], out[head], rtol=1e-6)
