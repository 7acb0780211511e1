"""The bundled Barrage data: complete, consistent, and a bad file names the file and the field."""
import copy

import pytest

from automa.barrage import data
from automa.common.datafile import load_json
from automa.common.errors import DataError


def test_map_counts_and_topology():
    m = data.barrage_map()
    assert len(m.basins) == 10 and len(m.dams) == 20 and len(m.conduits) == 20
    assert len(m.powerhouses) == 23 and len(m.groups) == 8
    assert sum(d.red for d in m.dams.values()) == 10
    assert m.area_basins == {"mountains": (1, 2, 3, 4), "hills": (5, 6, 7), "plains": (8, 9, 10)}
    assert (m.conduits["1A"].value, m.conduits["1A"].group) == (5, 8)
    assert (m.conduits["10B"].value, m.conduits["10B"].group) == (1, 12)
    assert m.exit_of_group(5) == "EXIT_L" and m.exit_of_group(10) == "EXIT_R"
    assert [m.powerhouses[s].red for s in m.groups[11].spaces] == [False, False, True, True]


def test_tiles_and_components():
    tiles = data.automa_tiles()
    assert sorted(tiles) == list(range(1, 21))
    assert all(t["actions"][-1]["type"] == "bank" for t in tiles.values()), "the last action can always be performed"
    assert [tiles[n]["actions"][0]["modifier"] for n in (1, 2, 3, 4)] == [-2, -2, -1, -1]
    patent15 = next(a for a in tiles[15]["actions"] if a["type"] == "patent_office")
    assert (patent15["engineers"], patent15["vp_change"]) == (1, -2), "printed-tile correction"
    assert not any(a["type"] == "external_work" for a in tiles[19]["actions"])
    comps = data.components()
    kinds = [c["kind"] for c in comps.contracts.values()]
    assert (kinds.count("green"), kinds.count("yellow"), kinds.count("red"), kinds.count("national")) == (15, 15, 15, 6)
    assert data.company_colours()["usa"] == "red"
    assert comps.raw["starting"]["vp_automa"] == 16


def test_bad_map_names_file_and_field(tmp_path):
    raw = load_json(data.DATA_DIR / "map.json")
    broken = copy.deepcopy(raw)
    broken["basins"][3]["conduits"][1]["value"] = "five"
    with pytest.raises(DataError, match=r"map\.json: basins\[3\]\.conduits\[1\]\.value: expected int"):
        data.BarrageMap(broken, "map.json")
    broken = copy.deepcopy(raw)
    broken["basins"][0]["conduits"][0]["powerhouse_group"] = 42
    with pytest.raises(DataError, match="conduit 1A.powerhouse_group: unknown group 42"):
        data.BarrageMap(broken, "map.json")


def test_bad_tiles_name_the_tile_and_field():
    raw = load_json(data.DATA_DIR / "tiles.json")
    raw["tiles"][4]["criteria"]["conduit"]["criteria"][1] = "nearest_pub"
    with pytest.raises(DataError, match=r"tiles\[4\]\.criteria\.conduit\.criteria\[1\]: unknown criterion 'nearest_pub'"):
        data._check_tiles(raw)


def test_malformed_json_file_is_named(tmp_path):
    bad = tmp_path / "map.json"
    bad.write_text('{"areas": ')
    with pytest.raises(DataError, match=r"map\.json: line 1 column"):
        load_json(bad)
    with pytest.raises(DataError, match="file not found"):
        load_json(tmp_path / "missing.json")
