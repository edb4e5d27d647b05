"""The shape of the code: layers import only downwards, no import cycles, imports build nothing.

Every module of the four packages is found with `importlib` and read with `ast`; every import
counts, including one inside a function (that is how cycles hide).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGES = ("corpora", "tools", "graph", "evals")
ROOT = Path(__file__).resolve().parents[1]

LAYERS: tuple[tuple[str, ...], ...] = (
    ("corpora",),
    ("tools",),
    ("graph.common",),
    ("graph.mcp_io",),
    ("graph.models",),
    ("graph.agent",),
    ("graph.flow",),
    ("graph.router",),
    ("graph.app",),
    ("evals",),
    ("graph.cli",),
    ("graph.__main__",),
)
"""Lowest first: a module may import its own layer and those listed before it, never after."""


def all_modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name, with its source file."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations, package
        found[package] = Path(spec.origin or "")
        for info in pkgutil.walk_packages(spec.submodule_search_locations, prefix=f"{package}."):
            module_spec = importlib.util.find_spec(info.name)
            if module_spec is not None and module_spec.origin:
                found[info.name] = Path(module_spec.origin)
    return found


def imported_by(name: str, source: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The project modules `name` imports (anywhere in the file), resolved to module names."""
    package = name if source.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source.read_text(), str(source))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = importlib.util.resolve_name("." * node.level + base, package)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (a package's `__init__` stands for it)."""
    modules = all_modules()
    return {name: set(imported_by(name, path, modules)) for name, path in modules.items()}


def layer_of(module: str) -> int:
    """The index in `LAYERS` of the longest prefix naming `module`'s layer."""
    best, index = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, index = len(prefix), i
    return index


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_parents(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph without the edge from a package's `__init__` to its own submodules."""
    return {
        name: {t for t in targets if not t.startswith(name + ".")}
        for name, targets in graph.items()
    }


# --- the helpers themselves ---------------------------------------------------------------------


def test_cycles_finds_a_made_up_cycle_and_nothing_in_a_tree() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_layer_of_takes_the_longest_prefix() -> None:
    assert layer_of("graph.cli.main") > layer_of("evals.runner") > layer_of("graph.app.session")
    assert layer_of("graph.agent.act") > layer_of("graph.models.base") > layer_of("tools.bm25")
    assert layer_of("graph.routerx") == -1


def test_imported_by_resolves_relative_and_function_level_imports(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text("def f():\n    from .sibling import thing\n    import pkg.other\n")
    modules = {"pkg.mod": source, "pkg.sibling": source, "pkg.other": source, "pkg": source}
    assert set(imported_by("pkg.mod", source, modules)) == {"pkg.sibling", "pkg.other"}


# --- the project --------------------------------------------------------------------------------


def test_every_module_belongs_to_a_layer() -> None:
    unplaced = sorted(m for m in all_modules() if m not in PACKAGES and layer_of(m) < 0)
    assert unplaced == []


def test_there_is_no_import_cycle() -> None:
    assert cycles(package_parents(import_graph())) == []


def test_layers_import_only_downwards() -> None:
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in import_graph().items()
        if name not in PACKAGES
        for target in targets
        if target not in PACKAGES and layer_of(target) > layer_of(name)
    )
    assert upward == []


def test_langgraph_json_names_factories() -> None:
    graphs = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    for spec in graphs.values():
        path, _, attr = spec.partition(":")
        module = ".".join(Path(path).with_suffix("").parts)
        function = getattr(importlib.import_module(module), attr)
        assert callable(function) and attr.startswith("make_"), spec


IMPORT_EVERYTHING = """
import importlib, json, os, sys
from langgraph.graph.state import StateGraph
import tools.bm25, tools.bm25_small, tools.dense
built = []
def spy(what, original):
    def wrapper(*args, **kwargs):
        built.append(what)
        return original(*args, **kwargs)
    return wrapper
StateGraph.compile = spy("graph", StateGraph.compile)
tools.bm25.BM25.__init__ = spy("bm25 index", tools.bm25.BM25.__init__)
tools.bm25_small.SmallBM25.__init__ = spy("bm25 index", tools.bm25_small.SmallBM25.__init__)
tools.dense.DenseIndex.__init__ = spy("dense index", tools.dense.DenseIndex.__init__)
for name in json.loads(sys.argv[1]):
    before = len(built)
    importlib.import_module(name)
    if len(built) > before:
        print(name, built[before:])
print("home exists" if os.path.exists(os.environ["AGENT_HOME"]) else "")
"""


def import_in_fresh_python(script: str, names: list[str], home: Path) -> str:
    """Run the import spy over `names` in a new interpreter; its output (empty: nothing built)."""
    env = {"PATH": "/usr/bin:/bin", "AGENT_HOME": str(home), "HOME": str(home.parent)}
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(names)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.mark.slow
def test_importing_any_module_builds_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    names = sorted(m for m in all_modules() if m != "graph.__main__")
    assert import_in_fresh_python(IMPORT_EVERYTHING, names, home) == ""
    assert not home.exists()


@pytest.mark.slow
def test_the_import_spy_sees_a_graph_being_built(tmp_path: Path) -> None:
    script = IMPORT_EVERYTHING.replace(
        "importlib.import_module(name)",
        "importlib.import_module(name); import asyncio; "
        "asyncio.run(importlib.import_module('graph.app.served').make_graph())",
    )
    seen = import_in_fresh_python(script, ["graph.app.served"], tmp_path / "home")
    assert "graph.app.served ['bm25 index'" in seen and "'graph'" in seen
