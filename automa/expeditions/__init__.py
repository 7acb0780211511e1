"""Expeditions (Stonemaier Games): the solo Automa with its North and Central mechs (seed 003).

``setup.new_game`` lays out a game, ``turn.decide`` takes the Automa's five-step turn with a
trace, ``ops.apply_ops`` replays what happened, ``scoring`` counts coins at the end; the data
(decision cards, progress cards, map layout) lives in ``data/``.
"""
