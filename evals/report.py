"""Eval reports: ``results.jsonl``, ``report.md`` and a self-contained ``report.html``.

`write_report(run, out_dir, checkpointer)` writes all three for one `EvalRun`. The HTML page
has no external assets and no script: inline CSS, inline SVG charts (steps and latency per
question; retrieval recall by search hop against single-shot BM25 at the same budget) and one
row per question that expands (``<details>``) into the run's transcript, rendered by
`graph.trace.render_turn` from the thread the run left on the checkpointer.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from evals.baselines import single_shot_recall_at_budgets
from evals.datasets import Dataset
from evals.metrics import RunRecord, micro_recall, summarize
from evals.runner import (
    RetrievalComparison,
    compare_retrieval,
    read_thread,
    record_error,
    search_hops,
)
from graph.trace import render_turn

RESULTS_FILE = "results.jsonl"
MARKDOWN_FILE = "report.md"
HTML_FILE = "report.html"

METRICS: tuple[tuple[str, str], ...] = (
    ("n", "questions"),
    ("accuracy", "accuracy"),
    ("citation_recall", "citation recall"),
    ("unsupported_rate", "unsupported rate"),
    ("mean_steps", "mean steps"),
    ("retrieval_recall", "retrieval recall"),
    ("mean_retrieved", "paragraphs retrieved / question"),
    ("latency_p50_s", "latency p50"),
    ("latency_p95_s", "latency p95"),
    ("tokens_total", "tokens"),
    ("tools_ok_rate", "required tools used"),
    ("errors", "errors"),
)
"""The metrics table, in order: (key of `summary_of`, label)."""


@dataclass(frozen=True)
class EvalRun:
    """One model's eval over a dataset: the settings and the records, for the report."""

    dataset: Dataset
    model: str
    run_id: str
    records: list[RunRecord]
    max_steps: int = 6
    k: int = 3
    concurrency: int = 4
    wall_s: float | None = None
    """Wall-clock seconds for the whole run, if measured."""


@dataclass(frozen=True)
class HopRecall:
    """Retrieval recall after the first `hop` searches of every run."""

    hop: int
    reached: int
    """Questions (with supporting documents) whose run made at least `hop` searches."""
    budget: float
    """Mean distinct documents retrieved per question by then."""
    agent: float
    """Micro recall of the documents retrieved in the first `hop` searches."""
    single_shot: float
    """Single-shot BM25 recall with each question given the same number of documents."""


@dataclass
class _Row:
    """One question in the report: its record and its rendered transcript."""

    record: RunRecord
    transcript: list[str]
    hops: list[list[str]] = field(default_factory=list)
    accepted: tuple[str, ...] = ()
    must_contain: tuple[str, ...] = ()


def summary_of(records: Sequence[RunRecord]) -> dict[str, float | int | None]:
    """`evals.metrics.summarize` plus ``errors``: the runs that stopped on an error."""
    summary = summarize(records)
    summary["errors"] = sum(r["stopped"] == "error" for r in records)
    return summary


def format_metric(key: str, value: float | int | None) -> str:
    """A metric value as the tables show it (latencies in ms, rates with 3 decimals)."""
    if value is None:
        return "-"
    if key in ("n", "errors", "tokens_total"):
        return f"{int(value):,}"
    if key.startswith("latency"):
        return f"{value * 1000:.1f} ms"
    if key in ("mean_steps", "mean_retrieved"):
        return f"{value:.2f}"
    return f"{value:.3f}"


def write_report(run: EvalRun, out_dir: str | Path, checkpointer: BaseCheckpointSaver) -> Path:
    """Write ``results.jsonl``, ``report.md`` and ``report.html`` into `out_dir`; return it.

    Transcripts and per-hop retrieval are read from each record's thread on `checkpointer`.
    Raises ValueError when the run has no records.
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
    with (out / RESULTS_FILE).open("w", encoding="utf-8") as f:
        for record in run.records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    (out / MARKDOWN_FILE).write_text(
        render_markdown(run, summary, comparison, hops), encoding="utf-8"
    )
    (out / HTML_FILE).write_text(
        render_html(run, summary, comparison, hops, rows), encoding="utf-8"
    )
    return out


def _row(record: RunRecord, checkpointer: BaseCheckpointSaver) -> _Row:
    """Read a record's thread back: its rendered transcript and its searches."""
    turn, values = read_thread(checkpointer, record["thread_id"])
    if not turn:
        why = record_error(record) or "the thread is not in the checkpoint store"
        return _Row(record, [f"(no transcript stored: {why})"])
    result = {**values, "error": values.get("error") or record_error(record)}
    return _Row(record, render_turn(turn, result), search_hops(turn))


