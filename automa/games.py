"""The registry of games: one interface every engine offers, found without a central list.

In the spirit of python-chess's variants, each game is a ``Game`` subclass with
an id, a name and the same five verbs: ``new_game``, ``load``/``dump`` (state to
and from JSON-ready data, refusing a bad state with a message naming the
problem), ``decide`` (state in, decision out, with its trace) and ``apply``
(the decision's ops replayed). The command line and the page are written once
against this interface.

A game registers by shipping a module ``automa/<package>/game.py`` that defines
``GAME``; ``registry()`` imports every such module it finds among ``automa``'s
subpackages, so adding a game is adding a folder.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator, Mapping

import automa
from automa.common.errors import StateError

MAX_JSON_DEPTH = 32          # a real state nests 5-6 levels; deeper input is refused, not recursed into


@dataclass(frozen=True)
class Option:
    """One choice made when a game is set up: a command-line flag and a new-game form field."""

    name: str                          # "automa" -> --automa on the command line
    help: str
    default: Any = None
    type: type = str                   # str, int or bool (a flag)
    choices: tuple = ()
    multiple: bool = False             # a comma-separated list, one value per Automa

    def parse(self, value: Any) -> Any:
        """``value`` (text from a form or the shell, or a JSON value) as this option's type;
        ValueError names the option and the accepted values."""
        if value is None or value == "":
            return self.default
        if self.multiple:
            items = value if isinstance(value, (list, tuple)) else str(value).split(",")
            return [self._one(str(v).strip() if isinstance(v, str) else v) for v in items if str(v).strip()]
        return self._one(value)

    def _one(self, value: Any) -> Any:
        if self.type is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{self.name} must be yes or no")
        if self.type is int:
            if isinstance(value, bool):
                raise ValueError(f"{self.name} must be a whole number")
            try:
                number = int(str(value).strip()) if not isinstance(value, int) else value
            except ValueError:
                raise ValueError(f"{self.name} must be a whole number") from None
            value = number
        else:
            value = str(value)
        if self.choices and value not in self.choices:
            raise ValueError(f"{self.name} must be one of {', '.join(map(str, self.choices))} (got {value!r})")
        return value


@dataclass
class PlayEvent:
    """One step of a self-played game: an Automa turn (``decision``, its ``to_dict()``) or a
    phase of the game's own (income, scoring), told as ``lines``."""

    kind: str                        # "turn" or "phase"
    title: str
    state: Any                       # the state after the step
    decision: dict | None = None
    lines: tuple[str, ...] = ()


