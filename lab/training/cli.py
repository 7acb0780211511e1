"""``automa-vision train``, ``train-heights`` and ``train-drops``: synthetic data -> trained
slot classifier, dam-height reader or drop counter (headstreams or lakes) -> ONNX.

Seeded end to end: the generator's seeds, the crop jitter, the weight
initialisation and the batch order all derive from ``--seed``.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from lab.evaluate import image_pairs
from lab.synth.cli import SHOT_FLAGS, add_shot_arguments, shot_flags
from vision.barrage.dam_heights import DEFAULT_HEIGHTS_MODEL
from vision.barrage.drop_counter import KINDS as COUNTED_KINDS
from vision.barrage.labels import KINDS
from vision.layout import load_layout
from vision.barrage.slot_model import MASTER_MODEL
from vision.rectify import CROP
from vision.barrage.specialist import SPECIALIST_MODEL

from .dataset import NO_PAPER_SHARE, build


def generate(out: Path, n: int, seed: int, occlusion: float, jobs: int, shots: tuple[str, ...] = ()) -> None:
    """Run the synthetic generator unless ``out`` already holds ``n`` images; ``shots``:
    its ``SHOT_FLAGS`` (``--size``, ``--placement``, ``--lighting``, ``--finish``, ``--headstreams``,
    ``--lens``, ``--processing``, ``--shapes``; none: the default camera, light, pieces, drops and processing)."""
    if len(image_pairs(out)) >= n:
        return
    subprocess.run([sys.executable, "-m", "automa_vision.cli", "synth", "--n", str(n), "--out", str(out),
                    "--seed", str(seed), "--occlusion", str(occlusion), "--jobs", str(jobs), *shots], check=True)


def synth_command(n: int, seed: int, occlusion: float, shots: tuple[str, ...] = ()) -> str:
    """The ``synth`` command line ``generate`` runs, as a report records it."""
    return " ".join(["automa-vision synth --n", str(n), "--seed", str(seed), "--occlusion", str(occlusion), *shots])


def device(name: str) -> str:
    """``auto``: the GPU when torch sees one, else the CPU."""
    import torch
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit(f"--device {name}: torch sees no CUDA GPU on this machine (use --device cpu)")
    return name


def fine_tune(args: argparse.Namespace, read: Callable[[Path], object]) -> tuple[dict, dict]:
    """The training settings ``--init`` and ``--lr`` ask for, and what the report records of
    the start: the file's name and SHA-256, since its path may name a file a later run
    overwrites (the shipped file, fine-tuned in place). Its own report is not copied in: the
    SHA-256 names the parent, whose report says how it was made, so a report stays a few KB
    however many generations a file has. The file is read now, before any image is cut: a
    wrong one costs seconds, not the crop cutting. ``read`` builds the net from a file."""
    start = {} if args.lr is None else {"lr": args.lr}
    if args.init is None:
        return start, {}
    try:
        read(Path(args.init))
    except (OSError, ValueError) as e:
        raise SystemExit(f"--init {args.init}: {e}")
    start["init"] = args.init
    return start, {"init_file": Path(args.init).name, "init_sha256": sha256_of(Path(args.init))}


def sha256_of(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def command_line(name: str, args: argparse.Namespace) -> str:
    """The training command as it ran, every option spelled out (defaults included), for its
    report: run again, it makes the same images and the same training."""
    shots = {field for _, field, _, _, _ in SHOT_FLAGS}
    parts = ["automa-vision", name]
    for key, value in vars(args).items():
        if key in ("command", "func") or key in shots or value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            parts.append(flag)
        else:
            parts += [flag, ",".join(map(str, value)) if isinstance(value, (tuple, list)) else str(value)]
    return " ".join(parts + shot_flags(args))


def provenance(out: Path, command: str) -> dict:
    """What every report begins with: the file it describes, by name, SHA-256 and size, the
    day (UTC) it was written and the command that wrote it, so a file is matched to its report
    by its bytes, not by where it lies."""
    return {"file": out.name, "sha256": sha256_of(out), "bytes": out.stat().st_size,
            "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(), "command": command}


def write_report(out: Path, command: str, fields: dict) -> dict:
    """Write ``out``'s report beside it (``NAME_report.json``), flat: its provenance, then
    ``fields``, each epoch of a training's history one row whose per-head figures are named
    ``val_error.HEAD``."""
    def row(entry: dict) -> dict:
        flat = {}
        for key, value in entry.items():
            if isinstance(value, dict):
                flat.update({f"{key}.{head}": v for head, v in value.items()})
            else:
                flat[key] = value
        return flat
    report = {**provenance(out, command), **fields}
    if "history" in report:
        report["history"] = [row(entry) for entry in report["history"]]
    out.with_name(out.stem + "_report.json").write_text(json.dumps(report, indent=1))
    return report


def need_training_extra() -> None:
    """Training needs torch and the ONNX exporter (the optional ``[train]`` extra, which the
    run time never needs): without them a training command says how to install them instead
    of ending in an ImportError's traceback."""
    missing = [m for m in ("torch", "onnx", "onnxscript") if importlib.util.find_spec(m) is None]
    if missing:
        raise SystemExit(f"training needs {', '.join(missing)} (the optional [train] extra): "
                         f"{sys.executable} -m pip install torch==2.13.0 onnx onnxscript, "
                         "or `make train`, which installs them and retrains every model")


