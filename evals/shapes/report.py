"""`agent shapes` output: the JSON, the terminal table, and a draft as Python source.

``shapes_json`` gives ``{"runs": N, "shapes": [{"tools": [...], "runs": n, "share": f, ...}],
"flow": {...}}`` (and ``"proposal"`` with ``--propose``); ``draft_source`` writes a draft in the
form of ``graph/flow/transitions.py``: a ``Stage`` enum, the argument sources, ``TRANSITIONS``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from evals.shapes.analysis import Analysis
from evals.shapes.flow_share import FlowShare, to_flow
from evals.shapes.propose import Draft, Source


def _number(value: float | None) -> float | None:
    """A JSON-safe float (None for infinities and NaN)."""
    return value if value is not None and math.isfinite(value) else None


def shapes_json(analysis: Analysis) -> dict[str, Any]:
    """The ``--json`` document (see the module docstring)."""
    flow = analysis.flow
    saving = flow.saving
    document: dict[str, Any] = {
        "runs": len(analysis.runs),
        "shapes": [
            {
                "tools": list(row.tools),
                "runs": len(row.runs),
                "share": row.share,
                "mean_model_calls": row.mean_model_calls,
                "answered": row.answered,
                "median_duration_s": row.median_duration_s,
                "to_flow": sum(to_flow(run.request) for run in row.runs),
            }
            for row in analysis.rows
        ],
        "flow": {
            "runs": len(flow.runs),
            "share": flow.share,
            "outcomes": dict(flow.outcomes),
            "agreement": {
                "both_answered": flow.both_answered,
                "agree": flow.agree,
                "share": flow.agree / flow.both_answered if flow.both_answered else None,
            },
            "saving": {
                "model_calls": saving.model_calls,
                "mean_model_calls": saving.mean_model_calls,
                "model_latency_ms": saving.model_latency_ms,
                "agent_other_ms": saving.agent_other_ms,
                "flow_cpu_ms": saving.flow_cpu_ms,
                "agent_rps": _number(saving.agent_rps),
                "flow_rps": _number(saving.flow_rps),
                "ratio": _number(saving.ratio) if flow.runs else None,
            },
        },
    }
    if analysis.proposed:
        document["proposal"] = draft_json(analysis.draft)
    return document


def draft_json(draft: Draft | None) -> dict[str, Any] | None:
    """The draft as data (None when no shape qualifies)."""
    if draft is None:
        return None
    return {
        "tools": list(draft.tools),
        "runs": [run.ref for run in draft.runs],
        "ended_early": [run.ref for run in draft.ended_early],
        "stages": [
            {
                "stage": stage.stage,
                "tool": stage.tool,
                "arguments": {name: source_json(src) for name, src in stage.arguments.items()},
                "on_ok": stage.on_ok,
                "on_failure": stage.on_failure.name,
                "failed_then_retried": stage.retried,
                "ended_runs": stage.ended,
            }
            for stage in draft.stages
        ],
        "source": draft_source(draft),
    }


def source_json(source: Source) -> dict[str, Any]:
    """One argument's source as data (only the fields its kind uses)."""
    data: dict[str, Any] = {"from": source.kind, "covers": source.covers}
    for key in ("pattern", "stage", "field"):
        if getattr(source, key) is not None:
            data[key] = getattr(source, key)
    if source.kind in ("constant", "unknown"):
        data["value"] = source.value
    return data


def constant_name(stage: str) -> str:
    """A stage's enum member name: ``lookup_order`` -> ``LOOKUP_ORDER``."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", stage).strip("_").upper() or "STAGE"
    return name if not name[0].isdigit() else f"S_{name}"


def _quoted(text: str | None) -> str:
    """A string literal in double quotes."""
    return json.dumps(text or "")


def pattern_literal(pattern: str) -> str:
    """A pattern as a Python literal: raw (``r"..."``) when it can be, else escaped."""
    if '"' not in pattern and not pattern.endswith("\\"):
        return f'r"{pattern}"'
    return json.dumps(pattern)


def _source_code(source: Source) -> str:
    """One argument's source as a Python expression of the draft."""
    if source.kind == "request":
        return f"FromRequest({pattern_literal(source.pattern or '')})"
    if source.kind == "stage":
        return f"FromStage(Stage.{constant_name(source.stage or '')}, {_quoted(source.field)})"
    if source.kind == "constant":
        return f"Constant({json.dumps(source.value)})"
    return "Unknown()  # fill in by hand"


