"""One analysis of the stored traffic: runs, shapes, the flow's share and, if asked, a draft."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evals.shapes.flow_share import DEFAULT_MODEL_LATENCY_MS, FlowShare, flow_share
from evals.shapes.propose import Draft, propose
from evals.shapes.runs import Run
from evals.shapes.table import ShapeRow, shape_rows


@dataclass(frozen=True)
class Analysis:
    """Everything `agent shapes` reports on one store."""

    runs: tuple[Run, ...]
    rows: tuple[ShapeRow, ...]
    flow: FlowShare
    draft: Draft | None
    proposed: bool
    """Whether a draft was asked for (``--propose``)."""


def analyze(
    runs: Sequence[Run],
    *,
    model_latency_ms: float = DEFAULT_MODEL_LATENCY_MS,
    with_draft: bool = False,
) -> Analysis:
    """Shapes, the flow's share and saving, and (``with_draft``) the draft, for `runs`."""
    rows = shape_rows(runs)
    draft = propose(rows, runs) if with_draft else None
    return Analysis(
        runs=tuple(runs),
        rows=tuple(rows),
        flow=flow_share(runs, model_latency_ms),
        draft=draft,
        proposed=with_draft,
    )
