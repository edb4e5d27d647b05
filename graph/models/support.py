"""Support: how much of a question the passages an answer cites cover, and the bar for trusting it.

The one owner of the measure and its threshold: the offline policy declines below the bar
(`graph.models.offline`), and the finish node marks every run's answer, a real model's too,
``confident`` or not (`graph.agent.finish_node`).

The question is read as the search tool reads a query: `tools.bm25_tokens.tokenize`, with
`FUNCTION_WORDS` dropped. Each word weighs its idf in the searched corpora
(`SearchSource.term_weight`, the best over the tools); a word an index lacks weighs as the
indexed words sharing its stem, as `tools.expand` expands it for the search. A word no corpus
holds in any form cannot be covered: it weighs as the question's rarest indexed word times the
share `unseen_share` gives, which grows with the passages searched (a five-passage corpus
lacks most words of any question, so a word it lacks says little; a corpus of
`UNSEEN_FULL_AT` passages lacking a word says the question is about something else). A word is
covered when a cited passage holds a word with the same stem (`tools.expand.stem`).
``support`` is the covered share of the weight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tools.bm25_tokens import tokenize
from tools.expand import expand_terms, stem

SUPPORT_BAR = 0.6
"""Support at or above which an answer is confident (below it the offline policy declines).

Chosen on the tune sets (README, "The offline policy"): the lowest bar that declines at least
five of the six off-corpus questions of each documentation tune set (0.55 declines 4 of 6 on
jinja); higher bars decline more answerable questions (right and cited falls on all three)."""

FUNCTION_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom whose why will with would you your yours yourself
    yourselves s t whats what's much many also one""".split()
)
"""Words that carry no meaning a match should count (question words included)."""

SEEN_FLOOR = 0.001
"""The weight of a word a corpus holds but whose BM25 idf is 0 (it is in half the passages of
a small corpus): it tells almost nothing, but it is held, not unseen."""

UNSEEN_FULL_AT = 100
"""Passages searched from which a question word they all lack weighs in full (see above)."""

Weight = Callable[[str], float]
"""A question word's weight (its idf in the searched corpora); 0.0 for a word none holds."""


def question_terms(text: str) -> list[str]:
    """The words of `text` that carry meaning, tokenized as the search does, in order, unique."""
    return list(dict.fromkeys(t for t in tokenize(text) if t not in FUNCTION_WORDS))


def stems_of(texts: Iterable[str]) -> set[str]:
    """The stems of every token of `texts`."""
    return {stem(token) for text in texts for token in tokenize(text)}


def weights(question: str, weight: Weight, unseen: float = 0.0) -> dict[str, float]:
    """Each meaningful word of `question` and its weight.

    A word no corpus holds weighs `unseen` times the rarest indexed word's weight (all of them
    1.0 when none is indexed); with `unseen` 0 it is left out.
    """
    raw = {term: max(weight(term), 0.0) for term in question_terms(question)}
    top = max(raw.values(), default=0.0) or 1.0
    table = {term: value or unseen * top for term, value in raw.items()}
    return {term: value for term, value in table.items() if value > 0}


def unseen_share(weight: Weight) -> float:
    """How much a word no searched corpus holds counts, from 0 to 1.

    The passages searched over `UNSEEN_FULL_AT`, at most 1 (1 when the count is unknown, as
    for a remote search).
    """
    passages = getattr(weight, "passages", None)
    if not isinstance(passages, int):
        return 1.0
    return min(1.0, passages / UNSEEN_FULL_AT)


def support(question: str, passages: Sequence[str], weight: Weight) -> float:
    """The share of `question`'s weight whose words `passages` hold (0.0 for no passage)."""
    return covered(weights(question, weight, unseen_share(weight)), passages)


def coverage(question: str, passages: Sequence[str], weight: Weight) -> float:
    """Like `support`, but of the words some corpus holds only: what a search can still find.

    1.0 when the corpora hold none of the question's words.
    """
    table = weights(question, weight)
    return covered(table, passages) if table else 1.0


def covered(table: dict[str, float], passages: Sequence[str]) -> float:
    """The share of the weight in `table` whose words `passages` hold."""
    total = sum(table.values())
    if not passages or total <= 0:
        return 0.0
    have = stems_of(passages)
    return sum(value for term, value in table.items() if stem(term) in have) / total


def is_confident(value: float) -> bool:
    """Whether support `value` clears the bar."""
    return value >= SUPPORT_BAR


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
