"""Query expansion: a word the index lacks becomes the indexed words sharing its stem.

"refund" finds "refunds", "owns" finds "owned", "Beyonce" finds "Beyoncé" (a stem drops accents).
Two adjacent words also bring the one word they join into when the index holds it: "wiki links"
finds "WikiLinks", "anchor links" finds "anchorlink_class" (`compounds`).

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
    """A light suffix-stripping stem: `owns`/`owned` -> `own`, `retries`/`copied` -> `retry`/`copy`.

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
        ("ied", "y", 5),
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


KEPT_DOUBLES = "flsz"
"""Doubled final letters English base words end in ("staff", "call", "pass", "buzz"): kept when
-ing or -ed is stripped (`form`: "called" stays "call", while "stopped" becomes "stop").

Undoubling in `form`, not in `stem`: in `stem` it also changes which sentence the offline policy
reads ("slipping" then finds "belt slip", "running" a "duct run"), and costs codes_tune two right
and cited answers (0.562 -> 0.531) and service_tune one (0.188 -> 0.167). In support
(`graph.models.support`) it makes 3 right answers confident (click right conf 0.906 -> 0.938,
"emitting" covered by "emit"; pages 0.926 -> 0.963, "run" by "running"; squad 0.903 -> 0.907)
and no wrong one. The search's expansion (`stem_map`) matches on `form` too, so support and the
search read a word alike ("wrapped" finds "wrap"): no answer on any tune set moved."""


def form(word: str) -> str:
    """What `word` is matched on: its stem (`stem`), undoubled after -ing or -ed.

    "emitting" and "stopped" stem to "emitt" and "stopp"; as "emit" and "stop" they match the
    base word a passage writes. A doubled f, l, s or z (`KEPT_DOUBLES`: "called", "passed") and
    a stem of three letters ("added" -> "add") stay as they are.
    """
    root = stem(word)
    doubled = len(root) > 3 and root[-1] == root[-2] and root[-1] not in "aeiou" + KEPT_DOUBLES
    return root[:-1] if doubled and word.lower().endswith(("ing", "ed")) else root


_stem_maps: weakref.WeakKeyDictionary[Any, dict[str, list[str]]] = weakref.WeakKeyDictionary()


def index_terms(index: Any) -> Iterable[str]:
    """Every term an index holds (`BM25.vocabulary`)."""
    return cast(Iterable[str], index.vocabulary)


def stem_map(index: Any) -> dict[str, list[str]]:
    """Form (`form`) -> the index's terms of that form (built once per index)."""
    mapping = _stem_maps.get(index)
    if mapping is None:
        mapping = {}
        for term in index_terms(index):
            mapping.setdefault(form(term), []).append(term)
        _stem_maps[index] = mapping
    return mapping


COMPOUND_PART = 3
"""Letters each of two adjacent words needs before their join is looked up (`compounds`).

Docs join words a question writes apart ("WikiLinks", "anchorlink_class" for "wiki links",
"anchor links"); three letters keep "in to" or "on line" from joining. Measured on every tune
set with the option-unit reading of `graph.models.offline.reading`: click right and cited 0.950
-> 0.975 ("command line" also finds "commandline", and the passage on invoking commands as
command line scripts is cited), and no other answer moves; alone, before that reading, it cost
markdown two answers."""


def compounds(tokens: list[str]) -> list[tuple[str, str]]:
    """Adjacent pairs of `tokens` that may be written as one word.

    Both must be letters only, each of at least `COMPOUND_PART` letters.
    """
    return [
        (a, b)
        for a, b in zip(tokens, tokens[1:], strict=False)
        if len(a) >= COMPOUND_PART and len(b) >= COMPOUND_PART and (a + b).isalpha()
    ]


def indexed_forms(index: Any, token: str, variants: dict[str, list[str]]) -> list[str]:
    """`token` when the index holds it, else the indexed words sharing its stem."""
    return [token] if index.doc_freq(token) > 0 else variants.get(form(token), [])


def expand_terms(index: Any, query: str) -> list[str]:
    """The query's tokens, each unknown one replaced by the indexed words sharing its stem.

    After them come the indexed words sharing the stem of the word two adjacent tokens join
    into (`compounds`).
    """
    expanded: dict[str, None] = {}
    tokens = tokenize(query)
    variants = stem_map(index)
    for token in tokens:
        expanded.update(dict.fromkeys(indexed_forms(index, token, variants)))
    for a, b in compounds(tokens):  # every form: "wiki links" may be written "WikiLink"
        expanded.update(dict.fromkeys(variants.get(form(a + b), [])))
    return list(expanded)


def expand_query(index: Any, query: str) -> str:
    """`expand_terms` joined back into a query string."""
    return " ".join(expand_terms(index, query))
