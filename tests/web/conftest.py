from __future__ import annotations

import pytest


@pytest.fixture
def session_id(client) -> int:
    res = client.post("/barrage/api/sessions", json={"role_usa": "automa", "role_germany": "human", "seed": "7"})
    assert res.status_code == 201, res.json
    return res.json["id"]
