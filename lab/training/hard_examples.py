"""Hard examples seen again: a fine-tune's epoch also draws what the net still reads worst.

A uniform draw mostly shows a trained net what it already reads right; the few things it
reads wrong (white pieces on pale printed spaces, glints taken for colours, raised dams in
long shadows) are the ones it has left to learn. Shared by the slot model's training (its
crops) and the dam-height reader's (its frames).
"""
from __future__ import annotations

import torch


def with_hard(order: torch.Tensor, loss: torch.Tensor, n: int, g: torch.Generator) -> torch.Tensor:
    """An epoch's ``order`` (indices of examples) and the ``n`` examples of highest ``loss``
    once more, shuffled together."""
    hard = loss.topk(min(n, len(loss))).indices.cpu()
    order = torch.cat([order, hard])
    return order[torch.randperm(len(order), generator=g)]
