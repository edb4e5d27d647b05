"""The `agent` command line (also `python -m graph`)."""

from __future__ import annotations

import sys
from typing import Any

import click

from graph.agent.context import DEFAULT_K, DEFAULT_MAX_STEPS
from graph.app.session import RESULT_KEYS
from graph.app.terminal import safe_text
from graph.cli.env import prepare_environment
from graph.cli.support import (
    db_option,
    echo_answer_only,
    echo_json,
    echo_lines,
    quiet_option,
    session,
    user_errors,
)
from graph.models.providers import default_model_spec

STEPS = click.IntRange(1, 100)
K = click.IntRange(1, 50)
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


@click.group()
@click.version_option(package_name="agentic-rag", prog_name="agent")
def cli() -> None:
    """A ReAct agentic-RAG agent on LangGraph: BM25 tools, an offline policy, saved threads."""


@cli.command()
@db_option
def demo(db: str | None) -> None:
    """Run the three seed goals (multi-hop, no retrieval, routing) with the offline policy."""
    from graph.agent.transcript import current_turn
    from graph.app.trace import render_goal, render_result
    from graph.cli.index import demo_retriever

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


def _tools(agent: Any) -> list[Any]:
    """The tools of a session's graph, in order."""
    return list(agent.graph.nodes["act"].bound.tools_by_name.values())


@cli.command()
@click.argument("question")
@click.option(
    "--model",
    "-m",
    default=default_model_spec,
    show_default="$AGENT_MODEL, else policy",
    help="policy, scripted:<file>, or provider:model (openai:gpt-4o-mini, anthropic:...).",
)
@click.option(
    "--max-steps",
    type=STEPS,
    default=DEFAULT_MAX_STEPS,
    show_default=True,
    help="Most model calls for this question.",
)
@click.option("--k", type=K, default=DEFAULT_K, show_default=True, help="Passages per search.")
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
    type=click.Choice(["bm25", "dense", "hybrid"]),
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
@click.option("--json", "as_json", is_flag=True, help="Print only the result as JSON.")
@quiet_option
@db_option
def ask(
    question: str,
    model: str,
    max_steps: int,
    k: int,
    thread_id: str | None,
    corpus_specs: tuple[str, ...],
    mcp_specs: tuple[str, ...],
    retriever: str | None,
    as_json: bool,
    quiet: bool,
    db: str | None,
) -> None:
    """Ask a question; prints the trace and the answer."""
    from graph.agent.nodes import question_problem
    from graph.agent.transcript import current_turn
    from graph.app.persistence import check_thread_id
    from graph.app.session import new_thread_id
    from graph.app.trace import render_goal, render_result
    from graph.cli.support import interrupted_hint
    from graph.cli.thread_session import thread_session

    with user_errors():  # the question and thread id are checked before anything prints
        problem = question_problem(question)
        if problem is not None:
            raise ValueError(problem)
        if thread_id is not None:
            check_thread_id(thread_id)
    settings = thread_session(
        db,
        thread_id,
        model=model,
        max_steps=max_steps,
        k=k,
        corpus_specs=corpus_specs,
        mcp=mcp_specs,
        retriever=retriever,
    )
    with settings as (agent, chosen):
        if thread_id is not None:
            with user_errors():
                agent.agent_thread(thread_id)
        if not (as_json or quiet):
            echo_lines([*chosen.notes, *render_goal(question)])
        thread_id = thread_id or new_thread_id()
        with user_errors(), interrupted_hint(thread_id):
            result = agent.ask(
                question,
                model=chosen.model,
                max_steps=chosen.max_steps,
                thread_id=thread_id,
                on_lines=None if as_json or quiet else echo_lines,
            )
        if as_json:
            keys = (*RESULT_KEYS, "thread_id")
            echo_json({key: result.get(key) for key in keys})
        elif quiet:
            echo_answer_only(result)
        else:
            turn = current_turn(agent.messages(result["thread_id"]))
            echo_lines([*render_result(result, turn), f"  thread: {result['thread_id']}"])
    if result["stopped"] == "error":
        sys.exit(1)


@cli.command()
@click.option(
    "--limit", type=click.IntRange(1, 10_000), default=20, show_default=True, help="At most N."
)
@click.option("--all", "show_all", is_flag=True, help="Include the threads `agent eval` made.")
@db_option
def threads(limit: int, show_all: bool, db: str | None) -> None:
    """List stored threads, newest first, one line each (question -> answer)."""
    from graph.cli.thread_lines import is_eval_thread, terminal_width, thread_line

    with session(db, read_only=True) as agent:
        rows = agent.threads(limit, skip=None if show_all else is_eval_thread)
        only_eval = not rows and not show_all and bool(agent.threads(1))
    if only_eval:
        click.echo("no threads but those `agent eval` made: add --all to list them")
        return
    if not rows:
        click.echo("no threads yet: run `agent ask QUESTION` or `agent demo`")
        return
    width = terminal_width()
    echo_lines([thread_line(row, width) for row in rows])


