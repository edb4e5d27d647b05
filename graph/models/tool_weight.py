"""The weight of a question word over the search tools: its idf, the best over the tools.

`graph.models.support` weighs a question's words with it (`tool_weight`): a word
an index lacks weighs as the indexed words the search would expand it to (`tools.expand`), and
a word held only where its idf is 0 weighs `SEEN_FLOOR`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tools.expand import expand_terms

SEEN_FLOOR = 0.001
"""The weight of a word an index holds with an idf of 0: it tells almost nothing, but it is held,
not unseen. Indexes built now never give one (`tools.keyword_index.scoring_idf`); an index saved
before 2026-12 gives 0 to a word in exactly half its passages until `agent index` rebuilds it."""


class ToolWeight:
    """The weight of a word over search tools, and how many passages they search."""

    def __init__(self, tools: Iterable[Any]) -> None:
        self.sources = [tool for tool in tools if callable(getattr(tool, "term_weight", None))]
        counts = [_passages(source) for source in self.sources]
        self.passages: int | None = None if None in counts else sum(c or 0 for c in counts)

    def __call__(self, term: str) -> float:
        """The best `term_weight` over the tools (1.0 with none).

        For a tool with a BM25 index, a word it lacks weighs as the indexed words the search
        would expand it to.
        """
        if not self.sources:
            return 1.0
        best = 0.0
        for source in self.sources:
            value = float(source.term_weight(term))
            index = getattr(source, "index", None)
            if value <= 0 and index is not None:
                variants = expand_terms(index, term)
                value = max((float(source.term_weight(v)) for v in variants), default=0.0)
            best = max(best, value)
        if best <= 0 and any(_holds(source, term) for source in self.sources):
            return SEEN_FLOOR
        return best


def tool_weight(tools: Iterable[Any]) -> ToolWeight:
    """The weight of a word over the search tools among `tools` (`ToolWeight`)."""
    return ToolWeight(tools)


def _holds(source: Any, term: str) -> bool:
    """Whether a search tool's BM25 index holds `term` or a word its stem expands to."""
    index = getattr(source, "index", None)
    return index is not None and bool(expand_terms(index, term))


def _passages(source: Any) -> int | None:
    """How many passages a search tool searches (None when it cannot tell)."""
    corpus = getattr(source, "corpus", None)
    passages = getattr(corpus, "passages", None)
    return len(passages) if isinstance(passages, Sequence) else None
