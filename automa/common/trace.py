"""Readable decision traces: every Automa decision explains itself.

A trace is an ordered list of lines with an indentation depth, so a page can
fold the detail and a terminal can print it as is.

A line is written as an English template and the values in it
(``trace.add("card {card}: {left} left", card=7, left=3)``), so that a page can say it in
its own language: the template is the text its catalogue translates (``web.i18n`` extracts
the templates of ``add``, ``section`` and ``text`` from a game's engine), the values are
put in afterwards. A value that is itself words (a location described, a reason) is a
``text``, said in the same language. A line without values is its own template.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

Translate = Callable[[str], str]


def _as_is(template: str) -> str:
    return template


@dataclass(frozen=True)
class Text:
    """Words with values in them: an English ``template`` (``str.format`` fields) and its values."""
    template: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def say(self, translate: Translate = _as_is) -> str:
        """The words in the language ``translate`` gives templates in (English: as written)."""
        # gettext answers "" with the catalogue's header: no words are no words in any language
        said = translate(self.template) if self.template else ""
        if not self.values:
            return said
        values = {k: _say(v, translate) for k, v in self.values.items()}
        try:
            return said.format(**values)
        except (KeyError, IndexError, ValueError):
            # a translation that names a field the template does not: the English is still right
            return self.template.format(**values)

    def __str__(self) -> str:
        return self.say()

    def to_json(self) -> dict | str:
        """Plain JSON: the template alone, or the template and its values."""
        return _json(self) if self.values else self.template

    @classmethod
    def from_json(cls, data: Any) -> "Text":
        """``to_json``'s form back (anything else is said as it is written)."""
        if isinstance(data, dict) and isinstance(data.get("text"), str) and isinstance(data.get("values"), dict):
            return cls(data["text"], {str(k): _from_json(v) for k, v in data["values"].items()})
        return cls(str(data))


def _say(value: Any, translate: Translate) -> Any:
    """A value as a line says it: words in the line's language, a list of them joined by commas."""
    if isinstance(value, Text):
        return value.say(translate)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_say(v, translate)) for v in value)
    return value


def _json(value: Any) -> Any:
    """A value as plain JSON: words inside a line stay words (the template and its values), values or not."""
    if isinstance(value, Text):
        return {"text": value.template, "values": {k: _json(v) for k, v in value.values.items()}}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict):
        return Text.from_json(value)
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def text(template: str, **values: Any) -> Text:
    """Words for a trace line's value (a reason, a place described), said in the line's language.
    A value may also be a list (of words or plain values), said joined by ", "."""
    return Text(template, values)


def chained(items: Sequence[Any], pair: Text) -> Any:
    """``items`` joined by ``pair``, a template with the fields ``first`` and ``rest``
    (``text("{first}; {rest}")``, ``text("{first} or {rest}")``): the first item, then the
    rest joined, so that one template says a separator whatever the length. One item is
    itself; none, ""."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Text(pair.template, {"first": items[0], "rest": chained(items[1:], pair)})


class Line(str):
    """A trace line as the engine's English says it, indented; ``depth`` and ``text`` say it again
    in another language (``said``)."""
    depth: int
    text: Text

    def __new__(cls, depth: int, words: Text) -> "Line":
        line = super().__new__(cls, "  " * depth + words.say())
        line.depth, line.text = depth, words
        return line

    def __reduce__(self):
        return Line, (self.depth, self.text)

    def to_json(self) -> list:
        return [self.depth, self.text.to_json()]


@dataclass
class Trace:
    entries: list[tuple[int, Text]] = field(default_factory=list)
    depth: int = 0

    def add(self, template: str | Text, **values: Any) -> None:
        """A line: ``template`` with ``values`` put in (``Text``), or words made already."""
        self.entries.append((self.depth, template if isinstance(template, Text) else Text(template, values)))

    @contextmanager
    def section(self, title: str | Text, **values: Any):
        """Add ``title`` and indent everything added inside the ``with`` block."""
        self.add(title, **values)
        self.depth += 1
        try:
            yield self
        finally:
            self.depth -= 1

    def lines(self) -> list[Line]:
        return [Line(depth, words) for depth, words in self.entries]

    def __str__(self) -> str:
        return "\n".join(self.lines())


def trace_json(lines: list[str]) -> list:
    """A decision's trace lines as plain JSON that keeps what ``said`` needs (a plain string
    line, added by hand, stays as it is)."""
    return [line.to_json() if isinstance(line, Line) else line for line in lines]


def said(data: list, translate: Translate = _as_is) -> list[str]:
    """``trace_json``'s lines said through ``translate``, indented."""
    out = []
    for entry in data:
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int):
            out.append("  " * entry[0] + Text.from_json(entry[1]).say(translate))
        else:
            out.append(str(entry))
    return out
