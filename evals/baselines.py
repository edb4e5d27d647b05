"""Single-shot BM25 baselines: what retrieval, and answering, without an agent give.

The question text is the query, BM25 (`tools.bm25.BM25`, the agent's own index) runs over the
dataset's corpus, and recall is micro-averaged over supporting documents, exactly like
`evals.metrics.summarize`'s ``retrieval_recall`` for an agent's runs, so the two compare
directly. A corpus of None (the built-ins) is searched as one pooled index of the three
built-in corpora.

`quote_baseline` is the answering baseline beside it: one search (the question, its words
expanded as the search tool expands them), then the sentence of the top passage that best
covers the question, quoted whole and citing that passage. It never declines and has no
short answer: it is what any retrieve-and-quote system gets for free.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from evals.datasets import Dataset
from evals.metrics import RunRecord, micro_recall
from tools.bm25 import BM25
from tools.bm25_tokens import tokenize
from tools.expand import expand_query

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
"""A sentence ends at ., ! or ? followed by space and a capital or a digit (maybe quoted)."""

_INDEXES: dict[int, tuple[Dataset, BM25, dict[str, str]]] = {}


def _pooled(dataset: Dataset) -> tuple[BM25, dict[str, str]]:
    """The BM25 index over the dataset's corpora pooled and each passage's own text, cached."""
    cached = _INDEXES.get(id(dataset))
    if cached is not None and cached[0] is dataset:
        return cached[1], cached[2]
    docs: dict[str, str] = {}
    own: dict[str, str] = {}
    for corpus in dataset.corpora():
        docs.update(corpus.texts())
        own.update((p.id, p.text) for p in corpus.passages)
    index = BM25(docs)
    # keep the dataset alive beside its index so its id() cannot be reused by another object
    _INDEXES[id(dataset)] = (dataset, index, own)
    return index, own


def index_for(dataset: Dataset) -> BM25:
    """Return the BM25 index over the dataset's corpora pooled (cached per dataset object)."""
    return _pooled(dataset)[0]


def _top_ids(index: BM25, query: str, budget: int) -> list[str]:
    """Return the ids of the `budget` best documents for `query` (none when budget is 0)."""
    if budget <= 0:
        return []
    return [doc_id for doc_id, _score in index.search(query, k=budget)]


def single_shot_recall_at_budgets(
    dataset: Dataset, per_question_budgets: Mapping[str, int]
) -> float:
    """Return single-shot recall where each question gets its own budget.

    `per_question_budgets` maps a question id to the number of documents single-shot BM25 may
    return for it: give each question the number of distinct documents the agent retrieved
    (`budgets_from_records`) to compare the two at equal budget. Only the questions named are
    scored (so a run over part of a dataset compares on that part). Raises ValueError for an
    unknown question id, a negative budget or an empty mapping.
    """
    if not per_question_budgets:
        raise ValueError("no question budgets given")
    by_id = {q.id: q for q in dataset.questions}
    found: list[list[str]] = []
    supporting: list[tuple[str, ...]] = []
    index = index_for(dataset)
    for qid, budget in per_question_budgets.items():
        if qid not in by_id:
            raise ValueError(f"question id {qid!r} is not in dataset {dataset.name}")
        if budget < 0:
            raise ValueError(f"negative budget {budget} for question {qid!r}")
        q = by_id[qid]
        found.append(_top_ids(index, q.question, budget))
        supporting.append(q.supporting)
    return micro_recall(found, supporting)


def budgets_from_records(records: Iterable[RunRecord]) -> dict[str, int]:
    """Map each record's question id to the number of distinct documents its run retrieved."""
    return {r["question_id"]: len(set(r["retrieved"])) for r in records}


def sentences_of(text: str) -> list[str]:
    """`text` cut into sentences at `_SENTENCE_END` (no abbreviation handling: a baseline)."""
    return [part.strip() for part in _SENTENCE_END.split(text.strip()) if part.strip()]


def covering_sentence(index: BM25, question: str, text: str) -> str:
    """The sentence of `text` holding the most idf weight of the question's distinct words.

    The weight is the index's BM25 idf of each distinct question token the sentence holds;
    the first of equally covering sentences wins (the weights summed exactly, `math.fsum`, so
    a tie does not depend on the order a set of words is summed in), and a text without
    sentence ends is one sentence.
    """
    asked = set(tokenize(question))
    best, best_weight = "", -1.0
    for sentence in sentences_of(text) or [text]:
        weight = math.fsum(index.idf(term) for term in asked & set(tokenize(sentence)))
        if weight > best_weight:
            best, best_weight = sentence, weight
    return best


def quote_baseline(dataset: Dataset, question: str) -> dict[str, Any]:
    """The retrieve-and-quote answer to `question`: a result dict like a run's.

    ``answer`` is `covering_sentence` of the top BM25 passage's text (its title left out;
    None when the search finds nothing), ``citations`` that passage, ``short_answer`` None,
    ``confident`` True (the baseline has no measure of doubt), ``stopped`` "answer" (or
    "no_answer" when nothing was found) and one step.
    """
    index, own_text = _pooled(dataset)
    hits = index.search(expand_query(index, question) or question, k=1)
    if not hits:
        return {
            "answer": None,
            "citations": [],
            "short_answer": None,
            "confident": True,
            "stopped": "no_answer",
            "steps": 1,
        }
    doc_id = hits[0][0]
    return {
        "answer": covering_sentence(index, question, own_text[doc_id]),
        "citations": [doc_id],
        "short_answer": None,
        "confident": True,
        "stopped": "answer",
        "steps": 1,
    }
