"""Words without values used inside a trace line (a way, a mech's name, "none"), kept as words
when a decision is saved.

``automa.common.trace`` saves a ``text`` without values as its bare template, and a bare
string among a line's values reads back as a plain value: the page would show the English
word inside a translated line. :func:`word` keeps such a ``text`` in its saved form with
(empty) values, which reads back as words the page's catalogue translates.
"""
from __future__ import annotations

from automa.common.trace import Text


class Word(Text):
    """A ``Text`` saved as ``{"text", "values"}`` even without values."""

    def to_json(self) -> dict | str:
        return {"text": self.template, "values": {}} if not self.values else super().to_json()


def word(words: Text) -> Text:
    """``words`` (written ``text("...")`` so that the extraction finds the template) as a value
    that stays words when saved."""
    return Word(words.template, words.values) if not words.values else words
