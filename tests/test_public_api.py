"""The Python API: one import surface, the recursion limit from Context, your own agent in evals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from langchain_core.tools import StructuredTool
from langgraph.checkpoint.memory import InMemorySaver

from evals.datasets import Dataset, Question
from evals.metrics import summarize
from graph.models.scripted import ScriptedModel
from tools.finish import finish

ROOT = Path(__file__).resolve().parent.parent
SURFACE = (
    "build_agent Context Session open_checkpointer default_tools make_search_tool load_model "
    "run_agent run_dataset evaluate"
).split()
FRESH = """
import json, sys
import graph
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("langgraph", "langchain_core"))
names = json.loads(sys.argv[1])
exec("from graph import " + ", ".join(names))
print(json.dumps({"before": loaded, "modules": {n: globals()[n].__module__ for n in names}}))
"""


def test_import_graph_is_cheap_and_every_public_name_comes_from_its_module() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FRESH, json.dumps(SURFACE)],
        capture_output=True, text=True, cwd=ROOT, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    assert seen["before"] == []  # `import graph` alone loads neither LangGraph nor LangChain
    assert seen["modules"] == {
        "build_agent": "graph.agent.graph",
        "Context": "graph.agent.context",
        "Session": "graph.app.session",
        "open_checkpointer": "graph.app.persistence",
        "default_tools": "tools",
        "make_search_tool": "tools.search",
        "load_model": "graph.models",
        "run_agent": "graph.app.takehome",
        "run_dataset": "evals.runner",
        "evaluate": "evals.metrics",
    }


def test_an_unknown_name_is_an_attribute_error() -> None:
    import graph

    try:
        graph.nothing_here  # noqa: B018
    except AttributeError as error:
        assert "nothing_here" in str(error)
    else:
        raise AssertionError("graph.nothing_here should not exist")


def test_the_recursion_limit_follows_from_the_context() -> None:
    from graph import Context

    config = Context(max_steps=4).run_config("t-1")
    assert config == {"recursion_limit": 9, "configurable": {"thread_id": "t-1"}}


# -- your own agent through run_dataset -------------------------------------------------------

SHELF = {
    "s1": "The blue kettle sits on the top shelf.",
    "s2": "Spare fuses are kept in the red tin.",
}


def look_up(word: str) -> tuple[str, list[dict[str, Any]]]:
    """Find shelf notes mentioning a word (a user's own tool, not a project search tool)."""
    hits = [{"id": i, "text": t} for i, t in SHELF.items() if word.lower() in t.lower()]
    return "\n".join(f"[{h['id']}] {h['text']}" for h in hits) or "nothing", hits


SHELF_TOOL = StructuredTool.from_function(
    look_up, name="look_up", response_format="content_and_artifact"
)
SHELF_SET = Dataset(
    name="shelf",
    questions=(
        Question(id="q1", question="Where is the kettle?", answers=("top shelf",),
                 supporting=("s1",), tools=("look_up",)),
        Question(id="q2", question="Where are the fuses?", answers=("red tin",),
                 supporting=("s2",), tools=("look_up",)),
    ),
)  # fmt: skip


def shelf_model() -> ScriptedModel:
    """Looks the question's object up, then answers from the note it found."""

    def turns(word: str, doc: str, answer: str) -> list[dict[str, Any]]:
        return [
            {"tool": "look_up", "args": {"word": word}},
            {"tool": "finish", "args": {"answer": answer, "citations": [doc]}},
        ]

    return ScriptedModel(turns=turns("kettle", "s1", "On the top shelf."))


def test_run_dataset_runs_your_own_graph_and_writes_the_same_reports(tmp_path: Path) -> None:
    from graph import build_agent, run_dataset

    kettle = build_agent(model=shelf_model(), tools=[SHELF_TOOL, finish])
    out = tmp_path / "report"
    records = run_dataset(SHELF_SET, agent=kettle, out=out, concurrency=1, run_id="mine")
    first, second = records
    assert first["correct"] and first["citations"] == ["s1"] and first["unsupported"] == []
    assert first["retrieved"] == ["s1"] and first["tool_calls"] == ["look_up"]
    assert first["tools_ok"] is True and first["stopped"] == "answer"
    assert not second["correct"]  # the script answers the kettle question both times
    assert summarize(records)["accuracy"] == 0.5
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [row["question_id"] for row in rows] == ["q1", "q2"]
    assert "look_up" in (out / "report.html").read_text()
    assert "shelf" in (out / "report.md").read_text()


def test_run_dataset_keeps_the_threads_on_your_graphs_checkpointer() -> None:
    from graph import build_agent, run_dataset

    saver = InMemorySaver()
    agent = build_agent(model=shelf_model(), tools=[SHELF_TOOL, finish], checkpointer=saver)
    (record,) = run_dataset(SHELF_SET, agent=agent, limit=1, run_id="kept", max_steps=3)
    stored = saver.get_tuple({"configurable": {"thread_id": record["thread_id"]}})
    assert stored is not None and stored.checkpoint["channel_values"]["answer"] == (
        "On the top shelf."
    )
    again = run_dataset(SHELF_SET, agent=agent, limit=1, run_id="kept")  # read back, not rerun
    assert again[0]["latency_s"] == 0.0 and again[0]["correct"]
