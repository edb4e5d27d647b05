"""An eval over a saved index: the dataset's questions and gold ids, the index's passages.

`agent eval --dataset D --corpus NAME` (and `run_dataset(..., index=...)`) asks D's questions
of saved index NAME (`agent index NAME PATH`) instead of D's own corpus. Recall is measured
against D's supporting ids, so the index must hold every one of them for the questions run:
an index that lacks any is refused in one line before anything runs.
"""

from __future__ import annotations

import dataclasses

from evals.datasets import Dataset
from tools.retrievers import IndexedCorpus
from tools.saved_indexes import require_ids


def over_index(dataset: Dataset, index: IndexedCorpus, limit: int | None = None) -> Dataset:
    """The dataset with the saved index's passages as its corpus (questions and gold ids kept).

    The description says which index was searched. IndexStoreError (one line) when the index
    lacks a supporting document of the questions run (the first `limit`).
    """
    questions = dataset.questions[:limit] if limit is not None else dataset.questions
    what = f"dataset {dataset.name}" + (f" (first {limit} questions)" if limit else "")
    require_ids(index, (doc_id for q in questions for doc_id in q.supporting), what)
    note = f"searched over saved index {index.name!r} ({index.retriever})"
    description = f"{dataset.description} ({note})" if dataset.description else note.capitalize()
    return dataclasses.replace(dataset, corpus=index.corpus, description=description)
