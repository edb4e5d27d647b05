"""Retrieval quality and cost of bm25, dense and hybrid, on real datasets, in one run.

For hotpotqa-dev's pooled paragraphs, the field-service manual and any dataset file given on
the command line:

1. single-shot retrieval with the question as the query: recall@2, recall@5 and nDCG@10
   (binary relevance: the supporting documents) for bm25, dense (all-MiniLM-L6-v2, exact
   top-k) and both hybrid fusions (convex combination of min-max normalized scores, and
   reciprocal rank fusion);
2. cost: embedding throughput (passages/s on this machine), index build time and size on
   disk, query latency p50/p95 for each retriever;
3. the agent's retrieval recall (supporting documents retrieved at any step) with each
   retriever at the same budget (same k, same max steps, the offline policy), on hotpotqa-dev.

The field-service manual's relevant pages for a request are the pages listing the request's
expected fault code. Anchors (BEIR, Thakur et al. 2021): BM25 nDCG@10 on HotpotQA is 0.603.

Writes benchmarks/results/retrieval_quality.md.
Usage: python benchmarks/retrieval_quality.py [--questions 500] [--agent-questions 200]
       [--skip-agent] [DATASET.jsonl ...]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from langgraph.checkpoint.memory import InMemorySaver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpora import Corpus, Passage  # noqa: E402
from corpora.field_service import load as load_field_service  # noqa: E402
from evals.datasets.loader import load_dataset  # noqa: E402
from tools.bm25 import BM25  # noqa: E402
from tools.dense import DenseIndex  # noqa: E402
from tools.embeddings import default_embeddings  # noqa: E402
from tools.expand import expand_query  # noqa: E402
from tools.hybrid import fuse  # noqa: E402
from tools.retrievers import IndexedCorpus  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "retrieval_quality.md"
METHODS = ("bm25", "dense", "hybrid convex", "hybrid rrf")


@dataclass
class Task:
    """A corpus and queries with their relevant document ids."""

    name: str
    corpus: Corpus
    queries: list[tuple[str, set[str]]]


def hotpot_task(limit: int) -> Task:
    """hotpotqa-dev: the first `limit` questions over the paragraphs their contexts pooled.

    The pool is built in question order, so the first questions' paragraphs are a prefix of
    it: the prefix is cut at the share of questions kept, extended to hold every supporting
    paragraph of those questions (all 4,858 paragraphs for all 500 questions).
    """
    dataset = load_dataset("hotpotqa-dev")
    assert dataset.corpus is not None
    questions = [q for q in dataset.questions if q.supporting][:limit]
    passages = dataset.corpus.passages
    position = {p.id: i for i, p in enumerate(passages)}
    cut = math.ceil(len(passages) * len(questions) / len(dataset.questions))
    cut = max(cut, 1 + max(position[d] for q in questions for d in q.supporting))
    corpus = Corpus(dataset.corpus.name, passages[:cut], dataset.corpus.description)
    return Task("hotpotqa-dev", corpus, [(q.question, set(q.supporting)) for q in questions])


def field_service_task() -> Task:
    """The field-service manual; a request's relevant pages list its expected fault code."""
    import json

    data = load_field_service()
    passages = tuple(
        Passage(id=p["id"], text=p["text"], title=f"{p['doc_title']}, {p['section']}")
        for p in data.manual
    )
    by_code: dict[str, set[str]] = {}
    for page in data.manual:
        for code in page["fault_codes"]:
            by_code.setdefault(code, set()).add(page["id"])
    path = Path(__file__).resolve().parent.parent / "evals/datasets/field_service_requests.jsonl"
    queries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        code = (row.get("expected") or {}).get("fault_code")
        if code in by_code:
            queries.append((row["request"], by_code[code]))
    return Task("field-service manual", Corpus("manual", passages), queries)


def file_task(path: str, limit: int) -> Task:
    """A dataset file in the eval format (it must name a corpus)."""
    dataset = load_dataset(path)
    if dataset.corpus is None:
        raise SystemExit(f"{path}: the dataset names no corpus")
    queries = [(q.question, set(q.supporting)) for q in dataset.questions if q.supporting]
    return Task(dataset.name, dataset.corpus, queries[:limit])


def ndcg_at(ranked: Sequence[str], relevant: set[str], k: int = 10) -> float:
    """Binary-relevance nDCG@k."""
    gain = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:k]) if d in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return gain / ideal if ideal else 0.0


