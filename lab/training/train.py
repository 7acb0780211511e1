"""Train the slot classifier on crop sets and export it to ONNX.

Augmentation stands for what the synthetic images do not vary enough: camera
exposure and contrast, slight colour casts (kept small so red/orange and
black/grey stay apart), saturation, sensor noise and focus blur.
"""
from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import torch
import torch.nn.functional as F

from vision.barrage.labels import KINDS, PIECES, piece_mask
from vision.barrage.slot_model import CHANNELS, OUTPUTS
from vision.barrage.specialist import KINDS_KEY

from .dataset import IGNORE, CropSet
from .hard_examples import with_hard
from .net import SlotNet
from .onnx_weights import HALF, freeze_norms, load_weights


@dataclass(frozen=True)
class Settings:
    epochs: int = 24
    batch: int = 256
    lr: float = 3e-3
    weight_decay: float = 1e-4
    seed: int = 0
    threads: int = 2
    empty_share: float = 0.35   # share of plain empty structure slots seen per epoch
    device: str = "cpu"         # "cuda" trains on a GPU: the crops then live in its memory
    init: str | None = None     # a slot model file to start from (a fine-tune), else random weights
    hard_share: float = 0.0     # epoch crops added again from those the model reads worst (``lab.training.hard_examples``)


def epoch_indices(data: CropSet, share: float, g: torch.Generator) -> torch.Tensor:
    """Every informative crop, and a fresh random ``share`` of the plain empty structure
    slots (half of all crops, and the easiest): the epoch costs less and learns the same."""
    plain = torch.from_numpy((data.piece == PIECES.index("empty")) & (data.occluded == 0))
    empties, others = plain.nonzero().squeeze(1), (~plain).nonzero().squeeze(1)
    chosen = empties[torch.randperm(len(empties), generator=g)[:round(share * len(empties))]]
    idx = torch.cat([others, chosen])
    return idx[torch.randperm(len(idx), generator=g)]


def augment(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """x: (N, 3, h, w) in 0..1 (BGR)."""
    n = x.shape[0]

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(n, *shape, generator=g, device=x.device)

    grey = x.mean(dim=1, keepdim=True)
    x = grey + (x - grey) * u(0.7, 1.3, 1, 1, 1)                    # saturation
    x = x * u(0.93, 1.07, 3, 1, 1)                                   # colour cast
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = mean + (x - mean) * u(0.7, 1.3, 1, 1, 1) + u(-0.12, 0.12, 1, 1, 1)   # contrast, exposure
    blur = torch.rand(n, generator=g, device=x.device) < 0.3
    if blur.any():
        k = torch.tensor([1.0, 2.0, 1.0], device=x.device)
        k = (k[:, None] * k[None, :] / 16.0).expand(3, 1, 3, 3)
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k, groups=3)
    x = x + torch.randn(x.shape, generator=g, device=x.device) * u(0.0, 0.03, 1, 1, 1)  # sensor noise
    flip = torch.rand(n, generator=g, device=x.device) < 0.5
    x[flip] = x[flip].flip(-1)
    return x.clamp(0.0, 1.0)


def net_input(crops: torch.Tensor, context: torch.Tensor, g: torch.Generator | None = None) -> torch.Tensor:
    """uint8 (n, h, w, 3) crops and their kind contexts -> (n, 6, h, w) floats in 0..1,
    augmented when ``g`` is given. Crop and context are augmented as one picture, one
    above the other: they come from one frame, so the changes that stand for the camera
    hit both alike, and a horizontal flip mirrors each in place."""
    h = crops.shape[1]
    x = torch.cat([crops, context], dim=1).permute(0, 3, 1, 2).float().div_(255.0)
    if g is not None:
        x = augment(x, g)
    return torch.cat([x[:, :, :h], x[:, :, h:]], dim=1)


@functools.cache
def piece_masks(device: torch.device) -> torch.Tensor:
    """Per slot kind, 0 for the piece classes it can hold and -1e9 for the others; one copy
    per device, made once (the loss adds it at every step)."""
    return torch.from_numpy(np.stack([piece_mask(k) for k in KINDS])).to(device)


def losses(outputs: tuple[torch.Tensor, ...], kind: torch.Tensor, piece: torch.Tensor, owner: torch.Tensor,
           drops: torch.Tensor, occluded: torch.Tensor, per_crop: bool = False) -> torch.Tensor:
    """The training loss: each head's mean over the crops where it is read, summed; with
    ``per_crop``, each crop's own sum of its heads' losses instead."""
    piece_logits, owner_logits, drops_logits, occ_logits = outputs
    reduction = "none" if per_crop else "mean"
    total = F.binary_cross_entropy_with_logits(occ_logits.squeeze(1), occluded.float(), reduction=reduction)
    for logits, target in ((piece_logits + piece_masks(kind.device)[kind], piece), (owner_logits, owner), (drops_logits, drops)):
        if (target != IGNORE).any():   # a crop a head does not read adds 0 to its own sum
            total = total + F.cross_entropy(logits, target, ignore_index=IGNORE, reduction=reduction)
    return total


@torch.no_grad()
def crop_losses(model: SlotNet, x_all: torch.Tensor, context: torch.Tensor, labels: list[torch.Tensor],
                batch: int = 1024) -> torch.Tensor:
    """Each training crop's loss under ``model`` as it reads at run time (no augmentation)."""
    model.eval()
    out = [losses(model(net_input(x_all[i:i + batch], context[i:i + batch])), *(a[i:i + batch] for a in labels),
                  per_crop=True) for i in range(0, len(x_all), batch)]
    return torch.cat(out)


