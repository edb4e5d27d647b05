"""Grounding beyond ids: how much of an answer the passages it cites actually say.

`groundedness` is the share of the answer's content words (stems, stopwords dropped) found in
the text of the passages it cites: 0 for an answer citing nothing, 1 when every content word
is there. An answer can cite real ids and still say something the passages don't; this is the
figure that catches it. `corpora_hold` tells whether a question had passages to cite at all,
so an uncited answer to such a question is marked ungrounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.messages import AnyMessage, ToolMessage

from corpora import indexed_text
from graph.agent.transcript import hits_of
from graph.models.offline.reading import content_terms
from tools.expand import stem

ANSWERABLE_COVERAGE = 0.5
"""Share of a question's content words a corpus passage must hold for the corpora to be able
to answer it (so an uncited answer to it is flagged)."""


VERDICTS = frozenset({"yes", "no"})
"""A yes/no answer's verdict is a judgement on the cited passages, not a word they must hold."""


def content_stems(text: str) -> set[str]:
    """The stems of the words of `text` that carry meaning."""
    return {stem(word) for word in content_terms(text)}


def groundedness(answer: str | None, cited_texts: Iterable[str]) -> float:
    """Share of `answer`'s content words found in `cited_texts`; 0.0 when nothing is cited.

    An answer with no content words besides a verdict ("yes", "no") that cites something is
    fully grounded; a None or blank answer is 0.0.
    """
    texts = list(cited_texts)
    if not answer or not answer.strip() or not texts:
        return 0.0
    wanted = [stem(word) for word in content_terms(answer) if word not in VERDICTS]
    if not wanted:
        return 1.0
    have = set().union(*(content_stems(text) for text in texts))
    return sum(term in have for term in wanted) / len(wanted)


def cited_texts(turn: Sequence[AnyMessage], citations: Sequence[str]) -> list[str]:
    """The text of each cited passage, as the turn's tool results carried it."""
    texts: dict[str, str] = {}
    for message in turn:
        if isinstance(message, ToolMessage):
            for hit in hits_of(message):
                texts.setdefault(str(hit["id"]), str(hit.get("text", "")))
    return [texts[doc_id] for doc_id in citations if doc_id in texts]


def corpora_hold(question: str, tools: Sequence[Any]) -> bool:
    """Whether some search tool's corpus has a passage covering most of `question`'s words."""
    wanted = content_stems(question)
    if not wanted:
        return False
    for tool in tools:
        index, corpus = getattr(tool, "index", None), getattr(tool, "corpus", None)
        if index is None or corpus is None:
            continue
        for doc_id, _ in index.search(" ".join(content_terms(question)), 1):
            text = indexed_text(corpus.get(doc_id))
            if len(content_stems(text) & wanted) >= ANSWERABLE_COVERAGE * len(wanted):
                return True
    return False


def grounding(
    result: dict[str, Any], turn: Sequence[AnyMessage], question: str, tools: Sequence[Any]
) -> dict[str, Any]:
    """The run result's ``grounded`` and ``ungrounded`` fields for its answer and citations."""
    answer, citations = result.get("answer"), list(result.get("citations") or [])
    uncited = bool(answer) and not citations
    return {
        "grounded": groundedness(answer, cited_texts(turn, citations)),
        "ungrounded": uncited and corpora_hold(question, tools),
    }
