"""Hybrid asks against bm25 asks, and bulk embedding: ONNX Runtime against sentence-transformers.

Two tables, each measured in this one run:

1. Wall and CPU time of whole `agent` commands (subprocesses, as a user runs them),
   interleaved repeat by repeat so both sides see the same load; medians. On a small saved index of
   made-up passages: ``agent ask Q --corpus kb --retriever hybrid`` against the same ask with
   ``--retriever bm25``; the same for ``--corpus kb=DIR`` (a folder loaded on each run, its
   vectors kept between runs); and ``agent index`` on the unchanged folder (hybrid against
   bm25), with the time the command printed beside its wall time. The goal: hybrid at most
   1.5x bm25.
2. Bulk embedding throughput (passages/s) of hotpotqa-dev-test paragraphs: the shipped ONNX
   Runtime encoder against sentence-transformers (torch) on the same number of threads (1, and
   every core), at the same batch size and at the batch size it shipped with before (64),
   interleaved round by round. The goal: ONNX at least 1.0x.

The ONNX export is made before the measurement (it is made once per installation).
Writes benchmarks/results/dense_latency.md.
Usage: python benchmarks/dense_latency.py [--repeats 5] [--passages 128] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from embed_threads import threads  # noqa: E402

from tools import onnx_embed  # noqa: E402
from tools.onnx_embed import OnnxEmbeddings  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "dense_latency.md"
PASSAGES = {
    "kiln.txt": "The kiln door seal is a fibre rope; replace it when it frays or gaps appear.",
    "glaze.txt": "Stoneware glazes are fired to cone 6, about 1,220 degrees Celsius.",
    "wheel.txt": "Centre the clay on the wheel head before opening it with your thumbs.",
    "clay.txt": "Wedge the clay for two minutes to push out air bubbles before throwing.",
    "dry.txt": "Pots dry slowly under loose plastic so their rims do not crack.",
    "bisque.txt": "A bisque firing to cone 04 makes ware porous enough to take glaze.",
    "safety.txt": "Wear a respirator when mixing dry glaze materials: silica dust harms lungs.",
}
TORCH_BATCH = 64
"""The batch size the sentence-transformers encoder shipped with before ONNX Runtime."""
QUESTION = "What temperature are stoneware glazes fired at?"


def timed_command(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one `agent` command, and its output (it must succeed).

    CPU time (user + system, of the child) moves less than wall time when other jobs share
    the cores, so both are reported.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "graph", *argv], env=env, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"agent {' '.join(argv)} failed: {done.stderr.strip()[-500:]}")
    return seconds, cpu, done.stdout


def command_table(repeats: int) -> str:
    """Table 1: medians of interleaved whole-command wall times, and their ratios."""
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        for name, text in PASSAGES.items():
            (docs / name).write_text(text + "\n", encoding="utf-8")
        env = {**os.environ, "AGENT_HOME": str(Path(tmp) / "home"), "PYTHONPATH": str(ROOT)}
        env.pop("AGENT_RETRIEVER", None)
        timed_command(["index", "kb", str(docs), "--retriever", "hybrid"], env)
        timed_command(["index", "kbb", str(docs), "--retriever", "bm25"], env)
        folder = f"kbf={docs}"
        pairs = {
            "`ask --corpus kb` (saved index)": (
                ["ask", QUESTION, "--corpus", "kb", "--retriever", "hybrid"],
                ["ask", QUESTION, "--corpus", "kb", "--retriever", "bm25"],
            ),
            "`ask --corpus kb=DIR` (folder, vectors kept)": (
                ["ask", QUESTION, "--corpus", folder, "--retriever", "hybrid"],
                ["ask", QUESTION, "--corpus", folder, "--retriever", "bm25"],
            ),
            "`index` on the unchanged folder": (
                ["index", "kb", str(docs), "--retriever", "hybrid"],
                ["index", "kbb", str(docs), "--retriever", "bm25"],
            ),
        }
        timed_command(pairs["`ask --corpus kb=DIR` (folder, vectors kept)"][0], env)  # fill cache
        # what -> side (hybrid, bm25) -> measure (wall, cpu) -> one value per repeat
        runs: dict[str, list[list[list[float]]]] = {k: [[[], []], [[], []]] for k in pairs}
        printed: list[float] = []
        for _ in range(repeats):
            for what, sides in pairs.items():
                for side, argv in enumerate(sides):
                    wall, cpu, out = timed_command(argv, env)
                    runs[what][side][0].append(wall)
                    runs[what][side][1].append(cpu)
                    if side == 0 and argv[0] == "index":
                        found = re.search(r", ([0-9.]+) s$", out.strip())
                        printed.append(float(found.group(1)) if found else float("nan"))
    lines = [
        f"| command ({len(PASSAGES)} passages; medians of {repeats} interleaved runs) "
        "| hybrid wall s | bm25 wall s | hybrid / bm25 wall | hybrid CPU s | bm25 CPU s "
        "| hybrid / bm25 CPU |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for what, ((h_wall, h_cpu), (b_wall, b_cpu)) in runs.items():
        hw, bw = statistics.median(h_wall), statistics.median(b_wall)
        hc, bc = statistics.median(h_cpu), statistics.median(b_cpu)
        lines.append(
            f"| {what} | {hw:.2f} | {bw:.2f} | {hw / bw:.2f}x | {hc:.2f} | {bc:.2f} "
            f"| {hc / bc:.2f}x |"
        )
    wall = statistics.median(runs["`index` on the unchanged folder"][0][0])
    note = (
        f"\n`agent index` (hybrid, unchanged) printed a median {statistics.median(printed):.2f} s"
        f" for a median wall time of {wall:.2f} s (the printed time counts from the process's "
        "start; the wall time also holds starting the subprocess and its exit).\n"
    )
    return "\n".join(lines) + "\n" + note


def rate(encode: Callable[[list[str]], object], texts: list[str]) -> float:
    """Seconds one bulk call takes."""
    start = time.perf_counter()
    encode(texts)
    return time.perf_counter() - start


def bulk_table(passages: list[str], rounds: int) -> str:
    """Table 2: passages/s of ONNX Runtime and sentence-transformers on the same threads."""
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    ours: OnnxEmbeddings = onnx_embed.default_embeddings()
    reference = SentenceTransformer(str(ours.folder), device="cpu", local_files_only=True)
    cores = os.cpu_count() or 1
    batch = onnx_embed.BATCH_SIZE
    lines = [
        f"| threads ({len(passages)} passages, {rounds} interleaved rounds) "
        f"| ONNX Runtime (batches of {batch}) passages/s "
        f"| sentence-transformers, batches of {batch} | sentence-transformers, batches of "
        f"{TORCH_BATCH} (shipped before) | ONNX / s-t same batch | ONNX / s-t shipped before |",
        "|---|---:|---:|---:|---:|---:|",
    ]

    def reference_encode(size: int) -> Callable[[list[str]], object]:
        return lambda texts: reference.encode(
            texts, batch_size=size, normalize_embeddings=True, convert_to_numpy=True
        )

    for n in sorted({1, cores}):
        torch.set_num_threads(n)
        spent = [0.0, 0.0, 0.0]
        for _ in range(rounds):
            with threads(ours, n):
                spent[0] += rate(ours.encode, passages)
            spent[1] += rate(reference_encode(batch), passages)
            spent[2] += rate(reference_encode(TORCH_BATCH), passages)
        ort_rate, same, before = (rounds * len(passages) / s for s in spent)
        lines.append(
            f"| {n} | {ort_rate:.1f} | {same:.1f} | {before:.1f} | {ort_rate / same:.2f}x "
            f"| {ort_rate / before:.2f}x |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    """Run both measurements; print and save the tables."""
    from evals.datasets.loader import load_dataset

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--passages", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    onnx_embed.default_embeddings().encode(["warm up: the export exists before timing"])
    before = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    commands = command_table(args.repeats)
    print(commands, flush=True)
    dataset = load_dataset("hotpotqa-dev-test")
    assert dataset.corpus is not None
    texts = list(dataset.corpus.texts().values())[: args.passages]
    bulk = bulk_table(texts, args.rounds)
    print(bulk, flush=True)
    after = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    header = (
        "# Dense latency: hybrid against bm25 asks, ONNX Runtime against sentence-transformers"
        f"\n\n{platform.platform()}, {os.cpu_count()} CPUs (shared), python "
        f"{platform.python_version()}; `python benchmarks/dense_latency.py --repeats "
        f"{args.repeats} --passages {args.passages} --rounds {args.rounds}`; load average "
        f"(1, 5, 15 min) {before} before, {after} after.\n\n"
    )
    RESULTS.write_text(header + commands + "\n" + bulk, encoding="utf-8")


if __name__ == "__main__":
    main()
