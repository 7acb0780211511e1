"""Temperature scaling: one number that makes a trained net's chances honest.

A net trained to low loss says 0.95 where it is right 80 % of the time; the page flags a
slot whose chance is below ``vision.reader.LOW_CONFIDENCE``, so an overconfident
reader hides its own mistakes. Dividing the logits by a temperature T, fitted on
validation images the net never trained on, keeps every argmax and makes the chances
match how often they come true (Guo et al., "On calibration of modern neural networks", 2017).
The division is written into the exported ONNX graph (``scale_outputs``), so every reader of
the file gets the honest chances; the file's metadata records the temperatures.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.runner import log_softmax

GRID = np.exp(np.linspace(np.log(0.25), np.log(8.0), 151))   # T from 1/4 to 8, ~2.3 % steps
TEMPERATURE = "_temperature"     # a head's temperature in the graph is the weight "<head>_temperature"


def nll(logits: np.ndarray, labels: np.ndarray, temperature: float = 1.0) -> float:
    """Mean negative log-likelihood of ``labels`` under softmax(logits / temperature)."""
    log_p = log_softmax(np.asarray(logits, np.float64) / temperature)
    return float(-log_p[np.arange(len(labels)), labels].mean())


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The T on ``GRID`` with the lowest validation NLL; 1.0 when there is nothing to fit."""
    if len(labels) == 0:
        return 1.0
    return float(GRID[int(np.argmin([nll(logits, labels, t) for t in GRID]))])


def scale_outputs(path: Path, temperatures: dict[str, float]) -> None:
    """Divide each named output of the ONNX model at ``path`` by its temperature, in the graph
    itself, and record the temperatures in its metadata. A file that already has temperatures
    is refused: scaling twice would divide twice."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    recorded = {p.key: p.value for p in model.metadata_props}
    if "temperatures" in recorded:
        raise ValueError(f"{path} already divides its outputs by temperatures {recorded['temperatures']}")
    outputs = {o.name for o in graph.output}
    missing = sorted(set(temperatures) - outputs)
    if missing:
        raise ValueError(f"{path} has no output {', '.join(missing)} (it has {', '.join(sorted(outputs))})")
    for name, t in temperatures.items():
        raw = f"{name}_unscaled"
        for node in graph.node:           # the producer, and any node that reads the output inside
            node.output[:] = [raw if o == name else o for o in node.output]
            node.input[:] = [raw if i == name else i for i in node.input]
        graph.initializer.append(numpy_helper.from_array(np.array(t, np.float32), name + TEMPERATURE))
        graph.node.append(helper.make_node("Div", [raw, name + TEMPERATURE], [name]))
    model.metadata_props.append(onnx.StringStringEntryProto(
        key="temperatures", value=json.dumps({k: round(v, 4) for k, v in temperatures.items()})))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
