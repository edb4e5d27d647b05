"""A query is embedded on a one-thread ONNX Runtime session; bulk batches on the default pool."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tools import onnx_embed

pytest.importorskip("onnxruntime", reason="the [dense] extra is not installed")


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[int]]:
    """The real model, its sessions wrapped to record the intra-op threads of each run."""
    model = onnx_embed.default_embeddings()
    seen: list[int] = []
    inner = model.session

    def session(threads: int) -> Any:
        real = inner(threads)
        configured = real.get_session_options().intra_op_num_threads

        class Recorded:
            def run(self, *args: Any, **kwargs: Any) -> Any:
                seen.append(configured)
                return real.run(*args, **kwargs)

        return Recorded()

    monkeypatch.setattr(model, "session", session)
    return model, seen


def test_small_batches_run_on_one_thread(recording: tuple[Any, list[int]]) -> None:
    model, seen = recording
    model.encode(["one query about a kiln"])
    model.embed_query("another query")
    model.encode([f"query {i}" for i in range(onnx_embed.SMALL_BATCH)])
    assert seen == [1, 1, 1]


def test_bulk_batches_use_the_default_pool(recording: tuple[Any, list[int]]) -> None:
    model, seen = recording
    texts = [f"passage number {i} about glazes" for i in range(onnx_embed.SMALL_BATCH + 1)]
    vectors = model.encode(texts, batch_size=4)
    assert vectors.shape == (len(texts), model.dimension)
    assert seen == [0, 0, 0]  # 0: ONNX Runtime's default, one thread per core; three batches


def test_query_vectors_match_the_bulk_path() -> None:
    model = onnx_embed.default_embeddings()
    texts = [f"the kiln door seal fails on variant {i}" for i in range(onnx_embed.SMALL_BATCH + 1)]
    texts[3] = "a much longer passage, padded less in its batch than the short ones " * 5
    bulk = model.encode(texts, batch_size=4)  # sorted by length, padded per batch
    for i in (0, 3, len(texts) - 1):
        single = model.encode(texts[i : i + 1])
        assert single[0] == pytest.approx(bulk[i], abs=1e-5)
    assert np.allclose(np.linalg.norm(bulk, axis=1), 1.0, atol=1e-5)
