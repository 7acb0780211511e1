"""What a training report records of its images: the command that made them, or where they were found."""
import json

import pytest

from lab.training.cli import source_of, synth_command

pytestmark = pytest.mark.lab      # lab tooling: pytest -m lab / -m 'not lab'


def _image(folder, name, seed):
    (folder / f"{name}.jpg").write_bytes(b"\xff\xd8")
    (folder / f"{name}.json").write_text(json.dumps({"seed": seed, "slots": []}))


def test_a_folder_the_command_made_is_recorded_as_that_command_for_every_image_in_it(tmp_path):
    for i in range(3):
        _image(tmp_path, f"{i:04d}", 5_100_000 + i)
    # an earlier run made three; the training cuts all three, whatever --n-train says
    assert source_of(tmp_path, 5_100_000, lambda n: synth_command(n, 5_100_000, 0.3)) == \
        "automa-vision synth --n 3 --seed 5100000 --occlusion 0.3"


def test_a_folder_put_together_by_hand_is_not_credited_to_the_command(tmp_path):
    _image(tmp_path, "0000", 73_100_000)
    _image(tmp_path, "0001", 73_100_001)
    _image(tmp_path, "b0000", 73_150_000)       # another command's image, its name sorted last
    made = source_of(tmp_path, 73_100_000, lambda n: synth_command(n, 73_100_000, 0.3))
    assert made == (f"3 images found in {tmp_path}, the first and last drawn from seeds 73100000 and 73150000 "
                    "(its synth command draws 73100000 to 73100002)")
    (tmp_path / "0000.json").write_text("{broken")
    assert "drawn from seeds None and 73150000" in source_of(tmp_path, 73_100_000, lambda n: "never")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert source_of(empty, 1, lambda n: "never") == f"no images found in {empty}"
