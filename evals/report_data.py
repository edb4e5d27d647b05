"""What an eval report is made of: the run, its metrics table and settings, the question rows.

The markdown (`evals.report`) and the HTML page (`evals.report_html`) both render these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from evals.datasets import Dataset
from evals.metrics import RunRecord, summarize

METRICS: tuple[tuple[str, str], ...] = (
    ("n", "questions"),
    ("accuracy", "accuracy"),
    ("em", "exact match"),
    ("f1", "token F1"),
    ("contains_word", "contains answer (whole words)"),
    ("grounded", "grounded"),
    ("citation_recall", "citation recall"),
    ("unsupported_rate", "unsupported rate"),
    ("mean_steps", "mean steps"),
    ("retrieval_recall", "retrieval recall"),
    ("mean_retrieved", "paragraphs retrieved / question"),
    ("latency_p50_s", "latency p50"),
    ("latency_p95_s", "latency p95"),
    ("tokens_total", "tokens"),
    ("tools_ok_rate", "required tools used"),
    ("errors", "errors"),
)
"""The metrics table for the seed datasets, in order: (key of `summary_of`, label)."""

EXTRACTIVE_LEAD = ("n", "em", "f1", "retrieval_recall")
"""What a HotpotQA-style (short extractive answers) table leads with."""
EXTRACTIVE_PREFIX = "hotpotqa"
"""Datasets whose name starts with this are HotpotQA-style."""


def metrics_for(dataset: str) -> tuple[tuple[str, str], ...]:
    """The metrics table for `dataset`: HotpotQA-style ones lead with EM, F1, retrieval recall.

    The seed datasets lead with the seed's accuracy.
    """
    if not dataset.startswith(EXTRACTIVE_PREFIX):
        return METRICS
    labels = dict(METRICS)
    lead = tuple((key, labels[key]) for key in EXTRACTIVE_LEAD)
    return lead + tuple(pair for pair in METRICS if pair[0] not in EXTRACTIVE_LEAD)


def headline_for(dataset: str) -> tuple[str, ...]:
    """The metrics a report's cards show first for `dataset`."""
    if dataset.startswith(EXTRACTIVE_PREFIX):
        return ("em", "f1", "retrieval_recall", "grounded", "mean_steps")
    return ("accuracy", "citation_recall", "unsupported_rate", "retrieval_recall", "mean_steps")


@dataclass(frozen=True)
class EvalRun:
    """One model's eval over a dataset: the settings and the records, for the report."""

    dataset: Dataset
    model: str
    run_id: str
    records: list[RunRecord]
    max_steps: int = 6
    k: int = 3
    concurrency: int = 4
    wall_s: float | None = None
    """Wall-clock seconds for the whole run, if measured."""


@dataclass(frozen=True)
class HopRecall:
    """Retrieval recall after the first `hop` searches of every run."""

    hop: int
    reached: int
    """Questions (with supporting documents) whose run made at least `hop` searches."""
    budget: float
    """Mean distinct documents retrieved per question by then."""
    agent: float
    """Micro recall of the documents retrieved in the first `hop` searches."""
    single_shot: float
    """Single-shot BM25 recall with each question given the same number of documents."""


@dataclass
class QuestionRow:
    """One question in the report: its record and its rendered transcript."""

    record: RunRecord
    transcript: list[str]
    hops: list[list[str]] = field(default_factory=list)
    accepted: tuple[str, ...] = ()
    must_contain: tuple[str, ...] = ()


def summary_of(records: Sequence[RunRecord]) -> dict[str, float | int | None]:
    """`evals.metrics.summarize` plus ``errors``: the runs that stopped on an error."""
    summary = summarize(records)
    summary["errors"] = sum(r["stopped"] == "error" for r in records)
    return summary


def format_metric(key: str, value: float | int | None) -> str:
    """A metric value as the tables show it (latencies in ms, rates with 3 decimals)."""
    if value is None:
        return "-"
    if key in ("n", "errors", "tokens_total"):
        return f"{int(value):,}"
    if key.startswith("latency"):
        return f"{value * 1000:.1f} ms"
    if key in ("mean_steps", "mean_retrieved"):
        return f"{value:.2f}"
    return f"{value:.3f}"


def settings_of(run: EvalRun) -> list[tuple[str, str]]:
    """The run's settings as (label, value) pairs."""
    pairs = [
        ("dataset", run.dataset.name),
        ("model", run.model),
        ("questions", f"{len(run.records)} of {len(run.dataset)}"),
        ("max steps", str(run.max_steps)),
        ("k", str(run.k)),
        ("concurrency", str(run.concurrency)),
        ("run id", run.run_id),
    ]
    if run.wall_s is not None:
        rate = len(run.records) / run.wall_s if run.wall_s > 0 else 0.0
        pairs.append(("wall time", f"{run.wall_s:.2f} s ({rate:.1f} questions/s)"))
    return pairs
