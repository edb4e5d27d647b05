"""The transition table and the failure policy, as data.

Each stage has one successor when it succeeds and one policy when it fails. The graph is
generated from this file (``graph.flow.graph``): one node per stage, the edges from
``targets``, the routers from ``next_step``, and LangGraph's ``RetryPolicy`` on the stages whose
policy is RETRY_ONCE (``graph.flow.retry``). Nothing else decides what follows a stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Literal


class Stage(StrEnum):
    """The six stages, in the order a request that goes well passes through them."""

    PARSE = "parse"
    HISTORY = "history"
    DIAGNOSE = "diagnose"
    PART = "part"
    STOCK = "stock"
    COMPOSE = "compose"


class Failure(StrEnum):
    """What to do when a stage does not produce what the next one needs."""

    RETRY_ONCE = "retry_once"
    """Transient (a timeout, a 429): run the stage once more; a second failure escalates."""
    ESCALATE = "escalate"
    """A human has to decide: pause the thread with an interrupt."""
    ABORT = "abort"
    """The request cannot be served: say why and stop."""


ESCALATE_NODE: Literal["escalate"] = "escalate"
"""The graph node that pauses the thread for a human decision."""
ABORT: Literal["abort"] = "abort"
"""What follows a stage whose failure aborts the request (the stage writes why; the run ends)."""
DONE: Literal["__end__"] = "__end__"
"""What follows the last stage's success: LangGraph's END."""
RESUME_STAGE = Stage.PART
"""Where a thread continues when a human resumes it with a fault code."""
MAX_RUNS = MappingProxyType({Failure.RETRY_ONCE: 2, Failure.ESCALATE: 1, Failure.ABORT: 1})
"""How many runs of a stage its policy allows in one visit (RETRY_ONCE: the first and a retry)."""

Destination = Literal[
    "parse", "history", "diagnose", "part", "stock", "compose", "escalate", "abort", "__end__"
]
"""What follows a stage: a stage, the escalation, an abort, or the end (LangGraph's END)."""
Target = Literal["parse", "history", "diagnose", "part", "stock", "compose", "escalate", "__end__"]
"""A graph node a stage's edge can lead to (an abort ends the run: END)."""

_NODE: MappingProxyType[Stage, Target] = MappingProxyType(
    {
        Stage.PARSE: "parse",
        Stage.HISTORY: "history",
        Stage.DIAGNOSE: "diagnose",
        Stage.PART: "part",
        Stage.STOCK: "stock",
        Stage.COMPOSE: "compose",
    }
)
"""Each stage as a graph node (the same name)."""


@dataclass(frozen=True)
class Transition:
    """Where a stage goes: its successor on success, its policy on failure."""

    on_ok: Stage | None
    """The next stage; None when the request is finished."""
    on_failure: Failure
    """What the failure policy does when the stage fails."""


TRANSITIONS: MappingProxyType[Stage, Transition] = MappingProxyType(
    {
        Stage.PARSE: Transition(Stage.HISTORY, Failure.ABORT),  # no variant, no answer worth giving
        Stage.HISTORY: Transition(
            Stage.DIAGNOSE, Failure.RETRY_ONCE
        ),  # a tool call can be transient
        Stage.DIAGNOSE: Transition(Stage.PART, Failure.ESCALATE),  # ambiguity is a human's call
        Stage.PART: Transition(Stage.STOCK, Failure.ESCALATE),  # no fitting part: catalogue gap
        Stage.STOCK: Transition(Stage.COMPOSE, Failure.RETRY_ONCE),
        Stage.COMPOSE: Transition(None, Failure.ABORT),
    }
)
"""The transition table: one row per stage; the first row is where a request starts."""

POLICY: MappingProxyType[Stage, Failure] = MappingProxyType(
    {stage: row.on_failure for stage, row in TRANSITIONS.items()}
)
"""The failure policy per stage (a view of ``TRANSITIONS``)."""

FIRST_STAGE: Stage = next(iter(TRANSITIONS))
"""Where a new request starts (the table's first row)."""


def node_of(stage: Stage | str) -> Target:
    """Return the graph node that runs ``stage``; ValueError for an unknown stage."""
    return _NODE[Stage(stage)]


def next_step(stage: Stage | str, ok: bool) -> Destination:
    """Return what follows a visit to ``stage`` that ended with ``ok``.

    Success goes to the stage's successor (END after compose). Failure applies the stage's
    policy: ABORT stops the request; ESCALATE goes to a human, and so does RETRY_ONCE, whose
    retry of a transient error has already run inside the stage's node (LangGraph's
    ``RetryPolicy``): a failure that reaches the table is a second failure, or one a retry
    cannot fix. Raises ValueError for an unknown stage.
    """
    row = TRANSITIONS[Stage(stage)]
    if ok:
        return DONE if row.on_ok is None else _NODE[row.on_ok]
    if row.on_failure is Failure.ABORT:
        return ABORT
    return ESCALATE_NODE


def targets(stage: Stage | str) -> tuple[Target, ...]:
    """Return the graph nodes an edge from ``stage`` can lead to (an abort leads to END)."""
    found: list[Target] = []
    for ok in (True, False):
        after = next_step(stage, ok)
        target: Target = DONE if after == ABORT else after
        if target not in found:
            found.append(target)
    return tuple(found)


__all__ = [
    "ABORT",
    "DONE",
    "Destination",
    "ESCALATE_NODE",
    "FIRST_STAGE",
    "Failure",
    "MAX_RUNS",
    "POLICY",
    "RESUME_STAGE",
    "Stage",
    "TRANSITIONS",
    "Target",
    "Transition",
    "next_step",
    "node_of",
    "targets",
]
