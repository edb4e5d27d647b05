"""Dense and hybrid retrieval with the real all-MiniLM-L6-v2 (the [dense] extra), and its checks."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run_cli
from langchain_core.messages import ToolMessage

from corpora import Corpus, Passage
from graph.app.session import Session
from tools import embeddings
from tools.bm25 import BM25
from tools.dense import DenseIndex
from tools.embeddings import EmbeddingError, verify_model
from tools.expand import expand_query
from tools.hybrid import ALPHA, NORMALIZATION, NORMALIZATIONS, HybridSearch, normalized, rrf
from tools.index_build import build_index
from tools.onnx_embed import OnnxEmbeddings, default_embeddings
from tools.retrievers import index_corpus
from tools.search import make_search_tool

pytest.importorskip("onnxruntime", reason="the [dense] extra is not installed")

PASSAGES = [
    ("p1", "The Falcon bicycle has a carbon frame and weighs 7 kilograms."),
    ("p2", "To reset the router, hold the pinhole button for ten seconds."),
    ("p3", "Our bakery opens at six in the morning and sells sourdough loaves."),
    ("p4", "The telescope mount tracks stars automatically once it is aligned."),
    ("p5", "Refunds for unopened headphones are issued within fourteen days."),
    ("p6", "The greenhouse keeps tomatoes warm with a small paraffin heater."),
    ("p7", "Marine paint protects the hull of the sailing boat from barnacles."),
    ("p8", "A lightweight road bike climbs hills faster than a heavy cruiser."),
]
QUERIES = [
    "how light is the Falcon bike",
    "restart my wifi box",
    "when does the bread shop open",
    "money back for earphones",
    "keeping plants warm in winter",
]


@pytest.fixture(scope="module")
def encoder() -> OnnxEmbeddings:
    return default_embeddings()


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus("gear", tuple(Passage(id=i, text=t) for i, t in PASSAGES))


def brute_force(doc_vectors: dict[str, list[float]], query: list[float], k: int) -> list[tuple]:
    """Cosine by plain Python, sorted by (-score, id)."""

    def cosine(a: list[float], b: list[float]) -> float:
        dot = sum(x * y for x, y in zip(a, b, strict=True))
        return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))

    scored = [(doc_id, cosine(vector, query)) for doc_id, vector in doc_vectors.items()]
    return sorted(scored, key=lambda item: (-item[1], item[0]))[:k]


def test_dense_top_k_equals_brute_force(encoder, corpus: Corpus) -> None:
    texts = corpus.texts()
    index = DenseIndex.build(texts, encoder)
    raw = dict(zip(texts, encoder.embed_documents(list(texts.values())), strict=True))
    for query in QUERIES:
        expected = brute_force(raw, encoder.embed_query(query), k=3)
        got = index.search(query, encoder, k=3)
        assert [d for d, _ in got] == [d for d, _ in expected]
        assert [s for _, s in got] == pytest.approx([s for _, s in expected], abs=1e-5)
    # and the semantics are real: paraphrases with no shared words find their passage
    assert index.search("restart my wifi box", encoder, k=1)[0][0] == "p2"
    assert index.search("money back for earphones", encoder, k=1)[0][0] == "p5"


def test_dense_ties_break_by_doc_id() -> None:
    vectors = np.array([[1, 0], [0, 1], [1, 0], [1, 0]], dtype=np.float32)
    index = DenseIndex(["d", "a", "c", "b"], vectors)
    assert [d for d, _ in index.search_vector(np.array([1.0, 0.0]), k=2)] == ["b", "c"]
    assert [d for d, _ in index.search_vector(np.array([1.0, 0.0]), k=4)] == ["b", "c", "d", "a"]


def test_dense_index_round_trips_memory_mapped(encoder, corpus: Corpus, tmp_path: Path) -> None:
    index = DenseIndex.build(corpus.texts(), encoder)
    index.save(tmp_path / "dense")
    loaded = DenseIndex.load(tmp_path / "dense")
    assert isinstance(loaded.vectors, np.memmap) and loaded.vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(loaded.vectors, axis=1), 1.0, atol=1e-5)
    assert loaded.search("bread shop", encoder, 2) == index.search("bread shop", encoder, 2)


def reference_normalized(values: list[float], how: str) -> list[float]:
    """Plain-Python normalization over the corpus (min-max, divide by the top, z-score)."""
    if how == "minmax":
        low, spread = min(values), max(values) - min(values)
    elif how == "max":
        low, spread = 0.0, max(abs(v) for v in values)
    else:
        low = sum(values) / len(values)
        spread = math.sqrt(sum((v - low) ** 2 for v in values) / len(values))
    return [0.0 if spread <= 0 else (v - low) / spread for v in values]


@pytest.mark.parametrize("how", NORMALIZATIONS)
def test_normalizations_match_a_plain_computation(how: str) -> None:
    values = [3.5, 0.0, 0.0, 1.25, 7.0, -0.5]
    got = normalized(np.asarray(values, dtype=np.float32), how)
    assert got.tolist() == pytest.approx(reference_normalized(values, how), abs=1e-6)
    assert normalized(np.zeros(4), how).tolist() == [0.0] * 4  # no word matched: no signal
    if how != "max":  # scores that are all equal carry no signal either
        assert normalized(np.full(4, 2.0), how).tolist() == [0.0] * 4
    with pytest.raises(ValueError, match="unknown normalization 'rank'"):
        normalized(np.ones(2), "rank")


def test_rrf_sums_reciprocal_ranks_within_depth() -> None:
    lexical = np.asarray([0.0, 2.0, 1.0, 3.0])  # ranks: d3, d1, d2 (d0 matches no word)
    semantic = np.asarray([0.9, 0.1, 0.5, 0.2])  # ranks: d0, d2, d3, d1
    fused = rrf(lexical, semantic, k=1, depth=2)
    # depth 2: bm25 credits d3 (1/2) and d1 (1/3); dense credits d0 (1/2) and d2 (1/3)
    assert fused.tolist() == pytest.approx([1 / 2, 1 / 3, 1 / 3, 1 / 2])
    deeper = rrf(lexical, semantic, k=1, depth=4)
    assert deeper.tolist() == pytest.approx([1 / 2, 1 / 3 + 1 / 5, 1 / 4 + 1 / 3, 1 / 2 + 1 / 4])


def test_hybrid_convex_equals_brute_force(encoder, corpus: Corpus) -> None:
    texts = corpus.texts()
    bm25 = BM25(texts)
    dense = DenseIndex.build(texts, encoder)
    hybrid = HybridSearch(bm25, dense, encoder, fusion="convex")
    raw = dict(zip(texts, encoder.embed_documents(list(texts.values())), strict=True))
    for query in [*QUERIES, "Falcon carbon frame"]:
        lexical = [float(x) for x in bm25.get_scores(expand_query(bm25, query) or query)]
        by_id = dict(brute_force(raw, encoder.embed_query(query), k=len(texts)))
        semantic = [by_id[d] for d in texts]

        def scale(values: list[float]) -> list[float]:
            return reference_normalized(values, NORMALIZATION)

        fused = [
            ALPHA * s + (1 - ALPHA) * b
            for s, b in zip(scale(semantic), scale(lexical), strict=True)
        ]
        expected = sorted(zip(texts, fused, strict=True), key=lambda x: (-x[1], x[0]))[:3]
        got = hybrid.search(query, k=3)
        assert [h.id for h in got] == [d for d, _ in expected]
        assert [h.score for h in got] == pytest.approx([s for _, s in expected], abs=1e-5)
        for hit in got:
            assert hit.bm25 == pytest.approx(lexical[list(texts).index(hit.id)], abs=1e-5)
            assert hit.dense == pytest.approx(by_id[hit.id], abs=1e-5)


def test_hybrid_tool_shows_fused_score_and_keeps_both(encoder, corpus: Corpus) -> None:
    tool = make_search_tool(index_corpus(corpus, "hybrid", encoder=encoder), k=2)
    assert tool.description.startswith("Hybrid keyword (BM25) and semantic (embedding) search")
    message = tool.invoke(
        {"type": "tool_call", "id": "c1", "name": tool.name, "args": {"query": "Falcon bike"}}
    )
    assert isinstance(message, ToolMessage)
    first = message.artifact[0]
    assert first["id"] == "p1" and first["retriever"] == "hybrid"
    assert {"bm25", "dense", "score"} <= set(first)
    assert first["bm25"] > 0 and 0 < first["dense"] <= 1
    assert message.content.splitlines()[0].startswith("[p1] The Falcon bicycle")


def test_tampered_model_is_refused_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = embeddings.model_dir()
    fake = tmp_path / "model"
    for name in embeddings.MODEL_FILES:  # the genuine files, but for the weights
        (fake / name).parent.mkdir(parents=True, exist_ok=True)
        (fake / name).symlink_to(real / name)
    data = bytearray((real / "model.safetensors").read_bytes()[:4096])
    data[100] ^= 0xFF
    (fake / "model.safetensors").unlink()
    (fake / "model.safetensors").write_bytes(bytes(data))
    with pytest.raises(EmbeddingError, match="refusing to load it"):
        verify_model(fake)
    monkeypatch.setenv("AGENT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(embeddings.MODEL_DIR_ENV, str(fake))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("some text")
    code, out, err = run_cli(
        capsys, "index", "docs", str(tmp_path / "docs"), "--retriever", "dense"
    )
    assert code == 1 and out == ""
    assert err.strip() == (
        f"error: {fake / 'model.safetensors'}: sha256 "
        f"{__import__('hashlib').sha256(bytes(data)).hexdigest()[:16]}... is not "
        f"all-MiniLM-L6-v2's (53aa51172d142c89...); refusing to load it"
    )


def test_without_the_extra_dense_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(embeddings.importlib.util, "find_spec", lambda name: None)
    (tmp_path / "n.jsonl").write_text('{"id": "a", "text": "alpha"}\n{"id": "b", "text": "b"}\n')
    monkeypatch.setenv("AGENT_HOME", str(tmp_path / "home"))
    code, _, err = run_cli(
        capsys, "ask", "alpha?", "--corpus", f"n={tmp_path / 'n.jsonl'}", "--retriever", "dense"
    )
    assert code == 1
    assert err.strip() == f"error: {embeddings.INSTALL_HINT}"


def test_ask_with_a_saved_hybrid_index_end_to_end(
    encoder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGENT_HOME", str(tmp_path / "home"))
    docs = tmp_path / "docs"
    docs.mkdir()
    for doc_id, text in PASSAGES:
        (docs / f"{doc_id}.txt").write_text(text)
    code, out, err = run_cli(capsys, "index", "gear", str(docs), "--retriever", "hybrid")
    assert code == 0, err
    assert out.startswith("indexed gear (hybrid): 8 files (8 read, 0 unchanged), 8 passages")
    question = "How much does the Falcon bicycle weigh?"
    code, out, err = run_cli(capsys, "ask", question, "--corpus", "gear", "--retriever", "hybrid")
    assert code == 0, err
    assert "search_gear(" in out
    assert "[p1.txt] p1.txt. The Falcon bicycle has a carbon frame" in out
    assert "ANSWER: 7 kilograms" in out, out  # the short answer to "how much"
    thread = out.strip().splitlines()[-1].split()[-1]
    # the artifact keeps both component scores; the observation shows the fused one
    from graph.app.persistence import open_checkpointer

    with open_checkpointer() as saver:
        messages = Session(saver).messages(thread)
    search = next(m for m in messages if isinstance(m, ToolMessage) and m.name == "search_gear")
    hit = search.artifact[0]
    assert hit["retriever"] == "hybrid" and {"bm25", "dense"} <= set(hit)
    built = build_index(tmp_path / "home" / "indexes", "gear", docs, "hybrid")
    assert (built.read, built.unchanged, built.embedded) == (0, 8, 0)


def test_eval_runs_with_the_chosen_retriever(encoder) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from evals.datasets import load_dataset
    from evals.runner import run_dataset

    saver = InMemorySaver()
    records = run_dataset(
        load_dataset("notes"), limit=2, concurrency=1, checkpointer=saver, retriever="dense"
    )
    assert all(r["stopped"] == "answer" for r in records)
    session = Session(saver)
    tool_messages = [
        m
        for r in records
        for m in session.messages(r["thread_id"])
        if isinstance(m, ToolMessage) and m.name.startswith("search_")
    ]
    assert tool_messages
    assert all(h["retriever"] == "dense" for m in tool_messages for h in m.artifact)
