"""A dam-height reader that also sees the empty board (research, issue #79).

The shipped reader (``lab/training/dam_net.py``) reads each standing dam's aligned crop (BGR and
the lean ratio) with its frame's other dams. This one adds the same aligned crop of the table's
empty board, relit to the frame's light as the pipeline relights its reference
(``vision.reference_features.light_map`` / ``relit``): 7 channels, BGR, lean, then the empty
board's BGR, so that a dam's shadow and silhouette stand apart from the board's printed art. It
starts from the shipped reader's weights with the new channels' first-layer weights at zero, so
that before training it reads exactly as shipped.

    python -m lab.training.train_ref_heights build --first 3000 --tables 60 --frames 6 --out /tmp/heights/train.npz
    python -m lab.training.train_ref_heights build --printed --first 900 --tables 8 --frames 5 --out /tmp/heights/choice.npz
    python -m lab.training.train_ref_heights train --data /tmp/heights/train.npz --val /tmp/heights/choice.npz --out /tmp/heights/ref.pt
    python -m lab.training.train_ref_heights compare --data /tmp/heights/choice.npz --model /tmp/heights/ref.pt

Training data come only from the sampled looks (``TableShots(seed, printed=False)``); the printed
look is for choices (900-907) and the held-out figure (940-947). Crops are cut as the pipeline cuts
them: each picture registered by the pipeline (markers), its normalised view, the dams' aligned
crops at the frame's camera, and the empty board's view cut the same way.

Measured 2026-12-02 (truth's standing dams, neutral dams' heights known): company dams read at
their true height on the printed tables 900-907 (games 1-5, 256 dams), shipped 184 (71.9 %);
fine-tuned on 900 sampled tables (3000-3299, 3320-3919; 5,388 games, 48,258 dams, 32,094 of companies), 190 either
way, whether every weight learns (``--lr 3e-4 --ref-lr 50``, 5 epochs, 24 min on 2 cores; 19
gained, 13 lost, p 0.38) or only the new channels' (``--only-ref``; 11 gained, 5 lost, p 0.21).
On 20 held-out sampled tables (3300-3319, 735 dams) 606 -> 611 / 613. Not clearly better: the
printed tables 940-947 were not measured, and nothing of it is wired into the pipeline.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.barrage.dam_heights import DEFAULT_HEIGHTS_MODEL, HEIGHTS, aligned_crop, to_input
from vision.barrage.pipeline import Pipeline
from vision.paper_white import paper_white
from vision.pose import camera_position
from vision.rectify import canonical_view, crops_from_frame, cut_crops, plan_crops
from vision.reference_features import light_map, relit

from ..reference_tables import TableShots
from ..truth_view import standing_dams

EXPOSURES = (0.65, 1.35)      # the games' light against the empty board's, drawn per training table


@dataclass
class RefDamSet:
    """Every registered visible standing dam of a set of frames, with the empty board's crop."""
    crops: np.ndarray      # (n, 64, 64, 3) uint8, the frame's aligned crop
    refs: np.ndarray       # (n, 64, 64, 3) uint8, the empty board's, in the frame's light
    leans: np.ndarray      # (n,) lean ratios
    heights: np.ndarray    # (n,) index into HEIGHTS
    roles: np.ndarray      # (n,) 0 for a company's dam, 1 + height for a neutral one
    frames: list[np.ndarray]

    def save(self, path: Path) -> None:
        sizes = np.array([len(f) for f in self.frames], np.int64)
        np.savez(path, crops=self.crops, refs=self.refs, leans=self.leans, heights=self.heights, roles=self.roles,
                 sizes=sizes)

    @classmethod
    def load(cls, *paths: Path) -> "RefDamSet":
        """One set of the sets saved in ``paths``."""
        parts = [np.load(path) for path in paths]
        keys = ("crops", "refs", "leans", "heights", "roles")
        return cls(*(np.concatenate([d[k] for d in parts]) for k in keys),
                   frames=_frames(np.concatenate([d["sizes"] for d in parts]).tolist()))


