"""Opening a saved index with its checks, against opening it unchecked and building afresh.

    .venv/bin/python benchmarks/index_open.py --sizes 2k,20k --repeats 5

A made-up corpus (seeded; about 60 words a passage, one passage a ``.txt`` file) is indexed
once with `tools.index_build.build_index`. Then, each the median of ``--repeats`` runs:

- ``open_index`` (this repo): reads CURRENT, checks the manifest, the sha256 of every part
  and the offsets, memory-maps the arrays (what ``--corpus NAME`` does);
- unchecked open: the same arrays and passages memory-mapped without any check (what
  ``open_index`` did before the checks);
- fresh BM25 build from the passages in memory (what ``--corpus NAME=PATH`` costs beyond
  reading the files).

Writes the table to benchmarks/results/index_open.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from tools.bm25 import BM25  # noqa: E402
from tools.index_build import build_index  # noqa: E402
from tools.index_store import open_index  # noqa: E402
from tools.index_versions import current_version  # noqa: E402
from tools.stored_corpus import StoredPassages  # noqa: E402

RESULTS = ROOT / "results" / "index_open.md"


def parse_size(text: str) -> int:
    """``2k`` -> 2000."""
    text = text.strip().lower()
    return int(float(text[:-1]) * 1000) if text.endswith("k") else int(text)


def write_corpus(folder: Path, n: int) -> None:
    """`n` made-up passages, one ``.txt`` file each, seeded."""
    rng = random.Random(n)
    words = [f"w{i}x" for i in range(5000)]
    for i in range(n):
        sub = folder / f"d{i % 50:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"p{i:06d}.txt").write_text(" ".join(rng.choices(words, k=60)))


def median_s(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of `run` in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(n: int, repeats: int) -> dict[str, float]:
    """Seconds for each way of getting a searchable index of `n` passages."""
    with tempfile.TemporaryDirectory() as tmp:
        docs, root = Path(tmp) / "docs", Path(tmp) / "indexes"
        write_corpus(docs, n)
        build_index(root, "bench", docs)
        version = current_version(root, "bench")
        texts = {p.id: p.text for p in open_index(root, "bench").corpus.passages}
        size = sum(f.stat().st_size for f in version.rglob("*") if f.is_file())
        return {
            "checked": median_s(lambda: open_index(root, "bench"), repeats),
            "unchecked": median_s(
                lambda: (BM25.load(version / "bm25"), StoredPassages(version)), repeats
            ),
            "fresh": median_s(lambda: BM25(texts), repeats),
            "mb": size / 1e6,
        }


def main() -> None:
    """Measure every size and print and save the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2k,20k")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    lines = [
        "| passages | index size | open_index (checked) | unchecked open | fresh BM25 build "
        "| checked / unchecked | checked / fresh |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in map(parse_size, args.sizes.split(",")):
        r = measure(n, args.repeats)
        lines.append(
            f"| {n:,} | {r['mb']:.1f} MB | {r['checked'] * 1e3:.1f} ms | "
            f"{r['unchecked'] * 1e3:.1f} ms | {r['fresh'] * 1e3:.1f} ms | "
            f"{r['checked'] / r['unchecked']:.1f}x | {r['checked'] / r['fresh']:.2f}x |"
        )
    table = "\n".join(lines)
    print(table)
    RESULTS.write_text(
        f"# Opening a saved index\n\n`{' '.join(sys.argv)}`, median of {args.repeats}\n\n"
        + table
        + "\n"
    )


if __name__ == "__main__":
    main()
