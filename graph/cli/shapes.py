"""`agent shapes`: the shapes of the stored agent runs, what a flow would serve, a draft flow.

The heavy imports (the router, the flow, the store) are inside the command, so loading the
CLI does not load them.
"""

from __future__ import annotations

import click

from graph.cli.support import db_option, echo_json, echo_lines, user_errors


@click.command("shapes")
@db_option
@click.option(
    "--server", default=None, metavar="URL", help="Read a running LangGraph server instead."
)
@click.option("--all", "show_all", is_flag=True, help="Include the threads `agent eval` made.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Also write a page with a chart of the shapes and the requests behind each.",
)
@click.option(
    "--propose", is_flag=True, help="Draft a transition table for the largest shape no flow serves."
)
@click.option(
    "--model-latency",
    type=click.FloatRange(0, 600_000),
    default=500.0,
    show_default=True,
    metavar="MS",
    help="Milliseconds a model call takes, for the requests per second of the saving.",
)
def shapes(
    db: str | None,
    server: str | None,
    show_all: bool,
    as_json: bool,
    html_path: str | None,
    propose: bool,
    model_latency: float,
) -> None:
    """The shapes of the stored agent runs and what share a flow would serve."""
    from pathlib import Path

    from evals.shapes.analysis import analyze
    from evals.shapes.page import render_page
    from evals.shapes.report import draft_source, shapes_json, table_lines
    from evals.shapes.runs import read_runs
    from evals.shapes.saved import read_store
    from evals.shapes.server import ServerError, read_server
    from graph.app.persistence import open_checkpointer
    from graph.app.thread_heads import is_eval_thread

    if db and server:
        raise click.UsageError("give --db or --server, not both")
    skip = None if show_all else is_eval_thread
    with user_errors():
        if server:
            check_server_url(server)
            try:
                runs = read_runs(read_server(server, skip))
            except ServerError as error:
                raise click.ClickException(str(error)) from None
        else:
            with open_checkpointer(db, read_only=True) as saver:
                runs = read_runs(read_store(saver, skip))  # states are read while it is open
        analysis = analyze(runs, model_latency_ms=model_latency, with_draft=propose)
        if html_path:
            try:
                Path(html_path).write_text(render_page(analysis), encoding="utf-8")
            except OSError as error:
                raise click.ClickException(f"cannot write {html_path}: {error}") from None
    if as_json:
        echo_json(shapes_json(analysis))
        return
    if not analysis.runs:
        click.echo("no agent runs in the store" + ("" if show_all else " (add --all for evals)"))
        return
    lines = table_lines(analysis)
    if propose:
        if analysis.draft is None:
            lines += ["", "no shape to propose: none without a flow holds 10% of the runs"]
        else:
            lines += ["", *draft_source(analysis.draft).splitlines()]
    if html_path:
        lines += ["", f"wrote {html_path}"]
    echo_lines(lines)


def check_server_url(url: str) -> None:
    """Refuse a `--server` that is not an http(s) URL (one line)."""
    if not url.startswith(("http://", "https://")):
        raise click.UsageError(f"--server {url!r}: give an http:// or https:// URL")