@cli.command()
@click.argument("thread_id")
@click.option(
    "--fork",
    "fork_step",
    type=click.IntRange(1, 100),
    default=None,
    help="Re-run the latest turn from this step (time travel); the old branch stays.",
)
@click.option("--model", "-m", default="policy", show_default=True, help="Model for the fork.")
@click.option("--max-steps", type=STEPS, default=DEFAULT_MAX_STEPS, show_default=True)
@db_option
def replay(
    thread_id: str, fork_step: int | None, model: str, max_steps: int, db: str | None
) -> None:
    """Print a stored transcript without calling any model or tool (or fork it)."""
    from graph.app.flow_runs import flow_for, result_of
    from graph.app.persistence import check_thread_id
    from graph.app.trace import iter_turns, render_turn
    from graph.cli.flow import flow_thread_state, render_flow

    if fork_step is not None:
        from graph.cli.thread_session import thread_session

        with thread_session(db, thread_id, model=model, max_steps=max_steps) as (agent, chosen):
            with user_errors():
                fork_thread(agent, thread_id, fork_step, chosen)
        return
    with session(db, model=model, read_only=True) as agent, user_errors():
        if flow_thread_state(agent.checkpointer, check_thread_id(thread_id)) is not None:
            echo_lines(render_flow(result_of(flow_for(agent.checkpointer), thread_id)))
            return
        messages = agent.messages(thread_id)
        turns = list(iter_turns([m for m in messages if m.type != "system"]))
        for number, turn in enumerate(turns, start=1):
            last = number == len(turns)
            echo_lines(render_turn(turn, agent.result(thread_id) if last else None))
            if not last:
                click.echo("")


def fork_thread(agent: Any, thread_id: str, fork_step: int, chosen: Any) -> None:
    """Print the steps before `fork_step`, then re-run the latest turn from there."""
    from langchain_core.messages import ToolMessage

    from graph.agent.transcript import current_turn
    from graph.app.trace import model_steps, render_goal, render_result, render_step

    messages = agent.messages(thread_id)
    agent.check_fork(thread_id, fork_step, chosen.max_steps)
    latest = current_turn(messages)
    question = str(latest[0].content) if latest else ""
    echo_lines([f"[fork] thread {thread_id} from step {fork_step}; the old branch is kept"])
    echo_lines([*chosen.notes, *render_goal(question)])
    results = [m for m in latest if isinstance(m, ToolMessage)]
    steps = model_steps(latest)
    for number, message in enumerate(steps[: fork_step - 1], start=1):
        echo_lines(render_step(number, message, results))
    result = agent.fork(
        thread_id,
        fork_step,
        model=chosen.model,
        max_steps=chosen.max_steps,
        on_lines=echo_lines,
    )
    echo_lines(render_result(result, current_turn(agent.messages(thread_id))))


@cli.command()
@click.argument("thread_id")
@click.option(
    "--with",
    "value",
    default=None,
    metavar="VALUE",
    help="Resume a flow thread paused for a human: a fault code (F-109), 'close: <note>' or JSON.",
)
@click.option("--model", "-m", default="policy", show_default=True)
@click.option("--max-steps", type=STEPS, default=DEFAULT_MAX_STEPS, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print only the result as JSON.")
@quiet_option
@db_option
def resume(
    thread_id: str,
    value: str | None,
    model: str,
    max_steps: int,
    as_json: bool,
    quiet: bool,
    db: str | None,
) -> None:
    """Finish a crashed agent or flow thread, or (--with VALUE) a flow thread paused for a human."""
    from graph.agent.transcript import current_turn
    from graph.app.trace import render_result
    from graph.cli.flow import continue_flow_thread, refuse_flow_thread, resume_flow_thread

    if value is not None:
        resume_flow_thread(thread_id, value, db, as_json=as_json)
        return
    if continue_flow_thread(thread_id, db, as_json=as_json):
        return
    from graph.cli.thread_session import thread_session

    settings = thread_session(db, thread_id, model=model, max_steps=max_steps)
    with settings as (agent, chosen), user_errors():
        refuse_flow_thread(agent.checkpointer, thread_id)
        if agent.is_finished(thread_id) and not (as_json or quiet):
            click.echo(f"thread {thread_id} is finished: nothing to resume; its result:")
        elif not (as_json or quiet):
            echo_lines(chosen.notes)
        result = agent.resume(
            thread_id,
            model=chosen.model,
            max_steps=chosen.max_steps,
            on_lines=None if as_json or quiet else echo_lines,
        )
        if as_json:
            keys = (*RESULT_KEYS, "thread_id")
            echo_json({key: result.get(key) for key in keys})
        elif quiet:
            echo_answer_only(result)
        else:
            echo_lines(render_result(result, current_turn(agent.messages(thread_id))))


def _say_error(message: str) -> None:
    """Print `error: ...` on one line of standard error, rendered safe for the terminal."""
    click.echo(f"error: {' '.join(safe_text(message, one_line=True).split())}", err=True)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; user errors print one line (`error: ...`) and exit non-zero."""
    try:
        prepare_environment()
        cli.main(args=argv, prog_name="agent", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.exceptions.NoArgsIsHelpError as asked:  # bare `agent`: the help, as is
        click.echo(asked.format_message())
        sys.exit(0)
    except click.UsageError as error:
        _say_error(error.format_message())
        sys.exit(2)
    except click.ClickException as error:
        _say_error(error.format_message())
        sys.exit(1)
    except click.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(130)


# Commands defined beside the code they drive, registered here (one line each).
from graph.cli.evals import eval_command  # noqa: E402

cli.add_command(eval_command)

from graph.cli.flow import compare_flow, flow  # noqa: E402

cli.add_command(flow)
cli.add_command(compare_flow)

from graph.cli.mcp import mcp_group  # noqa: E402

cli.add_command(mcp_group)
from graph.cli.index import corpora_command, index_command  # noqa: E402

cli.add_command(index_command)
cli.add_command(corpora_command)
