"""Hard examples seen again (``automa-vision train --hard-share``, ``train-heights --hard-share``,
``train-drops --hard-share``): each crop's, frame's or box's own loss, and the worst read once
more in an epoch. Needs the optional training extra (torch)."""
import pytest

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

torch = pytest.importorskip("torch")

from lab.training.dataset import IGNORE  # noqa: E402
from lab.training.hard_examples import with_hard  # noqa: E402
from lab.training.train import losses  # noqa: E402
from vision.barrage.labels import KINDS, piece_mask  # noqa: E402


def _outputs_and_labels(n: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    outputs = (torch.randn(n, 6, generator=g), torch.randn(n, 7, generator=g), torch.randn(n, 8, generator=g),
               torch.randn(n, 1, generator=g))
    kind = torch.full((n,), KINDS.index("dam"))
    can_hold = torch.from_numpy((piece_mask("dam") == 0).nonzero()[0])       # empty and the dam's heights
    piece = can_hold[torch.randint(len(can_hold), (n,), generator=g)]
    owner, drops = torch.randint(7, (n,), generator=g), torch.randint(8, (n,), generator=g)
    occluded = torch.randint(2, (n,), generator=g)
    return outputs, [kind, piece, owner, drops, occluded]


def test_each_crops_loss_adds_up_to_the_training_loss_where_every_head_reads_every_crop():
    outputs, labels = _outputs_and_labels(32, 0)
    per_crop = losses(outputs, *labels, per_crop=True)
    assert per_crop.shape == (32,) and (per_crop > 0).all()
    torch.testing.assert_close(per_crop.mean(), losses(outputs, *labels))


def test_a_head_that_does_not_read_a_crop_adds_nothing_to_its_loss():
    outputs, labels = _outputs_and_labels(8, 1)
    kind, piece, owner, drops, occluded = labels
    unread = owner.clone()
    unread[3] = IGNORE
    full = losses(outputs, kind, piece, owner, drops, occluded, per_crop=True)
    less = losses(outputs, kind, piece, unread, drops, occluded, per_crop=True)
    owner_loss = torch.nn.functional.cross_entropy(outputs[1][3:4], owner[3:4])
    torch.testing.assert_close(less[3], full[3] - owner_loss)
    torch.testing.assert_close(torch.cat([less[:3], less[4:]]), torch.cat([full[:3], full[4:]]))
    # a head no crop of the batch reads is left out, not a NaN
    none_read = torch.full_like(drops, IGNORE)
    assert torch.isfinite(losses(outputs, kind, piece, owner, none_read, occluded, per_crop=True)).all()
    assert torch.isfinite(losses(outputs, kind, piece, owner, none_read, occluded))


def test_the_crops_read_worst_are_seen_once_more_in_a_shuffled_epoch():
    order = torch.tensor([0, 2, 4, 6, 8, 1])
    crop_loss = torch.tensor([0.1, 5.0, 0.2, 0.3, 9.0, 0.0, 0.4, 0.05, 2.0, 0.01])
    g = torch.Generator().manual_seed(3)
    epoch = with_hard(order, crop_loss, 3, g)
    assert sorted(epoch.tolist()) == sorted([0, 2, 4, 6, 8, 1] + [4, 1, 8]), "crops 4, 1, 8 lose the most"
    assert epoch.tolist() != sorted(epoch.tolist()) and epoch[-3:].tolist() != [4, 1, 8], "shuffled in"
    # a crop left out of the epoch's draw (a plain empty space) is added if it is hard
    assert 5 in with_hard(order[:-1], torch.tensor([0.0] * 5 + [7.0] + [0.0] * 4), 1, g).tolist()
    # more asked for than there are crops: each crop once more
    assert sorted(with_hard(order, crop_loss, 50, g).tolist()) == sorted(order.tolist() + list(range(10)))


def test_a_frames_loss_is_the_sum_over_its_company_dams_read_with_the_frame():
    """The dam-height reader's hard examples are frames: what each frame's company dams cost,
    each read beside the others of its frame; a neutral dam's known height costs nothing."""
    import numpy as np

    from lab.training.dam_net import DamSetNet
    from lab.training.train_heights import DamSet, batch, frame_losses
    torch.manual_seed(7)
    net = DamSetNet(widths=(4, 8, 8, 8), width=16, layers=1).eval()
    rng = np.random.default_rng(7)
    n = 7
    data = DamSet(crops=rng.integers(0, 256, (n, 64, 64, 3), dtype=np.uint8), leans=rng.random(n).astype(np.float32),
                  heights=rng.integers(0, 3, n), roles=np.array([0, 2, 0, 0, 1, 0, 0]),
                  frames=[np.arange(0, 3), np.arange(3, 5), np.arange(5, 7)])
    loss = frame_losses(net, data)
    assert loss.shape == (3,)
    for i, frame in enumerate(data.frames):
        x, roles, slots, y = batch(data, [frame])
        with torch.no_grad():
            together = net(x, roles, slots)[0]
        company = roles == 0
        expected = torch.nn.functional.cross_entropy(together[company], y[company], reduction="sum")
        torch.testing.assert_close(loss[i], expected, rtol=1e-4, atol=1e-5)


def test_a_counters_box_losses_are_each_boxs_cross_entropy_as_read_at_run_time():
    """The drop counters' hard examples are their boxes, each read unaugmented, as the pipeline
    reads it."""
    import numpy as np

    from lab.training.net import DropNet
    from lab.training.train_drops import DropSet, box_losses, logits
    torch.manual_seed(5)
    net = DropNet(widths=(4, 8, 8, 8), hidden=16, counts=5).eval()
    rng = np.random.default_rng(5)
    data = DropSet(crops=rng.integers(0, 256, (9, 32, 48, 3), dtype=np.uint8), drops=rng.integers(0, 5, 9))
    y = torch.from_numpy(data.drops)
    per_box = box_losses(net, data, batch=4)          # in batches smaller than the set: the same losses
    expected = torch.nn.functional.cross_entropy(torch.from_numpy(logits(net, data)), y, reduction="none")
    assert per_box.shape == (9,) and (per_box > 0).all()
    torch.testing.assert_close(per_box, expected)
    # the box read worst is the one whose true count the counter gives least
    worst = int(per_box.argmax())
    probs = torch.softmax(torch.from_numpy(logits(net, data)), 1)[torch.arange(9), y]
    assert worst == int(probs.argmin())
