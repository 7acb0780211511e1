"""Barrage (Cranio Creations) with the TESLA Automa module.

Modules, one job each:

- ``data``       the bundled map, Automa tiles and components, validated on load
- ``state``      the typed, JSON-serialisable game state and its validation
- ``water``      water flow down the rivers and through dams
- ``rules``      legal building spaces and production systems (base-game rules)
- ``ops``        the primitive state changes a decision is made of
- ``placement``  the Structure Placing Procedure and its eighteen criteria
- ``actions``    every Automa action: conditions and effects
- ``engine``     the Automa turn: flip a tile, try its actions, return a Decision
- ``setup``      a legal starting state for N Automa players
"""
