"""The self-contained ``report.html`` page: inline CSS, inline SVG charts, no script.

`REPORT_CSS` is the eval pages' style (``agent shapes --html`` uses it too).

One row per question expands (``<details>``) into the run's facts and transcript.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evals.report_charts import escape, hop_svg, mark, per_question_legend, per_question_svg
from evals.report_data import (
    METRICS,
    EvalRun,
    HopRecall,
    QuestionRow,
    format_metric,
    headline_for,
    metrics_for,
    settings_of,
)
from evals.run_threads import RetrievalComparison, record_error

REPORT_CSS = """
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


def render_html(
    run: EvalRun,
    summary: Mapping[str, float | int | None],
    comparison: RetrievalComparison | None,
    hops: Sequence[HopRecall],
    rows: Sequence[QuestionRow],
) -> str:
    """The self-contained ``report.html`` page."""
    labels = dict(METRICS)
    title = f"Eval: {run.dataset.name} with {run.model}"
    chips = "".join(f"<li>{escape(k)} <b>{escape(v)}</b></li>" for k, v in settings_of(run))
    cards = "".join(
        f'<div class="card"><div class="v">{escape(format_metric(key, summary.get(key)))}</div>'
        f'<div class="k">{escape(labels[key])}</div></div>'
        for key in headline_for(run.dataset.name)
    )
    metrics = "".join(
        f'<tr><td>{escape(label)}</td><td class="num">'
        f"{escape(format_metric(key, summary.get(key)))}</td></tr>"
        for key, label in metrics_for(run.dataset.name)
    )
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{REPORT_CSS}</style></head><body><main>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="lead">{escape(run.dataset.description)}</p>' if run.dataset.description else "",
        f'<ul class="chips">{chips}</ul>',
        "<h2>Metrics</h2>",
        f'<div class="cards">{cards}</div>',
        '<div class="two" style="margin-top:14px">',
        f'<div class="panel"><table><tr><th>metric</th><th class="num">value</th></tr>{metrics}'
        "</table></div>",
        f'<div class="panel"><h2 style="margin-top:0">Steps and latency per question</h2>'
        f"{per_question_svg(run.records)}{per_question_legend()}</div>",
        "</div>",
    ]
    if comparison is not None:
        parts += [
            "<h2>Retrieval against single-shot BM25</h2>",
            '<div class="panel">',
            f'<p class="compare">{escape(comparison.line())}</p>',
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


def _id_width(rows: Sequence[QuestionRow]) -> int:
    """Width of the id column in ``ch``: the longest id, between 4 and 26 characters."""
    return min(max(max(len(row.record["question_id"]) for row in rows), 4), 26) + 1


def _question_html(row: QuestionRow) -> str:
    """One expandable question row: summary line, the run's facts and its transcript."""
    r = row.record
    css, symbol, meaning = mark(r)
    answer = r["answer"] if r["answer"] is not None else f"({r['stopped']})"
    gold = set(r["supporting"])
    facts = [
        ("question", escape(r["question"])),
        ("answer", escape(answer)),
        ("accepted", _ids_html(row.accepted)),
        ("must contain", _ids_html(row.must_contain) if row.must_contain else ""),
        ("citations", _ids_html(r["citations"], gold)),
        ("unsupported", _ids_html(r["unsupported"])),
        ("supporting", _ids_html(r["supporting"])),
        ("retrieved", _ids_html(r["retrieved"], gold)),
        ("tools", _ids_html(r.get("tool_calls", []))),
        ("stopped", escape(r["stopped"])),
        ("error", escape(record_error(r) or "")),
        ("thread", f"<code>{escape(r['thread_id'])}</code>"),
    ]
    dl = "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in facts if v)
    return (
        f'<details id="q-{escape(r["question_id"])}"><summary class="qrow">'
        f'<span class="mark {css}" title="{meaning}">{symbol}</span>'
        f'<span class="id" title="{escape(r["question_id"])}">{escape(r["question_id"])}</span>'
        f'<span title="{escape(r["question"])}">{escape(r["question"])}</span>'
        f'<span class="ans" title="{escape(answer)}">{escape(answer)}</span>'
        f'<span class="num">{r["steps"]}</span>'
        f'<span class="num lat">{r["latency_s"] * 1000:.0f} ms</span></summary>'
        f'<div class="body"><dl class="facts">{dl}</dl>'
        f"<pre>{escape(chr(10).join(row.transcript))}</pre></div></details>"
    )


def _ids_html(ids: Sequence[str], supporting: set[str] | None = None) -> str:
    """Ids as tags (a supporting one highlighted when `supporting` is given); "-" if none."""
    if not ids:
        return "-"
    tags = []
    for doc_id in ids:
        css = "tag gold" if supporting is not None and doc_id in supporting else "tag"
        tags.append(f'<span class="{css}">{escape(doc_id)}</span>')
    return " ".join(tags)


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
        f"{table}</table></div><div>{hop_svg(hops)}"
        '<div class="legend"><span><i style="background:var(--agent)"></i>agent (first N '
        'searches)</span><span><i style="background:var(--base)"></i>single-shot BM25, '
        "same paragraphs per question</span></div></div></div>"
    )
