"""Okapi BM25 in pure Python for small corpora, score-for-score equal to `tools.bm25.BM25`.

Each term keeps its postings as ``(document, weight)`` pairs, the weight being the term's whole
BM25 contribution to that document, computed with the same float operations in the same order
as `BM25` (and so as ``rank_bm25.BM25Okapi``). A query adds its terms' weights per document in
query order, from 0.0, as `BM25` does: the scores are the same floats, not just close ones.
Equal scores are ordered by document id in ``str`` order. There is no saved form: a corpus
worth saving is built with `BM25` (``agent index``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from tools.bm25_tokens import tokenize
from tools.keyword_index import (
    KeywordIndex,
    check_docs,
    check_k,
    check_params,
    check_query,
    check_term,
    okapi_idf,
    scoring_idf,
)
from tools.search_settings import DEFAULT_K

if TYPE_CHECKING:
    import numpy as np


class SmallBM25(KeywordIndex):
    """Okapi BM25 (rank_bm25.BM25Okapi's formula, epsilon 0.25) over ``{doc_id: text}``."""

    def __init__(self, docs: Mapping[str, str], k1: float = 1.5, b: float = 0.75) -> None:
        """Index ``docs`` (``{doc_id: text}``, ids kept in insertion order)."""
        doc_ids, texts = check_docs(docs)
        self.k1, self.b = check_params(k1, b)
        self._doc_ids = tuple(doc_ids)
        counts = [Counter(tokenize(text)) for text in texts]
        doc_len = [sum(c.values()) for c in counts]
        tfs: dict[str, list[tuple[int, int]]] = {}  # terms in order of first appearance
        for doc, terms in enumerate(counts):
            for term, tf in terms.items():
                tfs.setdefault(term, []).append((doc, tf))
        total = sum(doc_len)
        self.avgdl = total / len(texts)
        self._idf = self._okapi_idf(tfs, len(texts))
        norm = [self.k1 * (1 - self.b + self.b * n / self.avgdl) if total else 0.0 for n in doc_len]
        boost = self.k1 + 1
        self._postings = {
            term: [(d, self._idf[term] * (tf * boost / (tf + norm[d]))) for d, tf in docs_tf]
            for term, docs_tf in tfs.items()
        }
        self._vocabulary: list[str] | None = None

    def _okapi_idf(self, tfs: dict[str, list[tuple[int, int]]], n_docs: int) -> dict[str, float]:
        """Each term's `scoring_idf`; sets ``average_idf`` (raw idfs added in first-use order)."""
        total = 0.0
        for postings in tfs.values():  # one by one, as rank_bm25 and BM25's cumsum add them
            total += okapi_idf(len(postings), n_docs)
        self.average_idf = total / len(tfs) if tfs else 0.0
        return {t: scoring_idf(len(p), n_docs, self.average_idf) for t, p in tfs.items()}

    # -- read-only views -------------------------------------------------------------------

    @property
    def doc_ids(self) -> Sequence[str]:
        """Document ids in insertion order (index ``i`` is row ``i`` of ``get_scores``)."""
        return self._doc_ids

    @property
    def n_docs(self) -> int:
        """Number of indexed documents."""
        return len(self._doc_ids)

    @property
    def vocabulary(self) -> Sequence[str]:
        """Every indexed term, in sorted ``str`` order (sorted on first use)."""
        if self._vocabulary is None:
            self._vocabulary = sorted(self._idf)
        return self._vocabulary

    @property
    def n_terms(self) -> int:
        """Number of distinct terms in the index."""
        return len(self._idf)

    def idf(self, term: str) -> float:
        """Return the idf used in scoring (`scoring_idf`); 0.0 if unknown."""
        return self._idf.get(check_term(term), 0.0)

    def doc_freq(self, term: str) -> int:
        """Return the number of documents containing ``term`` (an already tokenized term)."""
        return len(self._postings.get(check_term(term), ()))

    # -- scoring ----------------------------------------------------------------------------

    def _query_terms(self, query: str) -> list[str]:
        """The query's known tokens, in query order, repeats kept."""
        return [t for t in tokenize(check_query(query)) if t in self._idf]

    def get_scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query`` (float64, in ``doc_ids`` order)."""
        import numpy as np

        scores = [0.0] * self.n_docs
        for term in self._query_terms(query):
            for doc, weight in self._postings[term]:
                scores[doc] += weight
        return np.array(scores, dtype=np.float64)

    def search(self, query: str, k: int = DEFAULT_K) -> list[tuple[str, float]]:
        """Return the ``k`` best ``(doc_id, score)`` pairs with score > 0, best first.

        Equal scores are ordered by doc id in ascending ``str`` order.
        """
        k = check_k(k)
        scores: dict[int, float] = {}
        for term in self._query_terms(query):
            if self._idf[term] != 0:  # adds exactly 0.0 to every score: left out, as BM25 does
                for doc, weight in self._postings[term]:
                    scores[doc] = scores.get(doc, 0.0) + weight
        ids = self._doc_ids
        hits = [(ids[doc], score) for doc, score in scores.items() if score > 0]
        hits.sort(key=lambda hit: (-hit[1], hit[0]))
        return hits[:k]
