"""The net's input: each crop beside the median crop of its kind in the same frame."""
import numpy as np

from vision.barrage.slot_model import CHANNELS, kind_context, to_input


def flat(colour, n):
    return np.broadcast_to(np.array(colour, np.uint8), (n, 6, 6, 3)).copy()


def test_a_piece_does_not_move_its_kinds_context():
    """Five empty dam spaces and one red dam: every dam, the red one too, is read against
    the empty space; the conduit slots, printed blue, have a context of their own."""
    dams = flat((90, 90, 90), 6)
    dams[2] = (30, 30, 200)
    conduits = flat((200, 60, 20), 3)
    kinds = ["dam"] * 6 + ["conduit"] * 3
    ctx = kind_context(np.concatenate([dams, conduits]), kinds)
    assert (ctx[:6] == (90, 90, 90)).all(), "the built dam is the outlier, not the context"
    assert (ctx[6:] == (200, 60, 20)).all(), "kinds are not mixed"


def test_context_follows_the_frame_light():
    """The same board under dimmer light: the context dims with it, so the difference
    between a crop and its context (the piece) is what stays."""
    rng = np.random.default_rng(1)
    crops = rng.integers(60, 200, (8, 6, 6, 3), dtype=np.uint8)
    kinds = ["powerhouse"] * 8
    dim = (crops * 0.5).astype(np.uint8)
    assert np.abs(kind_context(dim, kinds).astype(int) - (kind_context(crops, kinds) * 0.5).astype(int)).max() <= 1


def test_input_stacks_crop_then_context_in_zero_to_one():
    crops, ctx = flat((255, 0, 51), 2), flat((0, 102, 255), 2)
    x = to_input(crops, ctx)
    assert x.shape == (2, CHANNELS, 6, 6) and x.dtype == np.float32
    assert np.allclose(x[:, :, 0, 0], [1.0, 0.0, 0.2, 0.0, 0.4, 1.0])


def test_context_is_the_median_pixel_by_pixel():
    """Odd and even counts: the middle value, or the mean of the two middle values rounded down."""
    rng = np.random.default_rng(2)
    crops = rng.integers(0, 256, (9, 5, 5, 3), dtype=np.uint8)
    kinds = ["lake"] * 5 + ["headstream"] * 4
    ctx = kind_context(crops, kinds)
    assert (ctx[:5] == np.median(crops[:5], axis=0).astype(np.uint8)).all()
    assert (ctx[5:] == np.floor(np.median(crops[5:].astype(float), axis=0)).astype(np.uint8)).all()
