"""Mechanisms shared by every game engine: seeded decks, traces, data loading."""
