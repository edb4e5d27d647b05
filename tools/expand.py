"""Query expansion: a word the index lacks becomes the indexed words sharing its stem.

"refund" finds "refunds", "owns" finds "owned", "Beyonce" finds "Beyoncé" (a stem drops accents).

BM25 itself stays exact (no stemming in the index); only the query is rewritten.
"""

from __future__ import annotations

import unicodedata
import weakref
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, cast

from tools.bm25_tokens import tokenize


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix-stripping stem: `owns`/`owned` -> `own`, `retries` -> `retry`.

    Accents are dropped first (`Zürich` -> `zurich`, as `Zurich`): a question typed without them
    matches the text that has them.
    """
    w = word.lower()
    if not w.isascii():
        decomposed = unicodedata.normalize("NFKD", w)
        w = "".join(c for c in decomposed if not unicodedata.combining(c))
    if len(w) <= 3 or w.isdigit():
        return w
    for suffix, replacement, min_len in (
        ("ies", "y", 5),
        ("sses", "ss", 5),
        ("ing", "", 6),
        ("ed", "", 5),
        ("es", "", 6),
        ("s", "", 4),
    ):
        if w.endswith(suffix) and len(w) >= min_len and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + replacement
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


_stem_maps: weakref.WeakKeyDictionary[Any, dict[str, list[str]]] = weakref.WeakKeyDictionary()


def index_terms(index: Any) -> Iterable[str]:
    """Every term an index holds (`BM25.vocabulary`)."""
    return cast(Iterable[str], index.vocabulary)


def stem_map(index: Any) -> dict[str, list[str]]:
    """Stem -> the index's terms with that stem (built once per index)."""
    mapping = _stem_maps.get(index)
    if mapping is None:
        mapping = {}
        for term in index_terms(index):
            mapping.setdefault(stem(term), []).append(term)
        _stem_maps[index] = mapping
    return mapping


def expand_terms(index: Any, query: str) -> list[str]:
    """The query's tokens, each unknown one replaced by the indexed words sharing its stem."""
    expanded: dict[str, None] = {}
    variants = None
    for token in tokenize(query):
        if index.doc_freq(token) > 0:
            expanded.setdefault(token, None)
            continue
        if variants is None:
            variants = stem_map(index)
        for variant in variants.get(stem(token), ()):
            expanded.setdefault(variant, None)
    return list(expanded)


def expand_query(index: Any, query: str) -> str:
    """`expand_terms` joined back into a query string."""
    return " ".join(expand_terms(index, query))
