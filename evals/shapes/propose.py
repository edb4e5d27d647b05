"""A draft transition table for the largest shape no flow serves (``agent shapes --propose``).

The shape chosen is the one with the most runs among those that hold at least `MIN_SHARE` of
all runs, called at least one tool, and whose requests the router mostly does not send to a
flow. Each tool of the shape becomes a stage, in order. For each argument of a stage:

- ``request``: a span of the request, found by a pattern (`evals.shapes.patterns`) that finds
  exactly the value used in at least `MIN_COVER` of the shape's runs;
- ``stage``: a field of an earlier stage's result holding the value in that many runs;
- ``constant``: the same value in every run;
- ``unknown``: none of these (a person fills it in).

The failure policy comes from what the runs saw, counting also the runs whose shape is the
start of this one and that ended on a failed call: a stage that failed and then succeeded on a
retry gets RETRY_ONCE; one whose failure ended runs gets ABORT when it is the first stage (the
request cannot be served) and ESCALATE after that (a human decides); a stage no run saw fail
gets ESCALATE. It is a starting point a person edits, not a flow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evals.shapes.flow_share import to_flow
from evals.shapes.patterns import first_span, induce
from evals.shapes.runs import Run
from evals.shapes.table import Shape, ShapeRow, shape_of
from evals.shapes.transcript import Call
from graph.flow.transitions import Failure

MIN_SHARE = 0.10
"""A shape must hold at least this share of the runs to be proposed."""
MIN_COVER = 0.90
"""An argument's source must give the value used in at least this share of the shape's runs."""


@dataclass(frozen=True)
class Source:
    """Where a stage's argument comes from."""

    kind: str
    """``request``, ``stage``, ``constant`` or ``unknown``."""
    covers: float
    """Share of the shape's runs in which this source gives the value the run used."""
    pattern: str | None = None
    stage: str | None = None
    field: str | None = None
    value: Any = None


@dataclass(frozen=True)
class DraftStage:
    """One row of the draft table."""

    stage: str
    tool: str
    arguments: Mapping[str, Source]
    on_ok: str | None
    on_failure: Failure
    retried: int
    """Runs in which the stage's tool failed and then succeeded on a retry."""
    ended: int
    """Runs that ended on a failure of the stage's tool."""


@dataclass(frozen=True)
class Draft:
    """The draft: the shape, the runs it was drawn from, its stages."""

    tools: Shape
    runs: tuple[Run, ...]
    ended_early: tuple[Run, ...]
    """Runs whose shape is the start of this one and that ended on a failed call."""
    stages: tuple[DraftStage, ...]


def choose_shape(rows: Sequence[ShapeRow], total: int) -> ShapeRow | None:
    """The largest shape that no flow serves and that holds at least `MIN_SHARE` of the runs."""
    for row in rows:
        served = sum(to_flow(run.request) for run in row.runs) * 2 > len(row.runs)
        if row.tools and not served and len(row.runs) >= MIN_SHARE * total:
            return row
    return None


def propose(rows: Sequence[ShapeRow], all_runs: Sequence[Run]) -> Draft | None:
    """The draft for the chosen shape, or None when no shape qualifies."""
    row = choose_shape(rows, len(all_runs))
    if row is None:
        return None
    tools = row.tools
    early = tuple(
        run
        for run in all_runs
        if 0 < len(shape_of(run)) < len(tools)
        and shape_of(run) == tools[: len(shape_of(run))]
        and not run.calls[-1].ok
    )
    names = stage_names(tools)
    blocks = {run.ref: blocks_of(run) for run in (*row.runs, *early)}
    stages = []
    for index, tool in enumerate(tools):
        retried = ended = 0
        for run in (*row.runs, *early):
            block = blocks[run.ref][index] if index < len(blocks[run.ref]) else []
            if any(not c.ok for c in block[:-1]) and block and block[-1].ok:
                retried += 1
            if block and not block[-1].ok and index == len(blocks[run.ref]) - 1:
                ended += 1
        stages.append(
            DraftStage(
                stage=names[index],
                tool=tool,
                arguments=arguments(index, row.runs, blocks, names),
                on_ok=names[index + 1] if index + 1 < len(tools) else None,
                on_failure=policy(index, retried, ended),
                retried=retried,
                ended=ended,
            )
        )
    return Draft(tools, row.runs, early, tuple(stages))


