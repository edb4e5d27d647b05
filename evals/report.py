"""Eval reports: ``results.jsonl``, ``report.md`` and a self-contained ``report.html``.

`write_report(run, out_dir, checkpointer)` writes all three for one `EvalRun`. The HTML page
has no external assets and no script: inline CSS, inline SVG charts (steps and latency per
question; retrieval recall by search hop against single-shot BM25 at the same budget) and one
row per question that expands (``<details>``) into the run's transcript, rendered by
`graph.app.render_trace.render_turn` from the thread the run left on the checkpointer.

This module writes the files and renders the markdown; the run, the metrics table and the
question rows are in `evals.report_data`, the page in `evals.report_html` and its charts in
`evals.report_charts`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from evals.baselines import single_shot_recall_at_budgets
from evals.datasets import Dataset
from evals.metrics import RunRecord, micro_recall
from evals.report_data import (
    EvalRun,
    HopRecall,
    QuestionRow,
    format_metric,
    metrics_for,
    settings_of,
    summary_of,
)
from evals.report_files import write_file
from evals.report_html import render_html
from evals.run_threads import (
    RetrievalComparison,
    compare_retrieval,
    read_thread,
    record_error,
    search_hops,
)
from graph.app.render_trace import render_turn

RESULTS_FILE = "results.jsonl"
MARKDOWN_FILE = "report.md"
HTML_FILE = "report.html"


def write_report(run: EvalRun, out_dir: str | Path, checkpointer: BaseCheckpointSaver) -> Path:
    """Write ``results.jsonl``, ``report.md`` and ``report.html`` into `out_dir`; return it.

    Transcripts and per-hop retrieval are read from each record's thread on `checkpointer`.
    Each file is written by `evals.report_files.write_file` (a temporary file renamed over the
    name: never through a link, never into a pipe). Raises ValueError when the run has no
    records or a file cannot be written.
    """
    if not run.records:
        raise ValueError("no records to report")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    questions = {q.id: q for q in run.dataset.questions}
    rows = [_row(record, checkpointer) for record in run.records]
    for row in rows:
        question = questions.get(row.record["question_id"])
        if question is not None:
            row.accepted, row.must_contain = question.answers, question.must_contain
    summary = summary_of(run.records)
    comparison = compare_retrieval(run.dataset, run.records)
    hops = recall_by_hop(run.dataset, rows)
    results = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in run.records)
    write_file(out, RESULTS_FILE, results)
    write_file(out, MARKDOWN_FILE, render_markdown(run, summary, comparison, hops))
    write_file(out, HTML_FILE, render_html(run, summary, comparison, hops, rows))
    return out


def _row(record: RunRecord, checkpointer: BaseCheckpointSaver) -> QuestionRow:
    """Read a record's thread back: its rendered transcript and its searches."""
    turn, values = read_thread(checkpointer, record["thread_id"])
    if not turn:
        why = record_error(record) or "the thread is not in the checkpoint store"
        return QuestionRow(record, [f"(no transcript stored: {why})"])
    result = {**values, "error": values.get("error") or record_error(record)}
    return QuestionRow(record, render_turn(turn, result), search_hops(turn))


def recall_by_hop(dataset: Dataset, rows: Sequence[QuestionRow]) -> list[HopRecall]:
    """Recall after 1, 2, ... searches, against single-shot BM25 at the same budgets.

    Only questions with supporting documents count; a run that stopped searching keeps what
    it had. Empty when no question has supporting documents or no run searched.
    """
    scored = [row for row in rows if row.record["supporting"]]
    most = max((len(row.hops) for row in scored), default=0)
    table: list[HopRecall] = []
    for hop in range(1, most + 1):
        found = [list(dict.fromkeys(i for ids in row.hops[:hop] for i in ids)) for row in scored]
        budgets = {
            row.record["question_id"]: len(ids) for row, ids in zip(scored, found, strict=True)
        }
        table.append(
            HopRecall(
                hop=hop,
                reached=sum(len(row.hops) >= hop for row in scored),
                budget=sum(budgets.values()) / len(budgets),
                agent=micro_recall(found, (row.record["supporting"] for row in scored)),
                single_shot=single_shot_recall_at_budgets(dataset, budgets),
            )
        )
    return table


# -- markdown ---------------------------------------------------------------------------------


def md_text(value: Any) -> str:
    """A value as inert markdown text: one line, HTML escaped (as in ``report.html``)."""
    return html.escape(" ".join(str(value).split()), quote=False)


def md_cell(value: Any) -> str:
    """A value safe inside a markdown table cell (one line, HTML and pipes escaped)."""
    return md_text(value).replace("|", "\\|")


def render_markdown(
    run: EvalRun,
    summary: Mapping[str, float | int | None],
    comparison: RetrievalComparison | None,
    hops: Sequence[HopRecall],
) -> str:
    """The ``report.md`` text: settings, metrics, the retrieval comparison, every question."""
    lines = [f"# Eval: {md_text(run.dataset.name)} with {md_text(run.model)}", ""]
    if run.dataset.description:
        lines += [md_text(run.dataset.description), ""]
    lines += [" · ".join(f"{label}: {md_text(value)}" for label, value in settings_of(run)), ""]
    lines += ["## Metrics", "", "| metric | value |", "|---|---|"]
    table = metrics_for(run.dataset.name)
    lines += [f"| {label} | {format_metric(key, summary.get(key))} |" for key, label in table]
    if comparison is not None:
        lines += ["", "## Retrieval against single-shot BM25", "", comparison.line(), ""]
    if hops:
        lines += [
            "| searches | questions that searched this often | paragraphs / question | agent "
            "recall | single-shot BM25, same budget |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {h.hop} | {h.reached} | {h.budget:.2f} | {h.agent:.3f} | {h.single_shot:.3f} |"
            for h in hops
        ]
    lines += [
        "",
        "## Questions",
        "",
        "| id | correct | answer | citations | steps | stopped | latency ms | retrieval recall "
        "| thread |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in run.records:
        answer = r["answer"] if r["answer"] is not None else f"({record_error(r) or 'no answer'})"
        cells = [
            r["question_id"],
            "yes" if r["correct"] else "no",
            answer,
            ", ".join(r["citations"]) or "-",
            r["steps"],
            r["stopped"],
            f"{r['latency_s'] * 1000:.1f}",
            f"{r['retrieval_recall']:.2f}",
            r["thread_id"],
        ]
        lines.append("| " + " | ".join(md_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


__all__ = [
    "HTML_FILE",
    "MARKDOWN_FILE",
    "RESULTS_FILE",
    "md_cell",
    "md_text",
    "recall_by_hop",
    "render_markdown",
    "write_report",
]
