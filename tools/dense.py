"""Exact dense retrieval: unit-length float32 vectors, top-k by one matrix product.

Scores are cosine similarities (dot products of normalized vectors). Ties are broken by
document id, so results never depend on ``argpartition``'s order. Saved as ``vectors.npy``
plus ``ids.json`` and opened memory-mapped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from tools.search_settings import DEFAULT_K

_FORMAT = "agentic-rag-dense"
_VERSION = 1


class Encoder(Protocol):
    """What the index needs from an embedder: unit-length float32 rows for texts."""

    def encode(self, texts: list[str], batch_size: int = ...) -> np.ndarray:
        """One unit-length vector per text."""
        ...


def normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.ascontiguousarray(vectors / np.where(norms == 0, 1, norms), dtype=np.float32)


def top_indices(scores: np.ndarray, k: int, rank: np.ndarray) -> list[int]:
    """Positions of the k best scores, ties broken by `rank` (sorted document id order)."""
    n = len(scores)
    if n == 0 or k < 1:
        return []
    if k < n:
        kth = np.partition(scores, n - k)[n - k]
        candidates = np.flatnonzero(scores >= kth)
    else:
        candidates = np.arange(n)
    order = np.lexsort((rank[candidates], -scores[candidates]))[:k]
    return [int(i) for i in candidates[order]]


class DenseIndex:
    """Document vectors in document order, searched exactly."""

    def __init__(self, doc_ids: Sequence[str], vectors: np.ndarray, model: str = "") -> None:
        if len(doc_ids) != len(vectors):
            raise ValueError(f"{len(doc_ids)} ids but {len(vectors)} vectors")
        self.doc_ids = list(doc_ids)
        self.vectors = vectors
        self.model = model
        self._rank: np.ndarray | None = None

    @classmethod
    def build(cls, docs: Mapping[str, str], encoder: Encoder, model: str = "") -> DenseIndex:
        """Embed every document's text (in the mapping's order)."""
        ids = list(docs)
        return cls(ids, normalize(encoder.encode([docs[i] for i in ids])), model)

    def __len__(self) -> int:
        """Number of documents."""
        return len(self.doc_ids)

    def scores(self, query_vector: np.ndarray) -> np.ndarray:
        """Cosine similarity of every document to the (normalized) query vector."""
        query = normalize(np.asarray(query_vector, dtype=np.float32).reshape(1, -1))[0]
        return np.asarray(self.vectors @ query, dtype=np.float32)

    def top(self, scores: np.ndarray, k: int) -> list[tuple[str, float]]:
        """The k best (id, score) pairs, by (-score, doc id)."""
        return [(self.doc_ids[i], float(scores[i])) for i in top_indices(scores, k, self.rank())]

    def search_vector(
        self, query_vector: np.ndarray, k: int = DEFAULT_K
    ) -> list[tuple[str, float]]:
        """The k documents nearest to a query vector."""
        return self.top(self.scores(query_vector), k)

    def search(self, query: str, encoder: Encoder, k: int = DEFAULT_K) -> list[tuple[str, float]]:
        """Embed the query and return the k nearest documents."""
        return self.search_vector(encoder.encode([query])[0], k)

    def rank(self) -> np.ndarray:
        """Each document's position in sorted id order (the tie-break)."""
        if self._rank is None:
            order = sorted(range(len(self.doc_ids)), key=self.doc_ids.__getitem__)
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
            self._rank = rank
        return self._rank

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``vectors.npy`` and ``ids.json`` into directory ``path``."""
        out = Path(path)
        out.mkdir(parents=True, exist_ok=True)
        np.save(out / "vectors.npy", np.ascontiguousarray(self.vectors, dtype=np.float32))
        meta: dict[str, Any] = {"format": _FORMAT, "version": _VERSION, "model": self.model}
        meta["ids"] = self.doc_ids
        (out / "ids.json").write_text(json.dumps(meta), encoding="utf-8")

    @classmethod
    def load(cls, path: str | os.PathLike[str], mmap: bool = True) -> DenseIndex:
        """Open an index written by `save`, its vectors memory-mapped unless ``mmap=False``."""
        src = Path(path)
        try:
            meta = json.loads((src / "ids.json").read_text(encoding="utf-8"))
            mode: Literal["r"] | None = "r" if mmap else None
            vectors = np.load(src / "vectors.npy", mmap_mode=mode, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise ValueError(f"{src}: cannot read the dense index: {e}") from None
        if meta.get("format") != _FORMAT or meta.get("version") != _VERSION:
            raise ValueError(f"{src}: unsupported dense index format {meta.get('format')!r}")
        if vectors.ndim != 2 or vectors.dtype != np.float32 or len(vectors) != len(meta["ids"]):
            raise ValueError(f"{src}: vectors do not match ids.json (truncated index?)")
        return cls(meta["ids"], vectors, str(meta.get("model", "")))