def recall_by_hop(dataset: Dataset, rows: Sequence[_Row]) -> list[HopRecall]:
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


def _md_cell(value: Any) -> str:
    """A value safe inside a markdown table cell (one line, pipes escaped)."""
    return " ".join(str(value).split()).replace("|", "\\|")


def _settings(run: EvalRun) -> list[tuple[str, str]]:
    """The run's settings as (label, value) pairs."""
    pairs = [
        ("dataset", run.dataset.name),
        ("model", run.model),
        ("questions", f"{len(run.records)} of {len(run.dataset)}"),
        ("max steps", str(run.max_steps)),
        ("k", str(run.k)),
        ("concurrency", str(run.concurrency)),
        ("run id", run.run_id),
    ]
    if run.wall_s is not None:
        rate = len(run.records) / run.wall_s if run.wall_s > 0 else 0.0
        pairs.append(("wall time", f"{run.wall_s:.2f} s ({rate:.1f} questions/s)"))
    return pairs


def render_markdown(
    run: EvalRun,
    summary: Mapping[str, float | int | None],
    comparison: RetrievalComparison | None,
    hops: Sequence[HopRecall],
) -> str:
    """The ``report.md`` text: settings, metrics, the retrieval comparison, every question."""
    lines = [f"# Eval: {run.dataset.name} with {run.model}", ""]
    if run.dataset.description:
        lines += [run.dataset.description, ""]
    lines += [" · ".join(f"{label}: {value}" for label, value in _settings(run)), ""]
    lines += ["## Metrics", "", "| metric | value |", "|---|---|"]
    lines += [f"| {label} | {format_metric(key, summary.get(key))} |" for key, label in METRICS]
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
        lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


# -- HTML -------------------------------------------------------------------------------------

_CSS = """
:root { --ink:#1d232b; --muted:#5f6b7a; --line:#dfe3e8; --bg:#f6f7f9; --card:#fff;
  --ok:#2f9e6b; --bad:#d1495b; --err:#8a8f98; --agent:#3c6df0; --base:#b8c2d1; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
  font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif; }
main { max-width:1100px; margin:0 auto; padding:28px 24px 48px; }
h1 { font-size:22px; margin:0 0 4px; }
h2 { font-size:16px; margin:28px 0 10px; }
p.lead { color:var(--muted); margin:0 0 12px; }
.chips { display:flex; flex-wrap:wrap; gap:6px; margin:8px 0 0; padding:0; list-style:none; }
.chips li { background:var(--card); border:1px solid var(--line); border-radius:999px;
  padding:2px 10px; font-size:12px; color:var(--muted); }
.chips b { color:var(--ink); font-weight:600; }
.cards { display:grid; grid-template-columns:repeat(auto-fit,minmax(150px,1fr)); gap:10px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px;
  padding:10px 12px; }
.card .v { font-size:22px; font-weight:650; font-variant-numeric:tabular-nums; }
.card .k { color:var(--muted); font-size:12px; }
.panel { background:var(--card); border:1px solid var(--line); border-radius:8px;
  padding:14px 16px; }
.two { display:grid; grid-template-columns:minmax(280px,1fr) 2fr; gap:14px; align-items:start; }
.hops { display:grid; grid-template-columns:minmax(380px,1fr) 1.3fr; gap:18px; align-items:start; }
table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; }
th, td { text-align:left; padding:5px 8px; border-bottom:1px solid var(--line);
  vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12px; }
td.num, th.num { text-align:right; white-space:nowrap; }
.compare { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:13px;
  background:#eef2fd; border-left:3px solid var(--agent); padding:8px 10px; margin:0 0 12px; }
svg { display:block; width:100%; height:auto; }
svg text { font:11px system-ui,sans-serif; fill:var(--muted); }
.legend { display:flex; gap:14px; font-size:12px; color:var(--muted); margin:6px 0 0; }
.legend i { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:5px;
  vertical-align:-1px; }
.qs { background:var(--card); border:1px solid var(--line); border-radius:8px; overflow:hidden; }
.qrow { display:grid;
  grid-template-columns:18px var(--idw,12ch) minmax(0,2.2fr) minmax(0,2fr) 44px 64px;
  gap:10px; align-items:baseline; padding:6px 12px; }
.qhead { font-size:12px; color:var(--muted); font-weight:600; border-bottom:1px solid var(--line);
  background:#fafbfc; }
details { border-bottom:1px solid var(--line); }
details:last-child { border-bottom:0; }
summary { list-style:none; cursor:pointer; }
summary::-webkit-details-marker { display:none; }
summary:hover { background:#f3f6fb; }
details[open] > summary { background:#eef2fd; }
.qrow > span { overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
.qrow .num { text-align:right; font-variant-numeric:tabular-nums; }
.id { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:12px; }
.mark { font-weight:700; }
.mark.ok { color:var(--ok); } .mark.bad { color:var(--bad); } .mark.err { color:var(--err); }
.body { padding:4px 16px 14px 40px; }
.facts { display:grid; grid-template-columns:110px 1fr; gap:2px 10px; margin:6px 0 10px;
  font-size:13px; }
.tag { display:inline-block; background:#f0f2f5; border:1px solid var(--line); border-radius:4px;
  padding:0 6px; margin:1px 0; font-size:12px; }
.tag.gold { background:#e5f5ed; border-color:#b5e0c9; }
.facts dt { color:var(--muted); } .facts dd { margin:0; overflow-wrap:anywhere; }
pre { background:#0f1722; color:#dbe4ee; border-radius:6px; padding:10px 12px; margin:0;
  font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; white-space:pre-wrap;
  overflow-wrap:anywhere; max-height:520px; overflow:auto; }
footer { color:var(--muted); font-size:12px; margin-top:18px; }
@media (max-width:760px) { .two, .hops { grid-template-columns:1fr; }
  .qrow { grid-template-columns:18px minmax(0,var(--idw,12ch)) minmax(0,1fr) 44px; }
  .qrow .ans, .qrow .lat { display:none; } }
"""

