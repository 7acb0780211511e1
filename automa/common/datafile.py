"""Load a JSON data file and check its fields, naming the file and field on error."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import DataError


def load_json(path: Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(str(path), "<file>", "file not found") from None
    except json.JSONDecodeError as exc:
        raise DataError(str(path), f"line {exc.lineno} column {exc.colno}", exc.msg) from None


def require(source: str, obj: Any, key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    """Return ``obj[key]`` after checking it exists and has type ``kind``."""
    name = f"{where}.{key}" if where else key
    if not isinstance(obj, dict) or key not in obj:
        raise DataError(source, name, "missing")
    value = obj[key]
    if isinstance(value, bool) and kind in (int, (int,)):
        raise DataError(source, name, f"expected {kind}, got a boolean")
    if not isinstance(value, kind):
        raise DataError(source, name, f"expected {getattr(kind, '__name__', kind)}, got {type(value).__name__}")
    return value
