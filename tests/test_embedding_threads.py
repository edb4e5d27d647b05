"""A query is embedded on one torch thread; bulk batches keep torch's pool (the [dense] extra)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tools import embeddings

torch = pytest.importorskip("torch", reason="the [dense] extra is not installed")
pytest.importorskip("sentence_transformers", reason="the [dense] extra is not installed")


@pytest.fixture(autouse=True)
def restore_threads() -> Any:
    """Each test sets torch's thread count to 2; the original comes back after it."""
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[int]]:
    """The real model, its encode wrapped to record torch's thread count during each call."""
    model = embeddings.default_embeddings()
    seen: list[int] = []
    inner = model._model.encode

    def encode(*args: Any, **kwargs: Any) -> Any:
        seen.append(torch.get_num_threads())
        return inner(*args, **kwargs)

    monkeypatch.setattr(model._model, "encode", encode)
    return model, seen


def test_small_batches_run_on_one_thread_and_restore(recording: tuple[Any, list[int]]) -> None:
    model, seen = recording
    torch.set_num_threads(2)
    model.encode(["one query about a kiln"])
    model.embed_query("another query")
    assert seen == [1, 1]
    assert torch.get_num_threads() == 2  # restored


def test_bulk_batches_keep_the_default_pool(recording: tuple[Any, list[int]]) -> None:
    model, seen = recording
    torch.set_num_threads(2)
    texts = [f"passage number {i} about glazes" for i in range(embeddings.SMALL_BATCH + 1)]
    vectors = model.encode(texts)
    assert vectors.shape == (len(texts), model.dimension)
    assert seen == [2]


def test_one_thread_setting_stays_in_its_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    model = embeddings.default_embeddings()
    inside, release = threading.Event(), threading.Event()
    inner = model._model.encode

    def encode(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        release.wait(30)
        return inner(*args, **kwargs)

    monkeypatch.setattr(model._model, "encode", encode)
    torch.set_num_threads(2)
    worker = threading.Thread(target=model.encode, args=(["a query from an eval worker"],))
    worker.start()
    try:
        assert inside.wait(30)
        assert torch.get_num_threads() == 2  # the worker's query did not shrink this thread
    finally:
        release.set()
        worker.join(60)
    assert torch.get_num_threads() == 2


def test_query_vectors_match_the_bulk_path() -> None:
    model = embeddings.default_embeddings()
    texts = [f"the kiln door seal fails on variant {i}" for i in range(embeddings.SMALL_BATCH + 1)]
    bulk = model.encode(texts)
    single = model.encode(texts[:1])
    assert single[0] == pytest.approx(bulk[0], abs=1e-5)
