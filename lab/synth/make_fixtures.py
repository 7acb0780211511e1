"""Regenerate the committed test fixtures in ``tests/fixtures/synth/`` (deterministic).

    python -m lab.synth.make_fixtures [--out tests/fixtures/synth]

Four groups of ten frames, each its own seed range: clean light, hard light (glare,
dim, blur, noise) with some occluders, always occluded, and without markers. Frames
are 1280x720 (small files) except every other clean one, at 1280x960. Files are named
``<group>_NN.jpg`` / ``.json`` (compact JSON).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .render import Options, render

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "synth"
PER_GROUP = 10
GROUPS: dict[str, tuple[int, dict]] = {
    "clean": (1000, {"photo": "clean", "occlusion": 0.0}),
    "hard": (2000, {"photo": "hard", "occlusion": 0.3}),
    "occluded": (3000, {"occlusion": 1.0}),
    "nomarkers": (4000, {"markers": False, "occlusion": 0.2}),
}


def fixture_options(group: str, index: int) -> Options:
    size = (1280, 960) if group == "clean" and index % 2 else (1280, 720)
    return Options(size=size, **GROUPS[group][1])


def make(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for group, (first_seed, _) in GROUPS.items():
        for i in range(PER_GROUP):
            sample = render(first_seed + i, fixture_options(group, i))
            (out / f"{group}_{i:02d}.jpg").write_bytes(sample.jpeg)
            (out / f"{group}_{i:02d}.json").write_text(json.dumps(sample.truth, separators=(",", ":")))
            n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    n = make(args.out)
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"wrote {n} fixtures to {args.out} ({size / 1e6:.1f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
