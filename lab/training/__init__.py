"""Training code for the models in ``models/`` (needs the optional ``train`` extra: torch, onnx)."""
