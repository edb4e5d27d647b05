"""The agent's state: a narrow input, the result a caller reads, and the working state between.

`typing_extensions.TypedDict` (not `typing.TypedDict`) so pydantic can build the JSON schemas
Studio and `client.assistants.get_schemas` show, on Python 3.11 as on 3.12+.
"""

from __future__ import annotations

from typing import Annotated, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from langgraph.managed import RemainingSteps
from typing_extensions import TypedDict

Stopped = Literal["answer", "no_answer", "budget", "error"]


class InputState(TypedDict, total=False):
    """What a caller passes in: a question, or a chat panel's messages."""

    question: str
    """The user's question, in plain text."""
    messages: Annotated[list[AnyMessage], add_messages]
    """The transcript: questions, thoughts with tool calls, observations, answers (the system
    prompt is sent with each model call, never stored).

    A chat panel sends `{"messages": [...]}`: its last human message is the question and the
    earlier turns are the conversation so far.
    """


class OutputState(TypedDict, total=False):
    """What every run returns: the seed-004 result, bookkeeping, then the question and transcript.

    The result comes first, so a client that prints the output (the dev server's `/mcp` tool
    result) leads with the answer and its citations.
    """

    answer: str | None
    """The final answer (the sentence that answers, with its citations), or None without one."""
    short_answer: str | None
    """Just the name, number, date, place, yes/no or option asked for; None when not asked for
    or not sure."""
    citations: list[str]
    """Cited document ids that the run actually retrieved."""
    unsupported: list[str]
    """Cited document ids the run never retrieved: the hallucination signal."""
    steps: int
    """Model calls made in this turn."""
    stopped: Stopped | None
    """Why the turn ended: "answer", "no_answer" (declined: the evidence does not cover the
    question), "budget" or "error" (None while it runs)."""
    retrieved: dict[str, list[str]]
    """Document ids retrieved in this turn, by tool name, in first-seen order."""
    error: str | None
    """A one-line description of the error that stopped the turn, if any."""
    tokens: int
    """Tokens reported by the model for this turn (0 when the model reports none)."""
    grounded: float
    """Share of the answer's content words found in the passages it cites (0 citing nothing).

    Any extract from a cited passage scores 1.0: it says the answer is quoted, not that it
    answers. `support` says whether the evidence covers the question."""
    support: float
    """Share of the question's idf weight that the cited passages cover (`graph.models.support`)."""
    confident: bool
    """Whether the answer is trusted: support at or above the bar and the answer singled out and on
    the question (`graph.models.confidence.is_confident`), or a computed result."""
    doubts: list[str]
    """Why the answer is not confident: each failed check with its figures ("another retrieved
    sentence covers 74% of the question, the answer 53%"); [] when it is confident or absent."""
    ungrounded: bool
    """True when the answer cites nothing although the corpora hold passages on the question."""
    question: str
    """The question of the latest turn."""
    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation: each turn's question, thoughts with tool calls, observations, answer."""


class AgentState(OutputState, total=False):
    """The full working state of a thread."""

    remaining_steps: RemainingSteps
    """Supersteps left before the recursion limit (managed by LangGraph)."""
