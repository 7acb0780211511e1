"""Temperature scaling (models/temperature.py): the fitted T undoes a net's overconfidence."""
import numpy as np

from models.temperature import fit_temperature, nll


def _sampled(rng, n=4000, k=3):
    """Logits whose softmax is the true chance of each label, and labels drawn from it."""
    z = rng.normal(0, 1.5, (n, k))
    p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    labels = np.array([rng.choice(k, p=row) for row in p])
    return z, labels


def test_the_fitted_temperature_undoes_a_scaling_of_honest_logits():
    rng = np.random.default_rng(0)
    z, labels = _sampled(rng)
    for scale in (0.5, 1.0, 3.0):
        assert abs(fit_temperature(z * scale, labels) / scale - 1.0) < 0.15


def test_scaling_keeps_every_argmax_and_lowers_the_loss_of_an_overconfident_net():
    rng = np.random.default_rng(1)
    z, labels = _sampled(rng)
    loud = z * 4
    t = fit_temperature(loud, labels)
    assert t > 2
    assert (np.argmax(loud / t, 1) == np.argmax(loud, 1)).all()
    assert nll(loud, labels, t) < nll(loud, labels) - 0.2


def test_nothing_to_fit_gives_one():
    assert fit_temperature(np.zeros((0, 3)), np.zeros(0, np.int64)) == 1.0