def recall_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    """Share of the relevant documents in the top k."""
    return len(set(ranked[:k]) & relevant) / len(relevant)


def dir_size(path: Path) -> int:
    """Bytes of all files below `path`."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def measure_task(task: Task, encoder: object) -> tuple[dict[str, dict[str, float]], IndexedCorpus]:
    """Quality and cost rows for one task; also the hybrid-ready index for the agent runs."""
    texts = task.corpus.texts()
    t0 = time.perf_counter()
    bm25 = BM25(texts)
    bm25_build = time.perf_counter() - t0
    vectors, dense_build = cached_vectors(list(texts.values()), encoder)
    dense = DenseIndex(list(texts), vectors)
    with tempfile.TemporaryDirectory() as tmp:
        bm25.save(Path(tmp) / "bm25")
        dense.save(Path(tmp) / "dense")
        bm25_size, dense_size = dir_size(Path(tmp) / "bm25"), dir_size(Path(tmp) / "dense")
    rank = dense.rank()
    ids = dense.doc_ids
    rows: dict[str, dict[str, float]] = {m: {"r2": 0, "r5": 0, "ndcg": 0} for m in METHODS}
    latency: dict[str, list[float]] = {m: [] for m in METHODS}
    for query, relevant in task.queries:
        t0 = time.perf_counter()
        lexical = np.asarray(bm25.get_scores(expand_query(bm25, query) or query), np.float32)
        t_lex = time.perf_counter() - t0
        t0 = time.perf_counter()
        semantic = dense.scores(encoder.encode([query])[0])  # type: ignore[attr-defined]
        t_sem = time.perf_counter() - t0
        for method in METHODS:
            t0 = time.perf_counter()
            ranked = _ranking(method, query, bm25, lexical, semantic, rank, ids)
            spent = time.perf_counter() - t0
            extra = {"bm25": 0.0, "dense": t_sem}.get(method, t_lex + t_sem)
            latency[method].append((spent + extra) * 1000)
            rows[method]["r2"] += recall_at(ranked, relevant, 2)
            rows[method]["r5"] += recall_at(ranked, relevant, 5)
            rows[method]["ndcg"] += ndcg_at(ranked, relevant)
    n = len(task.queries)
    for method in METHODS:
        row = rows[method]
        for key in ("r2", "r5", "ndcg"):
            row[key] /= n
        ms = sorted(latency[method])
        row["p50"] = statistics.median(ms)
        row["p95"] = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        dense_part = method != "bm25"
        row["build"] = (bm25_build if method != "dense" else 0) + (dense_build if dense_part else 0)
        row["size"] = (bm25_size if method != "dense" else 0) + (dense_size if dense_part else 0)
    rows["_"] = {"throughput": len(texts) / dense_build, "passages": len(texts), "queries": n}
    return rows, IndexedCorpus(task.corpus, bm25, dense, "hybrid")


def cached_vectors(texts: list[str], encoder: object) -> tuple[np.ndarray, float]:
    """Embeddings of `texts` and the seconds they took, cached in benchmarks/.cache/."""
    import hashlib

    key = hashlib.sha256("\x00".join(texts).encode()).hexdigest()[:16]
    path = Path(__file__).resolve().parent / ".cache" / f"minilm-{key}.npy"
    timing = path.with_suffix(".seconds")
    if path.exists() and timing.exists():
        return np.load(path), float(timing.read_text())
    start = time.perf_counter()
    vectors = encoder.encode(texts)  # type: ignore[attr-defined]
    path.parent.mkdir(exist_ok=True)
    np.save(path, vectors)
    seconds = time.perf_counter() - start
    timing.write_text(f"{seconds:.3f}")
    return vectors, seconds


def _ranking(
    method: str,
    query: str,
    bm25: BM25,
    lexical: np.ndarray,
    semantic: np.ndarray,
    rank: np.ndarray,
    ids: Sequence[str],
) -> list[str]:
    """The top 10 ids of one method (BM25 through its own search, the rest from the scores)."""
    if method == "bm25":
        return [d for d, _ in bm25.search(expand_query(bm25, query) or query, 10)]
    if method == "dense":
        scores = semantic
    else:
        scores = fuse(lexical, semantic, method.split()[1], rank)
    return [ids[i] for i in _top(scores, rank)]


def _top(scores: np.ndarray, rank: np.ndarray, k: int = 10) -> list[int]:
    """Top-k positions with the library's tie-break."""
    from tools.dense import top_indices

    return top_indices(scores, k, rank)


