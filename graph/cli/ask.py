"""`agent demo` and `agent ask`: the seed goals, and one question on a new or given thread."""

from __future__ import annotations

import sys
from typing import Any

import click

from graph.agent.budget import DEFAULT_MAX_STEPS
from graph.cli.support import (
    RETRIEVER,
    STEPS,
    K,
    db_option,
    echo_answer_only,
    echo_json,
    echo_lines,
    quiet_option,
    session,
    user_errors,
)
from tools.search_settings import DEFAULT_K

RULE = "=" * 72
THIN = "-" * 72
DEMO_RUNS = (
    (
        "(a) MULTI-HOP: chain two retrievals the single-pass pipeline can't.",
        "what is the warranty on the earbuds made by the company that acquired Acme?",
    ),
    (
        "(b) NO-RETRIEVAL: arithmetic needs a calculator, not an index.",
        "what is 18% of a $250 order?",
    ),
    (
        "(c) ROUTING: a policy question goes to the POLICY index, not products.",
        "what's our refund window?",
    ),
)


@click.command()
@db_option
def demo(db: str | None) -> None:
    """Run the three seed goals (multi-hop, no retrieval, routing) with the offline policy."""
    from graph.agent.transcript import current_turn
    from graph.app.corpus_specs import demo_retriever
    from graph.app.render_trace import render_goal, render_result

    with user_errors():
        retriever, embed_line = demo_retriever()
    echo_lines(
        [
            embed_line,
            RULE,
            "RAG AGENT  -  a reason/act/observe loop that picks its own tools at run time",
            RULE,
            "[controller] offline deterministic ReAct policy (model 'policy'); no API key, "
            "no network",
        ]
    )
    with session(db, retriever=retriever) as agent:
        echo_lines(["", "Tools: " + ", ".join(tool.name for tool in _tools(agent))])
        for title, goal in DEMO_RUNS:
            echo_lines(["", THIN, f"RUN {title}", THIN, *render_goal(goal)])
            with user_errors():
                result = agent.ask(goal, on_lines=echo_lines)
            turn = current_turn(agent.messages(result["thread_id"]))
            echo_lines(
                [
                    *render_result(result, turn),
                    f"  (thread {result['thread_id']}: agent replay {result['thread_id']})",
                ]
            )
    echo_lines(["", RULE, "Every run stops on finish() or the step budget, and is saved.", RULE])


class HeaderFirst:
    """Echoes a run's step lines, printing the header once before the first of them.

    The header waits until the session has accepted the question, so a question it refuses
    prints its one error line and nothing else.
    """

    def __init__(self, header: list[str]) -> None:
        self.header: list[str] | None = header

    def echo(self, lines: list[str]) -> None:
        """Print the header (the first time) and then `lines`."""
        if self.header is not None:
            echo_lines(self.header)
            self.header = None
        echo_lines(lines)


def _tools(agent: Any) -> list[Any]:
    """The tools of a session's graph, in order."""
    return list(agent.graph.nodes["act"].bound.tools_by_name.values())


@click.command()
@click.argument("question")
@click.option(
    "--model",
    "-m",
    default=None,
    show_default="the thread's, else $AGENT_MODEL, else policy",
    help="policy, scripted:<file>, or provider:model (openai:gpt-4o-mini, anthropic:...).",
)
@click.option(
    "--max-steps",
    type=STEPS,
    default=None,
    show_default=f"the thread's, else {DEFAULT_MAX_STEPS}",
    help="Most model calls for this question.",
)
@click.option(
    "--k", type=K, default=None, show_default=f"the thread's, else {DEFAULT_K}",
    help="Passages per search.",
)  # fmt: skip
@click.option("--thread", "thread_id", default=None, help="Thread to continue (default: new).")
@click.option(
    "--corpus",
    "corpus_specs",
    multiple=True,
    metavar="NAME[=PATH]",
    help="A saved index NAME, or a corpus (.jsonl, document or folder) as search_NAME; repeatable.",
)
@click.option(
    "--retriever",
    type=RETRIEVER,
    default=None,
    help="How corpora loaded here are searched (default: $AGENT_RETRIEVER, else bm25).",
)
@click.option(
    "--mcp",
    "mcp_specs",
    multiple=True,
    metavar="SPEC",
    help="Add an MCP server's tools: http://HOST:PORT/mcp or 'stdio:COMMAND ARGS...'; repeatable.",
)
@click.option(
    "--builtins",
    is_flag=True,
    help="Search the built-in corpora too (they are the default only when no "
    "--corpus, --mcp or $AGENT_CORPORA names a source).",
)
@click.option(
    "--require-search",
    is_flag=True,
    default=None,
    help="Make the first model call a search (tool_choice): for models that answer unsearched.",
)
@click.option("--json", "as_json", is_flag=True, help="Print only the result as JSON.")
@quiet_option
@db_option
def ask(
    question: str,
    model: str | None,
    max_steps: int | None,
    k: int | None,
    thread_id: str | None,
    corpus_specs: tuple[str, ...],
    mcp_specs: tuple[str, ...],
    retriever: str | None,
    builtins: bool,
    require_search: bool | None,
    as_json: bool,
    quiet: bool,
    db: str | None,
) -> None:
    """Ask a question; prints the trace and the answer."""
    from graph.agent.transcript import current_turn
    from graph.app.agent_threads import new_thread_id
    from graph.app.render_trace import render_goal, render_result
    from graph.app.run_context import RunSettings
    from graph.cli.support import interrupted_hint
    from graph.cli.thread_session import thread_session

    given = RunSettings(model=model, max_steps=max_steps, k=k, require_search=require_search)
    settings = thread_session(
        db,
        thread_id,
        given,
        corpus_specs=corpus_specs,
        mcp=mcp_specs,
        builtins=builtins,
        retriever=retriever,
    )
    with settings as (agent, chosen):
        if thread_id is not None:
            with user_errors():
                agent.agent_thread(thread_id)
        header = HeaderFirst([*chosen.notes, *render_goal(question)])
        thread_id = thread_id or new_thread_id()
        with user_errors(), interrupted_hint(thread_id):
            result = agent.ask(  # the session checks the question before anything prints
                question,
                context=chosen.context,
                thread_id=thread_id,
                on_lines=None if as_json or quiet else header.echo,
            )
        if not (as_json or quiet):
            header.echo([])  # a run that printed no step still shows its goal
        if as_json:
            from graph.app.session import RESULT_KEYS

            keys = (*RESULT_KEYS, "thread_id")
            echo_json({key: result.get(key) for key in keys})
        elif quiet:
            echo_answer_only(result)
        else:
            turn = current_turn(agent.messages(result["thread_id"]))
            echo_lines([*render_result(result, turn), f"  thread: {result['thread_id']}"])
    if result["stopped"] == "error":
        sys.exit(1)
