"""The application that composes the parts: the ``automa-vision`` command line, the demo and
the bench. Engines (``automa``) stay pure; this package may import every layer."""
