"""A model soup: one ONNX file whose weights are the mean of several fine-tunes of one net.

Fine-tuning the shipped files again on fresh webcam-mix images gains little per run, and each
run loses ground on some held-out sets (most on the board look outside the training mix). The
runs all start from one file and move little (a small learning rate, batch norms frozen), so
they lie in one basin of the loss and their weights can be averaged: the mean reads better
than any one of them, and keeping the file they started from among the ingredients keeps
what it knew of looks the new images lack (Wortsman et al., "Model soups", ICML 2022, and
"Robust fine-tuning of zero-shot models", CVPR 2022). A soup is a file of the same graph, so
it costs nothing at run time.

Each ingredient divides its outputs by temperatures fitted on its own validation images
(``lab.training.temperature.scale_outputs``); those are weights of the graph like the others, so
they are averaged too, and the metadata records the mean::

    python -m lab.training.soup --out soup.onnx models/barrage_slots.onnx round3.onnx round4.onnx
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

from .temperature import TEMPERATURE


def _signature(model) -> tuple:
    """What must match for two files to be one net: each weight's name, type and shape, and
    each node's operation and wiring. The weights are compared by name, in any order: the
    exporter and a soup written back may list them differently."""
    inits = tuple(sorted((i.name, i.data_type, tuple(i.dims)) for i in model.graph.initializer))
    nodes = tuple((n.op_type, tuple(n.input), tuple(n.output)) for n in model.graph.node)
    return inits, nodes


def soup(paths: Sequence[Path], weights: Sequence[float] | None = None):
    """The mean (weighted by ``weights``, default equal) of the ONNX files at ``paths`` as an
    ``onnx.ModelProto``: every floating-point weight averaged, everything else the first
    file's. Raises ValueError when the files are not one net, or when two of them differ in
    a weight that cannot be averaged (an integer shape) or in a constant inside a node."""
    import onnx
    from onnx import numpy_helper

    if len(paths) < 2:
        raise ValueError("a soup needs at least two files")
    w = np.asarray(weights if weights is not None else [1.0] * len(paths), np.float64)
    if len(w) != len(paths) or not (w > 0).all():
        raise ValueError(f"{len(paths)} files need as many positive weights, not {list(w)}")
    w = w / w.sum()
    models = [_load(onnx, p) for p in paths]
    first = models[0]
    for path, model in zip(paths[1:], models[1:]):
        if _signature(model) != _signature(first):
            raise ValueError(f"{path} is not the same net as {paths[0]}: their weights or nodes differ")
        for a, b in zip(first.graph.node, model.graph.node):
            if a.op_type == "Constant" and a.attribute != b.attribute:
                raise ValueError(f"{path} and {paths[0]} differ in the constant {a.output[0]}")
    by_name = [{i.name: i for i in m.graph.initializer} for m in models]
    for init in first.graph.initializer:
        values = [numpy_helper.to_array(d[init.name]) for d in by_name]
        if values[0].dtype.kind != "f":
            if any(not np.array_equal(v, values[0]) for v in values[1:]):
                raise ValueError(f"the files differ in {init.name}, which cannot be averaged")
            continue
        mean = sum(wi * v.astype(np.float64) for wi, v in zip(w, values))
        init.CopyFrom(numpy_helper.from_array(mean.astype(values[0].dtype), init.name))
    _record(first, paths, w)
    return first


def _load(onnx, path: Path):
    try:
        return onnx.load(str(path))
    except Exception as exc:          # protobuf's DecodeError and friends: not an ONNX file
        raise ValueError(f"{path} is not an ONNX model file ({type(exc).__name__})") from exc


def _record(model, paths: Sequence[Path], w: np.ndarray) -> None:
    """Metadata: the averaged temperatures, and the ingredients (SHA-256 and weight)."""
    from onnx import StringStringEntryProto, numpy_helper

    meta = {p.key: p.value for p in model.metadata_props}
    if "temperatures" in meta:
        inits = {i.name: i for i in model.graph.initializer}
        meta["temperatures"] = json.dumps({head: round(float(numpy_helper.to_array(inits[head + TEMPERATURE])), 4)
                                           for head in json.loads(meta["temperatures"])})
    meta["soup"] = json.dumps([{"sha256": _sha256(p), "weight": round(float(wi), 4)} for p, wi in zip(paths, w)])
    del model.metadata_props[:]
    model.metadata_props.extend(StringStringEntryProto(key=k, value=v) for k, v in meta.items())


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# What a soup's report keeps of each ingredient's own report: how it was made, in one line each.
# The ingredient's report itself is not copied in (its SHA-256 names it), so a soup of soups
# stays a few KB.
FROM_INGREDIENT = ("command", "date", "init_file", "init_sha256")


def report(paths: Sequence[Path], model) -> dict:
    """The soup's report less its provenance (``cli.provenance``, written with the file): its
    temperatures, and each ingredient by name, SHA-256 and weight, with how it was made where
    its report beside it (``NAME_report.json``) says so (``FROM_INGREDIENT``)."""
    meta = {p.key: p.value for p in model.metadata_props}
    ingredients = []
    for path, entry in zip(paths, json.loads(meta["soup"])):
        beside = Path(path).with_name(Path(path).stem + "_report.json")
        try:
            made = json.loads(beside.read_text()) if beside.is_file() else {}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            made = {}
        made = made if isinstance(made, dict) else {}
        ingredients.append({"file": Path(path).name, **entry,
                            **{k: made[k] for k in FROM_INGREDIENT if isinstance(made.get(k), str)}})
    out = {"temperatures": json.loads(meta["temperatures"])} if "temperatures" in meta else {}
    return {**out, "ingredients": ingredients}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="the ingredients: ONNX files of one net")
    parser.add_argument("--out", type=Path, required=True, help="the soup (its report is written beside it)")
    parser.add_argument("--weights", default=None, help="comma-separated weights, one per file (default: equal)")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.files if not p.is_file()]
    if missing:
        print(f"no model file at {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        weights = None if args.weights is None else [float(x) for x in args.weights.split(",")]
        model = soup(args.files, weights)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    import onnx

    from .cli import output_file, provenance

    onnx.checker.check_model(model)
    made = report(args.files, model)          # before writing: --out may be one of the ingredients
    output_file(args.out)
    onnx.save(model, str(args.out))
    command = " ".join(["python -m lab.training.soup --out", str(args.out),
                        *([] if args.weights is None else ["--weights", args.weights]), *map(str, args.files)])
    made = {**provenance(args.out, command), **made}
    args.out.with_name(args.out.stem + "_report.json").write_text(json.dumps(made, indent=1))
    print(f"wrote {args.out}: the mean of {len(args.files)} files; temperatures {made.get('temperatures', 'none')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
