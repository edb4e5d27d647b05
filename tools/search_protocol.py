"""What every ``search_<name>`` tool speaks: its input, its hits, its query errors."""

from __future__ import annotations

from typing import Annotated, NotRequired

from langchain_core.tools import InjectedToolArg, ToolException
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

EMPTY_QUERY_ERROR = "error: empty query; pass the words to look up in {name}"
"""Content of the error ToolMessage for a blank query."""

MAX_PAGE = 20
"""Deepest page of one query's ranking a search may read (page p holds ranks (p-1)k+1..pk)."""

MAX_QUERY_CHARS = 2_000
LONG_QUERY_ERROR = "error: the query is {n:,} characters; use the key words (at most {limit:,})"
"""Content of the error ToolMessage for a query too long to be a query."""


class SearchHit(TypedDict):
    """One search result, as carried in the tool message artifact.

    ``text`` is the passage's indexed text (``title. text`` when it has a title), verbatim.
    ``score`` is the retriever's (the fused score for hybrid, which also keeps ``bm25`` and
    ``dense``).
    """

    id: str
    score: float
    corpus: str
    text: str
    title: str
    retriever: NotRequired[str]
    bm25: NotRequired[float]
    dense: NotRequired[float]


class SearchInput(BaseModel):
    """Arguments of a ``search_<name>`` tool."""

    query: str = Field(
        description="Keywords to look up, e.g. 'Atlas scheduler owner' or 'refund window days'."
    )
    page: int = Field(
        default=1,
        ge=1,
        le=MAX_PAGE,
        description="1 for the best passages; 2, 3, ... to read further down the same ranking.",
    )
    k: Annotated[int | None, InjectedToolArg] = Field(
        default=None, ge=1, description="Number of passages (set by the program, not the model)."
    )


def check_query(query: str, tool_name: str) -> None:
    """Raise the ToolException a blank or overlong query gets (an error message, not a crash)."""
    if not query.strip():
        raise ToolException(EMPTY_QUERY_ERROR.format(name=tool_name))
    if len(query) > MAX_QUERY_CHARS:
        raise ToolException(LONG_QUERY_ERROR.format(n=len(query), limit=MAX_QUERY_CHARS))