def agent_recall(indexed: IndexedCorpus, limit: int) -> list[tuple[str, float, float]]:
    """The policy agent's retrieval recall on hotpotqa-dev with each retriever, same budget."""
    import evals.runner as runner
    from evals.metrics import micro_recall
    from graph.app.session import Session

    dataset = load_dataset("hotpotqa-dev")
    rows = []
    for retriever in ("bm25", "dense", "hybrid"):
        chosen = IndexedCorpus(indexed.corpus, indexed.bm25, indexed.dense, retriever)
        runner.make_session = lambda _d, saver, k=3, _r=None, c=chosen: Session(  # type: ignore[misc]
            saver, corpora=[c], k=k, builtins=False
        )
        records = runner.run_dataset(
            dataset, k=3, max_steps=6, concurrency=1, limit=limit, checkpointer=InMemorySaver()
        )
        recall = micro_recall((r["retrieved"] for r in records), (r["supporting"] for r in records))
        per_q = statistics.mean(len(set(r["retrieved"])) for r in records)
        rows.append((retriever, recall, per_q))
        print(f"  agent {retriever}: recall {recall:.3f}, {per_q:.2f} docs/question", flush=True)
    return rows


def render(results: list[tuple[Task, dict[str, dict[str, float]]]], agent: list) -> str:
    """The markdown tables."""
    lines = [
        "| dataset | retriever | recall@2 | recall@5 | nDCG@10 | query p50 ms | query p95 ms "
        "| build s | size MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for task, rows in results:
        for method in METHODS:
            r = rows[method]
            lines.append(
                f"| {task.name} ({len(task.queries)} q, {int(rows['_']['passages'])} p) "
                f"| {method} | {r['r2']:.3f} | {r['r5']:.3f} | {r['ndcg']:.3f} | {r['p50']:.1f} "
                f"| {r['p95']:.1f} | {r['build']:.1f} | {r['size'] / 1e6:.1f} |"
            )
    lines.append("")
    lines.append("| dataset | embedding throughput (passages/s) |")
    lines.append("|---|---:|")
    for task, rows in results:
        lines.append(f"| {task.name} | {rows['_']['throughput']:.1f} |")
    if agent:
        lines += [
            "",
            "| agent on hotpotqa-dev (policy, k=3, 6 steps) | retrieval recall "
            "| docs retrieved / question | vs bm25 |",
            "|---|---:|---:|---:|",
        ]
        base = agent[0][1]
        for retriever, recall, per_q in agent:
            lines.append(f"| {retriever} | {recall:.3f} | {per_q:.2f} | {recall / base:.2f}x |")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Run every measurement and write the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("datasets", nargs="*", help="extra dataset files (eval format)")
    parser.add_argument("--questions", type=int, default=500, help="hotpotqa-dev questions")
    parser.add_argument("--agent-questions", type=int, default=None, help="default: --questions")
    parser.add_argument("--skip-agent", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    encoder = default_embeddings()
    print(f"model loaded in {time.perf_counter() - t0:.1f} s", flush=True)
    tasks = [hotpot_task(args.questions), field_service_task()]
    tasks += [file_task(p, args.questions) for p in args.datasets]
    results = []
    hotpot_index = None
    for task in tasks:
        print(f"{task.name}: {len(task.corpus)} passages, {len(task.queries)} queries", flush=True)
        rows, indexed = measure_task(task, encoder)
        results.append((task, rows))
        hotpot_index = hotpot_index or indexed
        print(render([(task, rows)], []), flush=True)
    agent_n = args.agent_questions or args.questions
    skip = args.skip_agent or hotpot_index is None
    agent = [] if skip else agent_recall(hotpot_index, agent_n)  # type: ignore[arg-type]
    table = render(results, agent)
    header = (
        f"# Retrieval quality\n\n{platform.platform()}, {os.cpu_count()} CPUs (shared), "
        f"python {platform.python_version()}; `python benchmarks/retrieval_quality.py "
        f"--questions {args.questions} --agent-questions {agent_n}`\n\n"
    )
    RESULTS.write_text(header + table, encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
