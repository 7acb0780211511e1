"""Calibration profiles: one folder per profile under the data dir.

A folder holds what the wizard has gathered so far (``wizard.json``: the
homography, the lens distortion the markers showed and the slot overrides;
``frame.jpg``: the picture it works on, as the camera gave it; ``lens.npz``;
``reference.png``) and, once saved, ``profile.json`` in the format
``vision.layout.load_profile`` reads, with paths relative to the folder. Reading against the
empty board adds ``empty_view.png`` and, once the wizard or ``automa-vision adapt`` has taught
it the table, ``adapted.npz`` (from the photos ``teach-1.jpg``... in the wizard).
"""
from __future__ import annotations

import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.barrage.reference_reading import ADAPTED, EMPTY_VIEW
from vision.layout import DEFAULT_LAYOUT, Layout, load_layout
from vision.radial_lens import RadialLens
from vision.registration import Calibration

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$")
FRAME, LENS, REFERENCE, WIZARD, PROFILE = "frame.jpg", "lens.npz", "reference.png", "wizard.json", "profile.json"


class ProfileError(ValueError):
    pass


def valid_name(name: object) -> bool:
    """A profile name is one folder's name under the profiles folder: letters, digits, spaces,
    - and _ only (no path part, no newline: ``fullmatch``, since ``$`` also matches before a
    final newline)."""
    return isinstance(name, str) and NAME_RE.fullmatch(name) is not None


def profile_file(root: Path, name: object) -> Path | None:
    """``root/<name>/profile.json`` where ``name`` is a valid profile name and that file is
    there; None otherwise, so a name from an imported game never reads outside ``root``."""
    if not valid_name(name):
        return None
    path = root / name / PROFILE
    return path if path.is_file() else None


def write_whole(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a crash halfway leaves the file as it was,
    never cut short (a game reads the profile the wizard saved)."""
    part = path.with_name(path.name + ".part")
    if isinstance(data, bytes):
        part.write_bytes(data)
    else:
        part.write_text(data)
    os.replace(part, path)


@dataclass
class Draft:
    """The wizard's progress on one profile."""
    folder: Path
    homography: list[list[float]] | None = None
    registration: str | None = None                    # markers | corners
    overrides: dict[str, dict[str, float]] = field(default_factory=dict)
    lens_kappa: float | None = None     # the distortion the markers showed (``homography`` is then of the frame without it)

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def H(self) -> np.ndarray | None:
        return None if self.homography is None else np.asarray(self.homography, np.float64)

    def frame(self) -> np.ndarray | None:
        """The wizard's picture as play time sees the camera's frames: undistorted by the
        lens calibration, where the profile has one (``vision.barrage.pipeline``)."""
        path = self.folder / FRAME
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.exists() else None
        if frame is None or not self.has(LENS):
            return frame
        try:
            lens = Calibration.load(self.folder / LENS)
        # np.load of a damaged .npz: a bad zip, a pickle it refuses, or a missing array
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise ProfileError(f"the lens calibration {self.folder / LENS} cannot be read ({type(exc).__name__}: {exc}); "
                               "calibrate the lens again (step 2)") from exc
        return lens.undistorter((frame.shape[1], frame.shape[0]))(frame)

    def lens(self, frame: np.ndarray) -> RadialLens | None:
        """The lens distortion the markers showed in ``frame`` (the wizard's picture), if any."""
        return None if self.lens_kappa is None else RadialLens((frame.shape[1], frame.shape[0]), self.lens_kappa)

    def layout(self) -> Layout:
        return load_layout(DEFAULT_LAYOUT, self.overrides)

    def has(self, filename: str) -> bool:
        return (self.folder / filename).exists()

    def create(self) -> None:
        """Make the profile's folder: done by the first step that writes, never by viewing."""
        self.folder.mkdir(exist_ok=True)

    def store(self) -> None:
        self.create()
        write_whole(self.folder / WIZARD, json.dumps(
            {"homography": self.homography, "registration": self.registration, "overrides": self.overrides,
             "lens_kappa": self.lens_kappa}, indent=1))

    def take_picture(self, frame: np.ndarray) -> None:
        """A new picture for the wizard to work on. The board registered on the picture before
        is forgotten, since its homography and lens are that picture's; the slot overrides and
        the reference picture stay, as both are in the board's own frame."""
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
        if not ok:
            raise ProfileError("the picture could not be stored as a JPEG")
        self.create()
        write_whole(self.folder / FRAME, jpeg.tobytes())
        self.forget_registration()

    def forget_registration(self) -> None:
        """Drop the homography and the lens fitted with it: the picture as the wizard sees it
        has changed (a new picture, or a new lens calibration that undistorts it otherwise)."""
        self.homography = self.registration = self.lens_kappa = None
        self.store()

    def status(self) -> dict:
        return {"name": self.name, "photo": self.has(FRAME), "lens": self.has(LENS), "registered": self.H is not None,
                "registration": self.registration, "reference": self.has(REFERENCE),
                "overrides": len(self.overrides), "saved": self.has(PROFILE), "empty_board": self.has(EMPTY_VIEW),
                "taught": self.has(ADAPTED)}


class Profiles:
    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def names(self) -> list[str]:
        """Saved profiles (the ones a game can use)."""
        return sorted(p.name for p in self.root.iterdir() if valid_name(p.name) and (p / PROFILE).is_file())

    def draft(self, name: str) -> Draft:
        """The named profile's draft (its folder is made by the first step that writes)."""
        if not valid_name(name):
            raise ProfileError("a profile name is 1-40 letters, digits, spaces, - or _, starting with a letter or digit")
        folder = self.root / name
        path = folder / WIZARD
        try:
            raw = json.loads(path.read_text()) if path.exists() else {}
            kappa = raw.get("lens_kappa")
            return Draft(folder, raw.get("homography"), raw.get("registration"), raw.get("overrides") or {},
                         None if kappa is None else float(kappa))
        except (ValueError, AttributeError, TypeError) as exc:        # edited by hand: said, and left as it is
            raise ProfileError(f"the wizard's progress in {path} cannot be read ({type(exc).__name__}: {exc}); "
                               "delete that file to register this profile's board again") from exc

    def save(self, draft: Draft) -> Path:
        """Write ``profile.json``. Registration by markers needs nothing more; a board registered by
        clicked corners is found again at play time by its reference image, and by the clicked
        corners themselves where that finds nothing (the last resort)."""
        if draft.H is None:
            raise ProfileError("register the board first (step 4)")
        if draft.registration == "corners" and not draft.has(REFERENCE):
            raise ProfileError("a board registered by clicked corners needs its reference image (step 5)")
        profile: dict = {"slot_overrides": draft.overrides}
        if draft.has(LENS):
            profile["calibration"] = LENS
        if draft.has(REFERENCE):
            profile["reference_image"] = REFERENCE
        if draft.registration == "corners":
            frame = draft.frame()
            if frame is None:
                raise ProfileError("take a picture of the board first (step 1)")
            # where the reference picture's features find nothing, the board is where it was clicked
            profile["clicked_corners"] = {"homography": draft.homography, "frame": [frame.shape[1], frame.shape[0]]}
        path = draft.folder / PROFILE
        if draft.has(EMPTY_VIEW):
            # the empty board saved for reading against it (step 5, ``calibration.adapt.save_empty_board``) stays
            try:
                saved = json.loads(path.read_text()) if path.exists() else {}
            except (OSError, ValueError):
                saved = {}
            profile |= {k: saved[k] for k in ("empty_view", "empty_drops") if isinstance(saved, dict) and k in saved}
        write_whole(path, json.dumps(profile, indent=1))
        return path
