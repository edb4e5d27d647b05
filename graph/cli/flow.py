"""Commands for the flow: ``agent flow``, ``agent compare-flow``, and ``agent resume --with``.

``graph.cli.main`` adds ``flow`` and ``compare_flow`` to the group; ``agent resume``
(``graph.cli.threads``) calls ``resume_flow_thread``, ``continue_flow_thread`` and
``refuse_flow_thread``. Heavy
imports happen inside the commands; the helpers shared with the other commands come from
``graph.cli.support``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import click

from graph.app.terminal import safe_json, safe_markup
from graph.cli.support import db_option, echo_lines, user_errors
from graph.models.providers import default_model_spec

RESUME_HINT = "  resume: agent resume {thread} --with {example}   (or --with 'close: <note>')"
NOT_PAUSED_HINT = "thread {thread!r} is a flow thread, not a crashed agent run: {what}"
NOT_A_FLOW_THREAD = (
    "thread {thread!r} is not a flow thread: --with resumes a flow thread paused for a human "
    "(resume an agent thread without --with)"
)


# -- rendering ------------------------------------------------------------------------------


def render_flow(result: Mapping[str, Any]) -> list[str]:
    """A flow result as lines: the stage log, then the answer or the escalation and its resume."""
    lines = [f"REQUEST: {result.get('request', '')}".rstrip(), ""] if "request" in result else []
    width = max([len(str(e["stage"])) for e in result.get("log") or []] or [0])
    for entry in result.get("log") or []:
        mark = "ok  " if entry["ok"] else "FAIL"
        stage = str(entry["stage"]).ljust(width)
        lines.append(f"  [{stage}] {mark} {entry['ms']:7.1f} ms  {entry['detail']}")
    lines.append("")
    thread = result.get("thread_id")
    payload = result.get("interrupt")
    if payload is not None:
        lines.append(f"ESCALATED at {payload.get('stage')}: {payload.get('reason')}")
        names: Mapping[str, str] = payload.get("fault_names") or {}
        codes = list(payload.get("candidates") or [])
        if codes:
            shown = ", ".join(f"{c} ({names[c]})" if c in names else c for c in codes)
            lines.append(f"  candidates: {shown}")
        if payload.get("error"):
            lines.append(f"  last resume value refused: {payload['error']}")
        lines.append(f"  {payload.get('resume_with', '')}")
        lines.append(RESUME_HINT.format(thread=thread, example=codes[0] if codes else "F-109"))
    else:
        outcome = str(result.get("outcome") or "unknown").upper()
        lines.append(f"{outcome}: {result.get('answer', '')}")
    lines.append(f"  thread: {thread}")
    return lines


def result_json(result: Mapping[str, Any]) -> str:
    """A flow result as one line of JSON (what ``--json`` prints), safe for a terminal."""
    keys = (
        "outcome",
        "answer",
        "reason",
        "fault_code",
        "part_no",
        "model_variant",
        "citation",
        "availability",
        "sourcing",
        "steps",
        "log",
        "interrupt",
        "thread_id",
    )
    return safe_json({key: result.get(key) for key in keys})


# -- agent flow -----------------------------------------------------------------------------


@click.command("flow")
@click.argument("request")
@click.option("--thread", "thread_id", default=None, help="Thread id for the run (default: new).")
@click.option("--json", "as_json", is_flag=True, help="Print only the result as JSON.")
@click.option(
    "--mcp",
    "mcp_spec",
    default=None,
    metavar="SPEC",
    help="Call the three tools over MCP: http://HOST:PORT/mcp or 'stdio:COMMAND ARGS...'.",
)
@db_option
def flow(
    request: str, thread_id: str | None, as_json: bool, mcp_spec: str | None, db: str | None
) -> None:
    """Run the explicit field-service flow; prints the stage log and the answer (or escalation)."""
    from contextlib import ExitStack

    from graph.app.agent_threads import new_thread_id
    from graph.app.flow_runs import run_flow
    from graph.app.persistence import check_thread_id, open_checkpointer

    with user_errors(), ExitStack() as stack:
        if not request.strip():
            raise ValueError("the request is empty")
        thread_id = check_thread_id(thread_id) if thread_id else new_thread_id()
        tools = None
        if mcp_spec is not None:  # one session for this run, closed on the way out
            from graph.mcp_io.client import MCPClients
            from graph.mcp_io.flow import remote_flow_tools

            tools = remote_flow_tools(mcp_spec, stack.enter_context(MCPClients()))
        with open_checkpointer(db) as saver:
            result = run_flow(request, checkpointer=saver, thread_id=thread_id, tools=tools)
    if as_json:
        click.echo(result_json(result))
        return
    echo_lines(render_flow({**result, "request": request}))


# -- agent resume THREAD --with VALUE -------------------------------------------------------


def flow_thread_state(saver: Any, thread_id: str) -> str | None:
    """``"paused"``, ``"stopped"`` or ``"finished"`` for a flow thread, else None.

    ``paused``: waiting for a human decision; ``stopped``: between two stages (a killed
    process, or ``interrupt_before``); None when the thread is not a flow thread (its kind,
    ``graph.app.thread_settings.kind_of``).
    """
    from graph.app.flow_runs import flow_config, flow_for
    from graph.app.thread_settings import FLOW, kind_of
    from graph.flow.transitions import ESCALATE_NODE

    saved = saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
    if kind_of(saved) != FLOW:  # recorded in the checkpoint's metadata
        return None
    snapshot = flow_for(saver).get_state(flow_config(thread_id))
    if ESCALATE_NODE in snapshot.next and snapshot.interrupts:
        return "paused"
    return "stopped" if snapshot.next else "finished"


def _exists(saver: Any, thread_id: str) -> bool:
    """Whether the store holds any checkpoint of the thread."""
    return saver.get_tuple({"configurable": {"thread_id": thread_id}}) is not None


def refuse_flow_thread(saver: Any, thread_id: str) -> None:
    """Raise a one-line ValueError when ``thread_id`` is a flow thread (resumed without --with)."""
    from graph.flow.human import RESUME_HELP

    state = flow_thread_state(saver, thread_id)
    if state == "paused":
        what = f"it waits for a human decision; add --with VALUE ({RESUME_HELP})"
        raise ValueError(NOT_PAUSED_HINT.format(thread=thread_id, what=what))
    if state == "finished":
        what = "it has finished and is not waiting for a human decision"
        raise ValueError(NOT_PAUSED_HINT.format(thread=thread_id, what=what))


def resume_flow_thread(thread_id: str, value: str, db: str | None, as_json: bool = False) -> None:
    """Resume a paused flow thread with a human decision and print the result."""
    from graph.app.flow_runs import resume_flow
    from graph.app.persistence import check_thread_id, open_checkpointer
    from graph.flow.human import parse_resume_text

    with user_errors():
        check_thread_id(thread_id)
        decision = parse_resume_text(value)
        with open_checkpointer(db) as saver:
            if flow_thread_state(saver, thread_id) is None and _exists(saver, thread_id):
                raise ValueError(NOT_A_FLOW_THREAD.format(thread=thread_id))
            result = resume_flow(thread_id, decision, checkpointer=saver)
    if as_json:
        click.echo(result_json(result))
        return
    echo_lines(render_flow(result))


def continue_flow_thread(thread_id: str, db: str | None, as_json: bool = False) -> bool:
    """Run a flow thread that stopped between stages on, print the result; False if not one."""
    from graph.app.flow_runs import continue_flow
    from graph.app.persistence import check_thread_id, open_checkpointer

    with user_errors():
        check_thread_id(thread_id)
        with open_checkpointer(db) as saver:
            if flow_thread_state(saver, thread_id) != "stopped":
                return False
            result = continue_flow(thread_id, checkpointer=saver)
    if as_json:
        click.echo(result_json(result))
    else:
        echo_lines(render_flow(result))
    return True


# -- agent compare-flow ---------------------------------------------------------------------


@click.command("compare-flow")
@click.option(
    "--limit",
    type=click.IntRange(1, 10_000),
    default=None,
    help="At most N requests, taken in turn from each kind (default: the whole set).",
)
@click.option(
    "--model",
    "-m",
    default=default_model_spec,
    show_default="$AGENT_MODEL, else policy",
    help="The agent's model: policy, scripted:<file>, or provider:model (openai:gpt-4o-mini).",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Timed rounds; req/s is taken from the fastest.",
)
@click.option(
    "--checkpointer",
    "checkpointer_kind",
    type=click.Choice(["memory", "sqlite"]),
    default="memory",
    show_default=True,
    help="The checkpointer kind, the same for every system.",
)
def compare_flow(limit: int | None, model: str, rounds: int, checkpointer_kind: str) -> None:
    """Compare the flow, the agent and the router on the field-service request set."""
    from rich.console import Console
    from rich.progress import Progress

    from evals.flow_compare.compare import compare
    from evals.flow_compare.request_set import load_requests, spread
    from evals.flow_compare.systems import SYSTEMS
    from evals.flow_compare.tables import rich_table
    from graph.models import load_model

    err = Console(stderr=True)
    with user_errors(), Progress(console=err, transient=True, disable=not err.is_terminal) as bar:
        chat_model = load_model(model)
        requests = spread(load_requests(), limit)
        task = bar.add_task("flow / agent / router", total=len(requests) * len(SYSTEMS))
        comparison = compare(
            requests,
            model=chat_model,
            checkpointer=checkpointer_kind,  # type: ignore[arg-type]
            rounds=rounds,
            on_record=lambda record: bar.advance(task),
        )
    comparison.model = safe_markup(model)  # shown in the rich caption
    Console(width=max(120, Console().width)).print(rich_table(comparison))
    sys.stdout.flush()


__all__ = [
    "compare_flow",
    "continue_flow_thread",
    "flow",
    "flow_thread_state",
    "refuse_flow_thread",
    "render_flow",
    "result_json",
    "resume_flow_thread",
]