def stage_names(tools: Shape) -> list[str]:
    """A stage name per tool: the tool's name, numbered when the shape calls it again."""
    seen: Counter[str] = Counter()
    names = []
    for tool in tools:
        seen[tool] += 1
        names.append(tool if seen[tool] == 1 else f"{tool}_{seen[tool]}")
    return names


def blocks_of(run: Run) -> list[list[Call]]:
    """The run's calls cut into blocks of one tool in a row (one block per stage)."""
    blocks: list[list[Call]] = []
    for call in run.calls:
        if blocks and blocks[-1][0].tool == call.tool:
            blocks[-1].append(call)
        else:
            blocks.append([call])
    return blocks


def used(block: Sequence[Call]) -> Call | None:
    """The call whose arguments a stage stands for: its last successful one, else its last."""
    return next((c for c in reversed(block) if c.ok), block[-1] if block else None)


def policy(index: int, retried: int, ended: int) -> Failure:
    """The failure policy from what the runs saw (see the module docstring)."""
    if retried:
        return Failure.RETRY_ONCE
    if ended and index == 0:
        return Failure.ABORT
    return Failure.ESCALATE


def arguments(
    index: int,
    runs: Sequence[Run],
    blocks: Mapping[str, list[list[Call]]],
    names: Sequence[str],
) -> dict[str, Source]:
    """Each argument of stage `index` and where its value comes from."""
    calls = {run.ref: used(blocks[run.ref][index]) for run in runs}
    order = list(dict.fromkeys(name for c in calls.values() if c for name in c.args))
    found = {}
    for name in order:
        values = {ref: c.args.get(name) for ref, c in calls.items() if c is not None}
        found[name] = (
            from_request(runs, values)
            or from_stage(index, runs, values, blocks, names)
            or constant(runs, values)
            or Source("unknown", 0.0, value=next(iter(values.values()), None))
        )
    return found


def from_request(runs: Sequence[Run], values: Mapping[str, Any]) -> Source | None:
    """A request pattern that finds the value used in at least `MIN_COVER` of the runs."""
    inside = [v for run in runs if isinstance(v := values.get(run.ref), str) and v in run.request]
    if not runs or len(inside) < MIN_COVER * len(runs):
        return None
    pattern = induce(inside)
    if pattern is None:
        return None
    hits = sum(first_span(pattern, run.request) == values.get(run.ref) for run in runs)
    covers = hits / len(runs)
    return Source("request", covers, pattern=pattern) if covers >= MIN_COVER else None


def from_stage(
    index: int,
    runs: Sequence[Run],
    values: Mapping[str, Any],
    blocks: Mapping[str, list[list[Call]]],
    names: Sequence[str],
) -> Source | None:
    """An earlier stage's result field that holds the value in at least `MIN_COVER` of runs."""
    hits: Counter[tuple[int, str]] = Counter()
    for run in runs:
        value = values.get(run.ref)
        for earlier in range(index):
            call = used(blocks[run.ref][earlier])
            for key in fields_holding(call.result if call else None, value):
                hits[(earlier, key)] += 1
    if not hits or not runs:
        return None
    (earlier, key), count = max(hits.items(), key=lambda item: (item[1], -item[0][0]))
    covers = count / len(runs)
    if covers < MIN_COVER:
        return None
    return Source("stage", covers, stage=names[earlier], field=key)


def fields_holding(result: Any, value: Any) -> list[str]:
    """Names of the result's fields whose value is `value` (top level, then first records)."""
    if value is None or not isinstance(result, Mapping):
        return []
    keys = [str(k) for k, v in result.items() if v == value and not isinstance(v, bool)]
    for k, v in result.items():
        if isinstance(v, list) and v and isinstance(v[0], Mapping):
            keys += [f"{k}[0].{inner}" for inner, x in v[0].items() if x == value]
    return list(dict.fromkeys(keys))


def constant(runs: Sequence[Run], values: Mapping[str, Any]) -> Source | None:
    """The one value every run used, if they all used the same."""
    distinct = {repr(values.get(run.ref)) for run in runs}
    if len(runs) and len(distinct) == 1:
        return Source("constant", 1.0, value=values.get(runs[0].ref))
    return None