class Game(ABC):
    """What every game's engine offers the command line and the page."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()
    score_unit: ClassVar[str] = "VP"           # what ``scores`` counts (Expeditions: coins)

    @abstractmethod
    def new_game(self, options: Mapping[str, Any]) -> Any:
        """A starting state; ``options`` holds values for ``self.options`` (missing ones: defaults)."""

    @abstractmethod
    def load(self, data: Any) -> Any:
        """A validated state from JSON-ready data; StateError names the first problem."""

    @abstractmethod
    def dump(self, state: Any) -> dict:
        """The state as JSON-ready data (``load(dump(s))`` gives ``s`` back)."""

    @abstractmethod
    def automas(self, state: Any) -> list[str]:
        """The Automa players of ``state``, in turn order."""

    @abstractmethod
    def decide(self, state: Any, automa: str | None = None) -> Any:
        """One Automa turn (the first Automa's when ``automa`` is None): an object whose
        ``to_dict()`` has at least automa, action, target, instruction, trace and ops."""

    @abstractmethod
    def apply(self, state: Any, decision: Mapping[str, Any]) -> Any:
        """The state after ``decision`` (a ``to_dict()`` of ``decide``), ``state`` untouched."""

    def finished(self, state: Any) -> bool:
        """True when the game is over and no Automa turn is left to decide."""
        return False

    def scores(self, state: Any) -> dict[str, int]:
        """Each player's score so far, for the demo's last line (empty when a game has none)."""
        return {}

    def selfplay(self, options: Mapping[str, Any], max_turns: int = 200) -> Iterator[PlayEvent]:
        """Automa turns decided and applied one after another from a new game, until the game
        is over (or ``max_turns``): the terminal demo and the benches. Games with phases
        between turns (Barrage's income and water flow) play them in their own override."""
        state = self.new_game(options)
        for _ in range(max_turns):
            if self.finished(state):
                return
            decision = self.decide(state).to_dict()
            state = self.apply(state, decision)
            yield PlayEvent("turn", decision["instruction"], state, decision)

    def parse_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value from text or JSON values; StateError lists every problem."""
        out, problems = {}, []
        for opt in self.options:
            try:
                out[opt.name] = opt.parse(raw.get(opt.name))
            except ValueError as exc:
                problems.append(str(exc))
        if problems:
            raise StateError("; ".join(problems))
        return out

    def decision_ops(self, decision: Any) -> list[dict]:
        """The ops ``apply`` replays, from what ``decide(...).to_dict()`` gave (perhaps through a
        file); StateError when it is not such a decision."""
        if not isinstance(decision, Mapping) or not isinstance(decision.get("ops"), list) \
                or not all(isinstance(op, Mapping) for op in decision["ops"]):
            raise StateError(f"the decision must be the JSON printed by '{self.id} decide --json' (with its ops)")
        return list(decision["ops"])

    def loads(self, text: str) -> Any:
        """A validated state from JSON text."""
        return self.load(parse_json(text))

    def dumps(self, state: Any, indent: int | None = 1) -> str:
        return json.dumps(self.dump(state), indent=indent, ensure_ascii=False)



@dataclass(frozen=True)
class Engine:
    """A one-Automa game's pure functions, all ``OneAutoma`` needs from its package."""
    new_game: Callable[[dict[str, Any]], Any]       # parsed options -> the starting state
    load: Callable[[Any], Any]                      # JSON-ready data -> a validated state (StateError)
    dump: Callable[[Any], dict]                     # state -> JSON-ready data
    decide: Callable[[Any], Any]                    # state -> the Automa's turn (``Decision``)
    apply_ops: Callable[[Any, list[dict]], Any]     # (state, ops) -> the state after them, state untouched


class OneAutoma(Game):
    """A game against a single Automa, named ``"automa"`` (Expeditions, Age of Innovation,
    Brasil Imperial), played by its package's functions (``engine``): ``decide`` refuses any
    other name, ``apply`` replays the decision's ops (``decision_ops``)."""

    engine: ClassVar[Engine]

    def new_game(self, options: Mapping[str, Any]) -> Any:
        return self.engine.new_game(self.parse_options(options))

    def load(self, data: Any) -> Any:
        return self.engine.load(data)

    def dump(self, state: Any) -> dict:
        return self.engine.dump(state)

    def automas(self, state: Any) -> list[str]:
        return ["automa"]

    def decide(self, state: Any, automa: str | None = None) -> Any:
        if automa not in (None, "automa"):
            raise StateError(f"{self.name} has one Automa ('automa'), not {automa!r}")
        return self.engine.decide(state)

    def apply(self, state: Any, decision: Mapping[str, Any]) -> Any:
        """Replays ``decision["ops"]``: an Automa turn, or what the players entered."""
        return self.engine.apply_ops(state, self.decision_ops(decision))


def parse_json(text: str | bytes) -> Any:
    """JSON text as data, refusing what no game state looks like (bad JSON, absurd nesting) with
    a StateError instead of a crash deep inside the parser."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError(f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    except RecursionError:
        raise StateError(f"the JSON nests deeper than {MAX_JSON_DEPTH} levels") from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise StateError(f"the JSON nests deeper than {MAX_JSON_DEPTH} levels")
    return data


def _depth(data: Any) -> int:
    """Nesting depth, without recursion (a hostile file may nest thousands of levels)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_JSON_DEPTH:
            break
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def registry() -> dict[str, Game]:
    """Every game found among ``automa``'s subpackages (``automa/<pkg>/game.py`` defining
    ``GAME``), by id, Barrage first and the others by name."""
    games: dict[str, Game] = {}
    for info in pkgutil.iter_modules(automa.__path__):
        if not info.ispkg or info.name == "common":
            continue
        try:
            module = importlib.import_module(f"automa.{info.name}.game")
        except ModuleNotFoundError as exc:
            if exc.name == f"automa.{info.name}.game":
                continue            # a package without a game module (shared code, a game in progress)
            raise
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.id] = game
    return dict(sorted(games.items(), key=lambda kv: (kv[0] != "barrage", kv[1].name)))


def get(game_id: str) -> Game:
    """The game ``game_id``; StateError lists the known ids when there is none."""
    games = registry()
    if game_id not in games:
        raise StateError(f"unknown game {game_id!r} (known: {', '.join(games) or 'none'})")
    return games[game_id]


def package_name(game_id: str) -> str:
    """The folder a game's code lives in, in every layer: its id with '-' as '_'."""
    return game_id.replace("-", "_")