_HEADLINE = ("accuracy", "citation_recall", "unsupported_rate", "retrieval_recall", "mean_steps")


def _e(value: Any) -> str:
    """HTML-escaped text."""
    return html.escape(str(value), quote=True)


def render_html(
    run: EvalRun,
    summary: Mapping[str, float | int | None],
    comparison: RetrievalComparison | None,
    hops: Sequence[HopRecall],
    rows: Sequence[_Row],
) -> str:
    """The self-contained ``report.html`` page."""
    labels = dict(METRICS)
    title = f"Eval: {run.dataset.name} with {run.model}"
    chips = "".join(f"<li>{_e(k)} <b>{_e(v)}</b></li>" for k, v in _settings(run))
    cards = "".join(
        f'<div class="card"><div class="v">{_e(format_metric(key, summary.get(key)))}</div>'
        f'<div class="k">{_e(labels[key])}</div></div>'
        for key in _HEADLINE
    )
    metrics = "".join(
        f'<tr><td>{_e(label)}</td><td class="num">{_e(format_metric(key, summary.get(key)))}'
        "</td></tr>"
        for key, label in METRICS
    )
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="lead">{_e(run.dataset.description)}</p>' if run.dataset.description else "",
        f'<ul class="chips">{chips}</ul>',
        "<h2>Metrics</h2>",
        f'<div class="cards">{cards}</div>',
        '<div class="two" style="margin-top:14px">',
        f'<div class="panel"><table><tr><th>metric</th><th class="num">value</th></tr>{metrics}'
        "</table></div>",
        f'<div class="panel"><h2 style="margin-top:0">Steps and latency per question</h2>'
        f"{_per_question_svg(run.records)}{_per_question_legend()}</div>",
        "</div>",
    ]
    if comparison is not None:
        parts += [
            "<h2>Retrieval against single-shot BM25</h2>",
            '<div class="panel">',
            f'<p class="compare">{_e(comparison.line())}</p>',
            _hop_section(hops),
            "</div>",
        ]
    parts += [
        f"<h2>Questions ({len(rows)})</h2>",
        '<p class="lead">Click a row for the run\'s facts and transcript (ids in green are '
        "supporting documents); <code>agent replay &lt;thread&gt;</code> prints the same "
        "transcript from the checkpoint store.</p>",
        f'<div class="qs" style="--idw:{_id_width(rows)}ch">',
        '<div class="qrow qhead"><span></span><span>id</span><span>question</span>'
        '<span class="ans">answer</span><span class="num">steps</span>'
        '<span class="num lat">latency</span></div>',
        *(_question_html(row) for row in rows),
        "</div>",
        "<footer>Written by <code>agent eval</code>. Accuracy: the answer contains an accepted "
        "answer (ignoring case). Recalls are micro-averaged over supporting documents.</footer>",
        "</main></body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def _id_width(rows: Sequence[_Row]) -> int:
    """Width of the id column in ``ch``: the longest id, between 4 and 26 characters."""
    return min(max(max(len(row.record["question_id"]) for row in rows), 4), 26) + 1


def _mark(record: RunRecord) -> tuple[str, str, str]:
    """The row marker: (css class, symbol, meaning)."""
    if record["stopped"] == "error":
        return "err", "!", "error"
    if record["correct"]:
        return "ok", "✓", "correct"
    return "bad", "✗", "wrong"


def _question_html(row: _Row) -> str:
    """One expandable question row: summary line, the run's facts and its transcript."""
    r = row.record
    css, symbol, meaning = _mark(r)
    answer = r["answer"] if r["answer"] is not None else f"({r['stopped']})"
    gold = set(r["supporting"])
    facts = [
        ("question", _e(r["question"])),
        ("answer", _e(answer)),
        ("accepted", _ids_html(row.accepted)),
        ("must contain", _ids_html(row.must_contain) if row.must_contain else ""),
        ("citations", _ids_html(r["citations"], gold)),
        ("unsupported", _ids_html(r["unsupported"])),
        ("supporting", _ids_html(r["supporting"])),
        ("retrieved", _ids_html(r["retrieved"], gold)),
        ("tools", _ids_html(r.get("tool_calls", []))),
        ("stopped", _e(r["stopped"])),
        ("error", _e(record_error(r) or "")),
        ("thread", f"<code>{_e(r['thread_id'])}</code>"),
    ]
    dl = "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in facts if v)
    return (
        f'<details id="q-{_e(r["question_id"])}"><summary class="qrow">'
        f'<span class="mark {css}" title="{meaning}">{symbol}</span>'
        f'<span class="id" title="{_e(r["question_id"])}">{_e(r["question_id"])}</span>'
        f'<span title="{_e(r["question"])}">{_e(r["question"])}</span>'
        f'<span class="ans" title="{_e(answer)}">{_e(answer)}</span>'
        f'<span class="num">{r["steps"]}</span>'
        f'<span class="num lat">{r["latency_s"] * 1000:.0f} ms</span></summary>'
        f'<div class="body"><dl class="facts">{dl}</dl>'
        f"<pre>{_e(chr(10).join(row.transcript))}</pre></div></details>"
    )


def _ids_html(ids: Sequence[str], supporting: set[str] | None = None) -> str:
    """Ids as tags (a supporting one highlighted when `supporting` is given); "-" if none."""
    if not ids:
        return "-"
    tags = []
    for doc_id in ids:
        css = "tag gold" if supporting is not None and doc_id in supporting else "tag"
        tags.append(f'<span class="{css}">{_e(doc_id)}</span>')
    return " ".join(tags)


def _per_question_legend() -> str:
    """The legend under the per-question chart."""
    return (
        '<div class="legend"><span><i style="background:var(--ok)"></i>correct</span>'
        '<span><i style="background:var(--bad)"></i>wrong</span>'
        '<span><i style="background:var(--err)"></i>error</span>'
        '<span><i style="background:var(--agent)"></i>latency</span></div>'
    )


def _per_question_svg(records: Sequence[RunRecord]) -> str:
    """Two bar charts sharing the x axis: model calls (top) and latency (bottom) per question."""
    width, left, right, panel, gap, top = 640.0, 44.0, 8.0, 92.0, 26.0, 14.0
    n = len(records)
    step_w = (width - left - right) / n
    bar_w = min(max(step_w * 0.8, 0.6), 28.0)
    most_steps = max(max(r["steps"] for r in records), 1)
    most_ms = max(max(r["latency_s"] for r in records) * 1000, 1e-9)
    y_lat = top + panel + gap
    height = y_lat + panel + 18
    out = [
        f'<svg viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        'aria-label="steps and latency per question">'
    ]
    panels = ((top, "model calls", f"{most_steps}"), (y_lat, "latency (ms)", f"{most_ms:.0f}"))
    for y0, label, peak in panels:
        out.append(
            f'<line x1="{left}" y1="{y0 + panel}" x2="{width - right}" y2="{y0 + panel}" '
            'stroke="#c9d0d9"/>'
        )
        out.append(
            f'<line x1="{left}" y1="{y0}" x2="{width - right}" y2="{y0}" stroke="#eef0f3" '
            'stroke-dasharray="3 3"/>'
        )
        out.append(f'<text x="{left - 6}" y="{y0 + 4}" text-anchor="end">{peak}</text>')
        out.append(f'<text x="{left - 6}" y="{y0 + panel}" text-anchor="end">0</text>')
        out.append(f'<text x="{left}" y="{y0 - 4}">{label}</text>')
    for i, r in enumerate(records):
        x = left + i * step_w + (step_w - bar_w) / 2
        css = _mark(r)[0]
        color = {"ok": "var(--ok)", "bad": "var(--bad)", "err": "var(--err)"}[css]
        ms = r["latency_s"] * 1000
        tip = _e(f"{r['question_id']}: {r['steps']} steps, {ms:.1f} ms, {_mark(r)[2]}")
        h_steps = panel * r["steps"] / most_steps
        h_lat = max(panel * ms / most_ms, 0.5)
        out.append(
            f'<g><title>{tip}</title><rect x="{x:.2f}" y="{top + panel - h_steps:.2f}" '
            f'width="{bar_w:.2f}" height="{h_steps:.2f}" fill="{color}"/>'
            f'<rect x="{x:.2f}" y="{y_lat + panel - h_lat:.2f}" width="{bar_w:.2f}" '
            f'height="{h_lat:.2f}" fill="var(--agent)" opacity="0.85"/></g>'
        )
    out.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 4}" text-anchor="middle">'
        f"questions in dataset order (hover a bar for its id)</text>"
    )
    out.append("</svg>")
    return "".join(out)


