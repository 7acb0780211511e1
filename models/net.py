"""The slot classifier: a small CNN with four heads, sized for 87 crops in ~22 ms on 2 cores."""
from __future__ import annotations

import torch
from torch import nn

from vision.labels import MAX_DROPS, OWNERS, PIECES
from vision.model import CHANNELS


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
    ``vision.model.to_input``) -> piece, owner, drops logits and an occluded logit.

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
    """(N, 3, h, w) floats in 0..1 (a box at about its view size: ``vision.drop_counter``) ->
    drop-count logits 0..MAX_DROPS. The slot net's trunk and pooling (the mean over positions
    counts, whatever the crop's size), one head."""

    def __init__(self, widths: tuple[int, ...] = (24, 48, 96, 128), hidden: int = 128):
        super().__init__()
        self.conv = trunk(3, widths)
        self.head = nn.Sequential(nn.Linear(2 * widths[-1], hidden), nn.ReLU(inplace=True),
                                  nn.Linear(hidden, MAX_DROPS + 1))

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return self.head(pooled(crops, self.conv))
