"""Held-out evaluation sets the ``synth`` command cannot make: a chosen photo mode
(``hard``: glare, dim light, blur, noise, low JPEG quality) and frame size.

    python -m lab.training.heldout --out data/heldout_hard --n 100 --seed 900000 --photo hard

``--saturated-spaces`` makes a set of board looks outside the training range; ``--placement
turn`` aims the camera at the board as a person does, with the principal point near the image
centre as in a real webcam (the training images shift the principal point instead).
``--lighting lamps`` lights the pieces with two or three lamps near the table, each casting
its own soft shadow (most training images have one distant light, ``lab/synth/lights.py``);
``--lighting low`` brings that light down from 35-85 to 15-35 degrees, so that shadows reach
onto the neighbouring spaces (the shipped models' fine-tunes have also seen both:
``models/MODEL_CARD.md``, "Low lights" and "Other lights and piece surfaces"). The same seeds
give the same scenes either way, so a set and its twin under another light differ only in the light.
``--finish glossy`` gives the pieces glossy plastic faces that glint where they mirror a light
towards the camera; ``--finish clear`` makes the water drops clear, the board showing through
them (most training images' pieces are matte, ``lab/synth/finish.py``). Again the same seeds
give the same scenes. ``--lens wide`` shoots them through a wide-angle webcam's barrel
distortion (the training images' lenses are mild, ``lab/synth/render.py``): a twin that
measures what a camera with no lens calibration costs. ``--processing webcam`` passes the
sensor's picture through a webcam's own noise reduction, saturation, contrast and sharpening
before JPEG (the training images have none, ``lab/synth/processing.py``). ``--shapes
moulded`` builds each dam as an arched wall and each bar conduit as a round pipe (the training
images' structures are blocks, ``lab/synth/shapes.py``): the same pieces, other shapes.
``--games late`` plays each seed's set-up for 60-150 random moves, so that most dam spaces are
built, as near a game's end (the training images' games have 0-60 moves,
``lab/synth/render.py``): the same lights and cameras, fuller maps.
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from lab.synth.batch import write_samples
from lab.synth.camera import PLACEMENTS
from lab.synth.finish import FINISHES
from lab.synth.lights import LIGHTINGS
from lab.synth.processing import PROCESSINGS
from lab.synth.render import GAMES, LENSES, SIZES, Options
from lab.synth.shapes import SHAPES


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--seed", type=int, default=900_000)
    p.add_argument("--photo", default="hard", choices=("random", "clean", "hard"))
    p.add_argument("--size", default="1280x720", choices=[f"{w}x{h}" for w, h in SIZES])
    p.add_argument("--occlusion", type=float, default=0.3)
    p.add_argument("--saturated-spaces", action="store_true",
                   help="a board look the training never saw: spaces printed in strong colours")
    p.add_argument("--placement", default="shift", choices=PLACEMENTS,
                   help="how the board is put in the frame: shift the principal point, or turn the camera")
    p.add_argument("--lighting", default="one", choices=LIGHTINGS,
                   help="one distant light (the default), lamps near the table, or a low light")
    p.add_argument("--finish", default="matte", choices=FINISHES,
                   help="matte pieces (the default), glossy plastic ones, or clear water drops")
    p.add_argument("--lens", default="mild", choices=LENSES,
                   help="the lens: mild distortion (the default) or a wide-angle webcam's barrel")
    p.add_argument("--processing", default="none", choices=PROCESSINGS,
                   help="the webcam's own processing: none (the default) or a webcam's denoising, colour, tone "
                        "and sharpening")
    p.add_argument("--shapes", default="blocks", choices=SHAPES,
                   help="the structures' shapes: blocks (the default) or moulded arched dams and round pipes")
    p.add_argument("--games", default="any", choices=GAMES,
                   help="the game on the board: any length (the default) or late, most dam spaces built")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes rendering at once")
    args = p.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    options = Options(size=(w, h), occlusion=args.occlusion, photo=args.photo, saturated_spaces=args.saturated_spaces,
                      placement=args.placement, lighting=args.lighting, finish=args.finish, lens=args.lens,
                      processing=args.processing, shapes=args.shapes, games=args.games)
    write_samples(args.out, args.seed, args.n, options, args.jobs)


if __name__ == "__main__":
    main()
