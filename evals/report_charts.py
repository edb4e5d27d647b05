"""The inline SVG charts of ``report.html``, and the HTML helpers they share with the page.

`per_question_svg`: model calls and latency per question; `hop_svg`: retrieval recall after
each search, the agent beside single-shot BM25 at the same budget. Plain SVG, no script.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from evals.metrics import RunRecord
from evals.report_data import HopRecall


def escape(value: Any) -> str:
    """HTML-escaped text."""
    return html.escape(str(value), quote=True)


def mark(record: RunRecord) -> tuple[str, str, str]:
    """The row marker: (css class, symbol, meaning)."""
    if record["stopped"] == "error":
        return "err", "!", "error"
    if record["correct"]:
        return "ok", "✓", "correct"
    return "bad", "✗", "wrong"


def per_question_legend() -> str:
    """The legend under the per-question chart."""
    return (
        '<div class="legend"><span><i style="background:var(--ok)"></i>correct</span>'
        '<span><i style="background:var(--bad)"></i>wrong</span>'
        '<span><i style="background:var(--err)"></i>error</span>'
        '<span><i style="background:var(--agent)"></i>latency</span></div>'
    )


def per_question_svg(records: Sequence[RunRecord]) -> str:
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
        css = mark(r)[0]
        color = {"ok": "var(--ok)", "bad": "var(--bad)", "err": "var(--err)"}[css]
        ms = r["latency_s"] * 1000
        tip = escape(f"{r['question_id']}: {r['steps']} steps, {ms:.1f} ms, {mark(r)[2]}")
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


def hop_svg(hops: Sequence[HopRecall]) -> str:
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
                f"<g><title>{escape(f'after search {h.hop}: {who} {value:.3f}')}</title>"
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
