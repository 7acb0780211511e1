"""The trained models the board reader loads (ONNX files, their confidence and lake-share
tables); the code that trains them is ``lab.training``."""
