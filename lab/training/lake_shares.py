"""How many drops the lakes of the training images hold: the prior the drop readers learned.

Both readers of a lake's drops (the slot model's drop head, the lake counter) learn from every
visible lake of the generator's images. Most dam spaces there are empty, and an empty dam's
lake holds no water, so about four lakes in five hold none; a reader that cannot see the drops
well says 0, because 0 is what lakes mostly hold in training. The decoder divides these shares
out where it reads a dam with its lake (``vision.barrage.held_water``). They depend only on the
generator's game states (``lab.synth.render.game_state``), not on its pictures:

    python -m lab.training.lake_shares --states 20000 --seed 3100000
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from lab.synth.render import game_state
from vision.barrage.held_water import LAKE_SHARES
from vision.barrage.labels import MAX_DROPS
from vision.layout import load_layout


def lake_counts(states: int, seed: int) -> list[int]:
    """How many dam spaces' lakes hold 0..MAX_DROPS drops over the games of seeds
    ``seed`` .. ``seed + states - 1``, empty dam spaces included."""
    spaces = [slot.id for slot in load_layout().of_kind("dam")]
    counts: Counter[int] = Counter()
    for s in range(seed, seed + states):
        dams = game_state(s).dams
        counts.update(min(dams[i].drops if i in dams else 0, MAX_DROPS) for i in spaces)
    return [counts[n] for n in range(MAX_DROPS + 1)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--states", type=int, default=20000, help="games to count")
    p.add_argument("--seed", type=int, default=3_100_000, help="the first game's seed")
    p.add_argument("--out", type=Path, default=LAKE_SHARES)
    args = p.parse_args()
    counts = lake_counts(args.states, args.seed)
    total = sum(counts)
    args.out.write_text(json.dumps({
        "what": "share of the generator's lakes (one per dam space, empty spaces included) holding 0.. drops",
        "command": f"python -m lab.training.lake_shares --states {args.states} --seed {args.seed}",
        "lakes": total, "counts": counts, "shares": [round(c / total, 5) for c in counts]}, indent=1) + "\n")
    print(f"wrote {args.out}: {total} lakes, shares {[round(c / total, 3) for c in counts]}")


if __name__ == "__main__":
    main()
