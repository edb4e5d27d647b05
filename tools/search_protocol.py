"""What every ``search_<name>`` tool speaks: its name, input, hits, query errors and evidence.

The model sees the input (`SearchInput`) and the hits. The offline policy also asks each
search tool, through `SearchSource`, which collection it searches, how well a query matches it
(`evidence`) and how much a word of a question weighs (`term_weight`), to choose where to
search and whether to search again. Any tool that implements those three members is a search
tool to the policy, whatever it is built on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, NotRequired, Protocol, runtime_checkable

from langchain_core.tools import InjectedToolArg, ToolException
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

SEARCH_PREFIX = "search_"
"""Every search tool is named ``search_<collection>``."""

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


def search_tool_name(collection: str) -> str:
    """The name of the search tool over `collection` (``search_<collection>``)."""
    return f"{SEARCH_PREFIX}{collection}"


@dataclass(frozen=True)
class Evidence:
    """What a search tool can tell about a query without running the search the model sees."""

    text: str
    """The text the query is judged against: the best passage's indexed text for a local
    index, or the tool's name and description for a search that is not asked ahead of time."""
    score: float = 0.0
    """The best passage's retrieval score (0.0 when judged by the description)."""
    found: bool = True
    """False when the tool knows it holds nothing for the query."""


@runtime_checkable
class SearchSource(Protocol):
    """A search tool as the offline policy reads it (`graph.models.offline.sources`)."""

    name: str

    @property
    def collection(self) -> str:
        """The collection searched, for the policy's thoughts ("products")."""
        ...

    def evidence(self, query: str) -> Evidence:
        """How well `query` matches the collection: cheap, deterministic, no side effect."""
        ...

    def term_weight(self, term: str) -> float:
        """How much a lowercase word tells in the collection.

        Its idf for a tool with term statistics; 1.0 for every word for one without.
        """
        ...


def described_evidence(name: str, description: str) -> Evidence:
    """The evidence of a search that is not asked ahead of time: its name and description."""
    return Evidence(text=f"{name} {description}")


def corpus_of(tool: object) -> str | None:
    """The collection a search tool searches (None for a tool that is not a search)."""
    if isinstance(tool, SearchSource):
        return tool.collection
    name = str(getattr(tool, "name", ""))
    return name.removeprefix(SEARCH_PREFIX) if name.startswith(SEARCH_PREFIX) else None