def _hop_section(hops: Sequence[HopRecall]) -> str:
    """The recall-by-hop table and chart (agent vs single-shot at the same budget)."""
    if not hops:
        return '<p class="lead">No run searched, so there is no recall by hop.</p>'
    table = "".join(
        f'<tr><td class="num">{h.hop}</td><td class="num">{h.reached}</td>'
        f'<td class="num">{h.budget:.2f}</td><td class="num">{h.agent:.3f}</td>'
        f'<td class="num">{h.single_shot:.3f}</td></tr>'
        for h in hops
    )
    return (
        '<div class="hops"><div><table><tr><th class="num">after search</th>'
        '<th class="num">questions</th><th class="num">paragraphs / q</th>'
        '<th class="num">agent</th><th class="num">single-shot</th></tr>'
        f"{table}</table></div><div>{_hop_svg(hops)}"
        '<div class="legend"><span><i style="background:var(--agent)"></i>agent (first N '
        'searches)</span><span><i style="background:var(--base)"></i>single-shot BM25, '
        "same paragraphs per question</span></div></div></div>"
    )


def _hop_svg(hops: Sequence[HopRecall]) -> str:
    """Grouped bars: recall after each search, agent beside single-shot BM25."""
    width, left, right, top, plot, bottom = 520.0, 40.0, 8.0, 12.0, 150.0, 34.0
    height = top + plot + bottom
    group = (width - left - right) / len(hops)
    bar = min(group * 0.32, 56.0)
    out = [
        f'<svg viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        'aria-label="retrieval recall by search hop">'
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot * (1 - tick)
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" '
            f'stroke="{"#c9d0d9" if tick == 0 else "#eef0f3"}"/>'
        )
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:.2f}</text>')
    for i, h in enumerate(hops):
        center = left + group * (i + 0.5)
        for offset, value, color, who in (
            (-bar - 2, h.agent, "var(--agent)", "agent"),
            (2, h.single_shot, "var(--base)", "single-shot"),
        ):
            y = top + plot * (1 - value)
            out.append(
                f"<g><title>{_e(f'after search {h.hop}: {who} {value:.3f}')}</title>"
                f'<rect x="{center + offset:.1f}" y="{y:.1f}" width="{bar:.1f}" '
                f'height="{top + plot - y:.1f}" fill="{color}" rx="2"/></g>'
            )
            out.append(
                f'<text x="{center + offset + bar / 2:.1f}" y="{y - 4:.1f}" '
                f'text-anchor="middle">{value:.2f}</text>'
            )
        out.append(
            f'<text x="{center:.1f}" y="{top + plot + 16:.1f}" text-anchor="middle">'
            f"search {h.hop} ({h.budget:.1f} paragraphs)</text>"
        )
    out.append("</svg>")
    return "".join(out)
