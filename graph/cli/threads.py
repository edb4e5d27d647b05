"""`agent threads`, `agent replay` (and its fork) and `agent resume`: stored threads."""

from __future__ import annotations

from typing import Any

import click

from graph.cli.support import (
    STEPS,
    db_option,
    echo_answer_only,
    echo_json,
    echo_lines,
    quiet_option,
    session,
    user_errors,
)


@click.command()
@click.option(
    "--limit", type=click.IntRange(1, 10_000), default=20, show_default=True, help="At most N."
)
@click.option("--all", "show_all", is_flag=True, help="Include the threads `agent eval` made.")
@db_option
def threads(limit: int, show_all: bool, db: str | None) -> None:
    """List stored threads, newest first, one line each (date, model, question -> answer)."""
    from graph.cli.thread_lines import terminal_width, thread_line

    with session(db, read_only=True) as agent:
        rows = agent.threads(limit, include_eval=show_all)
        only_eval = not rows and not show_all and bool(agent.threads(1))
    if only_eval:
        click.echo("no threads but those `agent eval` made: add --all to list them")
        return
    if not rows:
        click.echo("no threads yet: run `agent ask QUESTION` or `agent demo`")
        return
    width = terminal_width()
    echo_lines([thread_line(row, width) for row in rows])


@click.command()
@click.argument("thread_id")
@click.option(
    "--fork",
    "fork_step",
    type=STEPS,
    default=None,
    help="Re-run the latest turn from this step (time travel); the old branch stays.",
)
@click.option(
    "--model", "-m", default=None, show_default="the thread's", help="Model for the fork."
)
@click.option("--max-steps", type=STEPS, default=None, show_default="the thread's")
@db_option
def replay(
    thread_id: str, fork_step: int | None, model: str | None, max_steps: int | None, db: str | None
) -> None:
    """Print a stored transcript without calling any model or tool (or fork it)."""
    from graph.app.flow_runs import flow_for, flow_result
    from graph.app.persistence import check_thread_id
    from graph.app.render_trace import iter_turns, render_turn
    from graph.cli.flow import flow_thread_state, render_flow

    if fork_step is not None:
        from graph.app.run_context import RunSettings
        from graph.cli.thread_session import thread_session

        given = RunSettings(model=model, max_steps=max_steps)
        with thread_session(db, thread_id, given) as (agent, chosen):
            with user_errors():
                fork_thread(agent, thread_id, fork_step, chosen)
        return
    with session(db, model=model, read_only=True) as agent, user_errors():
        if flow_thread_state(agent.checkpointer, check_thread_id(thread_id)) is not None:
            echo_lines(render_flow(flow_result(flow_for(agent.checkpointer), thread_id)))
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
    from graph.app.render_trace import model_steps, render_goal, render_result, render_step

    messages = agent.messages(thread_id)
    agent.check_fork(thread_id, fork_step, chosen.context.max_steps)
    latest = current_turn(messages)
    question = str(latest[0].content) if latest else ""
    echo_lines([f"[fork] thread {thread_id} from step {fork_step}; the old branch is kept"])
    echo_lines([*chosen.notes, *render_goal(question)])
    results = [m for m in latest if isinstance(m, ToolMessage)]
    steps = model_steps(latest)
    for number, message in enumerate(steps[: fork_step - 1], start=1):
        echo_lines(render_step(number, message, results))
    result = agent.fork(thread_id, fork_step, context=chosen.context, on_lines=echo_lines)
    echo_lines(render_result(result, current_turn(agent.messages(thread_id))))


@click.command()
@click.argument("thread_id")
@click.option(
    "--with",
    "value",
    default=None,
    metavar="VALUE",
    help="Resume a flow thread paused for a human: a fault code (F-109), 'close: <note>' or JSON.",
)
@click.option("--model", "-m", default=None, show_default="the thread's")
@click.option("--max-steps", type=STEPS, default=None, show_default="the thread's")
@click.option("--json", "as_json", is_flag=True, help="Print only the result as JSON.")
@quiet_option
@db_option
def resume(
    thread_id: str,
    value: str | None,
    model: str | None,
    max_steps: int | None,
    as_json: bool,
    quiet: bool,
    db: str | None,
) -> None:
    """Finish a crashed agent or flow thread, or (--with VALUE) a flow thread paused for a human."""
    from graph.agent.transcript import current_turn
    from graph.app.render_trace import render_result
    from graph.cli.flow import continue_flow_thread, refuse_flow_thread, resume_flow_thread

    if value is not None:
        resume_flow_thread(thread_id, value, db, as_json=as_json)
        return
    if continue_flow_thread(thread_id, db, as_json=as_json):
        return
    from graph.app.run_context import RunSettings
    from graph.cli.thread_session import thread_session

    settings = thread_session(db, thread_id, RunSettings(model=model, max_steps=max_steps))
    with settings as (agent, chosen), user_errors():
        refuse_flow_thread(agent.checkpointer, thread_id)
        if agent.is_finished(thread_id) and not (as_json or quiet):
            click.echo(f"thread {thread_id} is finished: nothing to resume; its result:")
        elif not (as_json or quiet):
            echo_lines(chosen.notes)
        result = agent.resume(
            thread_id, context=chosen.context, on_lines=None if as_json or quiet else echo_lines
        )
        if as_json:
            from graph.app.session import RESULT_KEYS

            keys = (*RESULT_KEYS, "thread_id")
            echo_json({key: result.get(key) for key in keys})
        elif quiet:
            echo_answer_only(result)
        else:
            echo_lines(render_result(result, current_turn(agent.messages(thread_id))))
