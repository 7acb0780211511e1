"""Train the dam-height reader (``lab/training/dam_net.py``) on synthetic images; export ONNX.

Each training image gives one set: its visible standing dams, cut as the pipeline cuts
them (``vision.barrage.dam_heights.aligned_crop``, with the true homography), each neutral dam
carrying its known height. A batch is a few dozen whole frames, so that the net learns
to read a dam beside the others of its frame.
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
from vision.barrage.dam_heights import HEIGHTS, to_input
from vision.layout import Layout

from ..truth_view import truth_dams
from .dam_net import DEFAULT_LAYERS, DEFAULT_WIDTHS, DamSetNet, OneFrame, from_file
from .hard_examples import with_hard
from .onnx_weights import freeze_norms


@dataclass
class DamSet:
    """Every visible standing dam of a folder's images, grouped by image."""
    crops: np.ndarray      # (n, SIZE, SIZE, 3) uint8
    leans: np.ndarray      # (n,) lean ratios
    heights: np.ndarray    # (n,) index into HEIGHTS
    roles: np.ndarray      # (n,) 0 for a company's dam, 1 + height for a neutral one
    frames: list[np.ndarray]  # per image, the indices of its dams


def build(folder: Path, layout: Layout, jobs: int = 1, progress: str = "") -> DamSet:
    """``progress``, when given, names the work in a progress line on stderr."""
    crops, leans, heights, roles, frames = [], [], [], [], []
    for image in map_samples(folder, functools.partial(truth_dams, layout), jobs, progress):
        if image[0]:
            frames.append(np.arange(len(crops), len(crops) + len(image[0])))
            for part, values in zip((crops, leans, heights, roles), image):
                part.extend(values)
    return DamSet(np.array(crops, np.uint8), np.array(leans, np.float32), np.array(heights, np.int64),
                  np.array(roles, np.int64), frames)


@dataclass(frozen=True)
class Settings:
    epochs: int = 24
    frames_per_batch: int = 36
    lr: float = 2e-3
    weight_decay: float = 1e-4
    seed: int = 0
    threads: int = 2
    device: str = "cpu"         # "cuda" trains on a GPU
    alone_weight: float = 0.3   # the auxiliary loss on each dam read alone
    init: str | None = None     # a reader's file to start from (a fine-tune), else random weights
    widths: tuple[int, ...] = DEFAULT_WIDTHS    # the conv trunk's channels, block by block (random weights only)
    layers: int = DEFAULT_LAYERS                # attention layers (random weights only)
    hard_share: float = 0.0     # epoch frames added again from those the model reads worst (``lab.training.hard_examples``)


def batch(data: DamSet, frames: list[np.ndarray]) -> tuple[torch.Tensor, ...]:
    """Inputs, roles, token slots (frames, longest; -1 pads) and heights for whole frames."""
    idx = np.concatenate(frames)
    x = torch.from_numpy(to_input(data.crops[idx], data.leans[idx]))
    slots = -np.ones((len(frames), max(len(f) for f in frames)), np.int64)
    k = 0
    for i, f in enumerate(frames):
        slots[i, :len(f)] = np.arange(k, k + len(f))
        k += len(f)
    return x, torch.from_numpy(data.roles[idx]), torch.from_numpy(slots), torch.from_numpy(data.heights[idx])


