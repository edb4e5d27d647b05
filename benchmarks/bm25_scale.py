"""BM25 at scale: tools.bm25 against bm25s, tantivy and rank-bm25 on Zipfian synthetic corpora.

    .venv/bin/python benchmarks/bm25_scale.py --sizes 10k,100k,1m --queries 200

Each corpus (about 50 tokens a document, word ranks drawn from a Zipf distribution) and its
queries (2-6 distinct terms drawn from the same distribution) are generated once, seeded, and
cached under benchmarks/.cache/. Every engine runs in its own fresh subprocess, so its peak RSS
(ru_maxrss: corpus text + index + query work) is its own; a second fresh subprocess opens the
saved index to time loading. Top-10 results of tools.bm25 are checked against rank-bm25 on the
queries rank-bm25 runs (ties broken by doc id, as tools.bm25 does).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
RESULTS = ROOT / "results" / "bm25_scale.md"
TOP_K = 10
ENGINES = ("ours", "bm25s", "tantivy", "rank_bm25", "langchain")
LABELS = {
    "ours": "tools.bm25 (this repo)",
    "bm25s": "bm25s (robertson, numpy backend)",
    "tantivy": "tantivy (Rust, python bindings)",
    "rank_bm25": "rank-bm25 BM25Okapi",
    "langchain": "langchain BM25Retriever (wraps rank-bm25)",
}


# -- corpus ------------------------------------------------------------------------------------


def parse_size(text: str) -> int:
    text = text.strip().lower()
    mult = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text[:-1] if mult > 1 else text) * mult)


def size_label(n: int) -> str:
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def word(rank: int) -> str:
    """A pseudo-word of 2+ lowercase letters, unique per rank (every tokenizer agrees on it)."""
    n = rank + 26
    letters = []
    while n:
        n, r = divmod(n, 26)
        letters.append(chr(97 + r))
    return "".join(reversed(letters))


def corpus_paths(n_docs: int, args: argparse.Namespace) -> tuple[Path, Path]:
    stem = f"zipf_n{n_docs}_v{args.vocab}_s{args.zipf}_seed{args.seed}"
    return CACHE / f"{stem}.txt", CACHE / f"{stem}_q{args.queries}.json"


def ensure_corpus(n_docs: int, args: argparse.Namespace) -> tuple[Path, Path]:
    """Generate (once) the corpus text file (one document a line) and its queries."""
    text_path, query_path = corpus_paths(n_docs, args)
    CACHE.mkdir(parents=True, exist_ok=True)
    weights = 1.0 / np.arange(1, args.vocab + 1, dtype=np.float64) ** args.zipf
    cdf = np.cumsum(weights / weights.sum())
    words = [word(r) for r in range(args.vocab)]
    if not text_path.exists():
        t0 = time.perf_counter()
        rng = np.random.default_rng(args.seed)
        tmp = text_path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as out:
            for start in range(0, n_docs, 50_000):
                count = min(50_000, n_docs - start)
                lens = np.maximum(rng.poisson(args.doc_len, count), 1)
                ranks = np.searchsorted(cdf, rng.random(int(lens.sum())), side="right")
                ranks = np.minimum(ranks, args.vocab - 1)
                ends = np.cumsum(lens)
                toks = [words[r] for r in ranks.tolist()]
                out.write(
                    "\n".join(
                        " ".join(toks[e - n : e])
                        for e, n in zip(ends.tolist(), lens.tolist(), strict=True)
                    )
                    + "\n"
                )
        tmp.rename(text_path)
        print(f"  generated {text_path.name} in {time.perf_counter() - t0:.1f} s", flush=True)
    if not query_path.exists():
        rng = np.random.default_rng(args.seed + 1)
        queries = []
        for _ in range(args.queries):
            n_terms = int(rng.integers(2, 7))
            terms: list[str] = []
            while len(terms) < n_terms:
                r = min(int(np.searchsorted(cdf, rng.random(), side="right")), args.vocab - 1)
                if words[r] not in terms:
                    terms.append(words[r])
            queries.append(" ".join(terms))
        query_path.write_text(json.dumps(queries), encoding="utf-8")
    return text_path, query_path


def read_corpus(text_path: Path) -> tuple[list[str], list[str]]:
    texts = text_path.read_text(encoding="utf-8").split("\n")
    if texts and texts[-1] == "":
        texts.pop()
    return [f"doc{i}" for i in range(len(texts))], texts


# -- engines (each function runs inside a worker subprocess) -----------------------------------

Searcher = Callable[[str], list[str]]


def top_by_id(ids: list[str], scores: np.ndarray) -> list[str]:
    """Top 10 ids with score > 0, ties by doc id: the order tools.bm25 promises."""
    cand = np.flatnonzero(scores > 0)
    order = sorted(cand.tolist(), key=lambda i: (-scores[i], ids[i]))[:TOP_K]
    return [ids[i] for i in order]


def build_ours(ids: list[str], texts: list[str], index_dir: Path) -> tuple[Searcher, Any]:
    from tools.bm25 import BM25

    docs = dict(zip(ids, texts, strict=True))
    t0 = time.perf_counter()
    index = BM25(docs)
    build = time.perf_counter() - t0
    del docs

    def search(q: str) -> list[str]:
        return [d for d, _ in index.search(q, k=TOP_K)]

    return search, (build, lambda: index.save(index_dir))


def load_ours(index_dir: Path) -> tuple[Searcher, float]:
    from tools.bm25 import BM25

    t0 = time.perf_counter()
    index = BM25.load(index_dir, mmap=True)
    load = time.perf_counter() - t0

    def search(q: str) -> list[str]:
        return [d for d, _ in index.search(q, k=TOP_K)]

    return search, load


def _bm25s_tokenize(texts: list[str]) -> Any:
    import bm25s

    return bm25s.tokenize(texts, lower=True, stopwords=None, stemmer=None, show_progress=False)


def build_bm25s(ids: list[str], texts: list[str], index_dir: Path) -> tuple[Searcher, Any]:
    import bm25s

    t0 = time.perf_counter()
    tokens = _bm25s_tokenize(texts)
    retriever = bm25s.BM25(method="robertson", k1=1.5, b=0.75, backend="numpy")
    retriever.index(tokens, show_progress=False)
    build = time.perf_counter() - t0
    del tokens

    def search(q: str) -> list[str]:
        return _bm25s_search(retriever, ids, q)

    return search, (build, lambda: retriever.save(str(index_dir)))


def _bm25s_search(retriever: Any, ids: list[str] | None, q: str) -> list[str]:
    import bm25s

    toks = bm25s.tokenize([q], stopwords=None, stemmer=None, return_ids=False, show_progress=False)
    toks = [[t for t in toks[0] if t in retriever.vocab_dict]]
    if not toks[0]:
        return []
    docs, scores = retriever.retrieve(toks, k=TOP_K, show_progress=False)
    return [
        (ids[int(d)] if ids is not None else str(int(d)))
        for d, s in zip(docs[0], scores[0], strict=True)
        if s > 0
    ]


def load_bm25s(index_dir: Path) -> tuple[Searcher, float]:
    import bm25s

    t0 = time.perf_counter()
    retriever = bm25s.BM25.load(str(index_dir), mmap=True)
    load = time.perf_counter() - t0

    def search(q: str) -> list[str]:
        return [f"doc{d}" for d in _bm25s_search(retriever, None, q)]

    return search, load


def build_tantivy(ids: list[str], texts: list[str], index_dir: Path) -> tuple[Searcher, Any]:
    import tantivy

    shutil.rmtree(index_dir, ignore_errors=True)
    index_dir.mkdir(parents=True)
    t0 = time.perf_counter()
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    builder.add_text_field("body", stored=False)
    schema = builder.build()
    index = tantivy.Index(schema, path=str(index_dir))
    writer = index.writer(heap_size=512 * 1024 * 1024)
    for doc_id, text in zip(ids, texts, strict=True):
        writer.add_document(tantivy.Document(id=doc_id, body=text))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    build = time.perf_counter() - t0
    searcher = index.searcher()

    def search(q: str) -> list[str]:
        return _tantivy_search(index, searcher, q)

    return search, (build, lambda: None)


def _tantivy_search(index: Any, searcher: Any, q: str) -> list[str]:
    query = index.parse_query(q, ["body"])
    hits = searcher.search(query, TOP_K).hits
    return [searcher.doc(addr)["id"][0] for _, addr in hits]


def load_tantivy(index_dir: Path) -> tuple[Searcher, float]:
    import tantivy

    t0 = time.perf_counter()
    index = tantivy.Index.open(str(index_dir))
    searcher = index.searcher()
    load = time.perf_counter() - t0

    def search(q: str) -> list[str]:
        return _tantivy_search(index, searcher, q)

    return search, load


def build_rank_bm25(ids: list[str], texts: list[str], index_dir: Path) -> tuple[Searcher, Any]:
    from rank_bm25 import BM25Okapi

    from tools.bm25_tokens import tokenize

    t0 = time.perf_counter()
    index = BM25Okapi([tokenize(t) for t in texts])
    build = time.perf_counter() - t0

    def search(q: str) -> list[str]:
        return top_by_id(ids, index.get_scores(tokenize(q)))

    return search, (build, None)


def build_langchain(ids: list[str], texts: list[str], index_dir: Path) -> tuple[Searcher, Any]:
    import warnings

    warnings.filterwarnings("ignore")
    from langchain_community.retrievers import BM25Retriever

    from tools.bm25_tokens import tokenize

    t0 = time.perf_counter()
    retriever = BM25Retriever.from_texts(
        texts, metadatas=[{"id": i} for i in ids], preprocess_func=tokenize, k=TOP_K
    )
    build = time.perf_counter() - t0

    def search(q: str) -> list[str]:
        return [d.metadata["id"] for d in retriever.invoke(q)]

    return search, (build, None)


BUILDERS = {
    "ours": build_ours,
    "bm25s": build_bm25s,
    "tantivy": build_tantivy,
    "rank_bm25": build_rank_bm25,
    "langchain": build_langchain,
}
LOADERS = {"ours": load_ours, "bm25s": load_bm25s, "tantivy": load_tantivy}


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def time_queries(search: Searcher, queries: list[str]) -> tuple[list[float], list[list[str]]]:
    search(queries[0])  # warm-up (first-call imports, page faults), not timed
    times, results = [], []
    for q in queries:
        t0 = time.perf_counter()
        hits = search(q)
        times.append(time.perf_counter() - t0)
        results.append(hits)
    return times, results


def run_worker(args: argparse.Namespace) -> None:
    engine, phase = args.worker, args.phase
    index_dir = Path(args.index_dir)
    queries: list[str] = json.loads(Path(args.query_file).read_text(encoding="utf-8"))
    if args.max_queries:
        queries = queries[: args.max_queries]
    out: dict[str, Any] = {"engine": engine, "phase": phase}
    if phase == "build":
        ids, texts = read_corpus(Path(args.text_file))
        gc.collect()
        out["corpus_rss"] = peak_rss_bytes()
        search, (build, save) = BUILDERS[engine](ids, texts, index_dir)
        del texts
        gc.collect()
        out["build_s"] = build
        times, results = time_queries(search, queries)
        out["peak_rss"] = peak_rss_bytes()
        if save is not None:
            if engine != "tantivy":  # tantivy built its index in place
                shutil.rmtree(index_dir, ignore_errors=True)
            t0 = time.perf_counter()
            save()
            out["save_s"] = time.perf_counter() - t0
    else:
        search, load = LOADERS[engine](index_dir)
        out["load_s"] = load
        times, results = time_queries(search, queries)
        out["peak_rss"] = peak_rss_bytes()
    out["query_ms"] = [t * 1000 for t in times]
    out["results"] = results
    Path(args.out).write_text(json.dumps(out), encoding="utf-8")


# -- orchestration -----------------------------------------------------------------------------


def run_engine(
    engine: str, phase: str, n_docs: int, text_path: Path, query_path: Path, max_q: int
) -> dict[str, Any] | None:
    index_dir = CACHE / "index" / f"{engine}_{n_docs}"
    out = CACHE / f"result_{engine}_{n_docs}_{phase}.json"
    out.unlink(missing_ok=True)
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        engine,
        "--phase",
        phase,
        "--text-file",
        str(text_path),
        "--query-file",
        str(query_path),
        "--index-dir",
        str(index_dir),
        "--max-queries",
        str(max_q),
        "--out",
        str(out),
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT.parent), TQDM_DISABLE="1")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0 or not out.exists():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        print(f"  {engine} {phase} FAILED: {' | '.join(tail)}", flush=True)
        return None
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    print(f"  {engine:9s} {phase:5s} done in {time.perf_counter() - t0:6.1f} s", flush=True)
    return result


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def fmt_s(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:.3f} s" if v < 1 else f"{v:.1f} s"


def fmt_ms(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:,.2f} ms" if v < 10 else f"{v:,.1f} ms" if v < 100 else f"{v:,.0f} ms"


def fmt_gb(v: float | None) -> str:
    return "—" if v is None else f"{v / 1e9:.2f} GB"


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "—"
    return f"{a / b:.2f}x"


def benchmark_size(n_docs: int, args: argparse.Namespace, engines: list[str]) -> list[str]:
    label = size_label(n_docs)
    print(f"\n== {label} documents ==", flush=True)
    text_path, query_path = ensure_corpus(n_docs, args)
    rows: dict[str, dict[str, Any]] = {}
    results: dict[str, list[list[str]]] = {}
    corpus_rss = None
    for engine in engines:
        if engine == "langchain" and n_docs > args.langchain_max:
            continue
        max_q = args.queries
        if engine in ("rank_bm25", "langchain") and n_docs >= 1_000_000:
            max_q = args.rank_bm25_queries
        elif engine in ("rank_bm25", "langchain") and n_docs >= 100_000:
            max_q = min(args.queries, max(args.rank_bm25_queries, 50))
        built = run_engine(engine, "build", n_docs, text_path, query_path, max_q)
        if built is None:
            continue
        corpus_rss = corpus_rss or built["corpus_rss"]
        row = {
            "build": built["build_s"],
            "p50": pct(built["query_ms"], 50),
            "p95": pct(built["query_ms"], 95),
            "rss": built["peak_rss"],
            "n_q": len(built["query_ms"]),
            "load": None,
        }
        results[engine] = built["results"]
        if engine in LOADERS:
            loaded = run_engine(engine, "load", n_docs, text_path, query_path, args.queries)
            if loaded is not None:
                row["load"] = loaded["load_s"]
                row["p50_loaded"] = pct(loaded["query_ms"], 50)
                if engine == "ours" and loaded["results"] != built["results"]:
                    row["check"] = "loaded index differs!"
        rows[engine] = row

    ref = results.get("rank_bm25")
    for engine, row in rows.items():
        if engine == "rank_bm25":
            row["check"] = "reference"
        elif ref is None:
            row.setdefault("check", "—")
        elif engine == "ours":
            same = sum(a == b for a, b in zip(results[engine], ref, strict=False))
            row.setdefault("check", f"identical {same}/{len(ref)}")
        else:
            overlap = [
                len(set(a) & set(b)) / max(len(b), 1)
                for a, b in zip(results[engine], ref, strict=False)
            ]
            row["check"] = f"overlap {100 * float(np.mean(overlap)):.0f}%"

    lines = [
        f"### {label} documents, {args.queries} queries of 2-6 terms, top {TOP_K}",
        "",
        "| engine | build | query p50 | query p95 | load (mmap) | peak RSS | top-10 vs rank-bm25 |",
        "|---|---|---|---|---|---|---|",
    ]
    for engine, row in rows.items():
        n_q = f" ({row['n_q']} q)" if row["n_q"] < args.queries else ""
        lines.append(
            f"| {LABELS[engine]}{n_q} | {fmt_s(row['build'])} | {fmt_ms(row['p50'])} | "
            f"{fmt_ms(row['p95'])} | {fmt_s(row['load'])} | {fmt_gb(row['rss'])} | {row['check']} |"
        )
    ours = rows.get("ours")
    for peer in ("bm25s", "tantivy"):
        other = rows.get(peer)
        if ours is None or other is None:
            continue
        lines.append(
            f"| *tools.bm25 / {peer}* | {ratio(ours['build'], other['build'])} | "
            f"{ratio(ours['p50'], other['p50'])} | {ratio(ours['p95'], other['p95'])} | "
            f"{ratio(ours['load'], other['load'])} | {ratio(ours['rss'], other['rss'])} | |"
        )
    lines.append("")
    if corpus_rss:
        lines.append(
            f"Peak RSS is the whole worker process, including the corpus text it reads "
            f"(about {corpus_rss / 1e9:.2f} GB before indexing)."
        )
    if ours and ours.get("p50_loaded") is not None:
        lines.append(
            f"tools.bm25 query p50 on the memory-mapped loaded index: {fmt_ms(ours['p50_loaded'])}."
        )
    lines.append("")
    print("\n".join(lines), flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10k,100k,1m", help="comma list, e.g. 10k,100k,1m")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rank-bm25-queries", type=int, default=10, help="rank-bm25 queries at 1M")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--langchain-max", type=int, default=100_000, help="largest size for it")
    parser.add_argument("--vocab", type=int, default=500_000)
    parser.add_argument("--zipf", type=float, default=1.0)
    parser.add_argument("--doc-len", type=float, default=50.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true", help="don't write the results file")
    # worker-only arguments
    parser.add_argument("--worker", choices=ENGINES, help=argparse.SUPPRESS)
    parser.add_argument("--phase", choices=("build", "load"), help=argparse.SUPPRESS)
    parser.add_argument("--text-file", help=argparse.SUPPRESS)
    parser.add_argument("--query-file", help=argparse.SUPPRESS)
    parser.add_argument("--index-dir", help=argparse.SUPPRESS)
    parser.add_argument("--max-queries", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        run_worker(args)
        return
    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = sorted(set(engines) - set(ENGINES))
    if unknown:
        parser.error(f"unknown engines: {', '.join(unknown)}")
    header = [
        "# BM25 at scale",
        "",
        f"Generated by `benchmarks/bm25_scale.py --sizes {args.sizes} --queries {args.queries}`"
        f" on {os.cpu_count()} CPUs. Zipfian synthetic corpora: vocabulary {args.vocab:,},"
        f" exponent {args.zipf}, document length Poisson({args.doc_len:g}); queries of 2-6"
        " distinct terms from the same distribution. Each engine builds and queries in its own"
        " fresh process; a second fresh process opens the saved index (load). rank-bm25 and"
        " langchain run fewer queries at the larger sizes. The machine is shared, so absolute"
        " times are noisy: compare the ratios within one run.",
        "",
    ]
    body: list[str] = []
    for n_docs in sizes:
        body += benchmark_size(n_docs, args, engines)
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text("\n".join(header + body).rstrip() + "\n", encoding="utf-8")
        print(f"wrote {RESULTS.relative_to(ROOT.parent)}")


if __name__ == "__main__":
    main()
