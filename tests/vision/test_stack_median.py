"""The sorting-network median gives np.median's values (floored) for every stack size."""
import numpy as np
import pytest

from vision.stack_median import median_network, stack_median


@pytest.mark.parametrize("n", range(1, 41))
def test_equals_numpy_median_floored(n):
    rng = np.random.default_rng(n)
    stack = rng.integers(0, 256, (n, 7, 5, 3), dtype=np.uint8)
    expected = np.floor(np.median(stack.astype(float), axis=0)).astype(np.uint8)
    assert np.array_equal(stack_median(stack), expected)


def test_ties_and_extremes():
    """Repeated values and the ends of the range: no wrap-around when two middles are summed."""
    stack = np.array([[255, 0, 7], [255, 0, 7], [255, 255, 7], [254, 0, 9]], np.uint8)
    assert stack_median(stack).tolist() == [255, 0, 7]


def test_input_is_left_as_it_was():
    stack = np.array([[3], [1], [2]], np.uint8)
    stack_median(stack)
    assert stack.ravel().tolist() == [3, 1, 2]


def test_only_the_steps_the_middle_needs_are_kept():
    """A full Batcher network for 32 values has 191 steps; the middle of 20 needs fewer than 100."""
    assert len(median_network(20)) < 100
    assert all(low < high < 20 for low, high in median_network(20))


def test_no_images_is_an_error():
    with pytest.raises(ValueError):
        stack_median(np.empty((0, 4), np.uint8))
