"""The slot model in 8-bit integers: the file the pipeline runs.

The slot model reads every box of the map, 87 crops a frame, and took about two thirds of the
frame's model time in float32 (22 of 34 ms on the project's 2-core machine). Its
convolutions and linear layers run in int8 here: weights per output channel, activations with
ranges measured (min to max) on the crops of calibration frames, in onnxruntime's QDQ format,
so the file runs on onnxruntime alone. The weights use 7 of the 8 bits (``reduce_range``): x86
CPUs without VNNI multiply uint8 by int8 in pairs summed into 16 bits, which 8-bit weights can
overflow, so a file quantized so would read differently there; with 7 bits the integer sums are
exact on every x86 CPU. It reads the held-out sets as the float file does and
takes about half the time (``models/MODEL_CARD.md``, "The run-time slot model in 8 bits").

The float file (``vision.barrage.slot_model.MASTER_MODEL``) stays the one trainings start from and soups
average; after it changes, this command makes the run-time file again::

    python -m lab.training.quantize        # models/barrage_slots.onnx -> models/barrage_slots_int8.onnx

The calibration frames are synthetic webcam-mix images from seeds of their own (300000+;
training uses 100000+, validation 200000+, the held-out sets 900000+), made if missing. The
run-time file keeps the float file's metadata (temperatures, soup) and records the float
file's SHA-256 and the calibration command under ``quantized_from``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from vision.barrage.slot_model import DEFAULT_MODEL, MASTER_MODEL, load_session
from vision.runner import ModelFileError

CALIBRATION_SEED = 300_000
CALIBRATION_OCCLUSION = 0.3          # as the training images'
# The slot model's training mix of cameras (models/MODEL_CARD.md, "Averaged fine-tunes").
WEBCAM_MIX = ("--size", "640x480", "--size", "1280x720", "--size", "1280x960", "--size", "1920x1080",
              "--placement", "shift", "--placement", "turn")
QUANTIZED_FROM = "quantized_from"      # the run-time file's metadata key


def calibration_batches(folder: Path, master: Path, n: int) -> list[np.ndarray]:
    """The slot model's input batch of each of the first ``n`` frames in ``folder``, as the
    pipeline (with ``master`` as its slot model) cuts them: registration, colour, crops and
    kind context exactly as at run time."""
    from lab.evaluate import image_pairs, synthetic_samples
    from vision.barrage.drop_counter import KINDS as COUNTED_KINDS
    from vision.barrage.pipeline import Pipeline

    # The other models read after the slot model, from what it read: none of them changes its input.
    pipeline = Pipeline.load(model=master, heights=None, counters=dict.fromkeys(COUNTED_KINDS), specialist=None)
    # Each frame's one batch of every crop: the second look's rows are mirrored copies of some of
    # them, and which rows depends on the file being calibrated (the shipped file was made so).
    pipeline.second_look = None
    batches: list[np.ndarray] = []
    session = pipeline.session

    class Recording:
        """The session, keeping a copy of each batch it is fed."""
        def __getattr__(self, name):
            return getattr(session, name)

        def run(self, names, feed):
            batches.append(np.array(feed["crops"]))
            return session.run(names, feed)

    pipeline.session = Recording()
    first = {img for img, _ in image_pairs(folder)[:n]}
    for _, frame, _ in synthetic_samples(folder, select=lambda img: img in first):
        pipeline.registrar.reset()
        pipeline.read_frame(frame)
    if not batches:
        raise SystemExit(f"{folder}: no calibration frame was read (no board found in any)")
    return batches


def float32_weights(model) -> None:
    """Store ``model``'s float16 weights (``lab.training.train.store_half``: a weight stored in
    float16 and cast to float32 by a node) as float32 again, in place, under the name the
    cast gave them, dropping the casts: the quantizer only quantizes weights it finds stored."""
    from onnx import TensorProto, numpy_helper

    graph = model.graph
    stored = {w.name: w for w in graph.initializer}
    kept = []
    for node in graph.node:
        half = stored.get(node.input[0]) if node.op_type == "Cast" and node.input else None
        if half is None or half.data_type != TensorProto.FLOAT16:
            kept.append(node)
            continue
        graph.initializer.remove(half)
        graph.initializer.append(numpy_helper.from_array(numpy_helper.to_array(half).astype(np.float32), node.output[0]))
    del graph.node[:]
    graph.node.extend(kept)


def quantize(master: Path, out: Path, batches: list[np.ndarray], source: str) -> None:
    """Write the int8 run-time file of the float slot model ``master`` to ``out``, its
    activation ranges taken from ``batches``; ``source`` names the calibration images."""
    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Batches(CalibrationDataReader):
        def __init__(self):
            self.left = iter(batches)

        def get_next(self):
            return next(({"crops": b} for b in self.left), None)

    model = onnx.load(str(master))
    meta = {p.key: p.value for p in model.metadata_props}
    float32_weights(model)
    with tempfile.TemporaryDirectory() as tmp:
        plain, prepared, quantized = (Path(tmp) / name for name in ("float.onnx", "prepared.onnx", "int8.onnx"))
        onnx.save(model, str(plain))
        quant_pre_process(str(plain), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(quantized), Batches(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, reduce_range=True,
                        calibrate_method=CalibrationMethod.MinMax)
        result = onnx.load(str(quantized))
    meta[QUANTIZED_FROM] = json.dumps({"sha256": hashlib.sha256(Path(master).read_bytes()).hexdigest(),
                                       "calibration": source, "frames": len(batches)})
    del result.metadata_props[:]
    result.metadata_props.extend(onnx.StringStringEntryProto(key=k, value=v) for k, v in meta.items())
    onnx.checker.check_model(result)
    onnx.save(result, str(out))


def main(argv: list[str] | None = None) -> int:
    from .cli import generate, output_file, synth_command

    p = argparse.ArgumentParser(prog="python -m lab.training.quantize", description=__doc__.split("\n\n")[0])
    p.add_argument("--model", type=Path, default=MASTER_MODEL, help="the float slot model")
    p.add_argument("--out", type=Path, default=DEFAULT_MODEL, help="the int8 file to write")
    p.add_argument("--data", type=Path, default=Path("data/calibration"),
                   help="the calibration images' folder (made if missing)")
    p.add_argument("--n", type=int, default=60, help="calibration frames")
    p.add_argument("--jobs", type=int, default=2, help="processes making the images")
    args = p.parse_args(argv)
    if args.n < 1:
        p.error(f"--n {args.n}: calibration needs at least one frame")
    try:
        load_session(args.model)            # a wrong file is said now, not after the images are made
    except ModelFileError as e:
        raise SystemExit(f"--model: {e}")
    output_file(args.out)
    generate(args.data, args.n, CALIBRATION_SEED, CALIBRATION_OCCLUSION, args.jobs, WEBCAM_MIX)
    source = synth_command(args.n, CALIBRATION_SEED, CALIBRATION_OCCLUSION, WEBCAM_MIX)
    quantize(args.model, args.out, calibration_batches(args.data, args.model, args.n), source)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) from {args.model}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
