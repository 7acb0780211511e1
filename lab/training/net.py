"""The slot classifier: a small CNN with four heads, sized for 87 crops in ~22 ms on 2 cores."""
from __future__ import annotations

import torch
from torch import nn

from vision.barrage.labels import MAX_DROPS, OWNERS, PIECES
from vision.barrage.slot_model import CHANNELS


def _block(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True), nn.MaxPool2d(2))


def trunk(channels: int, widths: tuple[int, ...]) -> nn.Sequential:
    """Conv blocks, each halving the crop: the slot net's and the dam-height reader's."""
    return nn.Sequential(*[_block(cin, cout) for cin, cout in zip((channels,) + widths[:-1], widths)])


def pooled(crops: torch.Tensor, conv: nn.Sequential) -> torch.Tensor:
    """(N, 2 * last width): the trunk's features, mean and max over positions. Where a piece
    stands in its crop varies (sloppy placement, camera lean), what it is does not; the
    mean also counts drops."""
    m = conv(crops - 0.5)
    return torch.cat([m.mean(dim=(2, 3)), m.amax(dim=(2, 3))], dim=1)


class SlotNet(nn.Module):
    """(N, 6, 48, 48) floats in 0..1 (each crop's BGR, then its kind context's:
    ``vision.barrage.slot_model.to_input``) -> piece, owner, drops logits and an occluded logit.

    Four conv blocks halve 48 -> 3, then the features are pooled over positions.
    """

    def __init__(self, widths: tuple[int, ...] = (24, 48, 96, 128), hidden: int = 128):
        super().__init__()
        self.conv = trunk(CHANNELS, widths)
        self.head = nn.Sequential(nn.Linear(2 * widths[-1], hidden), nn.ReLU(inplace=True))
        self.piece = nn.Linear(hidden, len(PIECES))
        self.owner = nn.Linear(hidden, len(OWNERS))
        self.drops = nn.Linear(hidden, MAX_DROPS + 1)
        self.occluded = nn.Linear(hidden, 1)

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, ...]:
        f = self.head(pooled(crops, self.conv))
        return self.piece(f), self.owner(f), self.drops(f), self.occluded(f)


class DropNet(nn.Module):
    """(N, 3, h, w) floats in 0..1 (a box at about its view size: ``vision.barrage.drop_counter``) ->
    drop-count logits 0..counts-1, the last "that many or more". The slot net's trunk and
    pooling (the mean over positions counts, whatever the crop's size), one head.

    ``tail``: a second layer on the head's hidden features that splits the head's last count
    into ``tail`` counts from it on (the last of them again "that many or more"). The net then
    gives log-probabilities of 0..counts+tail-2 drops: the head's for the counts before its
    last, and the head's last times the tail's share for the others. A tail can be trained
    alone on a trained counter (its other weights frozen): the counts the counter read below
    its last stay read as it did."""

    def __init__(self, widths: tuple[int, ...] = (24, 48, 96, 128), hidden: int = 128,
                 counts: int = MAX_DROPS + 1, tail: int = 0):
        super().__init__()
        self.conv = trunk(3, widths)
        self.head = nn.Sequential(nn.Linear(2 * widths[-1], hidden), nn.ReLU(inplace=True),
                                  nn.Linear(hidden, counts))
        self.tail = nn.Linear(hidden, tail) if tail else None

    @property
    def counts(self) -> int:
        """How many counts the net tells apart, 0..counts-1."""
        return self.head[-1].out_features + (self.tail.out_features - 1 if self.tail is not None else 0)

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        features = self.head[:-1](pooled(crops, self.conv))
        scores = self.head[-1](features)
        if self.tail is None:
            return scores
        head = torch.log_softmax(scores, dim=1)
        return torch.cat([head[:, :-1], head[:, -1:] + torch.log_softmax(self.tail(features), dim=1)], dim=1)


def with_tail(net: DropNet, counts: int) -> DropNet:
    """``net`` reading 0..counts-1 drops (at least as many as it reads): a tail that splits its
    last count evenly, until trained, where it has none, so it reads as before (its last count
    winning the ties) in log-probabilities. A net that reads ``counts`` already is kept."""
    if net.counts > counts:
        raise ValueError(f"the counter reads {net.counts} counts, more than {counts}")
    if net.counts < counts:
        if net.tail is not None:
            raise ValueError(f"the counter's tail reads {net.counts} counts, not {counts}")
        last = net.head[-1]
        net.tail = nn.Linear(last.in_features, counts - last.out_features + 1).to(last.weight.device)
        nn.init.zeros_(net.tail.weight)
        nn.init.zeros_(net.tail.bias)
    return net
