"""Train a drop counter (``lab.training.net.DropNet``) for one kind of box, headstreams or lakes, on
synthetic images; export ONNX.

Each training image gives its visible boxes of the kind, cut as the pipeline cuts them
(``vision.barrage.drop_counter``) from the view the true homography makes, each box moved by up to
``JITTER`` view px (registration error); validation crops are cut where the box is.
"""
from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from lab.evaluate import map_samples
from lab.truth_view import truth_view
from vision.barrage.drop_counter import CountedKind, kind_boxes, kind_crops
from vision.barrage.labels import MAX_DROPS
from vision.layout import Layout

from .hard_examples import with_hard
from .net import DropNet, with_tail
from .onnx_weights import freeze_norms, initializers, load_weights
from .temperature import TEMPERATURE
from .train import augment

JITTER = 2.5     # view px, as the slot model's crops


@dataclass
class DropSet:
    crops: np.ndarray      # (n, h, w, 3) uint8
    drops: np.ndarray      # (n,) 0..the kind's most (``CountedKind.most``)


def build(folder: Path, layout: Layout, counted: CountedKind, jitter: float = 0.0, jobs: int = 1,
          progress: str = "") -> DropSet:
    """The visible boxes of a kind in a folder's images; ``progress`` names the work on stderr."""
    crops, drops = [], []
    cut = functools.partial(_cut, layout, counted, jitter)
    for image_crops, image_drops in map_samples(folder, cut, jobs, progress):
        crops.extend(image_crops)
        drops.extend(image_drops)
    w, h = counted.size
    return DropSet(np.array(crops, np.uint8).reshape(-1, h, w, 3), np.array(drops, np.int64))


def _cut(layout: Layout, counted: CountedKind, jitter: float, n: int, frame: np.ndarray,
         truth: dict) -> tuple[list, list]:
    """One image's visible crops of a kind and their drop counts; its jitter drawn from its place ``n``."""
    camera, view = truth_view(layout, frame, truth)
    boxes = kind_boxes(layout, counted.kind)
    shift = np.random.default_rng(n).uniform(-jitter, jitter, (len(boxes), 4)) if jitter else None
    crops = kind_crops(view, layout, camera, counted, shift)
    slots = {s["id"]: s for s in truth["slots"]}
    keep = [(c, min(slots[layout.boxes[i].id]["drops"] or 0, counted.most))
            for c, i in zip(crops, boxes) if not slots[layout.boxes[i].id]["occluded"]]
    return [c for c, _ in keep], [d for _, d in keep]


@dataclass(frozen=True)
class Settings:
    epochs: int = 12
    batch: int = 128
    lr: float = 3e-3
    weight_decay: float = 1e-4
    seed: int = 0
    threads: int = 2
    device: str = "cpu"
    init: str | None = None     # a counter's file to start from (a fine-tune), else random weights
    counts: int = MAX_DROPS + 1  # the counts it reads, 0..counts-1 (a narrower --init file gets a tail)
    only: str | None = None      # train only "last" (the head's last layer and the tail) or "tail"
    hard_share: float = 0.0      # epoch boxes added again from those the counter reads worst (``lab.training.hard_examples``)


def start_net(init: str | Path | None, counts: int) -> DropNet:
    """A counter of ``counts`` counts: random weights, or the file ``init``'s. Where the file
    reads fewer counts, it gets a tail (``lab.training.net.with_tail``), and its temperature is
    folded into its head, so the head's chances are the file's, which the tail splits."""
    if init is None:
        return DropNet(counts=counts)
    weights = initializers(Path(init))
    head, tail = weights.get("head.2.bias"), weights.get("tail.bias")
    net = load_weights(DropNet(counts=counts if head is None else len(head), tail=0 if tail is None else len(tail)),
                       Path(init))
    if net.counts < counts:
        temperature = float(weights.get("drops" + TEMPERATURE, 1.0))
        with torch.no_grad():
            net.head[-1].weight.div_(temperature)
            net.head[-1].bias.div_(temperature)
    return with_tail(net, counts)


