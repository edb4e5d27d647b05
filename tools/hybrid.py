"""Hybrid retrieval: BM25 and dense rankings of one corpus fused into one.

Two fusions, both measured by ``benchmarks/retrieval_quality.py``:

- ``rrf``: reciprocal rank fusion (Cormack et al. 2009), ``sum 1 / (RRF_K + rank)`` over the
  top `DEPTH` of each ranking; it ignores score magnitudes.
- ``convex``: ``ALPHA * dense + (1 - ALPHA) * bm25`` over every document, each score first
  min-max normalized over the corpus (Bruch et al. 2023); it keeps how far ahead a document
  is, which rank fusion throws away.

`DEFAULT_FUSION` is the one that measured better (see the README's table). Each hit keeps
the fused score and both component scores.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tools.bm25 import BM25
from tools.dense import DenseIndex, Encoder, top_indices
from tools.expand import expand_query

FUSIONS = ("convex", "rrf")
DEFAULT_FUSION = "convex"
"""Convex combination: better than RRF on every dataset measured (README, "Your own documents")."""

RRF_K = 60
DEPTH = 100
ALPHA = 0.5
"""Weight of the dense score in the convex combination."""


class FusedHit(NamedTuple):
    """One hybrid result: the fused score and the two it came from."""

    id: str
    score: float
    bm25: float
    dense: float


def _minmax(scores: np.ndarray) -> np.ndarray:
    """Scores rescaled to [0, 1] over the corpus (all zero when they are all equal)."""
    low, high = float(scores.min()), float(scores.max())
    if high <= low:
        return np.zeros_like(scores, dtype=np.float32)
    return ((scores - low) / (high - low)).astype(np.float32)


class HybridSearch:
    """BM25 and dense search over the same documents, in the same order, fused."""

    def __init__(
        self, bm25: BM25, dense: DenseIndex, encoder: Encoder, fusion: str = DEFAULT_FUSION
    ) -> None:
        if fusion not in FUSIONS:
            raise ValueError(f"unknown fusion {fusion!r} (choose from {', '.join(FUSIONS)})")
        if len(dense) != bm25.n_docs or dense.doc_ids[:1] != list(bm25.doc_ids[:1]):
            raise ValueError("the BM25 and dense indexes hold different documents")
        self.bm25, self.dense, self.encoder, self.fusion = bm25, dense, encoder, fusion

    def component_scores(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        """BM25 (query expanded as the BM25 tool does) and cosine scores of every document."""
        lexical = np.asarray(
            self.bm25.get_scores(expand_query(self.bm25, query) or query), dtype=np.float32
        )
        semantic = self.dense.scores(self.encoder.encode([query])[0])
        return lexical, semantic

    def search(self, query: str, k: int = 3) -> list[FusedHit]:
        """The k best documents by the fused score (ties by document id)."""
        lexical, semantic = self.component_scores(query)
        fused = fuse(lexical, semantic, self.fusion, self.dense.rank())
        return [
            FusedHit(self.dense.doc_ids[i], float(fused[i]), float(lexical[i]), float(semantic[i]))
            for i in top_indices(fused, k, self.dense.rank())
        ]


def fuse(lexical: np.ndarray, semantic: np.ndarray, fusion: str, rank: np.ndarray) -> np.ndarray:
    """The fused score of every document (0 for documents outside RRF's depth)."""
    if fusion == "convex":
        return ALPHA * _minmax(semantic) + (1 - ALPHA) * _minmax(lexical)
    fused = np.zeros(len(lexical), dtype=np.float64)
    for scores, keep in ((lexical, lexical > 0), (semantic, np.ones(len(semantic), bool))):
        order = top_indices(np.where(keep, scores, -np.inf), DEPTH, rank)
        order = [i for i in order if keep[i]]
        fused[order] += 1.0 / (RRF_K + np.arange(1, len(order) + 1))
    return fused
