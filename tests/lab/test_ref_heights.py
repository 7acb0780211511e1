"""The dam-height reader that also sees the empty board (``lab.training.train_ref_heights``):
before training it reads exactly as the shipped reader, whatever the empty board shows, and the
empty board's channels can learn. Needs the optional training extra (torch)."""
import numpy as np
import pytest

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

torch = pytest.importorskip("torch")

from lab.training.train_ref_heights import RefDamSet, batch, ref_net  # noqa: E402


def _frames(seed: int) -> RefDamSet:
    rng = np.random.default_rng(seed)
    n = 9
    return RefDamSet(rng.integers(0, 256, (n, 64, 64, 3), dtype=np.uint8), rng.integers(0, 256, (n, 64, 64, 3), dtype=np.uint8),
                     rng.uniform(0.05, 0.6, n).astype(np.float32), rng.integers(0, 3, n), np.array([0, 0, 2, 0, 1, 0, 0, 3, 0]),
                     [np.arange(0, 5), np.arange(5, 9)])


def test_before_training_the_empty_boards_channels_change_nothing():
    from lab.training.dam_net import from_file
    from vision.barrage.dam_heights import DEFAULT_HEIGHTS_MODEL

    data = _frames(0)
    x, roles, slots, _ = batch(data, data.frames)
    shipped, mine = from_file(DEFAULT_HEIGHTS_MODEL), ref_net()
    with torch.no_grad():
        want = shipped(x[:, :4], roles, slots)[0]
        got = mine(x, roles, slots)[0]
        other = x.clone()
        other[:, 4:] = 1 - other[:, 4:]          # another empty board
        got_other = mine(other, roles, slots)[0]
    torch.testing.assert_close(got, want)
    torch.testing.assert_close(got_other, want)


def test_a_loss_reaches_the_empty_boards_weights():
    data = _frames(1)
    x, roles, slots, y = batch(data, data.frames)
    net = ref_net()
    together, _ = net(x, roles, slots)
    torch.nn.functional.cross_entropy(together, y).backward()
    assert net.conv[0][0].ref.grad.abs().sum() > 0
