"""The retrieval benchmarks' tasks, metrics and embedding cache (shared by two scripts).

A task is a corpus and judged queries; `retrieval_quality.py` and `tune_fusion.py` both use
them, with nDCG@k and recall@k and the vector cache in ``benchmarks/.cache/``.

The hotpotqa-dev tasks are its two splits over the whole 4,858-paragraph pool (the corpus the
agent's eval searches): ``tune`` (questions 1-250; the fusion's constants and the policy's rules
were chosen on it: in-sample) and ``test`` (questions 251-500, held out). The field-service
manual's relevant pages for a request are the pages listing the request's expected fault code.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corpora import Corpus, Passage
from corpora.field_service import load as load_field_service
from evals.datasets.loader import load_dataset

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(__file__).resolve().parent / ".cache"
REPORTED_REQUESTS = ROOT / "evals/datasets/field_service_requests.jsonl"
FIELD_SERVICE_TUNE = ROOT / "evals/datasets/field_service_tune.jsonl"
"""Made-up requests over the same manual: a tune split, written without reading the reported."""


@dataclass
class Task:
    """A corpus and queries with their relevant document ids."""

    name: str
    corpus: Corpus
    queries: list[tuple[str, set[str]]]


def hotpot_tasks(limit: int) -> list[Task]:
    """hotpotqa-dev's first `limit` questions, as its tune and test splits over the whole pool."""
    tasks = []
    for split, label in (("test", "held out"), ("tune", "in-sample")):
        dataset = load_dataset(f"hotpotqa-dev-{split}")
        assert dataset.corpus is not None
        offset = 0 if split == "tune" else 250
        questions = [q for q in dataset.questions if q.supporting][: max(0, limit - offset)]
        if questions:
            queries = [(q.question, set(q.supporting)) for q in questions]
            tasks.append(Task(f"hotpotqa-dev-{split} ({label})", dataset.corpus, queries))
    return tasks


def field_service_task(
    requests: Path = REPORTED_REQUESTS,
    name: str = "field-service manual",
) -> Task:
    """The field-service manual; a request's relevant pages list its expected fault code.

    The reported `requests` by default; `FIELD_SERVICE_TUNE` is the made-up tune split over
    the same manual (`tune_fusion.py`).
    """
    data = load_field_service()
    passages = tuple(
        Passage(id=p["id"], text=p["text"], title=f"{p['doc_title']}, {p['section']}")
        for p in data.manual
    )
    by_code: dict[str, set[str]] = {}
    for page in data.manual:
        for code in page["fault_codes"]:
            by_code.setdefault(code, set()).add(page["id"])
    queries = []
    for line in requests.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        code = (row.get("expected") or {}).get("fault_code")
        if code in by_code:
            queries.append((row["request"], by_code[code]))
    return Task(name, Corpus("manual", passages), queries)


def file_task(path: str, limit: int) -> Task:
    """A dataset file in the eval format (it must name a corpus)."""
    dataset = load_dataset(path)
    if dataset.corpus is None:
        raise SystemExit(f"{path}: the dataset names no corpus")
    queries = [(q.question, set(q.supporting)) for q in dataset.questions if q.supporting]
    return Task(dataset.name, dataset.corpus, queries[:limit])


def ndcg_at(ranked: Sequence[object], relevant: set[object], k: int = 10) -> float:
    """Binary-relevance nDCG@k."""
    gain = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:k]) if d in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return gain / ideal if ideal else 0.0


def recall_at(ranked: Sequence[object], relevant: set[object], k: int) -> float:
    """Share of the relevant documents in the top k."""
    return len(set(ranked[:k]) & relevant) / len(relevant)


def paired_difference(
    a: Sequence[float], b: Sequence[float], resamples: int = 10_000
) -> tuple[float, float, float]:
    """Mean of ``a - b`` over paired per-query scores, with a 95% bootstrap interval.

    The queries are resampled with replacement (seeded, so a rerun gives the same interval);
    an interval holding 0 means the sets' queries cannot tell the two apart.
    """
    diff = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    rng = np.random.default_rng(0)
    means = diff[rng.integers(0, len(diff), size=(resamples, len(diff)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(diff.mean()), float(low), float(high)


def cached_vectors(texts: list[str], encoder: object) -> np.ndarray:
    """Embeddings of `texts`, cached in benchmarks/.cache/ (keyed by the texts' hash).

    The cache holds vectors only: timings are measured afresh in every run.
    """
    key = hashlib.sha256("\x00".join(texts).encode()).hexdigest()[:16]
    path = CACHE / f"minilm-{key}.npy"
    if path.exists():
        return np.load(path)
    vectors = encoder.encode(texts)  # type: ignore[attr-defined]
    CACHE.mkdir(exist_ok=True)
    np.save(path, vectors)
    return np.asarray(vectors)


def throughput(texts: list[str], encoder: object, sample: int = 512) -> float:
    """Passages embedded per second, timed on the first `sample` texts (never cached)."""
    chosen = texts[:sample]
    start = time.perf_counter()
    encoder.encode(chosen)  # type: ignore[attr-defined]
    return len(chosen) / (time.perf_counter() - start)
