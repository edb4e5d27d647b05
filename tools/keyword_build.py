"""Which BM25 index a corpus gets: pure Python when it is small, numpy's when it is large.

Both give the same scores (`tools.keyword_index`). A run over small corpora (the built-ins, a
few documents) so imports no numpy: 0.1 s of start-up, and more CPU (its BLAS threads start).
"""

from __future__ import annotations

from collections.abc import Mapping

from tools.keyword_index import KeywordIndex

SMALL_INDEX_CHARS = 200_000
"""Corpora of at most this many characters get the pure-Python `SmallBM25`.

At this size (about 300 Wikipedia paragraphs) Python builds the index in about 1.5x numpy's
time (25 ms against 18 ms) and searches it faster (150 us against 350 us: numpy's per-call
overhead dominates), while importing numpy costs 0.1 s. At 1,000,000 characters numpy builds
2.4x and searches 3.5x faster.
"""


def build_keyword_index(docs: Mapping[str, str]) -> KeywordIndex:
    """A BM25 index of ``docs``: `SmallBM25` up to `SMALL_INDEX_CHARS`, else numpy's `BM25`."""
    texts = docs.values() if isinstance(docs, Mapping) else ()
    if sum(len(t) if isinstance(t, str) else 0 for t in texts) <= SMALL_INDEX_CHARS:
        from tools.bm25_small import SmallBM25

        return SmallBM25(docs)
    from tools.bm25 import BM25

    return BM25(docs)
