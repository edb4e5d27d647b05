"""The BM25 build without scipy: its doc-major counts and term-major postings against references.

`tokenize_corpus` is checked against per-document `Counter`s of `tokenize` (in chunks of 1, 3
and all documents, so the seams are crossed), and `_term_major`'s numpy path against scipy's
own CSR -> CSC conversion.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp

from tools import bm25, bm25_tokens
from tools.bm25_tokens import tokenize, tokenize_corpus

WORDS = ["ferry", "Tuesday", "rye", "spelt", "x2", "Ünter", "bakery", "4042", "harbour"]


def made_up_texts(count: int, seed: int) -> list[str]:
    """Made-up texts with repeats, empty ones and non-ASCII words."""
    rng = random.Random(seed)
    return [
        " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 9)))
        + rng.choice(["", ".", ", again"])
        for _ in range(count)
    ]


@pytest.mark.parametrize("chunk", [1, 3, 20_000])
def test_tokenize_corpus_counts_each_documents_terms(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25_tokens, "_CHUNK_DOCS", chunk)
    texts = made_up_texts(40, seed=chunk)
    doc_len, indptr, terms, tf, vocab = tokenize_corpus(texts)
    for doc, text in enumerate(texts):
        expected = Counter(token.encode("utf-8") for token in tokenize(text))
        row = slice(indptr[doc], indptr[doc + 1])
        got = {vocab[t]: int(n) for t, n in zip(terms[row], tf[row], strict=True)}
        assert got == expected and doc_len[doc] == sum(expected.values())
        assert list(terms[row]) == sorted(terms[row])


@pytest.mark.parametrize("scipy_from", [0, 1 << 20])
def test_term_major_matches_scipys_transpose(
    scipy_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25, "SCIPY_FROM", scipy_from)
    rng = np.random.default_rng(7)
    n_docs, n_terms = 30, 12
    dense = rng.integers(0, 4, size=(n_docs, n_terms)) * (rng.random((n_docs, n_terms)) < 0.4)
    dense[5] = 0  # a document without terms
    doc_major = sp.csr_matrix(dense.astype(np.uint8))
    indptr, docs, tf = bm25._term_major(
        n_docs, n_terms, doc_major.indptr.astype(np.int64), doc_major.indices, doc_major.data
    )
    reference = doc_major.tocsc()
    assert indptr.tolist() == reference.indptr.tolist()
    assert docs.tolist() == reference.indices.tolist()
    assert tf.tolist() == reference.data.tolist() and tf.dtype == np.uint8
