from __future__ import annotations

from pathlib import Path

import pytest

from web.app import WebConfig, create_app


@pytest.fixture
def app(tmp_path: Path):
    # No model file: the page must work without recognition (the model may not be trained yet).
    return create_app(WebConfig(data_dir=tmp_path / "data", model=tmp_path / "no-model.onnx"))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def session_id(client) -> int:
    res = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human", "seed": "7"})
    assert res.status_code == 201, res.json
    return res.json["id"]
