"""The project's layering, read from its source (nothing is imported to check it but
``automa.barrage``, in a process of its own):

- no import cycle among the project's modules (an import inside a function counts: it is
  a dependency all the same; one only for type checkers does not);
- the installed packages import nothing from the lab (``lab/``, research tooling), and so
  the page and the board reader never reach the synthetic renderer (``lab.synth``);
- the shared stages of ``vision`` import no game's reader (``vision/<pkg>/``);
- ``import automa.barrage`` loads no vision, web, OpenCV or Flask module;
- without the lab (an installed copy) the command line keeps its runtime commands;
- every test of the lab is marked ``lab``, so ``pytest -m lab`` and ``-m "not lab"`` split them.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("automa", "automa_vision", "vision", "models", "calibration", "web", "lab")
INSTALLED = ("automa", "automa_vision", "vision", "models", "calibration", "web")
RENDERER = "lab.synth"


def modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST):
    """Every import statement, wherever it stands, but those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not _type_checking(child))


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that module ``name`` imports: ``from p import m`` names module
    ``p.m`` where there is one, else ``p`` itself."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = set()
    for node in _import_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
            continue
        base = package[:len(package) - node.level + 1] if node.level else []
        source = ".".join(base + ([node.module] if node.module else []))
        for alias in node.names:
            out.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source)
    return {m for m in out if m in known and m != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(edges)))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def reached(edges: dict[str, set[str]], roots: list[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(edges.get(m, ()))
    return seen


def top(module: str) -> str:
    return module.split(".")[0]


@pytest.fixture(scope="module")
def edges() -> dict[str, set[str]]:
    return graph()


def test_the_graph_sees_imports_of_every_form(edges):
    """Without this, a reader that found no import would pass every check below."""
    assert "vision.registration" in edges["vision.barrage.pipeline"]       # from ..registration import ...
    assert "vision.barrage.slot_model" in edges["vision.barrage.pipeline"]  # from .slot_model import ...
    assert "lab.evaluate" in edges["lab.eval_cli"]                          # lazy: inside a function
    assert "automa.games" in edges["automa_vision.cli"]                     # absolute
    assert "vision.pipeline" not in edges                                  # moved: no stale name lingers


def test_the_cycle_finder_finds_a_cycle_and_only_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_the_projects_modules(edges):
    assert cycles(edges) == []


def test_the_installed_packages_import_nothing_from_the_lab(edges):
    assert {top(m) for m in edges} >= set(INSTALLED) | {"lab"}
    wrong = {m: sorted(d for d in deps if top(d) == "lab") for m, deps in edges.items() if top(m) in INSTALLED}
    assert {m: d for m, d in wrong.items() if d} == {}


def test_the_page_and_the_board_reader_never_reach_the_synthetic_renderer(edges):
    renderer = [m for m in edges if m == RENDERER or m.startswith(RENDERER + ".")]
    assert len(renderer) > 5                    # the renderer is where this test looks for it
    roots = [m for m in edges if top(m) == "web"] + ["vision.barrage.pipeline", "vision.barrage.cli",
                                                     "vision.reader", "automa_vision.cli"]
    assert set(roots) <= set(edges)
    assert sorted(reached(edges, roots) & set(renderer)) == []


def test_the_shared_vision_stages_import_no_games_reader(edges):
    shared = [m for m in edges if top(m) == "vision" and m.count(".") == 1]
    games = {m.split(".")[1] for m in edges if m.count(".") == 2 and top(m) == "vision"}
    assert "barrage" in games and "vision.registration" in shared
    wrong = {m: sorted(d for d in edges[m] if d.count(".") >= 1 and d.split(".")[1] in games and top(d) == "vision")
             for m in shared}
    assert {m: d for m, d in wrong.items() if d} == {}


def test_the_engine_loads_no_vision_web_opencv_or_flask():
    code = ("import automa.barrage, sys; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('vision', 'web', 'cv2', 'flask')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_without_the_lab_an_installed_copy_keeps_its_runtime_commands():
    """A copy installed from a wheel has no ``lab/``: its commands are left out, the others stay."""
    runtime, lab = ("barrage", "demo", "read", "serve"), ("synth", "eval", "eval-sets", "train", "bench")
    code = ("import contextlib, io, sys\n"
            "sys.modules['lab'] = None\n"             # import lab -> ModuleNotFoundError, as without lab/
            "from automa_vision.cli import main\n"
            "for command in sys.argv[1:]:\n"
            "    try:\n"
            "        with contextlib.redirect_stdout(io.StringIO()):\n"
            "            main([command, '--help'])\n"
            "    except SystemExit as exc:\n"
            "        print(command, 'runs' if exc.code == 0 else 'missing')\n")
    out = subprocess.run([sys.executable, "-c", code, *runtime, *lab], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:-1] == [f"{c} runs" for c in runtime] + [f"{c} missing" for c in lab]


def test_every_lab_test_is_marked_lab():
    unmarked = []
    for path in sorted((ROOT / "tests" / "lab").glob("test_*.py")):
        marks = [node for node in ast.parse(path.read_text()).body
                 if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets)
                 and ast.unparse(node.value) == "pytest.mark.lab"]
        if not marks:
            unmarked.append(path.name)
    assert unmarked == []
