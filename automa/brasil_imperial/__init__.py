"""Brasil Imperial (MeepleBR): the Autômato's action and movement decks, its compass on the hex
map and every rule of its turn (seed 001)."""
