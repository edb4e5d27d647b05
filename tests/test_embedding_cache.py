"""Vectors of a folder corpus kept between runs, keyed by passage text (`tools.embedding_cache`)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np
import pytest

from tools.embedding_cache import cached_dense, read_entry


class CountingEncoder:
    """Made-up unit vectors from each text's letters; records every text it embeds."""

    def __init__(self, width: int = 4) -> None:
        self.width = self.dimension = width
        self.seen: list[str] = []

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        self.seen += texts
        rows = [[len(t) + 1.0, t.count("a") + 1.0, *range(self.width - 2)] for t in texts]
        vectors = np.asarray(rows, dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


TEXTS = {"a": "alpha passage", "b": "bravo passage", "c": "charlie passage"}


def test_unchanged_texts_are_not_embedded_again(tmp_path: Path) -> None:
    encoder = CountingEncoder()
    first = cached_dense(tmp_path, "kb", TEXTS, encoder, "m")
    assert sorted(encoder.seen) == sorted(TEXTS.values())
    encoder.seen.clear()
    again = cached_dense(tmp_path, "kb", TEXTS, encoder, "m")
    assert encoder.seen == []
    assert np.array_equal(first.vectors, again.vectors) and again.doc_ids == ["a", "b", "c"]
    assert again.model == "m"


def test_only_new_or_edited_texts_are_embedded(tmp_path: Path) -> None:
    encoder = CountingEncoder()
    cached_dense(tmp_path, "kb", TEXTS, encoder, "m")
    encoder.seen.clear()
    edited = {"a": "alpha passage", "c": "charlie, rewritten", "d": "delta"}
    index = cached_dense(tmp_path, "kb", edited, encoder, "m")
    assert encoder.seen == ["charlie, rewritten", "delta"]
    assert np.allclose(index.vectors, CountingEncoder().encode(list(edited.values())))
    assert len(read_entry(tmp_path / "kb.npz")) == 3  # only the current passages are kept


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other width"])
def test_an_unusable_entry_is_embedded_again_and_rewritten(tmp_path: Path, damage: str) -> None:
    entry = tmp_path / "kb.npz"
    if damage == "other width":
        cached_dense(tmp_path, "kb", TEXTS, CountingEncoder(width=6), "m")
    else:
        cached_dense(tmp_path, "kb", TEXTS, CountingEncoder(), "m")
        data = entry.read_bytes()
        entry.write_bytes(b"not an npz file" if damage == "garbage" else data[: len(data) // 2])
    encoder = CountingEncoder()
    index = cached_dense(tmp_path, "kb", TEXTS, encoder, "m")
    assert sorted(encoder.seen) == sorted(TEXTS.values())
    assert index.vectors.shape == (3, 4)
    assert len(read_entry(entry)) == 3


def test_a_fifo_entry_is_ignored_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "kb.npz")
    encoder = CountingEncoder()
    result: list[object] = []
    worker = threading.Thread(
        target=lambda: result.append(cached_dense(tmp_path, "kb", TEXTS, encoder)), daemon=True
    )
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "reading the FIFO blocked"
    assert len(encoder.seen) == 3 and (tmp_path / "kb.npz").is_file()  # replaced by an entry
