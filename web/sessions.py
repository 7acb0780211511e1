"""Saved games of any registered game, through the registry's ``Game`` (automa.games) and the
shared store (web.store): start, read, play the Automa's turn, record the players' steps,
undo, export and import. A game's page calls these and writes only its views and templates.

Each step stores the full state after it (``Game.dump``), so undo drops rows and an import
checks every state with ``Game.load`` before storing any. The Automa's pending turn is not
stored: ``decide`` is a function of the state (its decks are seeded), so the page asks for
it again and the step that carries it out applies the same decision.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from urllib.parse import quote

from flask import Blueprint, Response, request

from automa.common.errors import StateError
from automa.games import Game, get, parse_json, registry
from calibration.profiles import valid_name

from .forms import FormError
from .services import services
from .store import Conflict, SessionInfo, Step

FORMAT = "automa-vision-session"
VERSION = 2                 # 2: the file names its game; 1: files from before, all Barrage's
KIND = re.compile(r"[a-z][a-z-]{0,23}")     # a step's kind: start, automa, human, correction, ...
MAX_LABEL = 500
MAX_NAME = 80
# what reading a value of the wrong shape raises where a game's own checks miss it (a list for
# an object, a missing key): a problem of the input, said as one, never a 500
MALFORMED = (TypeError, LookupError, AttributeError, OverflowError)


class SessionFileError(ValueError):
    """The file is not a session this version can load here; nothing was stored."""


@dataclass(frozen=True)
class Current:
    """A session as its page shows it: what the store holds and the state after its last step."""
    info: SessionInfo
    steps: list[Step]
    state: Any

    @property
    def last(self) -> Step:
        return self.steps[-1]


def own_sessions(bp: Blueprint, game_id: str) -> None:
    """Every route of ``bp`` (and of the blueprints under it) with a ``sid`` answers 404 for
    a session of another game, before the view runs."""
    @bp.before_request
    def _only_this_game() -> None:
        sid = (request.view_args or {}).get("sid")
        if isinstance(sid, int):
            services().store.session(sid, game_id)


def sessions(game_id: str) -> list[SessionInfo]:
    return services().store.sessions(game_id)


def start(game_id: str, options: Mapping[str, Any], name: str = "", settings: Mapping[str, Any] | None = None) -> int:
    """A new session of ``game_id`` from new-game options (text or JSON values, checked by the
    game's ``Option``s; FormError lists every problem). ``settings``: what the page keeps
    beside the options (a calibration profile, ...)."""
    game = get(game_id)
    try:
        chosen = game.parse_options(options)
        state = game.new_game(chosen)
    except (ValueError, StateError) as exc:
        raise FormError(str(exc).split("; ")) from None
    except MALFORMED as exc:        # e.g. Brasil Imperial's table file, read by its engine unchecked
        raise FormError([f"an option's value is malformed ({type(exc).__name__}: {exc})"]) from None
    name = name.strip() or f"{game.name} vs the Automa"
    if len(name) > MAX_NAME:
        raise FormError([f"the name is longer than {MAX_NAME} characters"])
    first = {"kind": "start", "label": "game started", "state": game.dump(state), "flow": {}, "payload": {}}
    return services().store.create(name, {**(settings or {}), "options": chosen}, first, game=game_id)


def current(game_id: str, sid: int) -> Current:
    """Session ``sid`` of ``game_id`` (NoSession if it is another game's) and its state."""
    store = services().store
    info = store.session(sid, game_id)
    steps = store.steps(sid)
    return Current(info, steps, get(game_id).load(steps[-1].state))


def pending(game_id: str, cur: Current, automa: str | None = None) -> dict:
    """The Automa's turn to carry out now (``Decision.to_dict()``)."""
    return get(game_id).decide(cur.state, automa).to_dict()


def automa_done(game_id: str, sid: int, seq: int, automa: str | None = None) -> int:
    """The players carried out the pending Automa turn on the table: the state after it is the
    next step. ``seq``: the step the page showed (a second click is refused, Conflict)."""
    cur = _at(game_id, sid, seq)
    game = get(game_id)
    decision = game.decide(cur.state, automa).to_dict()
    after = game.apply(cur.state, decision)
    return _append(game, sid, seq, "automa", decision.get("instruction", "Automa turn"), after, decision)


def record(game_id: str, sid: int, seq: int, kind: str, label: str, state: Any,
           payload: Mapping[str, Any] | None = None) -> int:
    """A step the players made (a human turn, a correction): ``state`` is the state after it,
    as the page worked it out, checked by the game's ``load`` before it is stored (StateError)."""
    _at(game_id, sid, seq)
    if not KIND.fullmatch(kind):
        raise StateError(f"a step's kind is a short lower-case word, not {kind!r}")
    game = get(game_id)
    return _append(game, sid, seq, kind, label, game.load(game.dump(state)), dict(payload or {}))


def undo(game_id: str, sid: int, to: int | None = None, seq: int | None = None) -> None:
    """Back to the state after step ``to`` (the step before the last when None). ``seq``: the
    step the page showed, when it sent one (a second click is refused, Conflict)."""
    store = services().store
    store.session(sid, game_id)
    store.undo_to(sid, store.last(sid).seq - 1 if to is None else to, seq)


def _at(game_id: str, sid: int, seq: int) -> Current:
    cur = current(game_id, sid)
    if cur.last.seq != seq:
        raise Conflict(f"the game moved on meanwhile (step {cur.last.seq}, expected {seq}): reload the page")
    return cur


def _append(game: Game, sid: int, seq: int, kind: str, label: str, state: Any, payload: dict) -> int:
    step = {"kind": kind, "label": str(label)[:MAX_LABEL], "state": game.dump(state), "flow": {}, "payload": payload}
    return services().store.append(sid, step, seq)


# -- one session as one JSON file ------------------------------------------------------
def export(info: SessionInfo, steps: list[Step]) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": info.game, "name": info.name, "settings": info.settings,
            "steps": [{"kind": s.kind, "label": s.label, "state": s.state, "flow": s.flow, "payload": s.payload}
                      for s in steps]}


def attachment(filename: str) -> str:
    """A download's header for any name (RFC 6266): an ASCII ``filename`` for old browsers and
    the name itself as ``filename*`` (RFC 5987); a header must be Latin-1."""
    plain = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "-" for ch in filename)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


