"""Rendering and cutting training data on several processes gives what one process gives:
each image draws from its own seed, so ``--jobs`` changes only the time taken."""
import shutil
from pathlib import Path

import numpy as np
import pytest

from automa_vision.cli import main
from lab.training.dataset import build
from vision.layout import load_layout

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "synth"
LAYOUT = load_layout()


def test_synth_writes_the_same_folder_on_one_process_or_several(tmp_path):
    for jobs in ("1", "2"):
        assert main(["synth", "--n", "3", "--seed", "77", "--size", "1280x720", "--out", str(tmp_path / jobs),
                     "--jobs", jobs]) == 0
    names = sorted(p.name for p in (tmp_path / "1").iterdir())
    assert names == ["0000.jpg", "0000.json", "0001.jpg", "0001.json", "0002.jpg", "0002.json"]
    for name in names:
        assert (tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes(), name


@pytest.fixture
def two_images(tmp_path):
    for i, name in enumerate(("clean_00", "hard_09")):
        for ext in (".jpg", ".json"):
            shutil.copy(FIXTURES / (name + ext), tmp_path / f"{i:04d}{ext}")
    (tmp_path / "0002.jpg").write_bytes(b"not a picture")       # skipped with a warning, as on one process
    (tmp_path / "0002.json").write_bytes((FIXTURES / "clean_01.json").read_bytes())
    return tmp_path


def test_slot_crops_are_cut_alike_on_one_process_or_several(two_images, capsys):
    one = build(two_images, LAYOUT, copies=2, seed=3, no_paper_share=0.5)
    two = build(two_images, LAYOUT, copies=2, seed=3, no_paper_share=0.5, jobs=2, progress="cutting")
    err = capsys.readouterr().err
    assert "cutting: 3/3 images" in err and "skipped 0002.jpg" in err, "progress counts every image, the bad one too"
    assert len(one.crops) == 2 * 2 * len(LAYOUT.boxes)
    for field in one.__dataclass_fields__:
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    assert list(np.unique(one.image)) == [0, 1]


def test_dam_crops_are_cut_alike_on_one_process_or_several(two_images):
    pytest.importorskip("torch")
    from lab.training.train_heights import build as build_dams

    one, two = build_dams(two_images, LAYOUT), build_dams(two_images, LAYOUT, jobs=2)
    assert len(one.frames) == 2 and len(one.crops) == sum(len(f) for f in one.frames) > 0
    for a, b in zip((one.crops, one.leans, one.heights, one.roles), (two.crops, two.leans, two.heights, two.roles)):
        assert np.array_equal(a, b)
    assert all(np.array_equal(a, b) for a, b in zip(one.frames, two.frames))
