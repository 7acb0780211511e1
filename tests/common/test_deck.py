from automa.common.deck import Deck, rows_from, seeded_order


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


def test_draw_does_not_reshuffle_and_refuses_an_empty_pile():
    d = Deck(draw_pile=[4], discard=[], seed=2)
    card, d2 = d.draw()
    assert card == 4 and d2.draw_pile == [] and d2.discard == [4]
    try:
        d2.draw()
    except ValueError as exc:
        assert "empty" in str(exc)
    else:
        raise AssertionError("drawing from an empty pile must fail")


def test_set_aside_cards_are_unseen_and_come_back_at_the_next_shuffle():
    d = Deck.new(list(range(1, 15)), seed=5, set_aside=2)
    assert len(d.set_aside) == 2 and len(d.draw_pile) == 12
    assert not set(d.set_aside) & set(d.draw_pile)
    assert d.cards() == list(range(1, 15))
    while d.draw_pile:
        _, d = d.draw()
    d2 = d.rebuilt(set_aside=2)
    assert d2.shuffles == 1 and d2.discard == [] and len(d2.draw_pile) == 12
    assert d2.cards() == list(range(1, 15)), "the cards set aside return to the new pile"
    assert Deck.from_dict(d2.to_dict()) == d2


def test_sideways_cards_are_the_bottom_of_a_new_pile_and_extra_cards_join_it():
    d = Deck.new([1, 2, 3, 4, 5, 6], seed=9, sideways=2)
    assert d.sideways == d.draw_pile[-2:] and all(d.is_sideways(c) for c in d.draw_pile[-2:])
    d2 = d.rebuilt([7], sideways=2)
    assert d2.cards() == [1, 2, 3, 4, 5, 6, 7] and d2.sideways == d2.draw_pile[-2:]
    assert Deck.from_dict(d2.to_dict()) == d2


def test_rows_fall_through_downwards():
    assert rows_from(1, 4) == [1, 2, 3]
    assert rows_from(3, 4) == [3]
    assert rows_from(2, 4, wrap=True) == [2, 3, 0, 1]
    assert rows_from(0, 4, wrap=True) == [0, 1, 2, 3]
    try:
        rows_from(4, 4)
    except ValueError:
        pass
    else:
        raise AssertionError("a row outside the card is an error")
