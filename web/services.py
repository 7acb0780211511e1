"""What every blueprint reaches through ``services()``: the configuration and the session store,
plus the table camera once a game's package has started it. Blueprints import this module,
never ``web.app`` (which imports them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import current_app

from vision.barrage.slot_model import DEFAULT_MODEL

from .store import Store

MAX_UPLOAD_BYTES = 8 * 1024 * 1024      # a 12 MP JPEG fits; anything bigger is not a board photo


@dataclass(frozen=True)
class Source:
    """Where frames come from: the bundled demo replay, a webcam index or a video file."""
    kind: str            # demo | camera | video
    spec: str = ""

    def describe(self) -> str:
        return {"demo": "demo replay (synthetic frames)", "camera": f"camera {self.spec}",
                "video": f"video {self.spec}"}[self.kind]


@dataclass
class WebConfig:
    data_dir: Path = Path("data/web")
    source: Source = field(default_factory=lambda: Source("demo"))
    model: Path = DEFAULT_MODEL
    max_upload: int = MAX_UPLOAD_BYTES
    pairing: Any = None      # web.lan.Pairing when served to the local network: only paired browsers are served

    @property
    def profiles_dir(self) -> Path:
        return self.data_dir / "profiles"


@dataclass
class Services:
    config: WebConfig
    store: Store
    live: Any = None     # the table camera and Barrage's board reader (web.barrage.live.Live), set by web.barrage
    pages: dict[str, str] = field(default_factory=dict)     # game id -> its page's address ("/barrage/")


def services() -> Services:
    return current_app.extensions["automa_vision"]
