"""Training code for the slot classifier (needs the optional ``train`` extra: torch, onnx)."""
