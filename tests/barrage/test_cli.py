"""The `automa-vision barrage` command line is a stable contract that scripts rely on."""
import json
import subprocess
import sys

import pytest

from automa_vision.cli import main


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "automa_vision.cli", *args], input=stdin, capture_output=True, text=True,
                          timeout=60)


def test_new_then_decide_json(tmp_path):
    new = run("barrage", "new", "--automa", "2", "--seed", "7")
    assert new.returncode == 0, new.stderr
    state = json.loads(new.stdout)
    assert sum(c["automa"] for c in state["companies"]) == 2
    path = tmp_path / "state.json"
    path.write_text(new.stdout)
    out = run("barrage", "decide", str(path), "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    for key in ("automa", "action", "target", "engineers", "vp_delta", "trace"):
        assert key in d
    assert isinstance(d["trace"], list) and all(isinstance(x, str) for x in d["trace"])
    assert d["automa"] == state["turn_order"][0]
    applied = run("barrage", "apply", str(path), "-", stdin=out.stdout)
    assert applied.returncode == 0, applied.stderr
    assert json.loads(applied.stdout)["automa_deck"] != state["automa_deck"], "the tile was flipped"


def test_decide_by_colour_and_text_output(tmp_path, capsys):
    path = tmp_path / "s.json"
    assert main(["barrage", "new", "--automa", "1", "--seed", "2"]) == 0
    path.write_text(capsys.readouterr().out)
    colour = {"usa": "red", "germany": "black", "italy": "green", "france": "white"}[
        json.loads(path.read_text())["turn_order"][0]]
    assert main(["barrage", "decide", str(path), "--automa", colour]) == 0
    text = capsys.readouterr().out
    assert "Automa" in text and "Why:" in text and "flipped tile" in text


@pytest.mark.parametrize("content, message", [
    ("{broken", "not valid JSON"),
    ('{"companies": []}', "at least one company"),
    ('[1, 2]', "must be a JSON object"),
])
def test_bad_state_files_give_a_clear_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    out = run("barrage", "decide", str(path))
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr


def test_missing_file_and_bad_counts():
    out = run("barrage", "decide", "/nonexistent/state.json")
    assert out.returncode == 2 and "cannot read" in out.stderr
    out = run("barrage", "new", "--automa", "4")
    assert out.returncode == 2 and "1-3 Automa" in out.stderr


def test_new_with_levels_officers_and_the_expansion(tmp_path):
    """The issue's interface: --levels (one per Automa, in turn order), --officers, --leeghwater."""
    new = run("barrage", "new", "--automa", "3", "--humans", "1", "--levels", "easy,hard,very-hard",
              "--officers", "battista", "--leeghwater", "--seed", "4")
    assert new.returncode == 0, new.stderr
    state = json.loads(new.stdout)
    assert [(c["level"], c["officer"]) for c in state["companies"] if c["automa"]] == \
        [("easy", None), ("hard", None), ("very-hard", "battista")]
    assert state["leeghwater"] is True
    path = tmp_path / "s.json"
    path.write_text(new.stdout)
    out = run("barrage", "decide", str(path), "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert {"level", "officer", "extra_turn", "human_first_action"} <= set(d)
    bad = run("barrage", "new", "--automa", "1", "--levels", "very-hard", "--officers", "spencer")
    assert bad.returncode == 2 and "Leeghwater" in bad.stderr
