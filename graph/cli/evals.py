"""`agent eval`: run a dataset through the agent, print the metrics, write the reports.

`graph.cli.main` adds it to the `agent` group; the shared helpers come from `graph.cli.support`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import click

from graph.agent.budget import DEFAULT_MAX_STEPS
from graph.app.terminal import safe_markup, safe_text
from graph.cli.support import RETRIEVER, STEPS, K, user_errors
from tools.search_settings import DEFAULT_K

DEFAULT_CONCURRENCY = 4
RUN_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_SLUG_RE = re.compile(r"[^A-Za-z0-9._-]+")


def model_slug(model: str) -> str:
    """A model name as a file and thread-id part: ``openai:gpt-4o`` -> ``openai-gpt-4o``."""
    return _SLUG_RE.sub("-", model).strip("-._") or "model"


def parse_models(model: str | None, compare: str | None) -> list[str]:
    """The models to run: ``--compare``'s list, else ``--model``, else the default model."""
    from graph.models.providers import default_model_spec

    if compare is None:
        return [(model or "").strip() or default_model_spec()]
    if model is not None:
        raise click.UsageError("give --model or --compare, not both")
    models = [m.strip() for m in compare.split(",")]
    if not all(models):
        raise click.UsageError(f"--compare takes model names separated by commas, got {compare!r}")
    return models


def column_labels(models: Sequence[str]) -> list[str]:
    """Column headers for the models: the names, numbered when a name repeats."""
    repeated = {m for m in models if models.count(m) > 1}
    return [f"{m} #{i}" if m in repeated else m for i, m in enumerate(models, start=1)]


def run_names(models: Sequence[str]) -> list[str]:
    """One distinct name per model run (sub-folder and run-id suffix) when comparing."""
    slugs = [model_slug(m) for m in models]
    if len(set(slugs)) == len(slugs):
        return slugs
    return [f"{i}-{slug}" for i, slug in enumerate(slugs, start=1)]


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[Any], None]]:
    """A rich progress bar on stderr with the running accuracy (hidden when not a terminal).

    Yields the callback to give `run_dataset` as ``on_record``.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    seen = {"done": 0, "correct": 0}
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("accuracy {task.fields[accuracy]}"),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=False,
    ) as progress:
        task = progress.add_task(safe_markup(label), total=total, accuracy="-")

        def advance(record: Any) -> None:
            seen["done"] += 1
            seen["correct"] += bool(record["correct"])
            accuracy = f"{seen['correct'] / seen['done']:.3f}"
            progress.update(task, advance=1, accuracy=accuracy)

        yield advance


def print_metrics(
    summaries: Sequence[dict[str, Any]], labels: Sequence[str], dataset: str = ""
) -> None:
    """Print the metrics table (ordered for `dataset`), one column per model, to standard output."""
    from rich.console import Console
    from rich.table import Table

    from evals.report_data import format_metric, metrics_for

    table = Table("metric", *(safe_markup(label) for label in labels))
    for column in table.columns[1:]:
        column.justify = "right"
    for key, label in metrics_for(dataset):
        table.add_row(label, *(format_metric(key, s.get(key)) for s in summaries))
    Console(width=max(80, 24 + 16 * len(labels))).print(table)


def write_comparison(
    out: Path, dataset: str, labels: Sequence[str], names: Sequence[str], runs: Sequence[Any]
) -> Path:
    """Write ``compare.md``: the metrics side by side and a link to each model's report."""
    from evals.report import md_cell, md_text
    from evals.report_data import format_metric, metrics_for, summary_of
    from evals.run_threads import compare_retrieval

    summaries = [summary_of(run.records) for run in runs]
    lines = [
        f"# Eval: {md_text(dataset)}, {len(runs)} models",
        "",
        "| metric | " + " | ".join(md_cell(label) for label in labels) + " |",
        "|---|" + "---|" * len(labels),
    ]
    for key, label in metrics_for(dataset):
        cells = " | ".join(format_metric(key, s.get(key)) for s in summaries)
        lines.append(f"| {label} | {cells} |")
    lines.append("")
    for label, name, run in zip(labels, names, runs, strict=True):
        comparison = compare_retrieval(run.dataset, run.records)
        extra = f": {comparison.line()}" if comparison is not None else ""
        lines.append(f"- [{md_text(label)}]({name}/report.html){extra}")
    from evals.report_files import write_file

    return write_file(out, "compare.md", "\n".join(lines) + "\n")