@torch.no_grad()
def evaluate(model: SlotNet, data: CropSet, batch: int = 1024) -> dict[str, float]:
    """Per-head error rates on the crops where the head is read."""
    model.eval()
    device = next(model.parameters()).device
    wrong = {h: 0 for h in OUTPUTS}
    count = {h: 0 for h in OUTPUTS}
    for i in range(0, len(data.crops), batch):
        sl = slice(i, i + batch)
        crops, context = (torch.from_numpy(a[sl]).to(device) for a in (data.crops, data.context))
        p, o, d, occ = (out.cpu() for out in model(net_input(crops, context)))
        kind = torch.from_numpy(data.kind[sl])
        preds = {"piece": (p + piece_masks(kind.device)[kind]).argmax(1), "owner": o.argmax(1), "drops": d.argmax(1),
                 "occluded": (occ.squeeze(1) > 0).long()}
        for head, target in (("piece", data.piece), ("owner", data.owner), ("drops", data.drops),
                             ("occluded", data.occluded)):
            t = torch.from_numpy(target[sl])
            seen = t != IGNORE
            wrong[head] += int((preds[head][seen] != t[seen]).sum())
            count[head] += int(seen.sum())
    return {h: wrong[h] / max(count[h], 1) for h in OUTPUTS}


def train(train_set: CropSet, val_set: CropSet, settings: Settings, log=print) -> tuple[SlotNet, dict]:
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    device = torch.device(settings.device)
    g = torch.Generator().manual_seed(settings.seed)                       # batch order
    g_aug = torch.Generator(device).manual_seed(settings.seed)             # augmentation, where the crops are
    model = (SlotNet() if settings.init is None else load_weights(SlotNet(), Path(settings.init))).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=settings.weight_decay)
    per_epoch = len(epoch_indices(train_set, settings.empty_share, torch.Generator()))
    n_hard = round(settings.hard_share * per_epoch)
    per_epoch += n_hard
    steps = settings.epochs * ((per_epoch + settings.batch - 1) // settings.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, settings.lr, total_steps=steps)
    x_all, context = torch.from_numpy(train_set.crops).to(device), torch.from_numpy(train_set.context).to(device)
    labels = [torch.from_numpy(a).to(device) for a in (train_set.kind, train_set.piece, train_set.owner,
                                                       train_set.drops, train_set.occluded)]
    history = []
    for epoch in range(settings.epochs):
        t0, total = time.time(), torch.zeros((), device=device)
        order = epoch_indices(train_set, settings.empty_share, g)
        if n_hard:        # measured before each epoch: what is hard changes as the model learns
            order = with_hard(order, crop_losses(model, x_all, context, labels), n_hard, g)
        model.train()
        if settings.init is not None:
            freeze_norms(model)
        for i in range(0, len(order), settings.batch):
            idx = order[i:i + settings.batch].to(device)
            x = net_input(x_all[idx], context[idx], g_aug)
            loss = losses(model(x), *(a[idx] for a in labels))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.detach() * len(idx)     # no .item() per step: it would wait for the GPU
        errors = evaluate(model, val_set)
        history.append({"epoch": epoch + 1, "loss": total.item() / len(order), "val_error": errors,
                        "seconds": round(time.time() - t0, 1)})
        log(json.dumps(history[-1]))
    return model, {"history": history, "val_error": history[-1]["val_error"]}


def export(model: SlotNet, path: Path, crop: int, kinds: Sequence[str] | None = None) -> None:
    """``kinds``: the box kinds a specialist was trained on, written into the file's metadata
    (``vision.barrage.specialist`` reads them); None for the slot model, which reads every kind. Either
    file stores its weights as float16 (``store_half``)."""
    model = model.cpu().eval()
    dummy = torch.zeros(4, CHANNELS, crop, crop)
    torch.onnx.export(model, (dummy,), str(path), input_names=["crops"], output_names=list(OUTPUTS),
                      dynamic_shapes=({0: "N"},), dynamo=True, external_data=False)
    store_half(path, {} if kinds is None else {KINDS_KEY: ",".join(kinds)})


def store_half(path: Path, metadata: dict[str, str] | None = None) -> None:
    """Store the weights of the ONNX file at ``path`` as float16, cast back to float32 when
    the session loads them, and add ``metadata`` to its metadata: the file is half the size
    (the model files stay under 5 MB together) and computes within float16's rounding of
    the float32 weights. The slot model's run-time file is quantized from it (``lab.training.quantize``)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    proto = onnx.load(str(path))
    graph = proto.graph
    casts = []
    for weights in list(graph.initializer):
        value = numpy_helper.to_array(weights)
        if value.dtype == np.float32 and value.size >= 64:     # small vectors are not worth a node
            graph.initializer.remove(weights)
            graph.initializer.append(numpy_helper.from_array(value.astype(np.float16), weights.name + HALF))
            casts.append(helper.make_node("Cast", [weights.name + HALF], [weights.name], to=TensorProto.FLOAT))
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    proto.metadata_props.extend(onnx.StringStringEntryProto(key=k, value=v) for k, v in (metadata or {}).items())
    onnx.checker.check_model(proto)
    onnx.save(proto, str(path))
