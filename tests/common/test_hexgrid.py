"""Hex geometry: the facts every hex game's rules lean on."""
import pytest

from automa.common import hexgrid as hx


def test_neighbours_are_clockwise_and_adjacent():
    ns = hx.neighbours((2, -1))
    assert len(set(ns)) == 6 and all(hx.distance((2, -1), n) == 1 for n in ns)
    # on a pointy board direction 0 is east and the next one clockwise is south-east (screen y down)
    x0, y0 = hx.to_pixel(hx.neighbour((0, 0), 0), 1)
    x1, y1 = hx.to_pixel(hx.neighbour((0, 0), 1), 1)
    assert y0 == pytest.approx(0) and x0 > 0 and y1 > 0 and x1 > 0
    assert hx.DIRECTION_NAMES["pointy"][:2] == ("E", "SE")
    # on a flat board direction 4 points straight up
    x4, y4 = hx.to_pixel(hx.neighbour((0, 0), 4), 1, "flat")
    assert x4 == pytest.approx(0) and y4 < 0 and hx.DIRECTION_NAMES["flat"][4] == "N"


def test_distance_rings_and_within():
    assert hx.distance((0, 0), (3, -1)) == 3
    assert hx.distance((1, 2), (1, 2)) == 0
    for k in range(4):
        ring = hx.ring((1, 1), k)
        assert len(ring) == max(1, 6 * k) and len(set(ring)) == len(ring)
        assert all(hx.distance((1, 1), h) == k for h in ring)
    assert len(hx.within((0, 0), 2)) == 19
    with pytest.raises(ValueError):
        hx.ring((0, 0), -1)


def test_turns_and_directions():
    assert hx.turn(5, 1) == 0 and hx.turn(0, -1) == 5 and hx.turn(2, 9) == 5
    assert hx.direction_to((0, 0), (0, 1)) == 1
    with pytest.raises(ValueError):
        hx.direction_to((0, 0), (2, 0))
    assert hx.turns_between(0, 1) == 1 and hx.turns_between(0, 5) == -1
    assert hx.turns_between(1, 4) == 3 and hx.turns_between(4, 2) == -2


def test_shortest_path_goes_around_blocked_hexes():
    board = set(hx.within((0, 0), 3))
    blocked = {(1, 0), (1, -1), (0, 1)}
    passable = lambda h: h in board and h not in blocked  # noqa: E731
    path = hx.shortest_path((0, 0), (2, 0), passable)
    assert path[0] == (0, 0) and path[-1] == (2, 0)
    assert all(hx.distance(a, b) == 1 for a, b in zip(path, path[1:]))
    assert not blocked & set(path)
    assert len(path) - 1 == 5, "the direct 2-step line is blocked: the way round is 5 steps"
    assert hx.bfs_distances((0, 0), passable)[(2, 0)] == 5
    walled = lambda h: h in board and hx.distance(h, (0, 0)) != 1  # noqa: E731
    assert hx.shortest_path((0, 0), (2, 0), walled) is None
    assert hx.bfs_distances((0, 0), walled) == {(0, 0): 0}


def test_reading_order_and_wrap_around():
    cells = [(0, 1), (1, 0), (0, 0), (-1, 1)]   # pointy: row 0 = (0,0),(1,0); row 1 = (-1,1),(0,1)
    order = hx.reading_order(cells)
    assert order == [(0, 0), (1, 0), (-1, 1), (0, 1)]
    assert hx.cyclic_from(order, (-1, 1)) == [(-1, 1), (0, 1), (0, 0), (1, 0)]
    assert hx.cyclic_from(order, (-1, 1), reverse=True) == [(-1, 1), (1, 0), (0, 0), (0, 1)]
    assert hx.cyclic_from(order, (0, 0), include_start=False) == [(1, 0), (-1, 1), (0, 1)]


@pytest.mark.parametrize("layout", ["odd-r", "even-r", "odd-q", "even-q"])
def test_offset_round_trip_and_adjacency(layout):
    for col in range(-3, 5):
        for row in range(-3, 5):
            h = hx.offset_to_axial(col, row, layout)
            assert hx.axial_to_offset(h, layout) == (col, row)
    # horizontally adjacent cells of a row-offset grid (or vertical ones of a column grid) touch
    a, b = ((0, 1), (1, 1)) if layout.endswith("r") else ((1, 0), (1, 1))
    assert hx.distance(hx.offset_to_axial(*a, layout), hx.offset_to_axial(*b, layout)) == 1


def test_corners_surround_the_centre():
    cs = hx.corners((2, 3), 10)
    cx, cy = hx.to_pixel((2, 3), 10)
    assert len(cs) == 6 and all(abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - 10) < 1e-9 for x, y in cs)


def test_distances_from_several_starts_with_hexes_that_only_end_a_path():
    cells = {(q, 0) for q in range(6)}
    passable = cells.__contains__
    d = hx.distances_from([(0, 0), (5, 0)], passable)
    assert d[(2, 0)] == 2 and d[(3, 0)] == 2 and d[(0, 0)] == 0
    # (2, 0) may be reached but not crossed: (3, 0) and beyond only from the other start
    d = hx.distances_from([(0, 0)], passable, ends=lambda h: h == (2, 0))
    assert d[(2, 0)] == 2 and (3, 0) not in d
    assert hx.distances_from([(2, 0)], passable, ends=lambda h: h == (2, 0))[(4, 0)] == 2   # a start is walked from
    assert hx.bfs_distances((0, 0), passable, limit=2) == {(0, 0): 0, (1, 0): 1, (2, 0): 2}
