"""The dam-height reader: a frame's dams read together.

One crop cannot tell a tall base from a short raised dam: piece sizes differ from one
printing to the next, and from above an elevation shows only as a taller lean. All dams
of a frame share one printing, though, and the neutral dams' heights are known (rulings
V1). So each dam's crop (``vision.barrage.dam_heights``: lean-aligned, its lean ratio as a 4th
channel) becomes a token, a neutral dam's token carries its known height, and two
self-attention layers let every dam compare itself with the others before its height is
read.
"""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from vision.barrage.dam_heights import CHANNELS, HEIGHTS, ROLES

from .net import pooled, trunk
from .onnx_weights import initializers, load_weights

DEFAULT_WIDTHS = (24, 48, 96, 128)     # the conv trunk's channels, block by block: the shipped reader's
DEFAULT_LAYERS = 2                     # its attention layers


class DamSetNet(nn.Module):
    """(n, 4, 64, 64) crops in 0..1, (n,) roles, (frames, L) token slots (-1 = padding)
    -> (n, 3) height logits read with the frame, and (n, 3) read alone (an auxiliary
    loss that keeps each token about its own crop)."""

    def __init__(self, widths: tuple[int, ...] = DEFAULT_WIDTHS, width: int = 128, layers: int = DEFAULT_LAYERS):
        super().__init__()
        self.conv = trunk(CHANNELS, widths)
        self.embed = nn.Linear(2 * widths[-1], width)
        self.role = nn.Embedding(len(ROLES), width)
        layer = nn.TransformerEncoderLayer(width, 4, 2 * width, dropout=0.0, batch_first=True)
        self.mix = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.alone = nn.Linear(width, len(HEIGHTS))
        self.head = nn.Linear(width, len(HEIGHTS))

    def features(self, crops: torch.Tensor) -> torch.Tensor:
        """(n, width): each dam's own features, before it meets the others."""
        return torch.relu(self.embed(pooled(crops, self.conv)))

    def forward(self, crops: torch.Tensor, roles: torch.Tensor, slots: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(crops)
        pad = slots < 0
        mixed = self.mix((f + self.role(roles))[slots.clamp(min=0)], src_key_padding_mask=pad)
        together = torch.zeros_like(f)
        together[slots[~pad]] = mixed[~pad]
        return self.head(together + f), self.alone(f)


class OneFrame(nn.Module):
    """The exported graph: one frame's dams, all tokens of one set, no padding (the
    temperature fitted on validation images is written into the file after export,
    ``lab.training.temperature.scale_outputs``)."""

    def __init__(self, net: DamSetNet):
        super().__init__()
        self.net = net

    def forward(self, dams: torch.Tensor, roles: torch.Tensor) -> torch.Tensor:
        f = self.net.features(dams)
        mixed = self.net.mix((f + self.net.role(roles))[None])[0]
        return self.net.head(mixed + f)


def file_shape(path: Path) -> dict[str, object]:
    """A reader's ONNX file's ``DamSetNet`` arguments (``train-heights --widths --layers``):
    the conv trunk's channels, block by block (each block's convolution weight is (out, in,
    3, 3)), and its attention layers. A file without them is not a reader; ``load_weights``
    then says which weight it lacks."""
    weights = initializers(Path(path))
    widths: list[int] = []
    while (w := weights.get(f"net.conv.{len(widths)}.0.weight")) is not None:
        widths.append(int(w.shape[0]))
    layers = 0
    while f"net.mix.layers.{layers}.self_attn.out_proj.weight" in weights:
        layers += 1
    return {"widths": tuple(widths) or DEFAULT_WIDTHS, "layers": layers or DEFAULT_LAYERS}


def from_file(path: Path) -> DamSetNet:
    """The reader's weights read back from its ONNX file (a fine-tune's start,
    ``lab.training.onnx_weights``), the net built to the file's shape. The head that reads each
    dam alone is used only by the training loss, so it is not in the file: it starts fresh."""
    return load_weights(OneFrame(DamSetNet(**file_shape(path))), path, fresh=("net.alone.",)).net
