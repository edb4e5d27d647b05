"""Code hygiene anyone can check: no test-only product code, no re-export shims.

Read with `ast` only (nothing is imported):

- every public function, class and constant of the product packages is used by product code
  (or a benchmark, `langgraph.json`, `pyproject.toml`), or is named public API below; code that
  only the tests use belongs under `tests/`;
- a name is imported from the module that defines it, so no module keeps a name alive for its
  old callers after a split. Package `__init__` modules that declare a package's API are the
  exception.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("graph", "tools", "corpora", "evals")
USERS = (*PRODUCT, "benchmarks")
"""Where product code is used: the packages themselves and the benchmark scripts."""
PUBLIC_API = {
    "graph.app.takehome.run_agent": "seed 004's run_agent contract",
    "tools.bm25.recall_at_k": "seed 004's BM25 contract",
    "graph.app.router_runs.run_router": "the Python API for router threads",
    "graph.app.router_runs.resume_router": "the Python API for router threads",
}
"""Public names no product code calls, each with why it stays."""


def module_name(path: Path) -> str:
    """`graph/app/session.py` -> `graph.app.session`; a package's `__init__` -> the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def sources(folders: tuple[str, ...]) -> dict[str, tuple[Path, ast.Module]]:
    """Every module under `folders`, parsed, by dotted name."""
    found = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ".venv" not in path.parts:
                found[module_name(path)] = (path, ast.parse(path.read_text(), str(path)))
    return found


def defined(tree: ast.Module) -> dict[str, ast.stmt]:
    """The names a module defines at its top level (also inside `if` / `try` blocks)."""
    names: dict[str, ast.stmt] = {}
    for node in tree.body:
        for inner in ast.walk(node) if isinstance(node, ast.If | ast.Try) else [node]:
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names[inner.name] = inner
            elif isinstance(inner, ast.Assign | ast.AnnAssign):
                targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            names[name.id] = inner
    return names


def references(tree: ast.Module) -> Iterator[str]:
    """Every identifier a module reads: names, attributes, imported names, and strings that
    are one identifier (``getattr(module, "name")``), except the strings of ``__all__``."""
    listed = defined(tree).get("__all__")
    skip = {id(node) for node in ast.walk(listed)} if listed is not None else set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.ImportFrom):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.isidentifier() and id(node) not in skip:
                yield node.value


def is_public(name: str) -> bool:
    """A name other modules may use: no leading underscore, not a dunder."""
    return not name.startswith("_")


def test_product_code_is_used_by_product_code() -> None:
    users = sources(USERS)
    config = (ROOT / "langgraph.json").read_text() + (ROOT / "pyproject.toml").read_text()
    used_by: dict[str, Counter[str]] = {
        module: Counter(references(tree)) for module, (_, tree) in users.items()
    }
    unused = []
    for module, (_, tree) in sources(PRODUCT).items():
        if module.endswith("__main__"):
            continue
        for name in filter(is_public, defined(tree)):
            if f"{module}.{name}" in PUBLIC_API or re.search(rf"\b{name}\b", config):
                continue
            if not any(counts[name] for counts in used_by.values()):
                unused.append(f"{module}.{name}")
    assert unused == [], "used only by tests (move under tests/) or by nothing (delete)"


def test_names_are_imported_from_the_module_that_defines_them() -> None:
    product = sources(PRODUCT)
    facades = {m for m, (path, _) in product.items() if path.name == "__init__.py"}
    shims = []
    for importer, (_, tree) in sources((*USERS, "tests")).items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module not in product:
                continue
            if node.module in facades:
                continue
            names = defined(product[node.module][1])
            for alias in node.names:
                if alias.name not in names and f"{node.module}.{alias.name}" not in product:
                    shims.append(f"{importer} imports {alias.name} from {node.module}")
    assert shims == [], "import these from the module that defines them"


def test_all_lists_only_what_the_module_defines() -> None:
    extra = []
    for module, (path, tree) in sources(PRODUCT).items():
        if path.name == "__init__.py":
            continue
        names = defined(tree)
        listed = names.get("__all__")
        if isinstance(listed, ast.Assign) and isinstance(listed.value, ast.List | ast.Tuple):
            for item in listed.value.elts:
                if isinstance(item, ast.Constant) and item.value not in names:
                    extra.append(f"{module}: {item.value}")
    assert extra == [], "__all__ names a re-export; callers should import from the owner"
