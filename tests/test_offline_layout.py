"""The shape of graph/models and of the offline policy (graph/models/offline/), read with `ast`.

- graph/models imports nothing above it: of the rest of `graph` only `graph.common`, so the
  agent's context may import the models (tests/test_architecture.py holds every layer);
- no import cycle among its modules, counting imports inside functions and TYPE_CHECKING ones;
- the offline policy hides no import inside a function;
- every weight, word list and pattern of the policy is named in the `tuning/` package, with its
  reason;
- each tool name is spelled by one module only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from corpora import Corpus, Passage
from graph.agent.context import Context
from graph.models.actions import Observation
from graph.models.offline.model import run_budget
from graph.models.offline.rules import decide
from tools.finish import FINISH_TOOL, finish
from tools.search import make_search_tool

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "graph" / "models"
OFFLINE = MODELS / "offline"
TUNING = OFFLINE / "tuning"
ALLOWED_ABOVE = ("graph.models", "graph.common")
TOOL_NAMES = {"finish": "tools/finish.py", "calculator": "tools/calculator.py"}
SEARCH_PREFIX_OWNER = "tools/search_protocol.py"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[tuple[str, ast.AST]]:
    """Every module `path` imports (anywhere in it) and the import node."""
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else None
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            base = node.module if node.level == 0 else f"{package}.{node.module}"
            yield base, node
            for alias in node.names:  # `from graph.models import offline` names a module
                yield f"{base}.{alias.name}", node


def model_files() -> list[Path]:
    return sorted(MODELS.rglob("*.py"))


def policy_files() -> list[Path]:
    """The offline policy's modules outside the tuning package."""
    return [p for p in sorted(OFFLINE.rglob("*.py")) if TUNING not in p.parents]


def tuning_files() -> list[Path]:
    """The modules of the tuning package."""
    return sorted(TUNING.rglob("*.py"))


def test_graph_models_imports_nothing_above_it() -> None:
    above = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in model_files()
        for name, _ in imported(path)
        if name.startswith("graph.") and not name.startswith(ALLOWED_ABOVE)
    ]
    assert above == []


