from automa.common.deck import Deck, seeded_order


def test_same_seed_same_order_and_different_seed_differs():
    assert seeded_order(list(range(1, 21)), 7, 0) == seeded_order(list(range(1, 21)), 7, 0)
    assert seeded_order(list(range(1, 21)), 7, 0) != seeded_order(list(range(1, 21)), 8, 0)


def test_flip_moves_top_to_discard():
    d = Deck(draw_pile=[3, 1, 2], discard=[], seed=1)
    d2 = d.flip()
    assert d2.draw_pile == [1, 2] and d2.discard == [3]
    assert d.draw_pile == [3, 1, 2], "flip returns a new deck and leaves the old one alone"


def test_reshuffle_keeps_the_visible_tile_and_conserves_cards():
    d = Deck.new(list(range(1, 21)), seed=3)
    seen = []
    for _ in range(20):
        seen.append(d.draw_pile[0])
        d = d.flip()
    assert sorted(seen) == list(range(1, 21)), "every tile is drawn once before a reshuffle"
    assert d.discard == [seen[-1]], "the tile just flipped stays face up (its criteria side is read)"
    assert len(d.draw_pile) == 19 and d.shuffles == 1
    assert d.cards() == list(range(1, 21))


def test_reshuffle_is_replayable():
    a = Deck.new(list(range(1, 21)), seed=11)
    b = Deck.new(list(range(1, 21)), seed=11)
    for _ in range(45):
        a, b = a.flip(), b.flip()
    assert a == b
