"""Retrieval quality and cost of bm25, dense and hybrid, on real datasets, in one run.

For hotpotqa-dev's two splits over its pooled paragraphs, the field-service manual (the
reported requests, and the made-up tune split over the same pages) and any dataset file given
on the command line (`retrieval_tasks`):

1. single-shot retrieval with the question as the query: recall@2, recall@5 and nDCG@10
   (binary relevance: the supporting documents) for bm25, dense (all-MiniLM-L6-v2, exact
   top-k) and both hybrid fusions with the constants of `tools/hybrid.py` (chosen on tune data
   by `tune_fusion.py`; convex with its query-adaptive dense weight), plus convex with the
   weight falling linearly from 0.6 to 0.2 with the query's code share (the rule shipped
   before), with the fixed weight 0.6 (before any code weight) and both fusions as they were
   before any tuning (convex over min-max scores with weight 0.5; RRF k=60 over the top 100);
2. cost: embedding throughput (passages/s, timed afresh on 512 passages: the vector cache in
   `.cache/` never supplies a timing), index build time (BM25 measured; dense = passages /
   throughput) and size on disk, query latency p50/p95 of each retriever, the model loaded
   and warmed up beforehand, and for dense its two parts (embedding the query; the exact
   product and top-k);
3. the agent's retrieval recall (supporting documents retrieved at any step) with each
   retriever at the same budget (same k, same max steps, the offline policy), on the held-out
   hotpotqa-dev-test questions, through `run_dataset(..., index=...)`;
4. query embedding on ONNX Runtime's default thread pool against one thread (what
   `tools/onnx_embed.py` does for a query), and bulk throughput both ways (`embed_threads`).

The load average is recorded before and after: the machine is shared, so compare ratios.
Anchors (BEIR, Thakur et al. 2021): BM25 nDCG@10 on HotpotQA is 0.603.

Writes benchmarks/results/retrieval_quality.md.
Usage: python benchmarks/retrieval_quality.py [--questions 500] [--agent-questions N]
       [--skip-agent] [DATASET.jsonl ...]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
from langgraph.checkpoint.memory import InMemorySaver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_tasks import (  # noqa: E402
    FIELD_SERVICE_TUNE,
    Task,
    cached_vectors,
    field_service_task,
    file_task,
    hotpot_tasks,
    ndcg_at,
    paired_difference,
    recall_at,
    throughput,
)
from tune_fusion import linear_weight  # noqa: E402

from tools.bm25 import BM25  # noqa: E402
from tools.dense import DenseIndex, top_indices  # noqa: E402
from tools.expand import expand_query  # noqa: E402
from tools.hybrid import ALPHA, code_alpha, convex, fuse, normalized, rrf  # noqa: E402
from tools.onnx_embed import default_embeddings  # noqa: E402
from tools.query_codes import code_share  # noqa: E402
from tools.retrievers import IndexedCorpus  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "retrieval_quality.md"
Scorer = Callable[[np.ndarray, np.ndarray, np.ndarray, float], np.ndarray]
"""(BM25 scores, cosine scores, tie-break rank, the query's code share) -> fused scores."""
FUSED: dict[str, Scorer] = {
    "hybrid convex": lambda lx, sm, rank, share: fuse(lx, sm, "convex", rank, code_alpha(share)),
    "hybrid rrf": lambda lx, sm, rank, _share: fuse(lx, sm, "rrf", rank),
    "convex, linear code weight": lambda lx, sm, rank, share: fuse(
        lx, sm, "convex", rank, linear_weight(share)
    ),
    "convex, fixed weight": lambda lx, sm, rank, _share: fuse(lx, sm, "convex", rank, ALPHA),
    "convex before tuning": lambda lx, sm, _rank, _share: convex(
        normalized(lx, "minmax"), normalized(sm, "minmax"), 0.5
    ),
    "rrf before tuning": lambda lx, sm, rank, _share: rrf(lx, sm, 60, 100, rank),
}
METHODS = ("bm25", "dense", *FUSED)


def dir_size(path: Path) -> int:
    """Bytes of all files below `path`."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


class Measured(NamedTuple):
    """One task's rows (metric means and costs), each method's nDCG@10 per query, its index."""

    rows: dict[str, dict[str, float]]
    per_query: dict[str, list[float]]
    indexed: IndexedCorpus


def measure_task(task: Task, encoder: object) -> Measured:
    """Quality and cost rows for one task; also the hybrid-ready index for the agent runs."""
    texts = task.corpus.texts()
    t0 = time.perf_counter()
    bm25 = BM25(texts)
    bm25_build = time.perf_counter() - t0
    rate = throughput(list(texts.values()), encoder)
    dense = DenseIndex(list(texts), cached_vectors(list(texts.values()), encoder))
    with tempfile.TemporaryDirectory() as tmp:
        bm25.save(Path(tmp) / "bm25")
        dense.save(Path(tmp) / "dense")
        bm25_size, dense_size = dir_size(Path(tmp) / "bm25"), dir_size(Path(tmp) / "dense")
    rows: dict[str, dict[str, float]] = {m: {"r2": 0, "r5": 0, "ndcg": 0} for m in METHODS}
    per_query: dict[str, list[float]] = {m: [] for m in METHODS}
    latency: dict[str, list[float]] = {m: [] for m in (*METHODS, "embed", "product")}
    for query, relevant in task.queries:
        t0 = time.perf_counter()
        lexical = np.asarray(bm25.get_scores(expand_query(bm25, query) or query), np.float32)
        share = code_share(bm25, query)  # what the hybrid's weight depends on, timed with BM25
        t_lex = time.perf_counter() - t0
        t0 = time.perf_counter()
        vector = encoder.encode([query])[0]  # type: ignore[attr-defined]
        t_embed = time.perf_counter() - t0
        t0 = time.perf_counter()
        semantic = dense.scores(vector)
        t_product = time.perf_counter() - t0
        latency["embed"].append(t_embed * 1000)
        for method in METHODS:
            t0 = time.perf_counter()
            ranked = _ranking(method, query, bm25, dense, lexical, semantic, share)
            spent = time.perf_counter() - t0
            if method == "dense":
                latency["product"].append((t_product + spent) * 1000)
            extra = {"bm25": 0.0, "dense": t_embed + t_product}.get(
                method, t_lex + t_embed + t_product
            )
            latency[method].append((spent + extra) * 1000)
            rows[method]["r2"] += recall_at(ranked, relevant, 2)
            rows[method]["r5"] += recall_at(ranked, relevant, 5)
            per_query[method].append(ndcg_at(ranked, relevant))
            rows[method]["ndcg"] += per_query[method][-1]
    n = len(task.queries)
    dense_build = len(texts) / rate
    for method in METHODS:
        row = rows[method]
        for key in ("r2", "r5", "ndcg"):
            row[key] /= n
        row["p50"], row["p95"] = _percentiles(latency[method])
        dense_part = method != "bm25"
        row["build"] = (bm25_build if method != "dense" else 0) + (dense_build if dense_part else 0)
        row["size"] = (bm25_size if method != "dense" else 0) + (dense_size if dense_part else 0)
    embed_p50, _ = _percentiles(latency["embed"])
    product_p50, _ = _percentiles(latency["product"])
    rows["_"] = {
        "throughput": rate,
        "passages": len(texts),
        "queries": n,
        "embed_p50": embed_p50,
        "product_p50": product_p50,
    }
    return Measured(rows, per_query, IndexedCorpus(task.corpus, bm25, dense, "hybrid"))


def _percentiles(ms: list[float]) -> tuple[float, float]:
    """p50 and p95 of a list of milliseconds."""
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _ranking(
    method: str,
    query: str,
    bm25: BM25,
    dense: DenseIndex,
    lexical: np.ndarray,
    semantic: np.ndarray,
    share: float,
) -> list[str]:
    """The top 10 ids of one method (BM25 through its own search, the rest from the scores)."""
    if method == "bm25":
        return [d for d, _ in bm25.search(expand_query(bm25, query) or query, 10)]
    rank = dense.rank()
    scores = semantic if method == "dense" else FUSED[method](lexical, semantic, rank, share)
    return [dense.doc_ids[i] for i in top_indices(scores, 10, rank)]


def agent_recall(indexed: IndexedCorpus, limit: int) -> list[tuple[str, float, float]]:
    """The policy agent's recall on hotpotqa-dev-test with each retriever, same budget."""
    from evals.datasets.loader import load_dataset
    from evals.metrics import micro_recall
    from evals.runner import run_dataset
    from tools.search_settings import RETRIEVERS

    dataset = load_dataset("hotpotqa-dev-test")
    rows = []
    for retriever in RETRIEVERS:
        chosen = IndexedCorpus(indexed.corpus, indexed.bm25, indexed.dense, retriever)
        records = run_dataset(
            dataset,
            k=3,
            max_steps=6,
            concurrency=1,
            limit=limit,
            checkpointer=InMemorySaver(),
            index=chosen,
        )
        recall = micro_recall((r["retrieved"] for r in records), (r["supporting"] for r in records))
        per_q = statistics.mean(len(set(r["retrieved"])) for r in records)
        rows.append((retriever, recall, per_q))
        print(f"  agent {retriever}: recall {recall:.3f}, {per_q:.2f} docs/question", flush=True)
    return rows


def render(results: list[tuple[Task, Measured]], agent: list) -> str:
    """The markdown tables."""
    lines = [
        "| dataset | retriever | recall@2 | recall@5 | nDCG@10 | query p50 ms | query p95 ms "
        "| build s | size MB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for task, (rows, _, _) in results:
        for method in METHODS:
            r = rows[method]
            lines.append(
                f"| {task.name} ({len(task.queries)} q, {int(rows['_']['passages'])} p) "
                f"| {method} | {r['r2']:.3f} | {r['r5']:.3f} | {r['ndcg']:.3f} | {r['p50']:.1f} "
                f"| {r['p95']:.1f} | {r['build']:.1f} | {r['size'] / 1e6:.1f} |"
            )
    lines += ["", *paired_table(results)]
    lines += [
        "",
        "| dataset | embedding throughput (passages/s) | dense query: embedding p50 ms "
        "| dense query: exact top-k p50 ms |",
        "|---|---:|---:|---:|",
    ]
    for task, (rows, _, _) in results:
        info = rows["_"]
        lines.append(
            f"| {task.name} | {info['throughput']:.1f} | {info['embed_p50']:.1f} "
            f"| {info['product_p50']:.2f} |"
        )
    if agent:
        lines += [
            "",
            "| agent on hotpotqa-dev-test (policy, k=3, 6 steps) | retrieval recall "
            "| docs retrieved / question | vs bm25 |",
            "|---|---:|---:|---:|",
        ]
        base = agent[0][1]
        for retriever, recall, per_q in agent:
            lines.append(f"| {retriever} | {recall:.3f} | {per_q:.2f} | {recall / base:.2f}x |")
    return "\n".join(lines) + "\n"


def paired_table(results: list[tuple[Task, Measured]]) -> list[str]:
    """Shipped hybrid against the better single retriever, query by query (nDCG@10)."""
    lines = [
        "| dataset | hybrid convex vs | mean nDCG@10 difference | 95% interval "
        "| queries better / worse / tied |",
        "|---|---|---:|---:|---:|",
    ]
    for task, (rows, per_query, _) in results:
        single = max(("bm25", "dense"), key=lambda m: rows[m]["ndcg"])
        hybrid, base = per_query["hybrid convex"], per_query[single]
        mean, low, high = paired_difference(hybrid, base)
        wins = sum(h > b + 1e-12 for h, b in zip(hybrid, base, strict=True))
        losses = sum(h < b - 1e-12 for h, b in zip(hybrid, base, strict=True))
        lines.append(
            f"| {task.name} | {single} | {mean:+.3f} | {low:+.3f} to {high:+.3f} "
            f"| {wins} / {losses} / {len(hybrid) - wins - losses} |"
        )
    return lines


def thread_table(task: Task, encoder: object, queries: int = 60, passages: int = 128) -> str:
    """Query embedding on ONNX Runtime's pool against one thread, on the first task's texts."""
    from embed_threads import compare
    from embed_threads import render as render_threads

    chosen = [q for q, _ in task.queries][:queries]
    texts = list(task.corpus.texts().values())[:passages]
    table = render_threads(compare(encoder, chosen, texts), len(chosen), len(texts))  # type: ignore[arg-type]
    print(table, flush=True)
    return table


def load_line() -> str:
    """The 1, 5 and 15 minute load averages."""
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    """Run every measurement and write the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("datasets", nargs="*", help="extra dataset files (eval format)")
    parser.add_argument("--questions", type=int, default=500, help="first N hotpotqa-dev")
    parser.add_argument("--agent-questions", type=int, default=None, help="default: all test")
    parser.add_argument("--skip-agent", action="store_true")
    args = parser.parse_args()
    load_before = load_line()
    t0 = time.perf_counter()
    encoder = default_embeddings()
    encoder.encode(["warm up the model before anything is timed"])
    print(f"model loaded in {time.perf_counter() - t0:.1f} s; load {load_before}", flush=True)
    fs_tune = field_service_task(FIELD_SERVICE_TUNE, "field-service manual, tune split (in-sample)")
    tasks = [*hotpot_tasks(args.questions), field_service_task(), fs_tune]
    tasks += [file_task(p, args.questions) for p in args.datasets]
    results = []
    hotpot_index = None
    for task in tasks:
        print(f"{task.name}: {len(task.corpus)} passages, {len(task.queries)} queries", flush=True)
        measured = measure_task(task, encoder)
        results.append((task, measured))
        if task.name.startswith("hotpotqa-dev-test"):
            hotpot_index = measured.indexed
        print(render([(task, measured)], []), flush=True)
    agent_n = args.agent_questions or max(0, args.questions - 250)
    skip = args.skip_agent or hotpot_index is None or agent_n < 1
    agent = [] if skip else agent_recall(hotpot_index, agent_n)  # type: ignore[arg-type]
    table = render(results, agent) + "\n" + thread_table(tasks[0], encoder)
    header = (
        f"# Retrieval quality\n\n{platform.platform()}, {os.cpu_count()} CPUs (shared), "
        f"python {platform.python_version()}; `python benchmarks/retrieval_quality.py "
        f"--questions {args.questions}{''.join(' ' + d for d in args.datasets)}` "
        f"({agent_n} agent questions); load average "
        f"(1, 5, 15 min) {load_before} at the start, {load_line()} at the end.\n\n"
    )
    RESULTS.write_text(header + table, encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
