"""The flow's declared state: everything it knows, declared up front, not kept in a prompt."""

from __future__ import annotations

import operator
from typing import Annotated, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from tools.field_service_lookups import Availability, PassageHit, TicketHit

Outcome = Literal["answered", "escalated", "aborted"]
"""How a request ended: served, handed to a human, or refused."""


class LogEntry(TypedDict):
    """One run of one stage (a retry is a second entry for the same stage)."""

    stage: str
    """The stage (``parse`` ... ``compose``), or ``escalate`` for a human decision."""
    ok: bool
    """Whether the stage produced what the next one needs."""
    detail: str
    """What happened, in one line: the result, or why it failed."""
    ms: float
    """Wall time of the stage in milliseconds (``time.perf_counter``), one decimal."""


class HumanDecision(TypedDict):
    """What a human decided when resuming an escalated thread."""

    action: Literal["fault_code", "close"]
    """``fault_code``: continue from the part stage with ``fault_code``; ``close``: finish."""
    fault_code: str | None
    """The fault code the human chose (``action == "fault_code"``), else None."""
    note: str
    """The human's note (may be empty)."""
    stage: str
    """The stage that escalated."""


class FlowInput(TypedDict, total=False):
    """What a caller passes in: a request, or a chat panel's messages."""

    request: str
    """The field-service request in plain text, e.g. "AC-250-S leaking water, pump silent"."""
    messages: Annotated[list[AnyMessage], add_messages]
    """The chat: a chat panel's last human message is the request; each answer is an AI message."""


class FlowState(FlowInput, total=False):
    """The full state of one request's thread."""

    model_variant: str | None
    """The variant parsed from the request (``AC-250-S``), None until parse succeeds."""
    symptom: str | None
    """The request with the variant removed: the text the ticket history is searched with."""
    tickets: list[TicketHit]
    """Tickets for the variant that matched the symptom, best first, with BM25 scores."""
    fault_code: str | None
    """The diagnosed fault code, or the one a human chose; None while ambiguous or unknown."""
    diagnosis_margin: float
    """Normalised score of the leading fault code minus the runner-up's."""
    top_faults: list[tuple[str, float]]
    """Every fault code the tickets point to, with its normalised score, best first."""
    part_no: str | None
    """The catalogued part that fixes the fault on exactly this variant."""
    availability: Availability | None
    """The stock check's result: quantity on hand and lead time in days."""
    sourcing: str | None
    """Where the part comes from (supplier and channel)."""
    citation: PassageHit | None
    """The manual passage cited in the answer; None when the manual has none for the fault."""
    answer: str
    """The text handed back: the recommendation, or why there is none."""
    outcome: Outcome | None
    """``answered``, ``escalated`` or ``aborted``; None while the request is in progress."""
    reason: str
    """Why the last failing stage failed (empty when nothing failed)."""
    attempts: dict[str, int]
    """Stage name -> how many times it has run since the request (or the last human decision)."""
    log: Annotated[list[LogEntry], operator.add]
    """Every stage run and human decision, in order (appended, never rewritten)."""
    human_decision: HumanDecision | None
    """The decision a human made on the last escalation, if any."""
    resume_error: str | None
    """Why the last resume value was refused (the escalation pauses again, saying so)."""
