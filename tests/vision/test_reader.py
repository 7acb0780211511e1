"""vision.reader: a game's board reader registers by its folder (``vision/<pkg>/reader.py``
defining ``READER``) and reads frames into readings the page can use."""
import json
import sys
from pathlib import Path

import cv2
import pytest

import vision
from vision.barrage.pipeline import Pipeline
from vision.reader import BoardReader, BoardReading, GameReader, get, registry

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "synth" / "clean_01.jpg"


def test_barrage_registers_its_reader_and_it_reads_a_frame():
    reader = registry()["barrage"]
    assert isinstance(reader, GameReader) and get("barrage") is reader
    loaded = reader.load()
    assert isinstance(loaded, Pipeline) and isinstance(loaded, BoardReader)
    reading = loaded.read_frame(cv2.imread(str(FIXTURE)))
    assert isinstance(reading, BoardReading)
    truth = json.loads(FIXTURE.with_suffix(".json").read_text())
    assert reading.registration != "none" and {s.id for s in reading.slots} >= {t["id"] for t in truth["slots"]}
    assert json.dumps(reading.to_dict())


@pytest.fixture
def games_folder(tmp_path, monkeypatch):
    """A folder searched for game readers beside vision's own, as a new game's folder would be."""
    monkeypatch.setattr(vision, "__path__", [*vision.__path__, str(tmp_path)])
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith(("vision.stub_game", "vision.broken", "vision.bare"))]:
        del sys.modules[name]


def write_package(folder: Path, name: str, reader: str | None) -> None:
    (folder / name).mkdir()
    (folder / name / "__init__.py").write_text("")
    if reader is not None:
        (folder / name / "reader.py").write_text(reader)


STUB = '''
from vision.reader import GameReader


class StubReader(GameReader):
    game = "stub-game"

    def load(self, profile=None):
        return self


READER = StubReader()
'''


def test_a_new_games_folder_registers_its_reader_without_a_list_to_edit(games_folder):
    write_package(games_folder, "stub_game", STUB)
    write_package(games_folder, "bare", None)              # a package without a reader: not a game reader
    readers = registry()
    assert set(readers) == {"barrage", "stub-game"}
    assert get("stub-game").game == "stub-game"
    with pytest.raises(KeyError, match="barrage, stub-game"):
        get("no-such-game")


def test_a_reader_that_cannot_be_imported_is_said_not_skipped(games_folder):
    write_package(games_folder, "broken", "import a_module_nobody_installed\n")
    with pytest.raises(ModuleNotFoundError, match="a_module_nobody_installed"):
        registry()