def draft_source(draft: Draft) -> str:
    """The draft as Python, in the form of ``graph/flow/transitions.py``."""
    runs = len(draft.runs)
    lines = [
        f'"""Draft flow for the shape {" -> ".join(draft.tools)}, drawn from {runs} runs.',
        "",
        "Written by `agent shapes --propose`: a starting point a person edits (check every",
        "pattern, write each stage's function, decide the failure policy), not a flow.",
        '"""',
        "",
        "",
        "class Stage(StrEnum):",
        '    """The stages, in the order the runs called their tools."""',
        "",
    ]
    lines += [
        f"    {constant_name(s.stage)} = {_quoted(s.stage)}  # tool {s.tool}" for s in draft.stages
    ]
    lines += ["", "", "ARGUMENTS = MappingProxyType(", "    {"]
    for stage in draft.stages:
        lines.append(f"        Stage.{constant_name(stage.stage)}: {{")
        for name, source in stage.arguments.items():
            note = f"  # {source.covers:.0%} of the runs" if source.kind != "unknown" else ""
            lines.append(f"            {_quoted(name)}: {_source_code(source)},{note}")
        lines.append("        },")
    lines += ["    }", ")", '"""Where each stage\'s arguments come from."""', ""]
    lines += ["TRANSITIONS = MappingProxyType(", "    {"]
    for stage in draft.stages:
        after = f"Stage.{constant_name(stage.on_ok)}" if stage.on_ok else "None"
        seen = f"{stage.retried} failed then succeeded on retry; {stage.ended} ended on it"
        lines.append(
            f"        Stage.{constant_name(stage.stage)}: "
            f"Transition({after}, Failure.{stage.on_failure.name}),  # {seen}"
        )
    lines += ["    }", ")", '"""The draft transition table: one row per stage."""']
    return "\n".join(lines) + "\n"


def _cell(value: float | None, form: str) -> str:
    """A number for the table, or ``-``."""
    return "-" if value is None else format(value, form)


def table_lines(analysis: Analysis, width: int = 100) -> list[str]:
    """The terminal table: one line per shape, then what the flow would serve."""
    head = f"{'runs':>6} {'share':>6} {'calls':>6} {'answered':>8} {'median s':>9}  shape"
    lines = [f"{len(analysis.runs)} agent runs, {len(analysis.rows)} shapes", head]
    for row in analysis.rows:
        tools = " -> ".join(row.tools) if row.tools else "[] (no tool)"
        lines.append(
            f"{len(row.runs):>6} {row.share:>6.1%} {row.mean_model_calls:>6.2f} "
            f"{row.answered:>8.1%} {_cell(row.median_duration_s, '.3f'):>9}  {tools[:width]}"
        )
    return [*lines, "", *flow_lines(analysis.flow)]


def flow_lines(flow: FlowShare) -> list[str]:
    """What the flow would serve, the agreement and the saving, in a few lines."""
    if not flow.runs:
        return ["the router would send none of these requests to the flow"]
    saving = flow.saving
    outcomes = ", ".join(f"{count} {name}" for name, count in flow.outcomes.items())
    agree = (
        f"{flow.agree}/{flow.both_answered} agree where both answered"
        if flow.both_answered
        else "no request both answered"
    )
    ratio = _number(saving.ratio)
    return [
        f"the router would send {len(flow.runs)} runs ({flow.share:.1%}) to the flow; "
        f"run offline it {outcomes}; {agree}",
        f"saving: {saving.model_calls} agent model calls ({saving.mean_model_calls:.2f} a run); "
        f"at {saving.model_latency_ms:g} ms a call the agent serves {saving.agent_rps:.2f} req/s, "
        f"the flow {saving.flow_rps:.1f} req/s ({saving.flow_cpu_ms:.2f} ms CPU a request)"
        + (f": {ratio:.0f}x" if ratio is not None else ""),
    ]