def output_file(path: str | Path) -> Path:
    """The ``--out`` file, its folder made now: a file that cannot be written is refused
    before the images are cut and the net trained, not when the training is done."""
    out = Path(path)
    if out.is_dir():
        raise SystemExit(f"--out {out}: is a folder; name the ONNX file to write")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SystemExit(f"--out {out}: cannot make its folder ({e})")
    if not os.access(out.parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise SystemExit(f"--out {out}: cannot be written")
    return out


def image_sets(args: argparse.Namespace) -> dict[str, tuple[Path, int, str]]:
    """The training and validation folders, generated if missing, with their image seeds and
    what a report records of their images (``source_of``).
    Image seeds: training 100000+, validation 200000+ (per --seed step of 10^6); the held-out
    evaluation sets in docs/benchmarks.md use seeds 900000+."""
    base = args.seed * 1_000_000
    shots = tuple(shot_flags(args))
    out = {}
    for name, n, seed in (("train", args.n_train, base + 100_000), ("val", args.n_val, base + 200_000)):
        folder = Path(args.data) / name
        generate(folder, n, seed, args.occlusion, args.jobs, shots)
        out[name] = (folder, seed, source_of(folder, seed, lambda k: synth_command(k, seed, args.occlusion, shots)))
    return out


def source_of(folder: Path, seed: int, command: Callable[[int], str]) -> str:
    """What a report records of a training folder's images, every one of which the training
    cuts: ``command(n)``, the synth command that makes n images, where the folder's n images
    are drawn from ``seed`` on, as that command draws them (first and last checked: made by it,
    now or by an earlier run, perhaps of more images), else that they were found there, so that
    a folder put together by hand is not credited to a command that never made it."""
    pairs = image_pairs(folder)
    if not pairs:
        return f"no images found in {folder}"
    seeds = []
    for _, truth in (pairs[0], pairs[-1]):
        try:
            seeds.append(json.loads(truth.read_text()).get("seed"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            seeds.append(None)
    if seeds == [seed, seed + len(pairs) - 1]:
        return command(len(pairs))
    return (f"{len(pairs)} images found in {folder}, the first and last drawn from seeds {seeds[0]} and {seeds[1]} "
            f"(its synth command draws {seed} to {seed + len(pairs) - 1})")


def cmd_train(args: argparse.Namespace) -> int:
    need_training_extra()
    from .net import SlotNet
    from .onnx_weights import load_weights
    from .slot_temperatures import fit, head_logits
    from .temperature import scale_outputs
    from .train import Settings, export, train  # torch is imported only by this command

    layout = load_layout()
    kinds = None if args.kinds is None else tuple(args.kinds.split(","))
    if kinds is not None and not set(kinds) <= set(KINDS):
        raise SystemExit(f"--kinds {args.kinds}: each must be one of {', '.join(KINDS)}")
    start, started_from = fine_tune(args, lambda path: load_weights(SlotNet(), path))
    out = output_file(args.out or (MASTER_MODEL if kinds is None else SPECIALIST_MODEL))
    sets, sources = {}, {}
    for name, (folder, seed, source) in image_sets(args).items():
        sources[name] = source
        sets[name] = build(folder, layout, copies=args.copies if name == "train" else 1, seed=seed,
                           no_paper_share=NO_PAPER_SHARE if name == "train" else 0.0, jobs=args.jobs,
                           progress=f"cutting {name} crops", kinds=kinds)
        print(f"{name}: {len(image_pairs(folder))} images, {len(sets[name].crops)} crops", flush=True)
    settings = Settings(epochs=args.epochs, seed=args.seed, device=device(args.device), hard_share=args.hard_share,
                        **start)
    model, report = train(sets["train"], sets["val"], settings)
    export(model, out, CROP, kinds)
    # A temperature per head, fitted on the validation images, makes the chances honest for the page's flags.
    temperatures, losses = fit(head_logits(out, sets["val"]), sets["val"])
    scale_outputs(out, temperatures)
    report = write_report(out, command_line("train", args), {
        **started_from, "settings": settings.__dict__, "data": sources, "n_train": args.n_train, "n_val": args.n_val,
        "copies": args.copies, "kinds": list(kinds or KINDS), "occlusion": args.occlusion,
        "temperatures": {h: round(t, 4) for h, t in temperatures.items()}, "val_nll": losses, **report})
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB); validation error {report['val_error']}")
    if kinds is None:
        print(f"the pipeline runs the int8 file made from it: python -m lab.training.quantize --model {out}")
    return 0


def cmd_train_heights(args: argparse.Namespace) -> int:
    need_training_extra()
    from .dam_net import from_file
    from .temperature import fit_temperature, nll, scale_outputs
    from .train_heights import Settings, build, company_logits, export, train  # torch is imported only by this command

    layout = load_layout()
    shape = {k: v for k, v in (("widths", args.widths), ("layers", args.layers)) if v is not None}
    if shape and args.init is not None:
        raise SystemExit(f"--{'/--'.join(shape)}: a fine-tune keeps its file's shape "
                         "(leave out --init to train a new one)")
    start, started_from = fine_tune(args, from_file)
    out = output_file(args.out)
    start.update(shape)
    sets, sources = {}, {}
    for name, (folder, _, source) in image_sets(args).items():
        sources[name] = source
        sets[name] = build(folder, layout, jobs=args.jobs, progress=f"cutting {name} dams")
        print(f"{name}: {len(sets[name].frames)} images with standing dams, {len(sets[name].heights)} dams", flush=True)
    settings = Settings(epochs=args.epochs, seed=args.seed, device=device(args.device), hard_share=args.hard_share,
                        **start)
    model, report = train(sets["train"], sets["val"], settings)
    # One temperature, fitted on the validation images, makes the chances honest for the page's flags.
    logits, truths = company_logits(model, sets["val"])
    temperature = fit_temperature(logits, truths)
    export(model, out)
    scale_outputs(out, {"heights": temperature})
    report = write_report(out, command_line("train-heights", args), {
        **started_from, "settings": settings.__dict__, "data": sources, "temperature": round(temperature, 4),
        "val_nll": {"raw": round(nll(logits, truths), 4), "scaled": round(nll(logits, truths, temperature), 4)},
        **report})
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB); validation error of company dams {report['val_error']}")
    return 0


def cmd_train_drops(args: argparse.Namespace) -> int:
    need_training_extra()
    from .temperature import fit_temperature, nll, scale_outputs
    # torch is imported only by this command
    from .train_drops import JITTER, Settings, build, export, logits, start_net, train

    layout = load_layout()
    counted = COUNTED_KINDS[args.kind]
    if args.only and args.init is None:
        raise SystemExit(f"--only {args.only} trains the last layers of an --init file: give one")

    def read(path: Path):
        net = start_net(path, counted.most + 1)
        if args.only == "tail" and net.tail is None:
            raise ValueError(f"--only tail trains the tail a file gets where it reads fewer counts than a "
                             f"{args.kind} counter ({counted.most + 1}): give such a file")
        return net

    start, started_from = fine_tune(args, read)
    out = output_file(args.out or counted.model)
    sets, sources = {}, {}
    for name, (folder, _, source) in image_sets(args).items():
        sources[name] = source
        sets[name] = build(folder, layout, counted, JITTER if name == "train" else 0.0, jobs=args.jobs,
                           progress=f"cutting {name} {args.kind}s")
        print(f"{name}: {len(sets[name].drops)} visible {args.kind}s", flush=True)
    settings = Settings(epochs=args.epochs, seed=args.seed, device=device(args.device), counts=counted.most + 1,
                        only=args.only, hard_share=args.hard_share, **start)
    model, report = train(sets["train"], sets["val"], settings)
    # One temperature, fitted on the validation images, makes the chances honest for the page's flags;
    # a tail trained alone keeps the file's, folded into the head it splits (train_drops.start_net).
    val_logits, truths = logits(model, sets["val"]), sets["val"].drops
    temperature = 1.0 if args.only == "tail" else fit_temperature(val_logits, truths)
    export(model, out, counted.size)
    scale_outputs(out, {"drops": temperature})
    report = write_report(out, command_line("train-drops", args), {
        **started_from, "kind": args.kind, "settings": settings.__dict__, "data": sources, "jitter": JITTER,
        "temperature": round(temperature, 4),
        "val_nll": {"raw": round(nll(val_logits, truths), 4), "scaled": round(nll(val_logits, truths, temperature), 4)},
        **report})
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB); validation error {report['val_error']}")
    return 0


