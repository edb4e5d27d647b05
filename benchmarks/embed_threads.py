"""Embedding a query on ONNX Runtime's default thread pool against one thread, and bulk both ways.

`tools/onnx_embed.py` embeds up to `SMALL_BATCH` texts (a query) on a one-thread session and
bulk batches on a session with ONNX Runtime's default pool (one thread per core). This
measures why, under whatever load the machine has:
query embedding p50/p95 with each setting (interleaved query by query, so both see the same
load), and bulk throughput (passages/s) with each (interleaved batch by batch).

Used by `retrieval_quality.py` (its last table). Alone, it can add load of its own:
``--busy N`` runs N busy-looping processes during the measurement (simulated load, on top of
whatever the machine already runs), and writes benchmarks/results/embed_threads.md.
Usage: python benchmarks/embed_threads.py [--queries 60] [--passages 128] [--busy N]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import onnx_embed  # noqa: E402
from tools.onnx_embed import OnnxEmbeddings  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "embed_threads.md"


@contextmanager
def threads(encoder: OnnxEmbeddings, n: int) -> Iterator[None]:
    """Embed every batch on the session with `n` intra-op threads (0: the default pool)."""
    before = encoder.session
    encoder.session = lambda _threads: before(n)  # type: ignore[method-assign]
    try:
        yield
    finally:
        del encoder.session  # back to the class's method


def _timed(call: Callable[[], object]) -> float:
    """Seconds one call takes."""
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def compare(
    encoder: OnnxEmbeddings, queries: list[str], passages: list[str], rounds: int = 2
) -> list[tuple[str, float, float, float]]:
    """(setting, query p50 ms, query p95 ms, bulk passages/s) for the pool and for one thread."""
    settings = {f"ONNX Runtime default pool ({os.cpu_count()} cores)": 0, "one thread": 1}
    query_ms: dict[str, list[float]] = {name: [] for name in settings}
    bulk_s: dict[str, float] = dict.fromkeys(settings, 0.0)
    for query in queries:
        for name, n in settings.items():
            with threads(encoder, n):
                query_ms[name].append(_timed(lambda q=query: encoder.encode([q])) * 1000)
    for _ in range(rounds):
        for name, n in settings.items():
            with threads(encoder, n):
                bulk_s[name] += _timed(lambda: encoder.encode(passages))
    rows = []
    for name in settings:
        ordered = sorted(query_ms[name])
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        rate = rounds * len(passages) / bulk_s[name]
        rows.append((name, statistics.median(ordered), p95, rate))
    return rows


def render(rows: list[tuple[str, float, float, float]], n_queries: int, n_passages: int) -> str:
    """The markdown table."""
    lines = [
        f"| ONNX Runtime threads ({n_queries} queries; bulk: {n_passages} passages, batches of "
        f"{onnx_embed.BATCH_SIZE}) | query embedding p50 ms | p95 ms | bulk passages/s |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {n} | {p50:.1f} | {p95:.1f} | {rate:.1f} |" for n, p50, p95, rate in rows]
    return "\n".join(lines) + "\n"


def _spin(stop: Any) -> None:
    """Burn one core until `stop` is set (simulated load)."""
    while not stop.is_set():
        sum(range(10_000))


@contextmanager
def busy(n: int) -> Iterator[None]:
    """Run `n` busy-looping processes inside the block; stop and join them after."""
    stop = multiprocessing.Event()
    workers = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(n)]
    for worker in workers:
        worker.start()
    try:
        yield
    finally:
        stop.set()
        for worker in workers:
            worker.join(10)


def main() -> None:
    """Measure on hotpotqa-dev-test's questions and paragraphs; print and save the table."""
    from evals.datasets.loader import load_dataset

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--passages", type=int, default=128)
    parser.add_argument("--busy", type=int, default=0, help="busy processes (simulated load)")
    args = parser.parse_args()
    dataset = load_dataset("hotpotqa-dev-test")
    assert dataset.corpus is not None
    encoder = onnx_embed.default_embeddings()
    encoder.encode(["warm up"])
    queries = [q.question for q in dataset.questions][: args.queries]
    passages = list(dataset.corpus.texts().values())[: args.passages]
    before = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    with busy(args.busy):
        time.sleep(5 if args.busy else 0)  # let the load build up
        table = render(compare(encoder, queries, passages), len(queries), len(passages))
        during = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    header = (
        "# Query embedding: ONNX Runtime's thread pool against one thread\n\n"
        f"{platform.platform()}, "
        f"{os.cpu_count()} CPUs (shared), python {platform.python_version()}; "
        f"`python benchmarks/embed_threads.py --queries {args.queries} --passages "
        f"{args.passages} --busy {args.busy}` ({args.busy} busy-looping processes added); "
        f"load average (1, 5, 15 min) {before} before, {during} at the end of the measurement."
        "\n\n"
    )
    RESULTS.write_text(header + table, encoding="utf-8")
    print(header + table)


if __name__ == "__main__":
    main()