def _out_folder(value: str | None) -> Path | None:
    """The ``--out`` folder: refused when empty or naming something that is not a folder."""
    if value is None:
        return None
    shown = _shown_path(Path(value[:200] + ("..." if len(value) > 200 else "")))
    if not value.strip():
        raise click.BadParameter("must name a report folder, not an empty string")
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise click.BadParameter(f"{shown} is not a folder")
    return path


@click.command("eval")
@click.option(
    "--dataset",
    "dataset_spec",
    required=True,
    metavar="NAME|PATH",
    help="A built-in dataset (notes, seed_runs, hotpotqa-dev[-tune|-test], hotpotqa-hard) "
    "or a .jsonl file.",
)
@click.option(
    "--model",
    "-m",
    default=None,
    help="policy, scripted:<file> or provider:model (default: $AGENT_MODEL, else policy).",
)
@click.option(
    "--max-steps",
    type=STEPS,
    default=None,
    show_default=str(DEFAULT_MAX_STEPS),
    help="Most model calls per question.",
)
@click.option("--k", type=K, default=None, show_default=str(DEFAULT_K), help="Passages per search.")
@click.option(
    "--require-search",
    is_flag=True,
    default=None,
    help="Make each run's first model call a search (tool_choice).",
)
@click.option(
    "--concurrency",
    type=click.IntRange(1, 64),
    default=DEFAULT_CONCURRENCY,
    show_default=True,
    help="Questions run at once.",
)
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Run only the first N.")
@click.option(
    "--out",
    callback=lambda _ctx, _param, value: _out_folder(value),
    default=None,
    help="Report folder (default: $AGENT_HOME/evals/<dataset>-<run id>).",
)
@click.option(
    "--compare", default=None, metavar="M1,M2", help="Run several models; print them side by side."
)
@click.option("--run-id", default=None, help="Run id in thread ids and the folder (default: now).")
@click.option(
    "--retriever",
    type=RETRIEVER,
    default=None,
    help="How the dataset's corpora are searched (default: $AGENT_RETRIEVER, else bm25).",
)
@click.option(
    "--corpus",
    "corpus_name",
    default=None,
    metavar="NAME",
    help="Search the saved index NAME (`agent index NAME PATH`) instead of the dataset's corpus.",
)
@click.option(
    "--rerun",
    is_flag=True,
    help="With an existing --run-id, ask finished questions again (default: reuse them).",
)
@click.option(
    "--db",
    default=None,
    metavar="PATH|URL",
    help="Checkpoint store: a SQLite file or postgresql:// URL (default: $AGENT_HOME).",
)
@click.option(
    "--server",
    default=None,
    metavar="URL",
    help="Run the questions on a LangGraph server (langgraph dev, or a deployment) instead.",
)
@click.option(
    "--assistant",
    default=None,
    metavar="ID",
    help="With --server: the assistant or graph to run (default: agent).",
)
def eval_command(
    dataset_spec: str,
    model: str | None,
    max_steps: int | None,
    k: int | None,
    require_search: bool | None,
    concurrency: int,
    limit: int | None,
    out: Path | None,
    compare: str | None,
    run_id: str | None,
    retriever: str | None,
    corpus_name: str | None,
    rerun: bool,
    db: str | None,
    server: str | None,
    assistant: str | None,
) -> None:
    """Run a dataset through the agent; print the metrics and write results and reports."""
    from evals.datasets import load_dataset

    models = parse_models(model, compare)
    if assistant is not None and server is None:
        raise click.UsageError("--assistant needs --server")
    if server is not None and (corpus_name is not None or retriever is not None or db is not None):
        raise click.UsageError("with --server the server's corpora and store are used: drop "
                               "--corpus, --retriever and --db")  # fmt: skip
    if run_id is not None and not RUN_ID_RE.fullmatch(run_id):
        raise click.UsageError(
            f"bad --run-id {run_id!r}: up to 64 letters, digits, '.', '_' and '-'"
        )
    try:  # before the agent's heavier imports, so a bad file fails fast
        dataset = load_dataset(dataset_spec, check_ids=corpus_name is None and server is None)
    except ValueError as error:
        raise click.ClickException(" ".join(str(error).split())) from None

    from evals.report import write_report
    from evals.report_data import EvalRun, summary_of
    from evals.run_threads import compare_retrieval
    from evals.runner import eval_context, new_run_id, run_dataset
    from graph.app.home import agent_home
    from graph.app.persistence import open_checkpointer
    from graph.models import load_model

    with user_errors():
        contexts = [eval_context(name, max_steps, k, require_search) for name in models]
        if server is None:
            for name in models:
                load_model(name)
        index = None
        if corpus_name is not None:  # the dataset's questions over a saved index's passages
            from evals.saved_corpus import over_index
            from graph.app.corpus_specs import indexes_dir
            from tools.saved_indexes import open_saved

            index = open_saved(indexes_dir(), corpus_name, retriever)
            dataset = over_index(dataset, index, limit)
    run_id = run_id or new_run_id()
    folder = out if out is not None else agent_home() / "evals" / f"{dataset.name}-{run_id}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise click.ClickException(
            f"{_shown_path(folder)}: cannot create the report folder: {error.strerror or error}"
        ) from None
    labels = column_labels(models)
    names = run_names(models)
    total = min(limit, len(dataset)) if limit is not None else len(dataset)
    runs: list[EvalRun] = []
    with user_errors(), ExitStack() as stack:
        local = None if server is not None else stack.enter_context(open_checkpointer(db))
        for name, label, slug, context in zip(models, labels, names, contexts, strict=True):
            this_id = run_id if len(models) == 1 else f"{run_id}-{slug}"
            start = time.perf_counter()
            with progress_bar(total, f"{dataset.name} · {label}") as on_record:
                if server is not None:
                    from evals.server_runner import DEFAULT_ASSISTANT, run_on_server

                    records, saver = run_on_server(
                        dataset,
                        server,
                        context=context,
                        assistant=assistant or DEFAULT_ASSISTANT,
                        concurrency=concurrency,
                        limit=limit,
                        run_id=this_id,
                        rerun=rerun,
                        on_record=on_record,
                    )
                else:
                    assert local is not None
                    saver = local
                    records = run_dataset(
                        dataset,
                        model=name,
                        max_steps=max_steps,
                        k=k,
                        require_search=require_search,
                        concurrency=concurrency,
                        limit=limit,
                        checkpointer=saver,
                        run_id=this_id,
                        on_record=on_record,
                        retriever=retriever,
                        rerun=rerun,
                        index=index,
                    )
            run = EvalRun(
                dataset=dataset,
                model=name,
                run_id=this_id,
                records=records,
                max_steps=context.max_steps,
                k=context.k,
                concurrency=concurrency,
                wall_s=time.perf_counter() - start,
            )
            write_report(run, folder if len(models) == 1 else folder / slug, saver)
            runs.append(run)
    print_metrics([summary_of(run.records) for run in runs], labels, dataset.name)
    for label, run in zip(labels, runs, strict=True):
        comparison = compare_retrieval(dataset, run.records)
        if comparison is not None:
            prefix = f"{label}: " if len(runs) > 1 else ""
            click.echo(safe_text(prefix + comparison.line()))
        errors = sum(r["stopped"] == "error" for r in run.records)
        if errors:
            click.echo(
                f"warning: {errors} of {len(run.records)} runs of {safe_text(label)} stopped on "
                "an error (see the report)",
                err=True,
            )
    if len(runs) > 1:
        path = write_comparison(folder, dataset.name, labels, names, runs)
        click.echo(f"report: {_shown_path(path)}")
    else:
        click.echo(f"report: {_shown_path(folder / 'report.html')}")


def _shown_path(path: Path) -> str:
    """A path as one safe line: as is when printable, else quoted with its escapes."""
    text = str(path)
    return safe_text(text if text.isprintable() else repr(text), one_line=True)
