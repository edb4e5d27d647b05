"""Shapes: the names of the tools a run called, in order, repeats in a row collapsed.

``finish`` is left out (it ends every answered run), so a run that called no tool has the
shape ``()``. Rows are ordered by runs (most first), then by the shape itself.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from evals.shapes.runs import Run

Shape = tuple[str, ...]


def shape_of(run: Run) -> Shape:
    """The run's tool names in order, consecutive repeats collapsed (``finish`` left out)."""
    names: list[str] = []
    for call in run.calls:
        if not names or names[-1] != call.tool:
            names.append(call.tool)
    return tuple(names)


@dataclass(frozen=True)
class ShapeRow:
    """One shape and the runs that have it."""

    tools: Shape
    runs: tuple[Run, ...]
    share: float
    """Of all runs read."""
    mean_model_calls: float
    answered: float
    """Share of its runs that stopped on a non-empty answer."""
    median_duration_s: float | None
    """Over its runs whose checkpoints give a duration (None when none do)."""


def shape_rows(runs: Sequence[Run]) -> list[ShapeRow]:
    """The shapes of `runs`, most runs first."""
    groups: dict[Shape, list[Run]] = {}
    for run in runs:
        groups.setdefault(shape_of(run), []).append(run)
    total = len(runs)
    rows = []
    for tools, members in groups.items():
        durations = [r.duration_s for r in members if r.duration_s is not None]
        rows.append(
            ShapeRow(
                tools=tools,
                runs=tuple(members),
                share=len(members) / total,
                mean_model_calls=sum(r.model_calls for r in members) / len(members),
                answered=sum(r.answered for r in members) / len(members),
                median_duration_s=statistics.median(durations) if durations else None,
            )
        )
    return sorted(rows, key=lambda row: (-len(row.runs), row.tools))
