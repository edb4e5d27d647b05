"""Okapi BM25 over an inverted index, score-for-score equal to ``rank_bm25.BM25Okapi``.

The index is a CSR inverted index: for every term (terms numbered in sorted string order) a
slice of ``postings_doc`` (document indices, ascending) and ``postings_weight`` (the term's full
BM25 contribution to that document, float64). A query only touches the postings of its terms.
Saved indexes are a directory of ``params.json`` plus ``.npy`` arrays, loaded memory-mapped.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import Any, Literal, overload

import numpy as np
import scipy.sparse as sp

_TOKEN_RE = re.compile(r"[^\W_]+")
_FORMAT = "agentic-rag-bm25"
_VERSION = 1
_EPSILON = 0.25
_CHUNK_DOCS = 20_000
_ARRAYS = (
    "indptr",
    "postings_doc",
    "postings_weight",
    "idf",
    "doc_rank",
    "vocab_bytes",
    "vocab_offsets",
    "doc_id_bytes",
    "doc_id_offsets",
)


def tokenize(text: str) -> list[str]:
    """Split text into lowercased runs of Unicode letters and digits.

    The text is lowercased first, then split, so every token is itself one run of letters and
    digits: ``"E-4042 x2 Hello,World"`` gives ``["e", "4042", "x2", "hello", "world"]``.
    """
    if not isinstance(text, str):
        raise ValueError(f"tokenize expects a str, got {type(text).__name__}")
    return _TOKEN_RE.findall(text.lower())


class _StrArray(Sequence[str]):
    """A read-only sequence of strings stored as UTF-8 bytes plus offsets (mmap-friendly)."""

    def __init__(self, data: np.ndarray, offsets: np.ndarray) -> None:
        self._data = data
        self._offsets = offsets

    @classmethod
    def encode(cls, strings: Sequence[str]) -> _StrArray:
        """Pack ``strings`` into one byte array and an int64 offsets array."""
        joined = "".join(strings)
        blob = joined.encode("utf-8")
        if len(blob) == len(joined):  # pure ASCII: characters are bytes
            lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
        else:
            lengths = np.fromiter(
                (len(s.encode("utf-8")) for s in strings), dtype=np.int64, count=len(strings)
            )
        offsets = np.zeros(len(strings) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls(np.frombuffer(blob, dtype=np.uint8), offsets)

    @property
    def data(self) -> np.ndarray:
        """The UTF-8 bytes of all strings, concatenated."""
        return self._data

    @property
    def offsets(self) -> np.ndarray:
        """Byte offsets: string ``i`` is ``data[offsets[i]:offsets[i + 1]]``."""
        return self._offsets

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("string index out of range")
        start, end = int(self._offsets[index]), int(self._offsets[index + 1])
        return self._data[start:end].tobytes().decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))


def _check_params(k1: float, b: float) -> tuple[float, float]:
    """Return ``(k1, b)`` as floats, or raise ValueError if they are out of range."""
    for name, value in (("k1", k1), ("b", b)):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{name} must be a number, got {type(value).__name__}")
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value}")
    if k1 < 0:
        raise ValueError(f"k1 must be >= 0, got {k1}")
    if not 0 <= b <= 1:
        raise ValueError(f"b must be between 0 and 1, got {b}")
    return float(k1), float(b)


def _check_k(k: int) -> int:
    """Return ``k`` if it is an int >= 1, else raise ValueError."""
    if isinstance(k, bool) or not isinstance(k, int | np.integer):
        raise ValueError(f"k must be an int, got {type(k).__name__}")
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    return int(k)


def _okapi_idf(doc_freq: np.ndarray, n_docs: int) -> np.ndarray:
    """Raw Okapi idf ``ln(N - n + 0.5) - ln(n + 0.5)`` per term, computed like rank_bm25."""
    values, inverse = np.unique(doc_freq, return_inverse=True)
    table = np.array(
        [math.log(n_docs - int(n) + 0.5) - math.log(int(n) + 0.5) for n in values],
        dtype=np.float64,
    )
    return table[inverse]


def _tokenize_corpus(
    texts: Iterable[str], n_docs: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """Tokenize all texts into a doc-major sparse matrix.

    Returns ``(doc_len, doc_indptr, doc_terms, doc_tf, vocab)``: per document its token count and
    its distinct terms (provisional ids, numbered in order of first appearance) with counts.
    """
    vocab: dict[str, int] = {}
    findall = _TOKEN_RE.findall
    doc_len = np.empty(n_docs, dtype=np.int64)
    nnz_parts: list[np.ndarray] = []
    term_parts: list[np.ndarray] = []
    tf_parts: list[np.ndarray] = []
    it = iter(texts)
    done = 0
    while done < n_docs:
        chunk = [findall(text.lower()) for text in _take(it, min(_CHUNK_DOCS, n_docs - done))]
        lens = np.fromiter(map(len, chunk), dtype=np.int64, count=len(chunk))
        doc_len[done : done + len(chunk)] = lens
        flat = list(chain.from_iterable(chunk))
        new = [t for t in dict.fromkeys(flat) if t not in vocab]
        vocab.update(zip(new, range(len(vocab), len(vocab) + len(new)), strict=True))
        ids = np.fromiter(map(vocab.__getitem__, flat), dtype=np.int32, count=len(flat))
        rows = np.repeat(np.arange(len(chunk), dtype=np.int32), lens)
        m = sp.csr_matrix(
            (np.ones(len(ids), dtype=np.int32), (rows, ids)),
            shape=(len(chunk), max(len(vocab), 1)),
        )
        m.sum_duplicates()
        nnz_parts.append(np.diff(m.indptr))
        term_parts.append(m.indices.astype(np.int32, copy=False))
        tf_parts.append(m.data.astype(np.int32, copy=False))
        done += len(chunk)
    doc_indptr = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum(np.concatenate(nnz_parts), out=doc_indptr[1:])
    return doc_len, doc_indptr, np.concatenate(term_parts), np.concatenate(tf_parts), vocab


def _take(it: Iterator[str], n: int) -> list[str]:
    """Return the next ``n`` items of ``it`` as a list."""
    return [next(it) for _ in range(n)]


def _doc_rank(doc_ids: Sequence[str]) -> np.ndarray:
    """Rank (int32) of each doc id in Python's sorted ``str`` order."""
    order = sorted(range(len(doc_ids)), key=doc_ids.__getitem__)
    rank = np.empty(len(doc_ids), dtype=np.int32)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(len(doc_ids), dtype=np.int32)
    return rank