def registered_view(pipeline: Pipeline, image: np.ndarray):
    """(frame, H, camera, view, crops, plan) of ``image`` as ``Pipeline.read_frame`` gets them;
    None where the board is not found."""
    pipeline.registrar.reset()
    frame, _, reg = pipeline.register(image)
    if reg.H is None:
        return None
    camera = camera_position(reg.H, frame.shape, pipeline.camera_matrix)
    plan = plan_crops(pipeline.profile.layout, camera)
    view, crops = crops_from_frame(frame, reg.H, pipeline.profile.layout, plan=plan,
                                   paper=paper_white(frame, reg.corners), lens=reg.lens)
    return frame, reg, camera, view, crops, plan


def table_dams(pipeline: Pipeline, shots: TableShots, frames: range) -> list[tuple]:
    """Per frame of ``shots``'s table: (crops, refs, leans, heights, roles) of its visible standing
    dams, the empty board's crops relit to the frame's light as ``Pipeline.context`` relights them."""
    layout = pipeline.profile.layout
    empty = registered_view(pipeline, shots.empty())
    if empty is None:
        return []
    frame0, reg0, _, _, _, _ = empty
    empty_view = canonical_view(frame0, reg0.H, layout, paper_white(frame0, reg0.corners), reg0.lens)
    out = []
    for k in frames:
        image, truth, _ = shots.frame(k)
        got = registered_view(pipeline, image)
        if got is None:
            continue
        _, _, camera, view, crops, plan = got
        light = light_map(crops, cut_crops(empty_view, plan))
        rows = []
        for s, height in standing_dams(truth):
            centre = layout.slot(s["id"]).centre
            crop, lean = aligned_crop(view, centre, camera)
            ref, _ = aligned_crop(empty_view, centre, camera)
            rows.append((crop, relit(ref[None], light)[0], lean, height, 1 + height if s["owner"] == "neutral" else 0))
        if rows:
            out.append(tuple(np.array(part) for part in zip(*rows)))
    return out


def build(first: int, tables: int, frames: int, printed: bool, out: Path) -> RefDamSet:
    """The dams of ``frames`` games (1..frames) on each of ``tables`` tables from seed ``first``;
    a training table's games in a light drawn from ``EXPOSURES`` (the printed tables: as
    ``lab.printed_eval`` shoots them). Saved to ``out`` every 10 tables and at the end (a progress
    line on stderr); about 1.3 s a table of 6 games on one core."""
    pipeline = Pipeline.load()
    parts: list[tuple] = []
    t0 = time.time()
    for i, seed in enumerate(range(first, first + tables)):
        exposure = 1.0 if printed else float(np.random.default_rng([seed, 21]).uniform(*EXPOSURES))
        parts += table_dams(pipeline, TableShots(seed, printed=printed, exposure=exposure), range(1, frames + 1))
        if (i + 1) % 10 == 0 or i + 1 == tables:
            RefDamSet(*(np.concatenate([p[j] for p in parts]) for j in range(5)),
                      frames=_frames([len(p[0]) for p in parts])).save(out)
        print(f"\r{i + 1}/{tables} tables, {len(parts)} frames, {sum(len(p[0]) for p in parts)} dams, "
              f"{time.time() - t0:.0f} s", file=sys.stderr, end="", flush=True)
    print(file=sys.stderr)
    return RefDamSet.load(out)


def _frames(sizes: list[int]) -> list[np.ndarray]:
    ends = np.cumsum(sizes)
    return [np.arange(e - s, e) for s, e in zip(sizes, ends)]


# --- the net ---------------------------------------------------------------------------------

def ref_input(data: RefDamSet, idx: np.ndarray) -> np.ndarray:
    """(n, 7, 64, 64): the shipped reader's 4 channels, then the empty board's BGR in 0..1."""
    x = to_input(data.crops[idx], data.leans[idx])
    ref = data.refs[idx].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    return np.concatenate([x, ref], axis=1)



