"""The pure-Python `SmallBM25` gives numpy `BM25`'s results exactly (the same floats), on made-up
corpora: random tiny vocabularies (ties, negative idf, repeated query terms, empty documents),
tokenizer torture text and a Zipfian corpus; and `build_keyword_index` picks it for small ones.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

import tools.keyword_build as keyword_build
from tools.bm25 import BM25
from tools.bm25_small import SmallBM25
from tools.bm25_tokens import tokenize
from tools.keyword_build import build_keyword_index
from tools.keyword_index import KeywordIndex

NOTES = {
    "n1": "The Marlow ferry leaves the north pier at 7:40 and carries twelve bicycles.",
    "n2": "Bicycles ride free on the Marlow ferry before noon; after noon they cost 2 tokens.",
    "n3": "The north pier café sells rye bread baked by Odile, who also runs the bakery.",
    "n4": "Odile's bakery closes on Tuesdays. Rye, spelt and barley loaves are baked daily.",
    "n5": "",
    "n6": "Ünter-Hafen is the old harbour; its café serves spelt pancakes.",
}
TORTURE = [
    "Plain ASCII, with PUNCTUATION!!! and under_scores",
    "nul\x00inside\x00text",
    "Ünïcödé Straße İstanbul ǅemal",
    "mixed ascii and 日本語テキスト",
    "digits 123 4.56 ७८९ ²",
    "UPPER lower MiXeD upper",
]


def random_corpus(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    """Made-up documents over a tiny vocabulary (so ties and negative idf are common)."""
    vocab = [f"w{i}" for i in range(rng.randint(1, 6))]
    docs = {}
    for i in range(rng.randint(1, 40)):
        docs[f"d{rng.randint(0, 99)}-{i}"] = " ".join(rng.choices(vocab, k=rng.randint(0, 8)))
    ids = list(docs)
    rng.shuffle(ids)  # insertion order differs from str order
    queries = [
        " ".join(rng.choices([*vocab, "unknown", "W1"], k=rng.randint(0, 6))) for _ in range(6)
    ]
    return {d: docs[d] for d in ids}, queries


def assert_same(docs: dict[str, str], queries: list[str], ks: tuple[int, ...]) -> None:
    """Every read and search of SmallBM25 equals BM25's, exactly."""
    small, big = SmallBM25(docs), BM25(docs)
    assert list(small.doc_ids) == list(big.doc_ids) and small.n_docs == big.n_docs
    assert list(small.vocabulary) == list(big.vocabulary) and small.n_terms == big.n_terms
    assert (small.avgdl, small.average_idf) == (big.avgdl, big.average_idf)
    for term in [*big.vocabulary, "unknown", ""]:
        assert small.idf(term) == big.idf(term) and small.doc_freq(term) == big.doc_freq(term)
    for query in queries:
        ours = small.get_scores(query)
        assert ours.dtype == np.float64 and np.array_equal(ours, big.get_scores(query)), query
        for k in ks:
            assert small.search(query, k=k) == big.search(query, k=k), (query, k)


@pytest.mark.parametrize("seed", range(30))
def test_random_tiny_vocab_corpora_score_exactly_like_bm25(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        docs, queries = random_corpus(rng)
        assert_same(docs, queries, ks=(1, 2, 3, 100))


def test_made_up_notes_and_torture_text_score_exactly_like_bm25() -> None:
    docs = NOTES | {f"t{i}": text for i, text in enumerate(TORTURE)}
    queries = [" ".join(tokenize(t)) for t in docs.values()]
    queries += ["ferry bicycles", "rye rye bread", "the the the", "café harbour", "nothing"]
    assert_same(docs, queries, ks=(1, 3, 20))


def test_zipfian_corpus_scores_exactly_like_bm25() -> None:
    rng = random.Random(7)
    words = [f"{chr(97 + i % 26)}{i}" for i in range(400)]
    weights = [1 / (i + 1) for i in range(400)]
    docs = {
        f"z{i}": " ".join(rng.choices(words, weights, k=rng.randint(1, 50))) for i in range(300)
    }
    queries = [" ".join(rng.choices(words, weights, k=rng.randint(1, 6))) for _ in range(40)]
    assert_same(docs, queries, ks=(1, 10))


def test_scores_match_rank_bm25() -> None:
    index = SmallBM25(NOTES)
    reference = BM25Okapi([tokenize(t) for t in NOTES.values()])
    for query in ("Marlow ferry bicycles", "rye spelt bakery", "café"):
        want = reference.get_scores(tokenize(query))
        np.testing.assert_allclose(index.get_scores(query), want, rtol=0, atol=1e-9)


def test_ties_are_ordered_by_doc_id_and_zero_scores_are_left_out() -> None:
    docs = {"d2": "same words", "d10": "same words", "d1": "same words", "x": "other"}
    index = SmallBM25(docs | {"y": "more", "z": "stuff", "w": "here"})
    assert [d for d, _ in index.search("same", k=3)] == ["d1", "d10", "d2"]
    assert index.search("absent", k=3) == []


@pytest.mark.parametrize(
    ("docs", "call", "message"),
    [
        ({}, None, "empty corpus"),
        ({"d1": 3}, None, "text of doc 'd1' must be str"),
        ({1: "text"}, None, "doc ids must be str"),
        ({"d1": "text"}, lambda i: i.search("text", k=0), "k must be >= 1"),
        ({"d1": "text"}, lambda i: i.search("text", k=True), "k must be an int"),
        ({"d1": "text"}, lambda i: i.search(None), "query must be a str"),
        ({"d1": "text"}, lambda i: i.idf(3), "term must be a str"),
    ],
)
def test_bad_input_is_refused_as_bm25_refuses_it(docs: object, call: object, message: str) -> None:
    for cls in (SmallBM25, BM25):
        with pytest.raises(ValueError, match=message):
            index = cls(docs)  # type: ignore[arg-type]
            call(index)  # type: ignore[operator]


def test_search_accepts_a_numpy_integer_k() -> None:
    assert SmallBM25(NOTES).search("ferry", k=np.int64(1)) == BM25(NOTES).search("ferry", k=1)


def test_small_corpora_get_the_pure_python_index(monkeypatch: pytest.MonkeyPatch) -> None:
    small = build_keyword_index(NOTES)
    assert isinstance(small, SmallBM25) and isinstance(small, KeywordIndex)
    monkeypatch.setattr(keyword_build, "SMALL_INDEX_CHARS", 10)
    large = build_keyword_index(NOTES)
    assert isinstance(large, BM25) and isinstance(large, KeywordIndex)
    assert large.search("ferry bicycles", k=5) == small.search("ferry bicycles", k=5)