def download(data: Any, filename: str) -> Response:
    """``data`` (JSON-ready) as a downloaded ``.json`` file named ``filename``."""
    return Response(json.dumps(data, indent=1, ensure_ascii=False), mimetype="application/json",
                    headers={"Content-Disposition": attachment(filename)})


def export_response(game_id: str, sid: int) -> Response:
    """Session ``sid`` of ``game_id`` as a downloaded file (``export``), named after the game and the session."""
    cur = current(game_id, sid)
    return download(export(cur.info, cur.steps), f"{game_id}-{sid}-{cur.info.name[:40]}.json")


def import_file(game_id: str, data: bytes) -> int:
    """Stores an exported session of ``game_id``, every step checked first; FormError names
    the first problem and nothing is stored."""
    try:
        name, settings, steps = parse(data, game_id)
    except SessionFileError as exc:
        raise FormError([f"import refused: {exc}"]) from None
    return services().store.create_with_steps(name, settings, steps, game=game_id)


StepCheck = Callable[[Game, Any], dict]


def parse(data: bytes, game_id: str, check_step: StepCheck | None = None) -> tuple[str, dict, list[dict[str, Any]]]:
    """(name, settings, steps) from an exported file of ``game_id``; SessionFileError names the
    first problem. ``check_step(game, step)`` gives the step to store or raises StateError (a
    page's own checks, e.g. of its ``flow``); the default checks the state with the game's
    ``load`` and the step's fields."""
    try:
        raw = parse_json(data.decode("utf-8"))
    except (UnicodeDecodeError, StateError) as exc:
        raise SessionFileError(f"not a JSON file ({exc})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SessionFileError(f"not an exported session (expected \"format\": \"{FORMAT}\")")
    if raw.get("version") not in (1, VERSION):
        raise SessionFileError(f"session file version {raw.get('version')!r} is not supported (this is version {VERSION})")
    _same_game(raw.get("game", "barrage") if raw["version"] == 1 else raw.get("game"), game_id)
    name, settings, steps = raw.get("name"), raw.get("settings"), raw.get("steps")
    if not isinstance(name, str) or not name.strip():
        raise SessionFileError("the session has no name")
    if not isinstance(settings, dict):
        raise SessionFileError("\"settings\" must be an object")
    if not (settings.get("profile") is None or valid_name(settings["profile"])):   # never a path out of the profiles folder
        raise SessionFileError("\"settings\": \"profile\" must be a calibration profile's name, or null")
    if not isinstance(steps, list) or not steps:
        raise SessionFileError("\"steps\" must be a non-empty list")
    game, out = get(game_id), []
    for i, step in enumerate(steps):
        try:
            out.append((check_step or _step)(game, step))
        # the state's own checks, and what int() and friends raise on values of the wrong type
        except (StateError, ValueError, *MALFORMED) as exc:
            raise SessionFileError(f"step {i}: {exc}") from None
    return name.strip()[:MAX_NAME], settings, out


def _same_game(named: Any, game_id: str) -> None:
    games = registry()
    if not isinstance(named, str) or named not in games:
        raise SessionFileError(f"the file is of an unknown game {named!r} (known: {', '.join(games)})")
    if named != game_id:
        raise SessionFileError(f"the file is a session of {games[named].name}: import it on {games[named].name}'s page")


def _step(game: Game, step: Any) -> dict[str, Any]:
    if not isinstance(step, dict):
        raise StateError("a step must be an object")
    kind, label = step.get("kind"), step.get("label")
    if not isinstance(kind, str) or not KIND.fullmatch(kind):
        raise StateError(f"\"kind\" must be a short lower-case word, not {kind!r}")
    if not isinstance(label, str) or len(label) > MAX_LABEL:
        raise StateError(f"\"label\" must be text of at most {MAX_LABEL} characters")
    flow, payload = step.get("flow", {}), step.get("payload", {})
    if not isinstance(flow, dict) or not isinstance(payload, dict):
        raise StateError("\"flow\" and \"payload\" must be objects")
    return {"kind": kind, "label": label, "state": game.dump(game.load(step.get("state"))), "flow": flow,
            "payload": payload}
