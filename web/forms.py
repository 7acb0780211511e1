"""Form and JSON input checks: every problem is collected and named for the person filling it in."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext


class FormError(ValueError):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def request_body(request: Any) -> dict:
    """A request's JSON object, or its form fields: every POST accepts both. A JSON body that
    is not an object (a list, a number) counts as no fields, each then reported missing; one
    nested deeper than the parser recurses is refused (``silent`` passes only ValueError)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise FormError(["the request's JSON nests too deep"]) from None
    return data if isinstance(data, dict) else request.form.to_dict()


def integer(value: Any, field: str, low: int, high: int) -> int:
    """A whole number from a form or JSON value: a number or its text. 1.5 is not cut to 1, and
    true, infinity (JSON's ``Infinity``), NaN and text of no number are refused, each as a
    problem with ``field``, never an exception the server did not expect."""
    n = _whole(value)
    if n is None:
        raise FormError([gettext("%(field)s must be a whole number", field=field)])
    if not low <= n <= high:
        raise FormError([gettext("%(field)s must be between %(low)d and %(high)d", field=field, low=low, high=high)])
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