def net_input(crops: torch.Tensor, g: torch.Generator | None = None) -> torch.Tensor:
    """uint8 (n, h, w, 3) -> (n, 3, h, w) in 0..1; augmented when ``g`` is given: the slot
    model's camera changes and mirror, and half the batches upside down (a count does not
    care)."""
    x = crops.permute(0, 3, 1, 2).float().div_(255.0)
    if g is None:
        return x
    x = augment(x, g)
    return x.flip(-2) if torch.rand(1, generator=g, device=x.device).item() < 0.5 else x


@torch.no_grad()
def logits(model: DropNet, data: DropSet, batch: int = 512) -> np.ndarray:
    model.eval()
    device = next(model.parameters()).device
    return np.concatenate([model(net_input(torch.from_numpy(data.crops[i:i + batch]).to(device))).cpu().numpy()
                           for i in range(0, len(data.crops), batch)] or [np.zeros((0, model.counts), np.float32)])


def box_losses(model: DropNet, data: DropSet, batch: int = 512) -> torch.Tensor:
    """Each box's loss under ``model`` as it reads at run time (``logits``: no augmentation)."""
    return F.cross_entropy(torch.from_numpy(logits(model, data, batch)), torch.from_numpy(data.drops),
                           reduction="none")


def train(train_set: DropSet, val_set: DropSet, settings: Settings, log=print) -> tuple[DropNet, dict]:
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    device = torch.device(settings.device)
    g = torch.Generator().manual_seed(settings.seed)                  # batch order
    g_aug = torch.Generator(device).manual_seed(settings.seed)        # augmentation, where the crops are
    model = start_net(settings.init, settings.counts).to(device)
    if settings.only is not None:
        model.requires_grad_(False)
        for layer in (model.tail,) if settings.only == "tail" else (model.head[-1], model.tail):
            if layer is not None:
                layer.requires_grad_(True)
    opt = torch.optim.AdamW([w for w in model.parameters() if w.requires_grad], lr=settings.lr,
                            weight_decay=settings.weight_decay)
    n_hard = round(settings.hard_share * len(train_set.crops))
    per_epoch = -(-(len(train_set.crops) + n_hard) // settings.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, settings.lr, total_steps=settings.epochs * per_epoch)
    x_all, y_all = torch.from_numpy(train_set.crops).to(device), torch.from_numpy(train_set.drops).to(device)
    history = []
    for epoch in range(settings.epochs):
        t0, total = time.time(), torch.zeros((), device=device)
        order = torch.randperm(len(x_all), generator=g)
        if n_hard:        # measured before each epoch: what is hard changes as the counter learns
            order = with_hard(order, box_losses(model, train_set), n_hard, g)
        order = order.to(device)
        model.train()
        if settings.init is not None:
            freeze_norms(model)
        for i in range(0, len(order), settings.batch):
            idx = order[i:i + settings.batch]
            loss = F.cross_entropy(model(net_input(x_all[idx], g_aug)), y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.detach() * len(idx)
        error = float((logits(model, val_set).argmax(1) != val_set.drops).mean()) if len(val_set.drops) else 0.0
        history.append({"epoch": epoch + 1, "loss": round(total.item() / max(len(order), 1), 4),
                        "val_error": round(error, 4), "seconds": round(time.time() - t0, 1)})
        log(json.dumps(history[-1]), flush=True)
    return model, {"history": history, "val_error": history[-1]["val_error"] if history else None}


def export(model: DropNet, path: Path, size: tuple[int, int]) -> None:
    model = model.cpu().eval()
    w, h = size
    torch.onnx.export(model, (torch.zeros(4, 3, h, w),), str(path), input_names=["crops"], output_names=["drops"],
                      dynamic_shapes=({0: "N"},), dynamo=True, external_data=False)
