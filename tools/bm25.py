"""Okapi BM25 over an inverted index, score-for-score equal to ``rank_bm25.BM25Okapi``.

The index is a CSR inverted index. Terms are numbered in sorted string order; term ``t`` owns
``postings_doc[indptr[t]:indptr[t + 1]]`` (document indices, ascending) and the same slice of
``postings_weight`` (the term's whole BM25 contribution to that document, float64, computed with
the same operations in the same order as rank_bm25, so scores match it bit for bit).

A query only touches its terms' postings. When they are few (under an eighth of the number of
documents), their union is scored exactly. Larger queries prune with MaxScore: a lower bound on
the k-th best score (exact scores of a few promising documents) rules out every document that
only holds terms whose maximum weights add up to less; the remaining candidates are scored
exactly, in query order, by looking up each term's weight. When pruning cannot pay off, the
postings are summed into a dense score array with ``np.add.at``. The few most frequent terms
(in a third of the documents or more) also keep a dense row of weights, added as one vector.
Ties are broken by ``doc_rank``, each document id's rank in sorted ``str`` order.

Saved indexes are a directory: ``params.json`` plus one ``.npy`` file per array, loaded with
``numpy.load(mmap_mode="r")``. Small corpora are indexed by `tools.bm25_small.SmallBM25`
instead (the same scores without numpy: `tools.keyword_build` chooses).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NamedTuple

import numpy as np

from tools.bm25_tokens import tokenize, tokenize_corpus
from tools.keyword_index import (
    EPSILON,
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
from tools.str_array import StrArray

_FORMAT = "agentic-rag-bm25"
_VERSION = 2
_SPARSE_RATIO, _SPARSE_MIN = 8, 4096  # at most n_docs / 8 (or 4096) postings: score their union
_SAMPLE_DOCS = 4096  # at most this many documents per term to estimate the k-th score
_SEED_DOCS = 64  # documents per term scored exactly to get MaxScore's first lower bound
_SAMPLE_MIN = 1024  # documents whose dense scores give the k-th score lower bound
_BOUND_SLACK = 1 + 1e-9  # covers float rounding between summed maxima and summed weights
# Rough costs (ns per element) used to choose between MaxScore and a dense score array.
_COST_UNIQUE, _COST_LOOKUP, _COST_ADD_AT, _COST_DENSE_DOC = 16.0, 50.0, 2.5, 1.5
_COST_ROW_ADD, _COST_ROW_LOOKUP = 0.6, 10.0  # per document of a dense row / per lookup in it
_DENSE_ROW_RATIO, _DENSE_ROWS = 3, 16  # terms in >= 1/3 of the docs: up to 16 dense rows
_MAXSCORE_MIN = 300_000.0  # MaxScore's own overhead: not worth it below this dense cost (ns)
_ARRAYS = (
    "indptr",
    "postings_doc",
    "postings_weight",
    "idf",
    "doc_rank",
    "term_max",
    "dense_terms",
    "dense_rows",
    "vocab_bytes",
    "vocab_offsets",
    "vocab_prefix",
    "doc_id_bytes",
    "doc_id_offsets",
)


SCIPY_FROM = 1 << 20
"""From this many (document, term) entries `_term_major` uses scipy (faster there)."""


def _term_major(
    n_docs: int, n_terms: int, doc_indptr: np.ndarray, doc_terms: np.ndarray, doc_tf: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The doc-major matrix turned term-major: ``(indptr, postings_doc, tf)``.

    Each term's postings list its documents in increasing order. A small matrix (the built-in
    corpora, a folder of documents) is turned by a stable sort in numpy, so a command that
    indexes it does not import scipy (0.1 to 0.3 s); from `SCIPY_FROM` entries scipy's CSR to
    CSC conversion does it, several times faster than the sort.
    """
    if len(doc_terms) >= SCIPY_FROM:
        import scipy.sparse as sp

        shape = (n_docs, max(n_terms, 1))
        term_major = sp.csr_matrix((doc_tf, doc_terms, doc_indptr), shape=shape).tocsc()
        indptr = term_major.indptr.astype(np.int64)[: n_terms + 1]
        return indptr, term_major.indices.astype(np.int32, copy=False), term_major.data
    indptr = np.zeros(n_terms + 1, dtype=np.int64)
    np.cumsum(np.bincount(doc_terms, minlength=n_terms), out=indptr[1:])
    order = np.argsort(doc_terms, kind="stable")  # doc-major: documents stay in order
    docs = np.repeat(np.arange(n_docs, dtype=np.int32), np.diff(doc_indptr))
    return indptr, docs[order], doc_tf[order]


