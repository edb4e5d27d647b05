"""Eval datasets: built-in question sets and a loader for a user's own dataset files."""

from evals.datasets.dataset import Dataset, DatasetError, Question
from evals.datasets.hotpotqa import HOTPOT_CORPORA, ParagraphPool, load_hotpotqa
from evals.datasets.loader import BUILTIN_DATASETS, load_dataset, read_dataset_file

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
