"""Running a trained net at run time: an onnxruntime CPU session and the arithmetic on its
logits that every reading head shares (a game's heads decode what the logits mean)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort


class ModelFileError(ValueError):
    """A model file that cannot serve: not one onnxruntime can load, or not the model it
    is given as. The message names the file and says why."""


def cpu_session(path: str | Path, threads: int = 2) -> ort.InferenceSession:
    """An onnxruntime CPU session. Its threads sleep between runs instead of spinning: the
    pipeline runs two models in turn, and each one's spinning threads took the other's cores."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:      # onnxruntime's own error types (InvalidProtobuf, Fail, ...) share no base
        raise ModelFileError(f"{path}: not a model file onnxruntime can load ({exc})") from exc


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def logsumexp(x: np.ndarray) -> np.ndarray:
    """log(sum(exp(x))) over the last axis, kept as an axis of size 1, without overflow:
    the log of the total chance of a group of logits."""
    top = x.max(axis=-1, keepdims=True)
    return top + np.log(np.exp(x - top).sum(axis=-1, keepdims=True))


def log_softmax(x: np.ndarray) -> np.ndarray:
    """Log-probabilities of logits over the last axis (any offset of the logits cancels)."""
    return x - logsumexp(x)


def two_experts(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two models' logits for the same choices weighed equally (a product of two experts): the
    mean of their log-probabilities. Where they disagree the surer one wins."""
    return (log_softmax(a) + log_softmax(b)) / 2
