"""What a search tool needs from a BM25 index (`KeywordIndex`), and the checks of its arguments.

Two classes give the same scores, bit for bit: `tools.bm25.BM25` (numpy arrays, saved and
memory-mapped, fast on large corpora) and `tools.bm25_small.SmallBM25` (pure Python, for the
built-in corpora and other small ones); `tools.keyword_build` picks one by corpus size. This
module imports neither (nor numpy).
"""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tools.search_settings import DEFAULT_K

if TYPE_CHECKING:
    import numpy as np

EPSILON = 0.25
"""rank_bm25's floor for a negative idf: EPSILON times the mean idf."""


def okapi_idf(doc_freq: int, n_docs: int) -> float:
    """Raw Okapi idf ``ln(N - n + 0.5) - ln(n + 0.5)``, computed as rank_bm25 computes it."""
    return math.log(n_docs - doc_freq + 0.5) - math.log(doc_freq + 0.5)


def positive_idf(doc_freq: int, n_docs: int) -> float:
    """Lucene's BM25 idf ``ln(1 + (N - n + 0.5) / (n + 0.5))``: above 0 for every term."""
    return math.log1p((n_docs - doc_freq + 0.5) / (doc_freq + 0.5))


def scoring_idf(doc_freq: int, n_docs: int, average_idf: float) -> float:
    """The idf a term of ``doc_freq`` documents scores with, given the corpus's mean raw idf.

    rank_bm25's rule: the raw Okapi idf, a negative one floored to ``EPSILON`` times the mean.
    Two departures, both for small corpora. An idf of exactly 0 (a word in exactly half the
    passages) is floored too: rank_bm25 leaves it at 0, below the floor a commoner word gets,
    and a question whose every word is in half of four passages (a file's two sections, its
    name in both titles) found nothing. And in a corpus of one or two passages (or a few that
    share most words) the mean, and so the floor, is 0 or below: every word would score 0 or
    less, so such a corpus scores every term with `positive_idf`, which orders terms the same.
    """
    floor = EPSILON * average_idf
    if floor <= 0:
        return positive_idf(doc_freq, n_docs)
    raw = okapi_idf(doc_freq, n_docs)
    return floor if raw <= 0 else raw


class KeywordIndex(ABC):
    """Okapi BM25 over ``{doc_id: text}``: the read and search API both indexes share."""

    k1: float
    b: float
    avgdl: float
    average_idf: float

    @property
    @abstractmethod
    def doc_ids(self) -> Sequence[str]:
        """Document ids in insertion order (index ``i`` is row ``i`` of ``get_scores``)."""

    @property
    @abstractmethod
    def n_docs(self) -> int:
        """Number of indexed documents."""

    @property
    @abstractmethod
    def vocabulary(self) -> Sequence[str]:
        """Every indexed term, in sorted ``str`` order."""

    @property
    @abstractmethod
    def n_terms(self) -> int:
        """Number of distinct terms in the index."""

    @abstractmethod
    def idf(self, term: str) -> float:
        """The idf used in scoring (`scoring_idf`); 0.0 if unknown."""

    @abstractmethod
    def doc_freq(self, term: str) -> int:
        """The number of documents containing ``term`` (an already tokenized term)."""

    @abstractmethod
    def get_scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query`` (float64, in ``doc_ids`` order)."""

    @abstractmethod
    def search(self, query: str, k: int = DEFAULT_K) -> list[tuple[str, float]]:
        """The ``k`` best ``(doc_id, score)`` pairs with score > 0, best first, ties by id."""


def check_docs(docs: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """``(doc_ids, texts)`` of a non-empty ``{str: str}`` mapping, else a one-line ValueError."""
    if not isinstance(docs, Mapping):
        raise ValueError(f"docs must be a mapping of doc_id to text, got {type(docs).__name__}")
    doc_ids = list(docs.keys())
    if not doc_ids:
        raise ValueError("cannot build a BM25 index over an empty corpus")
    texts = list(docs.values())
    for doc_id, text in zip(doc_ids, texts, strict=True):
        if not isinstance(doc_id, str):
            raise ValueError(f"doc ids must be str, got {type(doc_id).__name__}: {doc_id!r}")
        if not isinstance(text, str):
            raise ValueError(f"text of doc {doc_id!r} must be str, got {type(text).__name__}")
    return doc_ids, texts


def check_params(k1: float, b: float) -> tuple[float, float]:
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


def check_k(k: Any) -> int:
    """Return ``k`` if it is an integer >= 1 (numpy's included, bool not), else ValueError."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ValueError(f"k must be an int, got {type(k).__name__}")
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    return int(k)


def check_term(term: Any) -> str:
    """``term`` if it is a str, else a one-line ValueError."""
    if not isinstance(term, str):
        raise ValueError(f"term must be a str, got {type(term).__name__}")
    return term


def check_query(query: Any) -> str:
    """``query`` if it is a str, else a one-line ValueError."""
    if not isinstance(query, str):
        raise ValueError(f"query must be a str, got {type(query).__name__}")
    return query
