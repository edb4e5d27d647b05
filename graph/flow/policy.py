"""The transition table and the failure policy, as data.

Each stage has one successor when it succeeds and one policy when it fails. ``next_step`` is
the only place that turns (stage, ok, runs) into what happens next: the ``run_stages`` node
loops over it, and the graph's router reads it to see whether the loop stopped where it had to.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Literal

from langgraph.graph import END


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


STAGES_NODE: Literal["run_stages"] = "run_stages"
"""The graph node that runs the stages, in a loop over ``TRANSITIONS``."""
ESCALATE_NODE: Literal["escalate"] = "escalate"
"""The graph node that pauses the thread for a human decision."""
ABORT: Literal["abort"] = "abort"
"""What follows a stage whose failure aborts the request (``run_stages`` ends it)."""
RESUME_STAGE = Stage.PART
"""Where a thread continues when a human resumes it with a fault code."""
MAX_RUNS = {Failure.RETRY_ONCE: 2, Failure.ESCALATE: 1, Failure.ABORT: 1}
"""How many runs of a stage the policy allows before it gives up."""

Destination = Literal[
    "parse", "history", "diagnose", "part", "stock", "compose", "escalate", "abort", "__end__"
]
"""What follows a stage run: a stage, the escalation, an abort, or the end (LangGraph's END)."""
DONE: Destination = "__end__"
assert DONE == END, "LangGraph renamed its END node"

_NEXT: MappingProxyType[Stage, Destination] = MappingProxyType(
    {
        Stage.PARSE: "parse",
        Stage.HISTORY: "history",
        Stage.DIAGNOSE: "diagnose",
        Stage.PART: "part",
        Stage.STOCK: "stock",
        Stage.COMPOSE: "compose",
    }
)
"""Each stage as a destination (the same name)."""


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
"""The transition table: one row per stage."""

POLICY: MappingProxyType[Stage, Failure] = MappingProxyType(
    {stage: row.on_failure for stage, row in TRANSITIONS.items()}
)
"""The failure policy per stage (a view of ``TRANSITIONS``)."""


def next_step(stage: Stage | str, ok: bool, runs: int) -> Destination:
    """Return what follows ``stage`` after its ``runs``-th run ended with ``ok``.

    Success goes to the stage's successor (END after compose). Failure applies the stage's
    policy; a retry is allowed while ``runs`` is below the policy's limit, and a retry that
    fails again escalates. Raises ValueError for an unknown stage or a run count below 1.
    """
    stage = Stage(stage)
    if runs < 1:
        raise ValueError(f"stage {stage} has run {runs} times; expected at least 1")
    row = TRANSITIONS[stage]
    if ok:
        return DONE if row.on_ok is None else _NEXT[row.on_ok]
    if row.on_failure is Failure.ABORT:
        return ABORT
    if row.on_failure is Failure.RETRY_ONCE and runs < MAX_RUNS[Failure.RETRY_ONCE]:
        return _NEXT[stage]
    return ESCALATE_NODE


def destinations(stage: Stage | str) -> tuple[Destination, ...]:
    """Return everything that can follow ``stage``, in the order ``next_step`` first gives it."""
    stage = Stage(stage)
    found: list[Destination] = []
    for ok in (True, False):
        for runs in range(1, max(MAX_RUNS.values()) + 1):
            target = next_step(stage, ok, runs)
            if target not in found:
                found.append(target)
    return tuple(found)


__all__ = [
    "ABORT",
    "DONE",
    "Destination",
    "ESCALATE_NODE",
    "Failure",
    "MAX_RUNS",
    "POLICY",
    "RESUME_STAGE",
    "STAGES_NODE",
    "Stage",
    "TRANSITIONS",
    "Transition",
    "destinations",
    "next_step",
]
