"""Code-like words in a query (fault E-12, part PN-4471, variant XR-300-B) and their BM25 weight.

Equipment manuals and support notes are searched by codes. An embedding blurs ``E-12`` and
``E-14`` (or variant ``-A`` and ``-B``) into the same neighbourhood, while BM25 matches them
exactly, so the hybrid fusion trusts BM25 more for a query holding a code the corpus indexes
(`tools.hybrid.query_alpha`).

A code is a word of letters and digits, optionally joined by ``-``, ``.`` or ``/``, that
holds at least one letter and one digit (``E-12``, ``PN-4471``, ``XR-300-B``, ``3B2``,
``v2.1``). Prose is not: pure numbers (a year, a quantity), ordinals and decades (``21st``,
``1990s``) and a number joined to a word (``25-foot``, ``3/4th``): a part made of letters
only has at most `MAX_PREFIX` of them, as a code's prefix or variant letter does.
"""

from __future__ import annotations

import re

from tools.bm25_tokens import tokenize
from tools.expand import expand_terms
from tools.keyword_index import KeywordIndex

_WORD_RE = re.compile(r"[^\W_]+(?:[-./][^\W_]+)*")
_SEPARATOR_RE = re.compile(r"[-./]")
_PROSE_NUMBER_RE = re.compile(r"\d+(?:st|nd|rd|th|s)", re.IGNORECASE)
MAX_PREFIX = 3
"""Longest all-letter part of a code (``PN``, ``VMF``, the ``B`` of a variant)."""


def is_code(word: str) -> bool:
    """Whether a word (as `_WORD_RE` cuts it) is code-like, per the module docstring."""
    if not (any(c.isdigit() for c in word) and any(c.isalpha() for c in word)):
        return False
    for part in _SEPARATOR_RE.split(word):
        if _PROSE_NUMBER_RE.fullmatch(part) or (part.isalpha() and len(part) > MAX_PREFIX):
            return False
    return True


def code_terms(query: str) -> set[str]:
    """The BM25 terms (lower-case tokens) that come from the query's code-like words."""
    return {t for m in _WORD_RE.finditer(query) if is_code(m.group()) for t in tokenize(m.group())}


def code_share(index: KeywordIndex, query: str) -> float:
    """Share of the query's BM25 evidence held by code terms: their idf over all terms' idf.

    The terms are those BM25 scores (the query expanded as the search tool expands it), each
    distinct term once, weighted by its idf in `index`; a term the index lacks weighs nothing,
    so a code the corpus never mentions does not count. 0.0 for a query without codes (or with
    no indexed term), 1.0 for a query made only of codes.
    """
    terms = set(expand_terms(index, query))
    weights = {t: max(0.0, index.idf(t)) for t in terms}
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    return sum(weights[t] for t in code_terms(query) & terms) / total
