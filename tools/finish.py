"""The ``finish`` tool: the agent's final answer, its short form, and the passage ids it rests on.

The graph routes a ``finish`` call to the end of the run, reading the answer, short answer and
citations from the tool call's arguments; running the tool itself only echoes the answer.

A **decline** is a ``finish`` call whose ``answer`` is absent, null or blank: the run ends with
no answer (``stopped: "no_answer"``) and says what it searched. The offline policy declines so
when the passages it found do not cover the question; a real model may do the same.
"""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

FINISH_TOOL = "finish"
"""The finish tool's name (the one place it is spelled): a call to it ends the turn."""

FINISH_DESCRIPTION = (
    "Give the final answer and end the run. Call it exactly once, when the passages you "
    "found answer the question (or when you are sure they cannot: then leave 'answer' empty "
    "to decline). 'answer' is the sentence that answers, as the passage writes it; "
    "'short_answer', optional, just the name, number, date, place or yes/no asked for. "
    "'citations' lists the ids of the passages that support the answer, exactly as shown in "
    "brackets in search results (e.g. d1, pol-2), without the brackets; use [] when nothing "
    "was retrieved, e.g. for pure arithmetic."
)
"""Tool description shown to the model."""


class FinishInput(BaseModel):
    """Arguments of the finish tool."""

    answer: str | None = Field(
        description="The answer in plain text, as the passages say it; null or empty to decline."
    )
    citations: list[str] = Field(
        description="Ids of the passages that support the answer, e.g. ['d1', 'd2']; [] if none."
    )
    short_answer: str | None = Field(
        default=None,
        description="Only the name, number, date, place, yes/no or option asked for; else null.",
    )


def _finish(
    answer: str | None = None, citations: list[str] | None = None, short_answer: str | None = None
) -> str:
    """Echo the answer (the graph, not this function, ends the run)."""
    return answer or ""


def normalize_citations(citations: Iterable[object]) -> list[str]:
    """Clean cited ids: strip spaces and surrounding brackets, drop empties and repeats.

    ``["[d1]", " d2", "d1", ""]`` gives ``["d1", "d2"]``. Non-strings are ignored.
    """
    seen: dict[str, None] = {}
    for item in citations:
        if isinstance(item, str):
            cleaned = item.strip().removeprefix("[").removesuffix("]").strip()
            if cleaned:
                seen.setdefault(cleaned, None)
    return list(seen)


finish: BaseTool = StructuredTool.from_function(
    func=_finish,
    name=FINISH_TOOL,
    description=FINISH_DESCRIPTION,
    args_schema=FinishInput,
)
"""The finish tool; its arguments are the run's answer and citations."""