def _per_term(idf_of: Callable[[int], float], doc_freq: np.ndarray) -> np.ndarray:
    """``idf_of(n)`` for each term's document frequency ``n``, computed once per distinct n."""
    values, inverse = np.unique(doc_freq, return_inverse=True)
    return np.array([idf_of(int(n)) for n in values], dtype=np.float64)[inverse]


def _doc_rank(doc_ids: Sequence[str]) -> np.ndarray:
    """Rank (int32) of each doc id in Python's sorted ``str`` order."""
    order = sorted(range(len(doc_ids)), key=doc_ids.__getitem__)
    rank = np.empty(len(doc_ids), dtype=np.int32)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(len(doc_ids), dtype=np.int32)
    return rank


def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """Return the sorted distinct values (sort + mask: numpy 2's hashing np.unique is slower)."""
    values = np.sort(values)
    keep = np.empty(len(values), dtype=bool)
    keep[:1] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values[keep]


def _union(docs: np.ndarray, n_docs: int) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(union, inverse)``: sorted distinct ``docs`` and each one's index in the union.

    Many documents are marked in a boolean array over the corpus (linear); few are sorted.
    """
    if len(docs) * 16 < n_docs:
        return np.unique(docs, return_inverse=True)
    mark = np.zeros(n_docs, dtype=bool)
    mark[docs] = True
    union = np.flatnonzero(mark)
    slot = np.empty(n_docs, dtype=np.int32)
    slot[union] = np.arange(len(union), dtype=np.int32)
    return union, slot[docs]


class _Plan(NamedTuple):
    """A MaxScore plan: ``terms`` = (essential, looked up), ``cost`` in estimated ns."""

    terms: tuple[list[int], list[int]]
    cost: float


class BM25(KeywordIndex):
    """Okapi BM25 (rank_bm25.BM25Okapi's formula, epsilon 0.25) over ``{doc_id: text}``."""

    def __init__(self, docs: Mapping[str, str], k1: float = 1.5, b: float = 0.75) -> None:
        """Index ``docs`` (``{doc_id: text}``, ids kept in insertion order)."""
        doc_ids, texts = check_docs(docs)
        self.k1, self.b = check_params(k1, b)
        self._build(texts)
        self._doc_rank = _doc_rank(doc_ids)
        self._doc_ids: Sequence[str] = tuple(doc_ids)
        self._doc_id_store: StrArray | None = None

    def _build(self, texts: list[str]) -> None:
        """Tokenize ``texts`` and fill the inverted index arrays."""
        n_docs = len(texts)
        doc_len, doc_indptr, doc_terms, doc_tf, terms = tokenize_corpus(texts)
        n_terms = len(terms)
        total = int(doc_len.sum())
        self.avgdl = total / n_docs

        # Renumber terms in sorted order (UTF-8 byte order is code point order, like str's).
        order = sorted(range(n_terms), key=terms.__getitem__)
        self._vocab = StrArray.from_bytes([terms[i] for i in order])
        self._vocab_prefix = self._vocab.prefixes()
        del terms
        remap = np.empty(n_terms, dtype=np.int32)
        remap[np.asarray(order, dtype=np.int64)] = np.arange(n_terms, dtype=np.int32)
        del order
        step = 1 << 20
        for start in range(0, len(doc_terms), step):  # in place: no second copy
            doc_terms[start : start + step] = remap[doc_terms[start : start + step]]
        indptr, postings_doc, tf = _term_major(n_docs, n_terms, doc_indptr, doc_terms, doc_tf)
        del doc_terms, doc_tf, doc_indptr

        doc_freq = np.diff(indptr)
        raw_idf = _per_term(lambda n: okapi_idf(n, n_docs), doc_freq)
        # rank_bm25 averages over every term (negative ones included), summing in order of
        # first appearance; cumsum reproduces that sequential sum exactly.
        self.average_idf = float(np.cumsum(raw_idf[remap])[-1] / n_terms) if n_terms else 0.0
        del remap, raw_idf
        idf = _per_term(lambda n: scoring_idf(n, n_docs, self.average_idf), doc_freq)

        # Same operations, in the same order, as BM25Okapi.get_scores.
        norm = self.k1 * (1 - self.b + self.b * doc_len / self.avgdl) if total else doc_len * 0.0
        weight = np.empty(len(postings_doc), dtype=np.float64)
        t0 = 0
        while t0 < n_terms:
            t1 = max(int(np.searchsorted(indptr, indptr[t0] + step, side="right")) - 1, t0 + 1)
            t1 = min(t1, n_terms)
            start, end = int(indptr[t0]), int(indptr[t1])
            f = tf[start:end]
            term_idf = np.repeat(idf[t0:t1], doc_freq[t0:t1])
            weight[start:end] = term_idf * (f * (self.k1 + 1) / (f + norm[postings_doc[start:end]]))
            t0 = t1
        del tf, norm

        term_max = np.zeros(n_terms, dtype=np.float64)
        if n_terms:
            term_max = np.maximum.reduceat(weight, indptr[:-1])

        self._indptr = indptr
        self._postings_doc = postings_doc
        self._postings_weight = weight
        self._idf = idf
        self._term_max = term_max
        # The most frequent terms also get a dense row of weights: adding a row is cheaper than
        # scattering that many postings, and looking a document up in it is O(1).
        frequent = np.flatnonzero(doc_freq * _DENSE_ROW_RATIO >= n_docs)
        frequent = np.sort(frequent[np.argsort(-doc_freq[frequent], kind="stable")][:_DENSE_ROWS])
        self._dense_terms = frequent.astype(np.int32)
        self._dense_rows = np.zeros((len(frequent), n_docs), dtype=np.float64)
        for row, tid in enumerate(frequent.tolist()):
            start, end = int(indptr[tid]), int(indptr[tid + 1])
            self._dense_rows[row, postings_doc[start:end]] = weight[start:end]
        self._dense_row_of = {int(t): row for row, t in enumerate(frequent.tolist())}

    # -- read-only views -------------------------------------------------------------------

    @property
    def doc_ids(self) -> Sequence[str]:
        """Document ids in insertion order (index ``i`` is row ``i`` of ``get_scores``)."""
        return self._doc_ids

    @property
    def n_docs(self) -> int:
        """Number of indexed documents."""
        return len(self._doc_rank)

    @property
    def vocabulary(self) -> Sequence[str]:
        """Every indexed term, in sorted ``str`` order (decoded lazily from the index)."""
        return self._vocab

    @property
    def n_terms(self) -> int:
        """Number of distinct terms in the index."""
        return len(self._idf)

    def _term_id(self, term: str) -> int:
        """Return the term's id, or -1 if it is not in the index."""
        key = check_term(term).encode("utf-8", "surrogatepass")
        return self._vocab.find(key, self._vocab_prefix) if key and b"\0" not in key else -1

    def idf(self, term: str) -> float:
        """Return the idf used in scoring (`scoring_idf`); 0.0 if unknown."""
        tid = self._term_id(term)
        return float(self._idf[tid]) if tid >= 0 else 0.0

    def doc_freq(self, term: str) -> int:
        """Return the number of documents containing ``term`` (an already tokenized term)."""
        tid = self._term_id(term)
        return int(self._indptr[tid + 1] - self._indptr[tid]) if tid >= 0 else 0

    # -- scoring ----------------------------------------------------------------------------

    def _query_terms(self, query: str) -> list[int]:
        """Term ids of the query's known tokens, in query order, repeats kept."""
        ids = (self._term_id(t) for t in tokenize(check_query(query)))
        return [t for t in ids if t >= 0]

    def _postings(self, tid: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the (docs, weights) postings slices of term ``tid``."""
        start, end = int(self._indptr[tid]), int(self._indptr[tid + 1])
        return self._postings_doc[start:end], self._postings_weight[start:end]

    def get_scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query`` (float64, in ``doc_ids`` order)."""
        return self._dense_scores(self._query_terms(query))

    def _dense_scores(self, seq: list[int]) -> np.ndarray:
        """Scores of all documents; each one gets its terms' weights added in query order."""
        scores = np.zeros(self.n_docs, dtype=np.float64)
        for tid in seq:
            row = self._dense_row_of.get(tid)
            if row is None:
                np.add.at(scores, *self._postings(tid))
            else:  # x + 0.0 == x: documents without the term keep their score
                scores += self._dense_rows[row]
        return scores

    def search(self, query: str, k: int = DEFAULT_K) -> list[tuple[str, float]]:
        """Return the ``k`` best ``(doc_id, score)`` pairs with score > 0, best first.

        Equal scores are ordered by doc id in ascending ``str`` order.
        """
        k = check_k(k)
        # A zero idf adds exactly 0.0 to every score: such terms can be left out.
        seq = [t for t in self._query_terms(query) if self._idf[t] != 0]
        if not seq:
            return []
        df = {t: int(self._indptr[t + 1] - self._indptr[t]) for t in seq}
        total = sum(df[t] for t in seq)
        if total * _SPARSE_RATIO <= self.n_docs or total <= _SPARSE_MIN:
            docs, found = self._top(*self._score_postings(seq), k)
        else:
            dense_cost = _COST_DENSE_DOC * self.n_docs + sum(
                _COST_ROW_ADD * self.n_docs if t in self._dense_row_of else _COST_ADD_AT * df[t]
                for t in seq
            )
            plan = None
            # MaxScore scores at least the documents of the term with the largest bound.
            lead = max(df, key=lambda t: (self._term_max[t] * seq.count(t), -df[t]))
            worth_it = _MAXSCORE_MIN < dense_cost > _COST_UNIQUE * df[lead]
            if worth_it and min(self._idf[t] for t in df) > 0:
                plan = self._maxscore_plan(seq, df, k)
            if plan is not None and plan.cost < dense_cost:
                docs, found = self._top(*self._score_candidates(seq, *plan.terms), k)
            else:
                docs, found = self._search_dense(seq, df, k)
        ids = self.doc_ids
        return [(ids[i], s) for i, s in zip(docs.tolist(), found.tolist(), strict=True)]

    def _score_postings(self, seq: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Exact scores of every document in the postings of ``seq`` (term ids, query order)."""
        parts = [self._postings(t) for t in seq]
        docs, inverse = _union(np.concatenate([d for d, _ in parts]), self.n_docs)
        # bincount adds in array order, i.e. per document in query order, like rank_bm25.
        scores = np.bincount(inverse, weights=np.concatenate([w for _, w in parts]))
        return docs, scores

    def _search_dense(
        self, seq: list[int], df: dict[int, int], k: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Top ``k`` from a dense score array, selected above a lower bound of the k-th score."""
        scores = self._dense_scores(seq)
        # The k-th best score among some documents (those of the rarest terms, where the best
        # ones usually are) is a lower bound of the k-th best overall.
        parts, n_sample = [], 0
        for tid in sorted(df, key=df.__getitem__):
            docs, _ = self._postings(tid)
            parts.append(docs[:: max(1, len(docs) // _SAMPLE_DOCS)])
            n_sample += len(parts[-1])
            if n_sample >= max(4 * k, _SAMPLE_MIN):
                break
        sample = scores[_sorted_unique(np.concatenate(parts)) if len(parts) > 1 else parts[0]]
        theta = 0.0
        if len(sample) >= k:
            theta = float(np.partition(sample, len(sample) - k)[len(sample) - k])
        cand = np.flatnonzero(scores >= theta) if theta > 0 else np.flatnonzero(scores > 0)
        return self._top(cand, scores[cand], k)

    def _maxscore_plan(self, seq: list[int], df: dict[int, int], k: int) -> _Plan | None:
        """Split the query's terms into essential and non-essential ones; estimate the cost.

        Only valid when every weight is positive. A document holding none of the essential
        terms scores at most the sum of the non-essential terms' maxima, which is below a
        lower bound of the k-th best score: it cannot make the top ``k``.
        """
        times = Counter(seq)
        bound = {t: times[t] * float(self._term_max[t]) * _BOUND_SLACK for t in times}
        # Seed: the best-weighted documents of the terms with the largest bounds.
        seed_parts = []
        for tid in sorted(times, key=lambda t: (-bound[t], df[t])):
            docs, weights = self._postings(tid)
            if len(docs) > _SEED_DOCS:
                docs = docs[np.argpartition(weights, len(docs) - _SEED_DOCS)[-_SEED_DOCS:]]
            seed_parts.append(docs)
            if sum(map(len, seed_parts)) >= max(k, _SEED_DOCS // 4):
                break
        seed = _sorted_unique(np.concatenate(seed_parts))
        if len(seed) < k:
            return None
        seed_docs, seed_scores = self._score_candidates(seq, [], list(times), seed)
        positive = seed_scores[seed_scores > 0]
        if len(positive) < k:
            return None
        theta = float(np.partition(positive, len(positive) - k)[len(positive) - k])
        ascending = sorted(times, key=lambda t: (bound[t], -df[t]))
        lower, acc = [], 0.0
        for tid in ascending:
            acc += bound[tid]
            if acc >= theta:
                break
            lower.append(tid)
        essential = [t for t in ascending if t not in lower]
        if not essential:  # impossible (theta is a real score), but never return a wrong top-k
            return None
        n_cand = sum(df[t] for t in essential)
        cost = _COST_UNIQUE * n_cand + n_cand * sum(
            _COST_ROW_LOOKUP if t in self._dense_row_of else _COST_LOOKUP for t in lower
        )
        return _Plan((essential, lower), cost)

    def _score_candidates(
        self,
        seq: list[int],
        essential: list[int],
        lookup: list[int],
        cand: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Exact scores of a candidate set, adding each term's weight in query order.

        Candidates are the documents of the ``essential`` terms (plus ``cand``, sorted and
        unique, if given); the weights of the ``lookup`` terms are found by binary search.
        """
        weights_of: dict[int, np.ndarray] = {}
        if essential:
            parts = [self._postings(t) for t in essential]
            cand, inverse = _union(np.concatenate([d for d, _ in parts]), self.n_docs)
            start = 0
            for tid, (docs, weights) in zip(essential, parts, strict=True):
                column = np.zeros(len(cand), dtype=np.float64)
                column[inverse[start : start + len(docs)]] = weights
                weights_of[tid] = column
                start += len(docs)
        if cand is None:
            raise ValueError("no candidates to score")
        cand = cand.astype(self._postings_doc.dtype, copy=False)
        for tid in lookup:
            row = self._dense_row_of.get(tid)
            if row is not None:
                weights_of[tid] = self._dense_rows[row][cand]
                continue
            docs, weights = self._postings(tid)
            at = np.minimum(np.searchsorted(docs, cand), len(docs) - 1)
            weights_of[tid] = np.where(docs[at] == cand, weights[at], 0.0)
        scores = np.zeros(len(cand), dtype=np.float64)
        for tid in seq:  # x + 0.0 == x: documents without the term keep their score
            scores += weights_of[tid]
        return cand, scores

    def _top(self, docs: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the best ``k`` of ``docs`` with score > 0, by (-score, doc id)."""
        positive = scores > 0
        docs, scores = docs[positive], scores[positive]
        if len(scores) > k:
            kth = np.partition(scores, len(scores) - k)[len(scores) - k]
            keep = scores >= kth
            docs, scores = docs[keep], scores[keep]
        order = np.lexsort((self._doc_rank[docs], -scores))[:k]
        return docs[order], scores[order]

    # -- persistence ------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the index to directory ``path`` (created if needed): params.json + .npy arrays."""
        out = Path(path)
        out.mkdir(parents=True, exist_ok=True)
        if self._doc_id_store is None:
            self._doc_id_store = StrArray.from_strings(self._doc_ids)
        arrays = {
            "indptr": self._indptr,
            "postings_doc": self._postings_doc,
            "postings_weight": self._postings_weight,
            "idf": self._idf,
            "doc_rank": self._doc_rank,
            "term_max": self._term_max,
            "dense_terms": self._dense_terms,
            "dense_rows": self._dense_rows,
            "vocab_bytes": self._vocab.data,
            "vocab_offsets": self._vocab.offsets,
            "vocab_prefix": self._vocab_prefix,
            "doc_id_bytes": self._doc_id_store.data,
            "doc_id_offsets": self._doc_id_store.offsets,
        }
        for name, values in arrays.items():
            np.save(out / f"{name}.npy", np.ascontiguousarray(values), allow_pickle=False)
        params = {
            "format": _FORMAT,
            "version": _VERSION,
            "k1": self.k1,
            "b": self.b,
            "epsilon": EPSILON,
            "n_docs": self.n_docs,
            "n_terms": self.n_terms,
            "avgdl": self.avgdl,
            "average_idf": self.average_idf,
        }
        (out / "params.json").write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | os.PathLike[str], mmap: bool = True) -> BM25:
        """Open an index written by ``save``; arrays are memory-mapped unless ``mmap=False``."""
        src = Path(path)
        try:
            params: dict[str, Any] = json.loads((src / "params.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"{src}: not a saved BM25 index (no params.json)") from None
        except (OSError, ValueError) as exc:
            raise ValueError(f"{src}/params.json: unreadable: {exc}") from None
        if params.get("format") != _FORMAT or params.get("version") != _VERSION:
            raise ValueError(f"{src}: unsupported index format {params.get('format')!r}")
        mode: Literal["r"] | None = "r" if mmap else None
        try:
            arrays = {
                name: np.load(src / f"{name}.npy", mmap_mode=mode, allow_pickle=False)
                for name in _ARRAYS
            }
        except (OSError, ValueError) as exc:
            raise ValueError(f"{src}: cannot read index arrays: {exc}") from None
        self = cls.__new__(cls)
        self.k1, self.b = float(params["k1"]), float(params["b"])
        self.avgdl = float(params["avgdl"])
        self.average_idf = float(params["average_idf"])
        self._indptr = arrays["indptr"]
        self._postings_doc = arrays["postings_doc"]
        self._postings_weight = arrays["postings_weight"]
        self._idf = arrays["idf"]
        self._doc_rank = arrays["doc_rank"]
        self._term_max = arrays["term_max"]
        self._dense_terms = arrays["dense_terms"]
        self._dense_rows = arrays["dense_rows"]
        self._dense_row_of = {int(t): row for row, t in enumerate(self._dense_terms.tolist())}
        self._vocab = StrArray(arrays["vocab_bytes"], arrays["vocab_offsets"])
        self._vocab_prefix = arrays["vocab_prefix"]
        self._doc_id_store = StrArray(arrays["doc_id_bytes"], arrays["doc_id_offsets"])
        self._doc_ids = self._doc_id_store
        n_docs, n_terms = int(params["n_docs"]), int(params["n_terms"])
        consistent = (
            len(self._doc_rank) == n_docs == len(self._doc_ids)
            and len(self._idf) == n_terms == len(self._vocab) == len(self._term_max)
            and len(self._vocab_prefix) == n_terms
            and self._dense_rows.shape == (len(self._dense_terms), n_docs)
            and len(self._indptr) == n_terms + 1
            and len(self._postings_doc) == len(self._postings_weight) == int(self._indptr[-1])
        )
        if not consistent:
            raise ValueError(f"{src}: arrays do not match params.json (truncated index?)")
        return self


def recall_at_k(
    index: KeywordIndex,
    questions: Sequence[tuple[str, Sequence[str], Sequence[str]]],
    k: int = DEFAULT_K,
) -> float:
    """Micro-averaged recall: share of all supporting docs found in the top ``k`` of each question.

    ``questions`` holds ``(question, answers, supporting_doc_ids)``; each question's text is
    searched directly. Supporting ids are counted once per question.
    """
    k = check_k(k)
    found = total = 0
    for i, item in enumerate(questions):
        try:
            question, _answers, supporting = item
        except (TypeError, ValueError):
            raise ValueError(
                f"question {i} must be (question, answers, supporting_doc_ids)"
            ) from None
        if isinstance(supporting, str):
            raise ValueError(f"question {i}: supporting_doc_ids must be a list of ids, not a str")
        wanted = set(supporting)
        hits = {doc_id for doc_id, _ in index.search(question, k=k)}
        found += len(wanted & hits)
        total += len(wanted)
    if total == 0:
        raise ValueError("recall_at_k needs at least one supporting document")
    return found / total
