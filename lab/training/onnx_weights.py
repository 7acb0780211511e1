"""A net's torch weights read back from its exported ONNX file: the start of a fine-tune.

The shipped models were trained on a GPU; a later set of training images (say, frames of
more webcam sizes) can refine one on a CPU in minutes, where training anew takes hours.
Only the ONNX file is shipped, so the weights come from it. This serves the nets built of
``lab.training.net.trunk`` blocks and named layers: the slot net (and so the specialist) and
the drop counters; the exporter keeps their parameters' names.

Export (``lab.training.train.export``) runs the net in eval mode, and the exporter folds each
batch norm into the convolution before it: the file holds the folded kernel and a bias
(``<conv>.weight_bias``), not the norm's scale and statistics. The loader sets each norm
to pass its input through (scale 1, mean 0, variance 1 - eps) and puts the folded bias in
the norm's shift, so the net computes exactly what the file does as long as the norms stay
in eval mode: a fine-tune keeps them there (``freeze_norms``), since batch statistics of
the new images would change what every layer after them sees. The outputs' temperatures
(``lab.training.temperature``) are not the net's: the loader leaves them out, and the fine-tune
fits new ones. The slot net's float16 weights (``lab.training.train.store_half``) are read
back as float32. The dam-height reader's transformer layers are ``aten.linear`` calls the
exporter turns into MatMuls on a transposed copy of the weight with a made-up name
(``val_59``); the node's record of the call names the parameter, and the copy is turned
back (``_unnamed_linear_weights``). The exporter stores equal weights once, under one of
their names, so a net fresh from its initialisation (every bias zero) cannot be read back;
a trained one can.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import torch
from torch import nn

HALF = "_half"          # the suffix of a weight's float16 copy (``lab.training.train.store_half``)
# the exporter's record of the torch call behind a node: linear(input, weight, bias), the weight a
# parameter ``p_<its dotted name with underscores>``
_LINEAR_CALL = re.compile(r"aten\.linear\.default\]\(args = \(%\w+, %p_(\w+)")


def initializers(path: Path) -> dict[str, np.ndarray]:
    """The file's weights by name, float16 copies under their float32 names."""
    import onnx
    from onnx import numpy_helper

    try:
        graph = onnx.load(str(path)).graph
    except OSError:
        raise
    except Exception as e:        # protobuf's DecodeError and kin: not an ONNX file at all
        raise ValueError(f"{path} is not an ONNX file ({type(e).__name__})") from e
    out = {}
    for w in graph.initializer:
        value = numpy_helper.to_array(w)
        name = w.name[:-len(HALF)] if w.name.endswith(HALF) else w.name
        out[name] = value.astype(np.float32) if value.dtype == np.float16 else value
    out.update(_unnamed_linear_weights(graph, out))
    return out


def _unnamed_linear_weights(graph, weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Linear weights stored transposed under made-up names, by their parameter's name
    with underscores for dots (``net_mix_layers_0_linear1_weight``): ``load_weights``
    looks a parameter up that way when its dotted name is not in the file."""
    out = {}
    for node in graph.node:
        if node.op_type != "MatMul" or len(node.input) != 2 or node.input[1] not in weights:
            continue
        call = next((p.value for p in node.metadata_props if p.key == "pkg.torch.onnx.fx_node"), "")
        found = _LINEAR_CALL.search(call)
        if found:
            out[found.group(1)] = weights[node.input[1]].T
    return out


def load_weights(net: nn.Module, path: Path, fresh: tuple[str, ...] = ()) -> nn.Module:
    """``net`` (freshly built, of the file's architecture) with the file's weights, in eval
    mode: its outputs are the file's before temperature. Parameters whose names start
    with one of ``fresh`` (a head used only in training, so not in the file) keep the
    net's own. Raises ValueError naming what is missing or misshapen when the file is not
    a net of that shape."""
    weights = initializers(Path(path))
    state = net.state_dict()
    loaded = {}
    for name, module in net.named_modules():
        if isinstance(module, nn.BatchNorm2d):
            # the norm at conv.K.1 follows the convolution at conv.K.0
            conv = name[:-1] + "0.weight"
            loaded[name + ".weight"] = np.ones(module.num_features, np.float32)
            loaded[name + ".bias"] = _take(weights, conv + "_bias", path)
            loaded[name + ".running_mean"] = np.zeros(module.num_features, np.float32)
            loaded[name + ".running_var"] = np.full(module.num_features, 1.0 - module.eps, np.float32)
    for key in state:
        if key not in loaded and not key.endswith("num_batches_tracked") and not key.startswith(fresh):
            loaded[key] = _take(weights, key, path)
    for key, value in loaded.items():
        if tuple(value.shape) != tuple(state[key].shape):
            raise ValueError(f"{path}: {key} is {tuple(value.shape)}, the net's is {tuple(state[key].shape)}")
        state[key] = torch.from_numpy(np.array(value, np.float32))   # a copy: onnx's arrays are read-only
    net.load_state_dict(state)
    return net.eval()


def freeze_norms(net: nn.Module) -> None:
    """Put the batch norms in eval mode (call after ``net.train()``): their statistics stay
    those the file was exported with, and their scale and shift are still learned."""
    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()


def _take(weights: dict[str, np.ndarray], key: str, path: Path) -> np.ndarray:
    for name in (key, key.replace(".", "_")):
        if name in weights:
            return weights[name]
    raise ValueError(f"{path} is not a model this net can start from: it has no weight {key}")
