"""Single-shot BM25 baselines: what retrieval without an agent finds.

The question text is the query, BM25 (`tools.bm25.BM25`, the agent's own index) runs over the
dataset's corpus, and recall is micro-averaged over supporting documents, exactly like
`evals.metrics.summarize`'s ``retrieval_recall`` for an agent's runs, so the two compare
directly. A corpus of None (the built-ins) is searched as one pooled index of the three
built-in corpora.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from evals.datasets import Dataset
from evals.metrics import RunRecord, micro_recall
from tools.bm25 import BM25

_INDEXES: dict[int, tuple[Dataset, BM25]] = {}


def index_for(dataset: Dataset) -> BM25:
    """Return the BM25 index over the dataset's corpora pooled (cached per dataset object)."""
    cached = _INDEXES.get(id(dataset))
    if cached is not None and cached[0] is dataset:
        return cached[1]
    docs: dict[str, str] = {}
    for corpus in dataset.corpora():
        docs.update(corpus.texts())
    index = BM25(docs)
    # keep the dataset alive beside its index so its id() cannot be reused by another object
    _INDEXES[id(dataset)] = (dataset, index)
    return index


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
