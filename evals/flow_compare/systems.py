"""The systems compared, each as a runner: ``runner(request, thread_id) -> plain result``.

- ``flow``: the explicit flow (``graph.flow``), one node per stage, with one checkpoint per
  invocation (``FAST_DURABILITY``; ``run_flow`` writes one per stage); escalations stay paused.
- ``agent``: the ReAct agent with the field-service tools and ``finish``; it never escalates,
  so an agent run is ``answered`` when it stops on an answer citing something it looked up and
  ``aborted`` otherwise (``graph.router.agent_outcome``).
- ``router``: the flow for requests that name a variant, the agent over the built-in corpora
  for the rest.

Each is driven the same way: ``invoke`` of its compiled graph on a new thread, the result read
from what ``invoke`` returns (a paused router thread also reads its subgraph's state).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Durability

from graph.agent.budget import DEFAULT_MAX_STEPS

SYSTEMS: tuple[str, ...] = ("flow", "agent", "router")
"""The systems compared, in table order."""
CheckpointerKind = Literal["memory", "sqlite"]

Runner = Callable[[str, str], dict[str, Any]]
"""Run one request on a new thread: ``runner(request, thread_id) -> plain result``."""
RunnerFactory = Callable[[BaseCheckpointSaver], Runner]
"""Build a runner on a checkpointer (for systems beyond the three built in)."""


def flow_runner(
    checkpointer: BaseCheckpointSaver, tools: Any = None, durability: Durability | None = None
) -> Runner:
    """The explicit flow, with its default tools unless ``tools`` overrides them by name.

    ``durability`` defaults to the fast setting (``graph.app.flow_runs.FAST_DURABILITY``: one
    checkpoint per invocation), what a caller that wants speed runs; ``run_flow`` writes one
    per stage (``DURABILITY``).
    """
    from graph.app.flow_runs import FAST_DURABILITY, flow_config
    from graph.flow.graph import build_flow

    graph = build_flow(tools, checkpointer)
    mode = durability or FAST_DURABILITY

    def run(request: str, thread_id: str) -> dict[str, Any]:
        config = flow_config(thread_id)
        return flow_record(graph.invoke({"request": request}, config, durability=mode))

    return run


def flow_record(values: dict[str, Any]) -> dict[str, Any]:
    """What a comparison keeps of one flow invocation's output (``invoke``'s values)."""
    from graph.flow.transitions import ESCALATE_NODE

    interrupts = values.get("__interrupt__") or []
    log = values.get("log") or []
    return {
        "outcome": "escalated" if interrupts else values.get("outcome"),
        "answer": values.get("answer", ""),
        "fault_code": values.get("fault_code"),
        "part_no": values.get("part_no"),
        "interrupt": interrupts[-1].value if interrupts else None,
        "steps": sum(1 for entry in log if entry["stage"] != ESCALATE_NODE),
    }


def agent_runner(
    checkpointer: BaseCheckpointSaver, model: BaseChatModel, max_steps: int = DEFAULT_MAX_STEPS
) -> Runner:
    """The ReAct agent with the field-service tools and ``finish``."""
    from graph.agent.budget import run_config
    from graph.agent.context import Context
    from graph.agent.graph import build_agent
    from graph.router import agent_outcome
    from tools.field_service import field_service_tools
    from tools.finish import finish

    graph = build_agent(
        model=model, tools=[*field_service_tools(), finish], checkpointer=checkpointer
    )
    context = Context(max_steps=max_steps)

    def run(request: str, thread_id: str) -> dict[str, Any]:
        result = graph.invoke(
            {"question": request}, run_config(max_steps, thread_id), context=context
        )
        return {
            "outcome": agent_outcome(result),
            "answer": result.get("answer") or "",
            "citations": list(result.get("citations") or []),
            "unsupported": list(result.get("unsupported") or []),
            "stopped": result.get("stopped"),
            "interrupt": None,
            "steps": int(result.get("steps") or 0),
        }

    return run


def router_runner(
    checkpointer: BaseCheckpointSaver, model: BaseChatModel, max_steps: int = DEFAULT_MAX_STEPS
) -> Runner:
    """The router: the flow for requests naming a variant, the agent over the built-ins else."""
    from graph.agent.context import Context
    from graph.app.router_runs import router_result
    from graph.router import build_router, router_config

    graph = build_router(checkpointer, model=model)
    context = Context(max_steps=max_steps)

    def run(request: str, thread_id: str) -> dict[str, Any]:
        config = router_config(thread_id, max_steps)
        values = graph.invoke({"request": request}, config, context=context)
        if values.get("__interrupt__"):
            return router_result(graph, thread_id)
        return {
            "route": values.get("route"),
            "outcome": values.get("outcome"),
            "answer": values.get("answer") or "",
            "fault_code": values.get("fault_code"),
            "part_no": values.get("part_no"),
            "citations": list(values.get("citations") or []),
            "unsupported": list(values.get("unsupported") or []),
            "interrupt": None,
            "steps": int(values.get("steps") or 0),
        }

    return run


@contextmanager
def checkpointers(kind: CheckpointerKind, names: Sequence[str]) -> Iterator[dict[str, Any]]:
    """One fresh checkpointer per system, all of one kind (SQLite files in a temp dir)."""
    if kind == "memory":
        from langgraph.checkpoint.memory import InMemorySaver

        yield {name: InMemorySaver() for name in names}
        return
    if kind != "sqlite":
        raise ValueError(f"checkpointer must be 'memory' or 'sqlite', got {kind!r}")
    from graph.app.persistence import open_checkpointer

    with tempfile.TemporaryDirectory(prefix="compare-flow-") as tmp, ExitStack() as stack:
        yield {
            name: stack.enter_context(open_checkpointer(str(Path(tmp) / f"{name}.sqlite")))
            for name in names
        }


def builtin_runner(
    name: str, saver: BaseCheckpointSaver, model: BaseChatModel, max_steps: int
) -> Runner:
    """The runner for one of `SYSTEMS` by name."""
    if name == "flow":
        return flow_runner(saver)
    if name == "agent":
        return agent_runner(saver, model, max_steps)
    return router_runner(saver, model, max_steps)
