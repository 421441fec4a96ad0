"""The package's layers, read from the source: no import cycle anywhere in keima, the referee (``keima.rules``)
imports nothing else of keima, and every package imports only the layers below its own (``RANKS``). Every import counts, those inside functions and under ``TYPE_CHECKING`` too: a
late import hides a cycle from the interpreter, not from the design."""

from __future__ import annotations

import ast
from pathlib import Path

import keima

ROOT = Path(keima.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the keima modules it imports (``from pkg import name`` counts as ``pkg.name`` when that is a
    module, else as ``pkg``)."""
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for target in targets:
                found = resolve(target)
                if found is not None and found != name:
                    graph[name].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_the_layers() -> None:
    graph = import_graph()
    assert "keima.rules.board" in graph["keima.rules.game"]
    assert "keima.record.sgf" in graph["keima.record"]
    assert cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_referee_imports_nothing_else_of_keima() -> None:
    graph = import_graph()
    outside = {m: sorted(t for t in ts if not t.startswith("keima.rules")) for m, ts in graph.items()
               if m.startswith("keima.rules")}
    assert {m: ts for m, ts in outside.items() if ts} == {}


#: The layers, lowest first: a package imports only packages of lower ranks (every package is named here, so a new
#: one must be placed). The referee of the rules at the bottom; the GTP protocol, records, the bot and the time
#: control and the tournament engine above it; the computer seat above those; the front ends (the match referee, the web server, keima as a
#: GTP engine) above the seat; the command line, which starts every front end, on top.
RANKS: dict[str, int] = {
    "rules": 0,
    "version": 0,
    "record": 1,
    "ai": 1,
    "gtp": 1,
    "timecontrol": 1,
    "tournament": 1,  # tournaments as data: pairing, standings, files (on the rules alone)
    "ratings": 1,  # Glicko-2, ranks and the handicap's rank difference (on the rules alone)
    "seat": 2,
    "archive": 2,
    "keima": 2,  # the package's own facade (keima.Game, keima.load_sgf ...)
    "match": 3,
    "server": 3,
    "gtp_engine": 3,
    "web": 3,
    "cli": 4,
    "__main__": 5,
}


def package_of(module: str) -> str:
    """The top-level package (or module) of keima that ``module`` belongs to: ``keima.ai.player`` -> ``ai``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package -> the other packages its modules import."""
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        out.setdefault(package_of(module), set()).update(
            package_of(t) for t in targets if package_of(t) != package_of(module))
    return out


def test_every_package_has_a_rank() -> None:
    assert sorted(set(package_graph(import_graph())) - set(RANKS)) == []


def test_packages_import_only_lower_ranks() -> None:
    upward = {(pkg, dep) for pkg, deps in package_graph(import_graph()).items() for dep in deps
              if RANKS[dep] >= RANKS[pkg]}
    assert sorted(upward) == []


def test_the_ranks_the_design_names() -> None:
    # rules < record, ai, gtp (the protocol), the time control < the seat < the match referee and the front ends.
    assert RANKS["rules"] < min(RANKS[p] for p in ("record", "ai", "gtp", "timecontrol"))
    assert max(RANKS[p] for p in ("record", "ai", "gtp", "timecontrol")) < RANKS["seat"]
    assert RANKS["seat"] < min(RANKS[p] for p in ("match", "cli", "server", "gtp_engine"))
    # And the seat really stands on them: it imports the protocol's engine client, the bot and the time control.
    graph = package_graph(import_graph())
    assert {"gtp", "ai", "timecontrol", "rules"} <= graph["seat"]
    # The GTP package is the protocol alone (framing and the engine client): it needs nothing else of keima.
    assert graph.get("gtp", set()) == set()


def test_no_cycle_between_packages() -> None:
    graph = package_graph(import_graph())
    assert cycles({p: graph.get(p, set()) for p in RANKS}) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
