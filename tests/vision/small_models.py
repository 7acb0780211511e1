"""Small ONNX stand-ins for the shipped models: tests that need a model file, not a trained net."""
import numpy as np


def slot_shaped_model(path, rng):
    """A small stand-in for the slot model: the crops' mean colours, times a random matrix
    per head; the same input and outputs as the real one."""
    from onnx import TensorProto, helper, numpy_helper, save

    from vision.barrage.labels import MAX_DROPS, OWNERS, PIECES
    from vision.barrage.slot_model import CHANNELS, OUTPUTS

    widths = {"piece": len(PIECES), "owner": len(OWNERS), "drops": MAX_DROPS + 1, "occluded": 1}
    nodes = [helper.make_node("GlobalAveragePool", ["crops"], ["pooled"]),
             helper.make_node("Flatten", ["pooled"], ["colour"])]
    weights = []
    for head in OUTPUTS:
        weights.append(numpy_helper.from_array(rng.normal(0, 20, (CHANNELS, widths[head])).astype(np.float32), f"w_{head}"))
        nodes.append(helper.make_node("MatMul", ["colour", f"w_{head}"], [head]))
    graph = helper.make_graph(
        nodes, "slots", [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["N", CHANNELS, 48, 48])],
        [helper.make_tensor_value_info(h, TensorProto.FLOAT, ["N", widths[h]]) for h in OUTPUTS], weights)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