def augment(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """Mirror (up stays up), shift by up to 3 px (registration error), exposure and offset
    per crop; the lean channel is left alone."""
    if rng.random() < 0.5:
        x = x.flip(3)
    x = torch.roll(x, (int(rng.integers(-3, 4)), int(rng.integers(-3, 4))), (2, 3))
    gain = torch.from_numpy(rng.uniform(0.75, 1.25, (len(x), 1, 1, 1)).astype(np.float32)).to(x.device)
    offset = torch.from_numpy(rng.uniform(-0.1, 0.1, (len(x), 1, 1, 1)).astype(np.float32)).to(x.device)
    x = x.clone()
    x[:, :3] = (x[:, :3] * gain + offset).clamp(0, 1)
    return x


def company_logits(model: DamSetNet, data: DamSet) -> tuple[np.ndarray, np.ndarray]:
    """The height logits the net reads with the frame for every company dam, and their truths."""
    model.eval()
    device = next(model.parameters()).device
    logits, truths = [], []
    with torch.no_grad():
        for s in range(0, len(data.frames), 64):
            x, roles, slots, y = batch(data, data.frames[s:s + 64])
            company = roles == 0
            logits.append(model(*(t.to(device) for t in (x, roles, slots)))[0].cpu()[company].numpy())
            truths.append(y[company].numpy())
    if not logits:
        return np.zeros((0, len(HEIGHTS)), np.float32), np.zeros(0, np.int64)
    return np.concatenate(logits), np.concatenate(truths)


def frame_losses(model: DamSetNet, data: DamSet) -> torch.Tensor:
    """Each frame's loss as the net reads it with the frame (no augmentation): the sum over its
    company dams, whose heights are what the reader is for."""
    logits, y = company_logits(model, data)
    per_dam = torch.from_numpy(logits).log_softmax(1)[torch.arange(len(y)), torch.from_numpy(y)].neg()
    frame_of = np.repeat(np.arange(len(data.frames)), [int((data.roles[f] == 0).sum()) for f in data.frames])
    return torch.zeros(len(data.frames)).index_add_(0, torch.from_numpy(frame_of), per_dam)


def evaluate(model: DamSetNet, data: DamSet) -> dict[str, float]:
    """Error of company dams' heights, per true height and over all."""
    logits, y = company_logits(model, data)
    wrong = logits.argmax(1) != y
    out = {h: round(float(wrong[y == i].mean()) if (y == i).any() else 0.0, 4) for i, h in enumerate(HEIGHTS)}
    out["all"] = round(float(wrong.mean()) if len(y) else 0.0, 4)
    return out


def train(train_set: DamSet, val_set: DamSet, settings: Settings, log=print) -> tuple[DamSetNet, dict]:
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    rng = np.random.default_rng(settings.seed)
    device = torch.device(settings.device)
    model = (DamSetNet(settings.widths, layers=settings.layers) if settings.init is None
             else from_file(Path(settings.init))).to(device)
    opt = torch.optim.AdamW(model.parameters(), settings.lr, weight_decay=settings.weight_decay)
    g = torch.Generator().manual_seed(settings.seed)        # where the hard frames fall in an epoch
    n_hard = round(settings.hard_share * len(train_set.frames))
    per_epoch = -(-(len(train_set.frames) + n_hard) // settings.frames_per_batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, settings.lr, total_steps=settings.epochs * per_epoch)
    history = []
    for epoch in range(settings.epochs):
        t0, total = time.time(), torch.zeros((), device=device)
        order = rng.permutation(len(train_set.frames))
        if n_hard:        # measured before each epoch: what is hard changes as the model learns
            order = with_hard(torch.from_numpy(order), frame_losses(model, train_set), n_hard, g).numpy()
        model.train()
        if settings.init is not None:
            freeze_norms(model)
        for s in range(0, len(order), settings.frames_per_batch):
            x, roles, slots, y = (t.to(device) for t in batch(
                train_set, [train_set.frames[i] for i in order[s:s + settings.frames_per_batch]]))
            together, alone = model(augment(x, rng), roles, slots)
            company = roles == 0
            loss = F.cross_entropy(together[company], y[company]) + settings.alone_weight * F.cross_entropy(alone, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.detach()     # no .item() per step: it would wait for the GPU
        history.append({"epoch": epoch + 1, "loss": round(total.item() / per_epoch, 4), "val_error": evaluate(model, val_set),
                        "seconds": round(time.time() - t0, 1)})
        log(json.dumps(history[-1]), flush=True)
    return model, {"history": history, "val_error": history[-1]["val_error"]}


def export(model: DamSetNet, path: Path) -> None:
    wrapped = OneFrame(model.cpu()).eval()
    n = torch.export.Dim("n", min=1, max=64)
    dummy = (torch.rand(5, 4, 64, 64), torch.tensor([0, 1, 0, 3, 0]))
    torch.onnx.export(wrapped, dummy, str(path), input_names=["dams", "roles"], output_names=["heights"],
                      dynamic_shapes=({0: n}, {0: n}), dynamo=True, external_data=False)
