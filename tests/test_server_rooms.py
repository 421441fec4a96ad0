"""The server's rooms, read from the source (docs/server.md, *Map*): ``keima.server`` holds one package per domain and
at most eight modules of its own; no module passes 450 lines; a package is entered only through the names its
``__init__`` lists (``__all__``), never by reaching into one of its modules; the packages import each other
without a cycle; and the time is read in one place (``keima.server.timesource``). Every import counts, those
inside functions too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.test_import_graph import cycles

import keima.server

SERVER = Path(keima.server.__file__).parent
MAX_LINES = 450
MAX_TOP_MODULES = 8
# Readings of the wall clock: each must go through ``timesource.now``/``now_utc`` (durations use
# ``time.monotonic``/``perf_counter``, which stay).
CLOCK_CALLS = {("time", "time"), ("datetime", "now"), ("datetime", "utcnow"), ("date", "today"),
               ("time", "localtime"), ("time", "gmtime"), ("time", "ctime")}


def _sources() -> Iterator[Path]:
    for path in sorted(SERVER.rglob("*.py")):
        if "migrations" not in path.relative_to(SERVER).parts:
            yield path


def _packages() -> list[str]:
    return sorted(p.name for p in SERVER.iterdir() if (p / "__init__.py").is_file())


def _room(path: Path) -> str:
    """The package a source file belongs to, or its own name for a module directly in ``keima.server``."""
    parts = path.relative_to(SERVER).parts
    return parts[0] if len(parts) > 1 else path.stem


def _public(package: str) -> set[str]:
    tree = ast.parse((SERVER / package / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return {ast.literal_eval(e) for e in node.value.elts}  # type: ignore[attr-defined]
    return set()


def _server_imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, imported module, names) for each import of a ``keima.server`` module in ``path``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("keima.server"):
            yield node.lineno, node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("keima.server."):
                    yield node.lineno, alias.name, []


def test_the_server_is_a_few_modules_and_its_packages() -> None:
    top = [p.stem for p in SERVER.glob("*.py") if p.stem != "__init__"]
    assert len(top) <= MAX_TOP_MODULES, f"{len(top)} modules directly in keima.server: {sorted(top)}"
    assert len(_packages()) >= 8


@pytest.mark.parametrize("path", list(_sources()), ids=lambda p: str(p.relative_to(SERVER)))
def test_no_module_is_over_450_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(SERVER)} has {lines} lines"


def test_every_package_says_what_it_owns_and_lists_its_public_names() -> None:
    for package in _packages():
        init = SERVER / package / "__init__.py"
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{package}/__init__.py: no docstring"
        # One public name for one thing: two modules' ``router`` behind one name hid one of them.
        bound = [a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names]
        assert len(bound) == len(set(bound)), f"{package}/__init__.py binds a name twice: {sorted(bound)}"


def test_the_built_ui_is_found_where_the_package_keeps_it() -> None:
    # Paths made from a module's own file moved with the module: the UI's must still name keima/web/dist.
    from keima.server.edge import DIST

    assert SERVER.parent / "web" / "dist" == DIST


def test_a_package_is_entered_only_through_its_public_names() -> None:
    packages = set(_packages())
    wrong = []
    for path in _sources():
        room = _room(path)
        if path.name == "__init__.py" and room in packages:
            continue  # a package's own door
        for line, module, names in _server_imports(path):
            parts = module.split(".")
            if len(parts) < 3 or parts[2] not in packages or parts[2] == room:
                continue
            where = f"{path.relative_to(SERVER)}:{line}"
            if len(parts) > 3 or not names:
                wrong.append(f"{where} reaches into {module}")
                continue
            hidden = sorted(set(names) - _public(parts[2]))
            if hidden:
                wrong.append(f"{where} imports {hidden} that keima.server.{parts[2]} does not list in __all__")
    assert not wrong, "\n".join(wrong)


def test_the_public_names_are_there() -> None:
    for package in _packages():
        module = __import__(f"keima.server.{package}", fromlist=["__all__"])
        missing = [name for name in _public(package) if not hasattr(module, name)]
        assert not missing, f"keima.server.{package}.__all__ names {missing}, which it does not have"


def test_the_packages_import_each_other_without_a_cycle() -> None:
    graph: dict[str, set[str]] = {}
    rooms = set(_packages()) | {p.stem for p in SERVER.glob("*.py") if p.stem != "__init__"}
    for path in _sources():
        room = _room(path)
        if path == SERVER / "__init__.py":
            continue
        graph.setdefault(room, set())
        for _line, module, _names in _server_imports(path):
            parts = module.split(".")
            if len(parts) >= 3 and parts[2] in rooms and parts[2] != room:
                graph[room].add(parts[2])
    for targets in list(graph.values()):
        for t in targets:
            graph.setdefault(t, set())
    assert cycles(graph) == []


def test_the_time_is_read_through_the_timesource() -> None:
    found = []
    for path in _sources():
        if path.name == "timesource.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and (node.func.value.id, node.func.attr) in CLOCK_CALLS:
                found.append(f"{path.relative_to(SERVER)}:{node.lineno} {node.func.value.id}.{node.func.attr}()")
    assert not found, "read the time through keima.server.timesource:\n" + "\n".join(found)
