"""Support: how much of a question the passages an answer cites cover, and the bar for trusting it.

The one owner of the measure and its threshold: the offline policy declines below the bar
(`graph.models.offline`), and the finish node marks every run's answer, a real model's too,
``confident`` or not (`graph.agent.finish_node`).

The question is read as the search tool reads a query: `tools.bm25_tokens.tokenize`, with
`FUNCTION_WORDS` dropped. Each word weighs its idf in the searched corpora
(`SearchSource.term_weight`, the best over the tools); a word an index lacks weighs as the
indexed words sharing its stem, as `tools.expand` expands it for the search; a word no corpus
holds in any form weighs as much as the question's rarest indexed word (the corpora cannot say
it, and it is as specific as anything asked). A word is covered when a cited passage holds a
word with the same stem (`tools.expand.stem`). ``support`` is the covered share of the weight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tools.bm25_tokens import tokenize
from tools.expand import expand_terms, stem

SUPPORT_BAR = 0.7
"""Support at or above which an answer is confident (below it the offline policy declines).

Chosen on the tune sets with off-corpus questions (see the README's "The offline policy"): the
lowest bar that declines the off-corpus questions without declining answerable ones."""

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

Weight = Callable[[str], float]
"""A question word's weight (its idf in the searched corpora)."""


def question_terms(text: str) -> list[str]:
    """The words of `text` that carry meaning, tokenized as the search does, in order, unique."""
    return list(dict.fromkeys(t for t in tokenize(text) if t not in FUNCTION_WORDS))


def stems_of(texts: Iterable[str]) -> set[str]:
    """The stems of every token of `texts`."""
    return {stem(token) for text in texts for token in tokenize(text)}


def weights(question: str, weight: Weight) -> dict[str, float]:
    """Each meaningful word of `question` and its weight; words no corpus holds get the most."""
    raw = {term: max(weight(term), 0.0) for term in question_terms(question)}
    unseen = max(raw.values(), default=0.0) or 1.0
    return {term: value or unseen for term, value in raw.items()}


def support(question: str, passages: Sequence[str], weight: Weight) -> float:
    """The share of `question`'s weight whose words `passages` hold (0.0 for no passage)."""
    table = weights(question, weight)
    total = sum(table.values())
    if not passages or total <= 0:
        return 0.0
    have = stems_of(passages)
    return sum(value for term, value in table.items() if stem(term) in have) / total


def is_confident(value: float) -> bool:
    """Whether support `value` clears the bar."""
    return value >= SUPPORT_BAR


def tool_weight(tools: Iterable[Any]) -> Weight:
    """The weight of a word over the search tools among `tools` (1.0 each when none has stats).

    The best `term_weight` over the tools; for a tool with a BM25 index, a word it lacks
    weighs as the indexed words the search would expand it to.
    """
    sources = [tool for tool in tools if callable(getattr(tool, "term_weight", None))]

    def weight(term: str) -> float:
        if not sources:
            return 1.0
        best = 0.0
        for source in sources:
            value = float(source.term_weight(term))
            index = getattr(source, "index", None)
            if value <= 0 and index is not None:
                variants = expand_terms(index, term)
                value = max((float(source.term_weight(v)) for v in variants), default=0.0)
            best = max(best, value)
        return best

    return weight
