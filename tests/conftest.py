"""Fixtures every test folder may use: a fresh app of the web pages with its own data folder."""
from __future__ import annotations

from pathlib import Path

import pytest

from web.app import WebConfig, create_app


@pytest.fixture
def app(tmp_path: Path):
    # No model file: the pages must work without recognition (the model may not be trained yet).
    return create_app(WebConfig(data_dir=tmp_path / "data", model=tmp_path / "no-model.onnx"))


@pytest.fixture
def client(app):
    return app.test_client()
