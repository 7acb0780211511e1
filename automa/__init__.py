"""automa-vision rules engines: one subpackage per game, pure Python (no OpenCV).

`automa.common` holds what every game shares (seeded decks, decision traces,
validated data loading); `automa.barrage` is the flagship engine.
"""
