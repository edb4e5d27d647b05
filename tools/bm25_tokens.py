"""BM25's tokenizer: lowercased runs of Unicode letters and digits, and a corpus at a time.

`tokenize` is the one definition of a token (indexes, queries, query expansion, the flow).
`tokenize_corpus` turns many texts into a doc-major term-count matrix in chunks, with an ASCII
fast path (one `bytes.translate` per chunk) that gives the same tokens. Only `tokenize_corpus`
imports numpy, so the tokenizer alone (the offline policy, `tools.bm25_small`) loads none.
"""

from __future__ import annotations

import re
from array import array
from collections import defaultdict
from itertools import count
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

_TOKEN_RE = re.compile(r"[^\W_]+")
_CHUNK_DOCS = 20_000
_SEP = b"\x00"
# ASCII fast path of tokenize: letters and digits kept (upper case lowered), the rest -> space.
_ASCII_KEEP = bytes(
    c + 32 if 65 <= c <= 90 else c if (48 <= c <= 57 or 97 <= c <= 122) else 32 for c in range(256)
)
_ASCII_KEEP_SEP = _SEP + _ASCII_KEEP[1:]  # the same, but NUL survives (document separator)


def tokenize(text: str) -> list[str]:
    """Split text into lowercased runs of Unicode letters and digits.

    The text is lowercased first, then split, so every token is itself one run of letters and
    digits: ``"E-4042 x2 Hello,World"`` gives ``["e", "4042", "x2", "hello", "world"]``.
    """
    if not isinstance(text, str):
        raise ValueError(f"tokenize expects a str, got {type(text).__name__}")
    return _TOKEN_RE.findall(text.lower())


def _tokenize_utf8(text: str) -> list[bytes]:
    """Tokenize like ``tokenize`` but return UTF-8 bytes (fast path for ASCII text)."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_KEEP).split()
    return [t.encode("utf-8") for t in _TOKEN_RE.findall(text.lower())]


def _chunk_tokens(chunk: list[str]) -> list[bytes]:
    """Tokens (UTF-8 bytes) of all texts in ``chunk``, with ``_SEP`` between documents."""
    joined = " \x00 ".join(chunk)
    if joined.isascii() and joined.count("\x00") == len(chunk) - 1:
        return joined.encode("ascii").translate(_ASCII_KEEP_SEP).split()
    tokens: list[bytes] = []
    for text in chunk:
        tokens += _tokenize_utf8(text)
        tokens.append(_SEP)
    tokens.pop()
    return tokens


def tokenize_corpus(
    texts: list[str],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[bytes]]:
    """Tokenize all texts into a doc-major sparse matrix.

    Returns ``(doc_len, doc_indptr, doc_terms, doc_tf, terms)``: each document's token count,
    its distinct terms with their counts, and the terms (UTF-8) in order of first appearance;
    ``doc_terms`` holds indices into ``terms``.
    """
    import numpy as np

    n_docs = len(texts)
    vocab: defaultdict[bytes, int] = defaultdict(count().__next__)
    sep_id = vocab[_SEP]  # id 0, so terms are numbered from 1 below
    doc_len = np.empty(n_docs, dtype=np.int64)
    nnz_parts: list[np.ndarray] = []
    term_parts: list[np.ndarray] = []
    tf_parts: list[np.ndarray] = []
    for start in range(0, n_docs, _CHUNK_DOCS):
        chunk = texts[start : start + _CHUNK_DOCS]
        tokens = _chunk_tokens(chunk)
        ids = np.frombuffer(array("i", map(vocab.__getitem__, tokens)), dtype=np.intc)
        del tokens
        is_sep = ids == sep_id
        rows = np.cumsum(is_sep, dtype=np.int32)
        keep = ~is_sep
        rows, ids = rows[keep], ids[keep]
        doc_len[start : start + len(chunk)] = np.bincount(rows, minlength=len(chunk))
        # One key per (document, term), sorted and counted: the chunk's doc-major matrix.
        width = max(len(vocab) - 1, 1)
        keys, counts = np.unique(rows.astype(np.int64) * width + (ids - 1), return_counts=True)
        nnz_parts.append(np.bincount(keys // width, minlength=len(chunk)))
        term_parts.append((keys % width).astype(np.int32))
        tf_parts.append(counts.astype(_small_uint(int(counts.max(initial=0)))))
    doc_indptr = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum(np.concatenate(nnz_parts), out=doc_indptr[1:])
    terms = list(vocab)[1:]
    del vocab
    max_tf = max(int(part.max(initial=0)) for part in tf_parts)
    doc_terms = _concatenate_freeing(term_parts, np.dtype(np.int32))
    doc_tf = _concatenate_freeing(tf_parts, np.dtype(_small_uint(max_tf)))
    return doc_len, doc_indptr, doc_terms, doc_tf, terms


def _small_uint(max_value: int) -> type[np.unsignedinteger[Any]]:
    """Return the smallest unsigned dtype holding 0..max_value (max_value < 2**32)."""
    import numpy as np

    return np.uint8 if max_value < 1 << 8 else np.uint16 if max_value < 1 << 16 else np.uint32


def _concatenate_freeing(parts: list[np.ndarray], dtype: np.dtype[Any]) -> np.ndarray:
    """Concatenate ``parts`` (emptying the list as it goes, so peak memory stays ~1x)."""
    import numpy as np

    out = np.empty(sum(len(p) for p in parts), dtype=dtype)
    pos = 0
    parts.reverse()
    while parts:
        part = parts.pop()
        out[pos : pos + len(part)] = part
        pos += len(part)
    return out
