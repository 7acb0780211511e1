"""Barrage's board reader: what stands on Barrage's board and how each box is read.

In the order a frame's crops go through them: ``layout.json`` (the boxes: headstreams,
dams, conduits, powerhouses and the lakes' drops), ``labels`` (what a box can hold:
pieces, owners, drops), ``slot_model`` (the slot net's heads, decoded with
``neutral_dams`` and ``held_water``), the second opinions on some boxes (``specialist``,
``dam_heights`` with ``height_cues``, ``drop_counter``), ``confidence`` (each reading's
chance of being right), ``board_state`` (the readings as the engine's map, with rule
checks) and ``changes`` (the moves between two states); ``pipeline`` runs them on a frame
after the shared stages of ``vision``, ``annotate`` draws a reading, ``cli`` is
``automa-vision read``, ``reference_map`` the map the page draws. ``reader`` registers it.
"""
