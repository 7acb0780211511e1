"""Camera frame -> Barrage board state: capture, registration, crops, ONNX slot classifier, checks."""
