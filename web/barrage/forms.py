"""The new-game form of Barrage's page: companies' roles, difficulty, seed, profile, name."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from automa.barrage.setup import BASE_COMPANIES
from automa.barrage.state import DIFFICULTIES

from ..forms import FormError
from .game import GameSettings

ROLES = ("off", "automa", "human")


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
        if not (seed_text.isascii() and seed_text.isdigit()) or len(seed_text) > 9:     # "²" is a digit to isdigit, not to int
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
