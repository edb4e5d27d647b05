"""Eval datasets: built-in question sets and a loader for a user's own dataset files."""

from evals.datasets.loader import (
    BUILTIN_DATASETS,
    HOTPOT_CORPORA,
    Dataset,
    DatasetError,
    ParagraphPool,
    Question,
    load_dataset,
    load_hotpotqa,
    read_dataset_file,
)

__all__ = [
    "BUILTIN_DATASETS",
    "HOTPOT_CORPORA",
    "Dataset",
    "DatasetError",
    "ParagraphPool",
    "Question",
    "load_dataset",
    "load_hotpotqa",
    "read_dataset_file",
]