def _add_data_arguments(p: argparse.ArgumentParser, epochs: int, out: Path | None) -> None:
    """The arguments every training command takes: the same images, seeds and machine."""
    p.add_argument("--data", default="data/synth",
                   help="where generated images are kept (generated if missing, reused if present)")
    p.add_argument("--n-train", type=int, default=10000)
    p.add_argument("--n-val", type=int, default=60)
    p.add_argument("--occlusion", type=float, default=0.3)
    add_shot_arguments(p)        # the cameras and lights of the images it generates (none made if --data has them)
    p.add_argument("--epochs", type=int, default=epochs)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None if out is None else str(out),
                   help="the ONNX file to write" + ("" if out is None else f" (default {out})"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="processes that render and cut the images (default: one per core)")
    p.add_argument("--device", default="auto", help="where to train: auto (a CUDA GPU if torch sees one), cpu, cuda")


def _add_fine_tune_arguments(p: argparse.ArgumentParser, what: str, lr: float = 3e-3) -> None:
    p.add_argument("--init", default=None,
                   help=f"fine-tune: start from the weights of this {what} file (one this command wrote), "
                        "its batch norms frozen, instead of random weights")
    p.add_argument("--lr", type=float, default=None,
                   help=f"peak learning rate of the one-cycle schedule (default {lr:g}; lower it for a fine-tune)")


