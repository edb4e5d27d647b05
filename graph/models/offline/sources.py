"""Which search tool the offline policy asks: the one whose evidence for the query is best.

Search tools are read only through `tools.search_protocol.SearchSource` (`collection`,
`evidence(query)`, `term_weight(term)`), whatever they are built on: a BM25 or saved index,
dense or hybrid retrieval, a foreign LangChain retriever, a remote MCP search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from graph.models.offline.reading import stems
from tools.search_protocol import SearchSource


def search_sources(tools: Iterable[Any]) -> list[SearchSource]:
    """The tools that are search tools to the policy (they implement `SearchSource`)."""
    return [tool for tool in tools if isinstance(tool, SearchSource)]


def ranked(sources: Sequence[SearchSource], query: str) -> list[SearchSource]:
    """Search tools ordered by their evidence for `query`.

    First the share of the query's words the evidence text covers (the best passage, or the
    description of a search not asked ahead of time), then the evidence's score, then bound
    order. A tool that knows it holds nothing for the query comes after all the others.
    """
    wanted = stems(query)
    scored = []
    for order, source in enumerate(sources):
        evidence = source.evidence(query)
        if not evidence.found:
            scored.append((1.0, 0.0, order, source))
            continue
        coverage = len(stems(evidence.text) & wanted) / len(wanted) if wanted else 0.0
        scored.append((-coverage, -evidence.score, order, source))
    scored.sort(key=lambda item: item[:3])
    return [item[3] for item in scored]
