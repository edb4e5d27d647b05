"""The ``agent shapes --html`` page, in the eval report's style (its CSS and chart helpers).

Cards with the headline figures, a bar chart of the shapes by runs (each bar split into the
runs the router would send to the flow and the rest), the table, what the flow would serve,
the draft when one was asked for, and per shape the requests behind it. Inline CSS and SVG,
no script; every stored string is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence

from evals.report_charts import escape
from evals.report_html import REPORT_CSS
from evals.shapes.analysis import Analysis
from evals.shapes.flow_share import to_flow
from evals.shapes.report import draft_source, flow_lines
from evals.shapes.table import ShapeRow

MAX_BARS = 12
"""Shapes drawn in the chart (the rest are in the table)."""
MAX_REQUESTS = 50
"""Requests listed under each shape."""
EXTRA_CSS = """
.shape { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:12px; }
.flowbar { fill:var(--ok); } .agentbar { fill:var(--agent); }
"""


def label(row: ShapeRow) -> str:
    """A shape as text: ``a -> b``, or ``[] (no tool)``."""
    return " -> ".join(row.tools) if row.tools else "[] (no tool)"


def shapes_svg(rows: Sequence[ShapeRow]) -> str:
    """Horizontal bars, one per shape: runs the flow would take, then the agent's."""
    shown = list(rows[:MAX_BARS])
    width, left, right, bar, gap, top = 800.0, 380.0, 70.0, 18.0, 8.0, 8.0
    height = top + len(shown) * (bar + gap) + 22
    most = max((len(r.runs) for r in shown), default=1)
    scale = (width - left - right) / most
    out = [f'<svg viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="runs per shape">']
    for i, row in enumerate(shown):
        y = top + i * (bar + gap)
        flow = sum(to_flow(run.request) for run in row.runs)
        rest = len(row.runs) - flow
        name = label(row)
        short = name if len(name) <= 58 else name[:57] + "…"
        tip = escape(f"{name}: {len(row.runs)} runs ({row.share:.1%}), {flow} to the flow")
        out.append(
            f'<g><title>{tip}</title><text x="{left - 8}" y="{y + bar * 0.7:.1f}" '
            f'text-anchor="end">{escape(short)}</text>'
            f'<rect class="flowbar" x="{left}" y="{y:.1f}" width="{flow * scale:.1f}" '
            f'height="{bar}" rx="2"/><rect class="agentbar" x="{left + flow * scale:.1f}" '
            f'y="{y:.1f}" width="{rest * scale:.1f}" height="{bar}" rx="2"/>'
            f'<text x="{left + len(row.runs) * scale + 6:.1f}" y="{y + bar * 0.7:.1f}">'
            f"{len(row.runs)} ({row.share:.0%})</text></g>"
        )
    out.append(
        f'<text x="{left}" y="{height - 4:.0f}">runs (hover a bar for its shape)</text></svg>'
    )
    return "".join(out)


def _cards(analysis: Analysis) -> str:
    """The headline figures."""
    flow = analysis.flow
    ratio = flow.saving.ratio if flow.runs else None
    figures = [
        (str(len(analysis.runs)), "agent runs"),
        (str(len(analysis.rows)), "shapes"),
        (f"{flow.share:.1%}", "the router would send to the flow"),
        (f"{flow.agree}/{flow.both_answered}", "agree where both answered"),
        (f"{ratio:.0f}x" if ratio is not None else "-", "flow / agent req/s"),
    ]
    return "".join(
        f'<div class="card"><div class="v">{escape(v)}</div><div class="k">{escape(k)}</div></div>'
        for v, k in figures
    )


def _ms(seconds: float | None) -> str:
    """A duration in milliseconds, or ``-``."""
    return "-" if seconds is None else f"{seconds * 1000:.0f} ms"


def _table(rows: Sequence[ShapeRow]) -> str:
    """The shapes table."""
    cells = "".join(
        f'<tr><td class="shape"><a href="#s-{i}">{escape(label(row))}</a></td>'
        f'<td class="num">{len(row.runs)}</td><td class="num">{row.share:.1%}</td>'
        f'<td class="num">{row.mean_model_calls:.2f}</td><td class="num">{row.answered:.0%}</td>'
        f'<td class="num">{_ms(row.median_duration_s)}</td></tr>'
        for i, row in enumerate(rows)
    )
    return (
        '<table><tr><th>shape</th><th class="num">runs</th><th class="num">share</th>'
        '<th class="num">model calls</th><th class="num">answered</th>'
        f'<th class="num">median duration</th></tr>{cells}</table>'
    )


def _requests(index: int, row: ShapeRow) -> str:
    """One shape's runs: request, how it stopped, model calls, thread."""
    items = "".join(
        f'<div class="qrow" style="grid-template-columns:14ch minmax(0,1fr) 9ch 6ch">'
        f'<span class="id">{escape(run.ref)}</span><span title="{escape(run.request)}">'
        f"{escape(run.request)}</span><span>{escape(run.stopped or 'running')}</span>"
        f'<span class="num">{run.model_calls}</span></div>'
        for run in row.runs[:MAX_REQUESTS]
    )
    more = len(row.runs) - MAX_REQUESTS
    if more > 0:
        items += f'<div class="qrow"><span>… and {more} more</span></div>'
    return (
        f'<details id="s-{index}"><summary class="qrow" style="grid-template-columns:1fr 12ch">'
        f'<span class="shape">{escape(label(row))}</span><span class="num">{len(row.runs)} '
        f'runs</span></summary><div class="body">{items}</div></details>'
    )


def render_page(analysis: Analysis) -> str:
    """The self-contained page."""
    title = "Request shapes of the stored agent runs"
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title><style>{REPORT_CSS}{EXTRA_CSS}</style></head><body><main>",
        f"<h1>{title}</h1>",
        '<p class="lead">A shape is the tools a run called, in order, repeats in a row '
        "collapsed, <code>finish</code> left out. Written by <code>agent shapes</code>.</p>",
        f'<div class="cards">{_cards(analysis)}</div>',
        "<h2>Shapes by runs</h2>",
        f'<div class="panel">{shapes_svg(analysis.rows)}<div class="legend">'
        '<span><i style="background:var(--ok)"></i>the router would send to the flow</span>'
        '<span><i style="background:var(--agent)"></i>the agent keeps</span></div></div>',
        f'<div class="panel" style="margin-top:14px">{_table(analysis.rows)}</div>',
        "<h2>What the flow would serve</h2>",
        '<div class="panel">'
        + "".join(f'<p class="compare">{escape(line)}</p>' for line in flow_lines(analysis.flow))
        + "</div>",
    ]
    if analysis.proposed:
        draft = analysis.draft
        parts += ["<h2>Draft flow (a starting point a person edits)</h2>"]
        parts += [
            f"<pre>{escape(draft_source(draft))}</pre>"
            if draft is not None
            else '<p class="lead">No shape without a flow holds 10% of the runs.</p>'
        ]
    parts += [
        "<h2>Requests behind each shape</h2>",
        '<div class="qs">',
        *(_requests(i, row) for i, row in enumerate(analysis.rows)),
        "</div>",
        "<footer>Answered: stopped on a non-empty answer. Durations from the checkpoints' "
        "timestamps. The flow's outcomes come from running it offline, in memory.</footer>",
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"
