"""Errors that name exactly what is wrong with an input."""


class DataError(ValueError):
    """A bundled or user-supplied data file is malformed: names the file and the field."""

    def __init__(self, source: str, field: str, problem: str):
        self.source, self.field, self.problem = source, field, problem
        super().__init__(f"{source}: {field}: {problem}")


class StateError(ValueError):
    """A game state is impossible or malformed; nothing has been applied."""
