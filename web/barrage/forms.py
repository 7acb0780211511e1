"""The new-game form of Barrage's page: companies' roles, each Automa's level and officer, the
Leeghwater Project, seed, profile, name."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext

from automa.barrage.setup import BASE_COMPANIES
from automa.barrage.data import components
from automa.barrage.state import LEVELS

from ..forms import FormError
from .game import GameSettings

ROLES = ("off", "automa", "human")


def new_game(form: Mapping[str, Any], profiles: list[str]) -> tuple[str, GameSettings]:
    """(session name, settings) from ``role_<company>``, ``level_<company>``, ``officer_<company>``,
    ``difficulty`` (the level of an Automa without its own), ``leeghwater``, ``seed``, ``profile``, ``name``."""
    problems: list[str] = []
    roles = {c: str(form.get(f"role_{c}", "off")) for c in BASE_COMPANIES}
    for c, role in roles.items():
        if role not in ROLES:
            problems.append(gettext("%(company)s: role must be one of %(roles)s", company=c, roles=", ".join(ROLES)))
    automas = [c for c in BASE_COMPANIES if roles[c] == "automa"]
    humans = [c for c in BASE_COMPANIES if roles[c] == "human"]
    if not 1 <= len(automas) <= 3:
        problems.append(gettext("choose 1 to 3 Automa companies (you chose %(n)d)", n=len(automas)))
    difficulty = str(form.get("difficulty", "medium"))
    if difficulty not in LEVELS:
        problems.append(gettext("difficulty must be one of %(levels)s", levels=", ".join(LEVELS)))
    leeghwater = str(form.get("leeghwater", "")).lower() in ("1", "on", "yes", "true")
    known = components().officers()
    levels, officers = [], []
    for c in automas:
        level = str(form.get(f"level_{c}", "") or difficulty)
        officer = str(form.get(f"officer_{c}", "") or "") or None
        if level not in LEVELS:
            problems.append(gettext("%(company)s: level must be one of %(levels)s", company=c, levels=", ".join(LEVELS)))
        if officer is not None and officer not in known:
            problems.append(gettext("%(company)s: unknown executive officer %(name)r", company=c, name=officer))
        elif officer is not None and level != "very-hard":
            problems.append(gettext("%(company)s: only a Very Hard Automa has an executive officer", company=c))
        elif officer is not None and known[officer]["needs_leeghwater"] and not leeghwater:
            problems.append(gettext("%(company)s: %(name)s needs the Leeghwater Project", company=c,
                                    name=known[officer]["name"]))
        levels.append(level)
        officers.append(officer)
    taken = [o for o in officers if o]
    if len(set(taken)) != len(taken):
        problems.append(gettext("each Automa needs a different executive officer"))
    seed_text = str(form.get("seed", "") or "").strip()
    seed = random.randrange(1_000_000)
    if seed_text:
        if not (seed_text.isascii() and seed_text.isdigit()) or len(seed_text) > 9:     # "²" is a digit to isdigit, not to int
            problems.append(gettext("seed must be a whole number (0-999999999), or empty for a random one"))
        else:
            seed = int(seed_text)
    profile = str(form.get("profile", "") or "").strip() or None
    if profile is not None and profile not in profiles:
        problems.append(gettext("unknown calibration profile %(name)r", name=profile))
    name = str(form.get("name", "") or "").strip() or "Barrage vs " + ", ".join(automas or ["Automa"])
    if len(name) > 80:
        problems.append(gettext("the name is longer than 80 characters"))
    if problems:
        raise FormError(problems)
    return name, GameSettings(len(automas), len(humans), automas + humans, difficulty, seed, profile,
                              levels, officers, leeghwater)
