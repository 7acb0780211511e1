"""Form and JSON input checks: every problem is collected and named for the person filling it in."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from automa.barrage.setup import BASE_COMPANIES
from automa.barrage.state import DIFFICULTIES

from .game import GameSettings

ROLES = ("off", "automa", "human")


class FormError(ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def new_game(form: Mapping[str, Any], profiles: list[str]) -> tuple[str, GameSettings]:
    """(session name, settings) from ``role_<company>``, ``difficulty``, ``seed``, ``profile``, ``name``."""
    problems: list[str] = []
    roles = {c: str(form.get(f"role_{c}", "off")) for c in BASE_COMPANIES}
    for c, role in roles.items():
        if role not in ROLES:
            problems.append(f"{c}: role must be one of {', '.join(ROLES)}")
    automas = [c for c in BASE_COMPANIES if roles[c] == "automa"]
    humans = [c for c in BASE_COMPANIES if roles[c] == "human"]
    if not 1 <= len(automas) <= 3:
        problems.append(f"choose 1 to 3 Automa companies (you chose {len(automas)})")
    difficulty = str(form.get("difficulty", "medium"))
    if difficulty not in DIFFICULTIES:
        problems.append(f"difficulty must be {' or '.join(DIFFICULTIES)}")
    seed_text = str(form.get("seed", "") or "").strip()
    seed = random.randrange(1_000_000)
    if seed_text:
        if not seed_text.isdigit() or len(seed_text) > 9:
            problems.append("seed must be a whole number (0-999999999), or empty for a random one")
        else:
            seed = int(seed_text)
    profile = str(form.get("profile", "") or "").strip() or None
    if profile is not None and profile not in profiles:
        problems.append(f"unknown calibration profile {profile!r}")
    name = str(form.get("name", "") or "").strip() or "Barrage vs " + ", ".join(automas or ["Automa"])
    if len(name) > 80:
        problems.append("the name is longer than 80 characters")
    if problems:
        raise FormError(problems)
    return name, GameSettings(len(automas), len(humans), automas + humans, difficulty, seed, profile)


def request_body(request: Any) -> dict:
    """A request's JSON object, or its form fields: every POST accepts both. A JSON body that
    is not an object (a list, a number) counts as no fields, each then reported missing."""
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else request.form.to_dict()


def integer(value: Any, field: str, low: int, high: int) -> int:
    """A whole number from a form or JSON value: a number or its text. 1.5 is not cut to 1, and
    true, infinity (JSON's ``Infinity``), NaN and text of no number are refused, each as a
    problem with ``field``, never an exception the server did not expect."""
    n = _whole(value)
    if n is None:
        raise FormError([f"{field} must be a whole number"])
    if not low <= n <= high:
        raise FormError([f"{field} must be between {low} and {high}"])
    return n


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):         # a bool is an int to Python, not a number to the person
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):        # is_integer() is False for infinity and NaN
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:              # not a whole number, or more digits than Python converts
            return None
    return None
