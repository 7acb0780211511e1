"""Render the bundled demo replay: camera frames of a short Barrage game in progress.

    python -m lab.make_demo_replay [--out web/barrage/demo_replay]

The game is fixed (seed, companies, difficulty in ``game.json``) and scripted:
the Automa plays the engine's decisions and the human builds the first legal
structures it can, alternately. Frame ``i`` shows the table after ``i`` turns,
rendered by the synthetic generator with one fixed camera, board look and
lighting (the same render seed for every frame); a piece stays where it was put
from frame to frame, so only the pieces a turn moves change, and the sensor
noise. Re-running the script writes byte-identical files.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from unittest import mock

import cv2

from automa.barrage.engine import apply_decision, decide
from automa.barrage.ops import apply_ops
from automa.barrage.rules import legal_spaces
from automa.barrage.setup import new_game
from automa.barrage.state import GameState
from lab.synth import render as synth_render
from lab.synth.pairs import frame_before
from web.barrage.game import map_of

OUT = Path(__file__).resolve().parents[1] / "web" / "barrage" / "demo_replay"
GAME = {"automas": 1, "humans": 1, "seed": 7, "companies": ["usa", "germany"], "difficulty": "medium"}
RENDER_SEED = 7           # camera pose and light of every frame: an upright board, seen nearly from above
TURNS = 6                 # Automa, human, Automa, human, Automa, human
HUMAN_BUILDS = ("dam_base", "conduit", "powerhouse")
JPEG_QUALITY = 80         # keeps the folder well under 3 MB
FRAME_SIZE = (1280, 960)


def human_turn(state: GameState, company: str, n: int) -> tuple[GameState, str]:
    """The scripted human builds the first legal space of one structure kind (no engineers tracked)."""
    structure = HUMAN_BUILDS[n % len(HUMAN_BUILDS)]
    space = legal_spaces(state, company, structure)[0]
    op = {"op": "build", "company": company, "structure": structure, "space": space}
    return apply_ops(state, [op]), f"{company} builds {structure} on {space}"


def script() -> list[tuple[GameState, str]]:
    """(table state, what happened) after 0..TURNS turns."""
    state = new_game(GAME["automas"], GAME["humans"], GAME["seed"], companies=GAME["companies"],
                     difficulty=GAME["difficulty"])
    out = [(state, "start of round 1")]
    human_moves = 0
    for _ in range(TURNS):
        player = state.turn_order[(len(out) - 1) % len(state.turn_order)]
        if state.companies[player].automa:
            decision = decide(state, player)
            state, label = apply_decision(state, decision), decision.instruction
        else:
            state, label = human_turn(state, player, human_moves)
            human_moves += 1
        out.append((state, label))
    return out


def table_at_the_end(final: GameState) -> synth_render.Table:
    """The table of the game's last frame: the generator draws its own random state, so it is
    handed ours instead; everything else (camera, look, light, each piece's place) comes from
    RENDER_SEED."""
    options = synth_render.Options(size=FRAME_SIZE, occlusion=0.0, photo="clean", board_look="flat")
    with mock.patch.object(synth_render, "random_state", lambda *a, **k: final):
        return synth_render.set_table(RENDER_SEED, options)


def render_frame(table: synth_render.Table, state: GameState, index: int) -> bytes:
    """Frame ``index``: the table with ``state``'s pieces. A piece stands where it stands in
    every frame after it is placed, as on a real table (``lab.synth.pairs``), so the page
    can compare the pictures of two turns (rulings V8); each frame has its own sensor noise."""
    frame = frame_before(table, map_of(state), index)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    assert ok
    return jpeg.tobytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    index = []
    turns = script()
    table = table_at_the_end(turns[-1][0])
    for i, (state, label) in enumerate(turns):
        name = f"{i:04d}.jpg"
        (args.out / name).write_bytes(render_frame(table, state, i))
        # replay.json is the capture module's replay index; "turn" and "label" are ours.
        index.append({"file": name, "t": float(i), "turn": i, "label": label})
    (args.out / "replay.json").write_text(json.dumps(index, indent=1) + "\n")
    (args.out / "game.json").write_text(json.dumps(GAME, indent=1) + "\n")
    total = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"wrote {len(index)} frames to {args.out} ({total / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
