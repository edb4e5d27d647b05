"""Passage vectors kept between runs, keyed by each passage's text (``--corpus NAME=PATH``).

A corpus loaded from files on each run (not a saved index) would be embedded again by every
``agent ask --retriever hybrid``. `cached_dense` keeps one entry per corpus name,
``<folder>/<NAME>.npz``: the sha256 of each passage's text and its vector. On the next run
passages whose text is unchanged take their stored vector and only new or edited ones are
embedded; the entry is then rewritten with the current passages only (so it never grows past
the corpus). The entry is written under a temporary name and renamed into place; one that
cannot be read or does not fit (damaged, another shape, not a regular file) is ignored and
rewritten: it is a cache, never the only copy of anything.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from tools.dense import DenseIndex, Encoder, normalize
from tools.embeddings import EmbeddingError, read_regular


def text_keys(texts: list[str]) -> np.ndarray:
    """The sha256 of each text, one row of 32 bytes per text."""
    digests = b"".join(hashlib.sha256(t.encode("utf-8", "surrogatepass")).digest() for t in texts)
    return np.frombuffer(digests, dtype=np.uint8).reshape(len(texts), 32)


def read_entry(path: Path) -> dict[bytes, np.ndarray]:
    """Stored vectors by text digest; empty when the entry is missing or unusable."""
    try:
        with np.load(io.BytesIO(read_regular(path)), allow_pickle=False) as data:
            keys, vectors = data["keys"], data["vectors"]
    except (EmbeddingError, OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return {}
    ok = keys.ndim == 2 and keys.shape[1] == 32 and vectors.ndim == 2
    if not ok or len(keys) != len(vectors) or not np.isfinite(vectors).all():
        return {}
    return {key.tobytes(): row for key, row in zip(keys, vectors.astype(np.float32), strict=True)}


def write_entry(path: Path, keys: np.ndarray, vectors: np.ndarray) -> None:
    """Replace the entry at `path` (a failure to write only costs the next run its reuse)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as handle:
            np.savez(handle, keys=keys, vectors=vectors)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def cached_dense(
    folder: Path, name: str, texts: Mapping[str, str], encoder: Encoder, model: str = ""
) -> DenseIndex:
    """The dense index of `texts` (id -> text), embedding only texts the entry lacks."""
    ordered = list(texts.values())
    keys = text_keys(ordered)
    path = folder / f"{name}.npz"
    stored = read_entry(path)
    expected = getattr(encoder, "dimension", None)  # the encoder's width, when it says
    if expected is not None and any(row.shape[0] != expected for row in stored.values()):
        stored = {}  # not this model's vectors
    missing = [i for i, key in enumerate(keys) if key.tobytes() not in stored]
    fresh = normalize(encoder.encode([ordered[i] for i in missing])) if missing else None
    widths = {row.shape[0] for row in stored.values()}
    if fresh is not None and widths and widths != {fresh.shape[1]}:  # not this model's
        stored, missing = {}, list(range(len(ordered)))
        fresh = normalize(encoder.encode(ordered))
    width = fresh.shape[1] if fresh is not None else (widths.pop() if widths else 0)
    vectors = np.zeros((len(ordered), width), dtype=np.float32)
    new = dict(zip(missing, fresh if fresh is not None else [], strict=True))
    for row, key in enumerate(keys):
        vectors[row] = new[row] if row in new else stored[key.tobytes()]
    if missing or len(stored) != len(ordered):
        write_entry(path, keys, vectors)
    return DenseIndex(list(texts), vectors, model)