def test_no_import_cycle_in_graph_models() -> None:
    modules = {module_name(path): path for path in model_files()}
    edges = {
        name: {m for m, _ in imported(path) if m in modules and m != name}
        for name, path in modules.items()
    }
    # a submodule needs its package initialised: that edge is Python's, not a cycle of ours
    for name in edges:
        edges[name] -= {p for p in modules if name.startswith(p + ".")}
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*trail[trail.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_the_offline_policy_hides_no_import_in_a_function() -> None:
    hidden = []
    for path in sorted(OFFLINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        hidden.append(f"{path.name}:{inner.lineno}")
    assert hidden == []


def test_no_module_of_graph_models_is_called_policy() -> None:
    assert [p for p in MODELS.rglob("*") if p.stem == "policy"] == []


def test_every_weight_of_the_offline_policy_is_named_in_tuning() -> None:
    """A float literal outside tuning/ is an anonymous weight (0.0 and 1.0 are not weights)."""
    anonymous = [
        f"{path.relative_to(OFFLINE)}:{node.lineno} {node.value!r}"
        for path in policy_files()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, float)
        and node.value not in (0.0, 1.0)
    ]
    assert anonymous == []


REGEX_CALLS = {"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "split"}


def tunable(value: ast.expr) -> bool:
    """Whether a module-level value is a threshold, a word list or a pattern."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, int | float) and not isinstance(value.value, bool)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name | ast.Attribute):
        name = value.func.id if isinstance(value.func, ast.Name) else value.func.attr
        return name in {"frozenset", "set", "compile"}
    if isinstance(value, ast.Set | ast.List | ast.Tuple):  # a tuple of rules is no word list
        return any(isinstance(e, ast.Constant | ast.Tuple) for e in value.elts)
    return False


def test_every_threshold_word_list_and_pattern_lives_in_tuning() -> None:
    """Outside tuning/ no module of the policy defines a number, a word list or a regex at
    module level, nor passes a literal pattern to `re`."""
    elsewhere = []
    for path in policy_files():
        tree = ast.parse(path.read_text())
        name = path.relative_to(OFFLINE)
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                if tunable(node.value):
                    elsewhere.append(f"{name}:{node.lineno}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in REGEX_CALLS
            ):
                elsewhere.append(f"{name}:{node.lineno} re.{node.func.attr}")
    assert elsewhere == []


def test_every_constant_of_the_tuning_package_has_its_reason() -> None:
    """Each module-level assignment of tuning/ is followed by its docstring, the reason."""
    undocumented = []
    for path in tuning_files():
        body = ast.parse(path.read_text()).body
        for node, after in zip(body, [*body[1:], None], strict=True):
            if isinstance(node, ast.Assign | ast.AnnAssign) and not (
                isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                undocumented.append(f"{path.name}:{node.lineno}")
    assert undocumented == []
    assert len(tuning_files()) > 1  # the package's modules, not an empty folder


def test_the_tuning_package_re_exports_nothing() -> None:
    """Its `__init__` is a docstring only: importers name the module owning a constant."""
    body = ast.parse((TUNING / "__init__.py").read_text()).body
    assert len(body) == 1 and isinstance(body[0], ast.Expr)
    not_a_module = [
        f"{path.relative_to(ROOT)}:{node.lineno} {alias.name}"
        for folder in ("graph", "tests", "benchmarks", "evals")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module == "graph.models.offline.tuning"
        for alias in node.names
        if not (TUNING / f"{alias.name}.py").exists()
    ]
    assert not_a_module == []


def test_the_rule_table_is_a_tuple_of_small_functions_each_named_in_its_thoughts() -> None:
    """Each rule is a short function; every Thought of a run starts with the rule's name."""
    from graph.models.offline import rules

    assert isinstance(rules.RULES, tuple) and rules.RULES[-1] is rules.answer
    tree = ast.parse((OFFLINE / "rules.py").read_text())
    lengths = {
        node.name: (node.end_lineno or node.lineno) - node.lineno
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }
    assert all(lengths[rule.__name__] < 50 for rule in rules.RULES)
    corpus = Corpus("ops", tuple(Passage(id=i, text=t) for i, t in OPS))
    tools = [make_search_tool(corpus), finish]
    names = {rule.__name__ for rule in rules.RULES}
    for question in ("Which vendor cools the Dublin office servers?", "Who maintains Orion?"):
        seen: list[Observation] = []
        for _ in range(5):
            action = decide(tools, 6, question, seen)
            assert action.thought.split(":")[0] in names, action.thought
            if action.tool == FINISH_TOOL:
                break
            hits = tools[0].invoke({"type": "tool_call", "id": "c", "name": action.tool,
                                    "args": action.args}).artifact  # fmt: skip
            seen.append(Observation(action.tool, action.args, hits=list(hits)))


def module_constants(path: Path) -> Iterator[str]:
    """The string constants in the values of a module's top-level assignments."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            for inner in ast.walk(node.value):
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    yield inner.value


def test_each_tool_name_is_spelled_by_one_module() -> None:
    spelled: dict[str, set[str]] = {}
    for folder in ("graph", "tools", "evals", "corpora"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for value in module_constants(path):
                if value in TOOL_NAMES or value == "search_":
                    spelled.setdefault(value, set()).add(str(path.relative_to(ROOT)))
    assert spelled == {
        "finish": {TOOL_NAMES["finish"]},
        "calculator": {TOOL_NAMES["calculator"]},
        "search_": {SEARCH_PREFIX_OWNER},
    }


class BudgetState(TypedDict, total=False):
    budget: int | None


def read_budget(state: BudgetState) -> BudgetState:
    return {"budget": run_budget()}


def test_the_step_budget_comes_only_from_the_run_context() -> None:
    builder = StateGraph(BudgetState, context_schema=Context)
    builder.add_node(read_budget)
    builder.add_edge(START, "read_budget")
    builder.add_edge("read_budget", END)
    graph = builder.compile()
    assert graph.invoke({}, context=Context(max_steps=4))["budget"] == 4
    assert graph.invoke({})["budget"] is None  # a run with no context gives no budget
    assert run_budget() is None  # nor does a call outside any run


OPS = [
    ("o1", "The Orion billing service sends invoices nightly. The Ledger team maintains it."),
    ("o2", "Servers in the Dublin office are cooled by chillers."),
    ("o3", "The Osaka office opened in spring with a tea room."),
    ("o4", "Billing audits happen every quarter in the finance wing."),
]


def test_without_a_budget_the_rules_alone_decide_when_to_stop() -> None:
    """With one call left the policy answers; with no budget it reads on (a deeper page)."""
    corpus = Corpus("ops", tuple(Passage(id=i, text=t) for i, t in OPS))
    tools = [make_search_tool(corpus), finish]
    question = "Which vendor cools the Dublin office servers each quarter?"
    seen = [
        Observation("search_ops", {"query": "vendor cools Dublin office servers quarter"},
                    hits=[{"id": "o2", "text": OPS[1][1]}]),
    ]  # fmt: skip
    assert decide(tools, 2, question, seen).tool == FINISH_TOOL
    unbounded = decide(tools, None, question, seen)
    assert unbounded.tool == "search_ops"


CONFIDENCE_BARS = {"SUPPORT_BAR", "RIVAL_MARGIN", "RIVAL_TIES", "ANSWER_WORD_SHARE"}
"""The confidence bars, assigned by `graph/models/confidence.py` alone."""


def test_the_confidence_bars_are_assigned_by_their_owner_only() -> None:
    owners: dict[str, set[str]] = {}
    for path in sorted((ROOT / "graph").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if isinstance(target, ast.Name) and target.id in CONFIDENCE_BARS:
                    owners.setdefault(target.id, set()).add(str(path.relative_to(ROOT)))
    assert owners == {name: {"graph/models/confidence.py"} for name in CONFIDENCE_BARS}