class BM25:
    """Okapi BM25 (rank_bm25.BM25Okapi's formula, epsilon 0.25) over ``{doc_id: text}``."""

    def __init__(self, docs: Mapping[str, str], k1: float = 1.5, b: float = 0.75) -> None:
        """Index ``docs`` (``{doc_id: text}``, ids kept in insertion order)."""
        if not isinstance(docs, Mapping):
            raise ValueError(f"docs must be a mapping of doc_id to text, got {type(docs).__name__}")
        self.k1, self.b = _check_params(k1, b)
        doc_ids = list(docs.keys())
        n_docs = len(doc_ids)
        if n_docs == 0:
            raise ValueError("cannot build a BM25 index over an empty corpus")
        texts = list(docs.values())
        for doc_id, text in zip(doc_ids, texts, strict=True):
            if not isinstance(doc_id, str):
                raise ValueError(f"doc ids must be str, got {type(doc_id).__name__}: {doc_id!r}")
            if not isinstance(text, str):
                raise ValueError(f"text of doc {doc_id!r} must be str, got {type(text).__name__}")
        doc_len, doc_indptr, doc_terms, doc_tf, vocab = _tokenize_corpus(texts, n_docs)
        del texts
        n_terms = len(vocab)
        total = int(doc_len.sum())
        self.avgdl = total / n_docs

        # Terms are renumbered in sorted string order, so a saved vocabulary is binary-searchable.
        terms_by_first_seen = list(vocab)
        del vocab
        sorted_terms = sorted(terms_by_first_seen)
        remap = np.empty(n_terms, dtype=np.int32)
        if n_terms:
            order = sorted(range(n_terms), key=terms_by_first_seen.__getitem__)
            remap[np.asarray(order, dtype=np.int64)] = np.arange(n_terms, dtype=np.int32)
        doc_terms = remap[doc_terms]
        term_major = sp.csr_matrix(
            (doc_tf, doc_terms, doc_indptr), shape=(n_docs, max(n_terms, 1))
        ).tocsc()
        del doc_terms, doc_tf, doc_indptr
        indptr = term_major.indptr.astype(np.int64)[: n_terms + 1]
        postings_doc = term_major.indices.astype(np.int32, copy=False)
        tf = term_major.data
        del term_major

        doc_freq = np.diff(indptr)
        raw_idf = _okapi_idf(doc_freq, n_docs)
        # rank_bm25 averages over every term (negative ones included), summing in order of first
        # appearance; cumsum reproduces that sequential sum exactly.
        raw_first_seen = raw_idf[remap] if n_terms else raw_idf
        self.average_idf = float(np.cumsum(raw_first_seen)[-1] / n_terms) if n_terms else 0.0
        idf = np.where(raw_idf < 0, _EPSILON * self.average_idf, raw_idf)

        # Same operations, in the same order, as BM25Okapi.get_scores.
        norm = self.k1 * (1 - self.b + self.b * doc_len / self.avgdl) if total else doc_len * 0.0
        weight = np.empty(len(postings_doc), dtype=np.float64)
        term_of = np.repeat(np.arange(n_terms, dtype=np.int32), doc_freq)
        step = 1 << 22
        for start in range(0, len(weight), step):
            end = min(start + step, len(weight))
            f = tf[start:end]
            weight[start:end] = idf[term_of[start:end]] * (
                f * (self.k1 + 1) / (f + norm[postings_doc[start:end]])
            )
        del term_of, tf, norm

        self._indptr = indptr
        self._postings_doc = postings_doc
        self._postings_weight = weight
        self._idf = idf
        self._doc_rank = _doc_rank(doc_ids)
        self._vocab = _StrArray.encode(sorted_terms)
        self._term_index: dict[str, int] | None = dict(
            zip(sorted_terms, range(n_terms), strict=True)
        )
        self._doc_ids: Sequence[str] = tuple(doc_ids)
        self._doc_id_store: _StrArray | None = None

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
    def n_terms(self) -> int:
        """Number of distinct terms in the index."""
        return len(self._idf)

    def _term_id(self, term: str) -> int:
        """Return the term's id, or -1 if it is not in the index."""
        if self._term_index is not None:
            return self._term_index.get(term, -1)
        vocab = self._vocab
        lo, hi = 0, len(vocab)
        while lo < hi:
            mid = (lo + hi) // 2
            if vocab[mid] < term:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(vocab) and vocab[lo] == term else -1

    def idf(self, term: str) -> float:
        """Return the idf used in scoring (negatives floored to eps x mean idf); 0.0 if unknown."""
        tid = self._term_id(term)
        return float(self._idf[tid]) if tid >= 0 else 0.0

    def doc_freq(self, term: str) -> int:
        """Return the number of documents containing ``term`` (an already tokenized term)."""
        tid = self._term_id(term)
        return int(self._indptr[tid + 1] - self._indptr[tid]) if tid >= 0 else 0

    # -- scoring ----------------------------------------------------------------------------

    def _query_terms(self, query: str) -> list[int]:
        """Term ids of the query's known tokens, in query order, repeats kept."""
        if not isinstance(query, str):
            raise ValueError(f"query must be a str, got {type(query).__name__}")
        ids = (self._term_id(t) for t in tokenize(query))
        return [t for t in ids if t >= 0]

    def get_scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query`` (float64, in ``doc_ids`` order)."""
        scores = np.zeros(self.n_docs, dtype=np.float64)
        for tid in self._query_terms(query):
            start, end = int(self._indptr[tid]), int(self._indptr[tid + 1])
            docs = self._postings_doc[start:end]
            scores[docs] += self._postings_weight[start:end]
        return scores

    def search(self, query: str, k: int = 3) -> list[tuple[str, float]]:
        """Return the ``k`` best ``(doc_id, score)`` pairs with score > 0, best first.

        Equal scores are ordered by doc id in ascending ``str`` order.
        """
        k = _check_k(k)
        scores = self.get_scores(query)
        cand = np.flatnonzero(scores > 0)
        if len(cand) > k:
            kth = np.partition(scores[cand], len(cand) - k)[len(cand) - k]
            cand = cand[scores[cand] >= kth]
        order = np.lexsort((self._doc_rank[cand], -scores[cand]))[:k]
        ids = self.doc_ids
        return [(ids[int(i)], float(scores[i])) for i in cand[order]]

    # -- persistence ------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the index to directory ``path`` (created if needed): params.json + .npy arrays."""
        out = Path(path)
        out.mkdir(parents=True, exist_ok=True)
        if self._doc_id_store is None:
            self._doc_id_store = _StrArray.encode(self._doc_ids)
        arrays = {
            "indptr": self._indptr,
            "postings_doc": self._postings_doc,
            "postings_weight": self._postings_weight,
            "idf": self._idf,
            "doc_rank": self._doc_rank,
            "vocab_bytes": self._vocab.data,
            "vocab_offsets": self._vocab.offsets,
            "doc_id_bytes": self._doc_id_store.data,
            "doc_id_offsets": self._doc_id_store.offsets,
        }
        for name, array in arrays.items():
            np.save(out / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)
        params = {
            "format": _FORMAT,
            "version": _VERSION,
            "k1": self.k1,
            "b": self.b,
            "epsilon": _EPSILON,
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
        self._vocab = _StrArray(arrays["vocab_bytes"], arrays["vocab_offsets"])
        self._term_index = None
        self._doc_id_store = _StrArray(arrays["doc_id_bytes"], arrays["doc_id_offsets"])
        self._doc_ids = self._doc_id_store
        if len(self._doc_rank) != params["n_docs"] or len(self._idf) != params["n_terms"]:
            raise ValueError(f"{src}: arrays do not match params.json (truncated index?)")
        return self


def recall_at_k(
    index: BM25, questions: Sequence[tuple[str, Sequence[str], Sequence[str]]], k: int = 3
) -> float:
    """Micro-averaged recall: share of all supporting docs found in the top ``k`` of each question.

    ``questions`` holds ``(question, answers, supporting_doc_ids)``; each question's text is
    searched directly. Supporting ids are counted once per question.
    """
    k = _check_k(k)
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