def _split_conv(old):
    """The first convolution as two weights, the shipped one on the crop and lean and a new
    one (zero) on the empty board's crop, so that the new one can learn at its own rate."""
    import torch
    import torch.nn.functional as F
    from torch import nn

    class Split(nn.Module):
        def __init__(self):
            super().__init__()
            self.live = nn.Parameter(old.weight.detach().clone())
            self.ref = nn.Parameter(torch.zeros(old.out_channels, 3, 3, 3))

        def forward(self, x):
            return F.conv2d(x, torch.cat([self.live, self.ref], 1), padding=1)

    return Split()


def ref_net(path: Path = DEFAULT_HEIGHTS_MODEL):
    """The shipped reader with a 7-channel first convolution, the new channels' weights zero."""
    from .dam_net import from_file

    net = from_file(Path(path))
    net.conv[0][0] = _split_conv(net.conv[0][0])
    return net


def company_logits(model, data: RefDamSet, channels: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Height logits read with the frame for every company dam (``channels`` 4: the shipped
    reader's input), and their truths."""
    import torch

    model.eval()
    logits, truths = [], []
    with torch.no_grad():
        for s in range(0, len(data.frames), 64):
            x, roles, slots, y = batch(data, data.frames[s:s + 64])
            company = roles == 0
            logits.append(model(x[:, :channels], roles, slots)[0][company].numpy())
            truths.append(y[company].numpy())
    return np.concatenate(logits), np.concatenate(truths)


def batch(data: RefDamSet, frames: list[np.ndarray]):
    import torch

    idx = np.concatenate(frames)
    slots = -np.ones((len(frames), max(len(f) for f in frames)), np.int64)
    k = 0
    for i, f in enumerate(frames):
        slots[i, :len(f)] = np.arange(k, k + len(f))
        k += len(f)
    return (torch.from_numpy(ref_input(data, idx)), torch.from_numpy(data.roles[idx]), torch.from_numpy(slots),
            torch.from_numpy(data.heights[idx]))


def accuracy(model, data: RefDamSet, channels: int = 7) -> tuple[dict, np.ndarray]:
    """Company dams read at their true height, per height and over all, and which were."""
    logits, y = company_logits(model, data, channels)
    right = logits.argmax(1) == y
    out = {h: f"{int(right[y == i].sum())}/{int((y == i).sum())}" for i, h in enumerate(HEIGHTS)}
    return out | {"right": int(right.sum()), "dams": len(y), "accuracy": round(float(right.mean()), 4)}, right


def paired(before: np.ndarray, after: np.ndarray) -> dict:
    """Dams one reader reads right and the other wrong, both ways, and the exact two-sided
    McNemar p of so many gained against lost by chance: the same dams read twice, so the
    changed ones are what tells two readers apart."""
    gained, lost = int((after & ~before).sum()), int((before & ~after).sum())
    n = gained + lost
    p = min(1.0, 2 * sum(math.comb(n, k) for k in range(min(gained, lost) + 1)) / 2 ** n) if n else 1.0
    return {"gained": gained, "lost": lost, "p": round(p, 3)}


def augment(x, rng: np.random.Generator):
    """Mirror (up stays up), shift by up to 3 px (both views alike: registration error), one
    exposure and offset for both views (the relit reference follows the frame's light) and a
    small one for the reference alone (relighting is not exact); the lean channel is left alone."""
    import torch

    if rng.random() < 0.5:
        x = x.flip(3)
    x = torch.roll(x, (int(rng.integers(-3, 4)), int(rng.integers(-3, 4))), (2, 3)).clone()
    n = len(x)
    gain = torch.from_numpy(rng.uniform(0.75, 1.25, (n, 1, 1, 1)).astype(np.float32))
    offset = torch.from_numpy(rng.uniform(-0.1, 0.1, (n, 1, 1, 1)).astype(np.float32))
    ref_gain = torch.from_numpy(rng.uniform(0.95, 1.05, (n, 1, 1, 1)).astype(np.float32))
    x[:, :3] = (x[:, :3] * gain + offset).clamp(0, 1)
    x[:, 4:] = (x[:, 4:] * gain * ref_gain + offset).clamp(0, 1)
    return x


def train(data: RefDamSet, val: RefDamSet | None, epochs: int, lr: float, seed: int = 0,
          frames_per_batch: int = 36, alone_weight: float = 0.3, ref_lr: float = 20.0,
          only_ref: bool = False, threads: int = 2):
    import torch
    import torch.nn.functional as F

    from .onnx_weights import freeze_norms

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    model = ref_net()
    new = [model.conv[0][0].ref]
    rest = [p for p in model.parameters() if p is not new[0]]
    if only_ref:        # the shipped weights kept: only the new channels (and the training-only head) learn
        for p in rest:
            p.requires_grad_(False)
        for p in model.alone.parameters():
            p.requires_grad_(True)
    # the new channels start at zero: they learn ``ref_lr`` times faster than the shipped weights
    opt = torch.optim.AdamW([{"params": rest, "lr": lr}, {"params": new, "lr": lr * ref_lr, "weight_decay": 0.0}],
                            lr, weight_decay=1e-4)
    per_epoch = -(-len(data.frames) // frames_per_batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, [lr, lr * ref_lr], total_steps=epochs * per_epoch)
    for epoch in range(epochs):
        t0, total = time.time(), 0.0
        order = rng.permutation(len(data.frames))
        model.train()
        freeze_norms(model)
        for s in range(0, len(order), frames_per_batch):
            x, roles, slots, y = batch(data, [data.frames[i] for i in order[s:s + frames_per_batch]])
            together, alone = model(augment(x, rng), roles, slots)
            company = roles == 0
            loss = F.cross_entropy(together[company], y[company]) + alone_weight * F.cross_entropy(alone, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        line = {"epoch": epoch + 1, "loss": round(total / per_epoch, 4), "seconds": round(time.time() - t0, 1)}
        if val is not None:
            line["val"] = accuracy(model, val)[0]["accuracy"]
        print(json.dumps(line), flush=True)
    return model


def compare(data: RefDamSet, model_path: Path | None) -> dict:
    """Company dams' heights read right: the shipped reader, the 7-channel net before training
    (which must read as shipped), and the trained one."""
    import torch

    from .dam_net import from_file

    torch.set_num_threads(2)
    shipped, before = accuracy(from_file(DEFAULT_HEIGHTS_MODEL), data, channels=4)
    out = {"shipped": shipped, "ref_untrained": accuracy(ref_net(), data)[0]}
    if model_path is not None:
        model = ref_net()
        model.load_state_dict(torch.load(model_path))
        out["ref_trained"], after = accuracy(model, data)
        out["against_shipped"] = paired(before, after)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--first", type=int, required=True)
    b.add_argument("--tables", type=int, required=True)
    b.add_argument("--frames", type=int, default=6)
    b.add_argument("--printed", action="store_true")
    b.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("train")
    t.add_argument("--data", type=Path, nargs="+", required=True)
    t.add_argument("--val", type=Path)
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--lr", type=float, default=5e-4)
    t.add_argument("--ref-lr", type=float, default=20.0, help="the new channels' learning rate over the others'")
    t.add_argument("--only-ref", action="store_true", help="train only the new channels' weights")
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("--data", type=Path, required=True)
    c.add_argument("--model", type=Path)
    args = p.parse_args(argv)
    if args.command == "build":
        if not args.printed and args.first < 3000:
            p.error("training tables are seeds 3000 and up")
        build(args.first, args.tables, args.frames, args.printed, args.out)
    elif args.command == "train":
        import torch

        t0 = time.time()
        model = train(RefDamSet.load(*args.data), RefDamSet.load(args.val) if args.val else None, args.epochs, args.lr,
                      ref_lr=args.ref_lr, only_ref=args.only_ref, threads=args.threads)
        torch.save(model.state_dict(), args.out)
        print(json.dumps({"seconds": round(time.time() - t0)}))
    else:
        print(json.dumps(compare(RefDamSet.load(args.data), args.model)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