def _add_hard_argument(p: argparse.ArgumentParser, examples: str) -> None:
    p.add_argument("--hard-share", type=_share, default=0.0,
                   help=f"each epoch also sees again the {examples} the net reads worst, by their loss at the "
                        f"epoch's start: this share of the {examples} it draws, once more (default 0: none)")


def _share(text: str) -> float:
    """``--hard-share``: a number from 0 to 1."""
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0.0 <= share <= 1.0:
        raise argparse.ArgumentTypeError(f"want a share from 0 to 1, not {text!r}")
    return share


def _widths(text: str) -> tuple[int, ...]:
    """``--widths``: four positive channel counts, comma-separated."""
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        widths = ()
    if len(widths) != 4 or min(widths) < 1:
        raise argparse.ArgumentTypeError(
            f"want four positive channel counts, comma-separated (24,48,96,128), not {text!r}")
    return widths


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("train", help="train the slot classifier on synthetic images and export ONNX")
    _add_data_arguments(p, epochs=12, out=None)
    p.add_argument("--copies", type=int, default=1, help="jittered crop sets per training image")
    _add_hard_argument(p, "crops")
    p.add_argument("--kinds", default=None,
                   help="train only on the boxes of these kinds, comma-separated: a specialist, the second "
                        f"opinion on them (default: every kind, written to {MASTER_MODEL.name}; with --kinds, "
                        f"to {SPECIALIST_MODEL.name} unless --out is given)")
    _add_fine_tune_arguments(p, "slot model")
    p.set_defaults(func=cmd_train)
    p = subparsers.add_parser("train-heights", help="train the dam-height reader on the images `train` uses and export ONNX")
    _add_data_arguments(p, epochs=24, out=DEFAULT_HEIGHTS_MODEL)
    _add_fine_tune_arguments(p, "dam-height reader", 2e-3)
    p.add_argument("--widths", type=_widths, default=None,
                   help="without --init: the conv trunk's channels, block by block, comma-separated (default "
                        "24,48,96,128, the shipped reader's; four blocks halve the 64 px crop to 4; a fine-tune "
                        "keeps its file's). Wider reads slower: time a new file with automa-vision bench")
    p.add_argument("--layers", type=int, choices=(1, 2, 3), default=None,
                   help="without --init: the attention layers that read a frame's dams together (default 2, the "
                        "shipped reader's; each is ~0.6 MB of the file)")
    _add_hard_argument(p, "frames")
    p.set_defaults(func=cmd_train_heights)
    p = subparsers.add_parser("train-drops",
                              help="train a drop counter (headstreams or lakes) on the images `train` uses and export ONNX")
    _add_data_arguments(p, epochs=12, out=None)
    p.add_argument("--kind", choices=tuple(COUNTED_KINDS), default="headstream",
                   help="the boxes whose drops it counts (default headstream); written to that kind's shipped file "
                        "unless --out is given")
    _add_fine_tune_arguments(p, "drop counter of that kind")
    p.add_argument("--only", choices=("last", "tail"), default=None,
                   help="with --init: train only the last layers, on the file's features: \"last\", the head's last "
                        "layer and its tail; \"tail\", only the tail, so every count the file reads below its last is "
                        "read as it did. The tail splits the file's last count (\"that many or more\") into the counts "
                        "past it; a file that reads fewer counts than the kind gets one")
    _add_hard_argument(p, "boxes")
    p.set_defaults(func=cmd_train_drops)
