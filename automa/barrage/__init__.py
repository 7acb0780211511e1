"""Barrage (Cranio Creations) with the TESLA Automa module: every level (Easy "Low Voltage",
Medium, Hard "High Voltage", Very Hard "Overpowered" with its 13 executive officers), one level
per Automa, with or without The Leeghwater Project.

Modules, one job each:

- ``data``          the bundled map, Automa tiles and components, validated on load
- ``state``         the typed, JSON-serialisable game state and its validation
- ``water``         water flow down the rivers and through dams
- ``rules``         legal building spaces, costs, production systems, company abilities in play
- ``ops``           the primitive state changes a decision is made of
- ``turn``          the working context of one turn (state, ops, trace)
- ``placement``     the Structure Placing Procedure (``criteria``: its eighteen criteria)
- ``actions``       the Actions side's simple actions; ``production`` and ``construction`` their own
- ``payment``       how an Automa pays machinery (tiles, officers)
- ``techtiles``     which technology tile is used and its special effect (Hard and up)
- ``construct_steps`` the engineers and wheel of every construction
- ``leeghwater``    Private Buildings and External Works
- ``officers``      officers' starting changes and turn-wide rules (Sekibo, Battista, Grasso)
- ``drop_choice``, ``rewards``  where drops go; contract rewards and incomes
- ``engine``        the Automa turn: flip a tile, try its actions, return a Decision
- ``phases``, ``setup``, ``selfplay``, ``random_states``, ``game`` (the registry entry)
"""
