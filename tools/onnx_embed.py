"""all-MiniLM-L6-v2 on ONNX Runtime behind LangChain's `Embeddings` interface: no torch.

The model's own tokenizer (``tokenizer.json``, through the ``tokenizers`` library) cuts each
text as sentence-transformers does: stripped, truncated to the model's ``max_seq_length``
(``sentence_bert_config.json``, at most the tokenizer's ``model_max_length``), padded to the
longest text of its batch. The exported transformer (`tools.onnx_export`) gives token
embeddings; they are pooled as ``1_Pooling/config.json`` says (mean over the real tokens for
this model) and scaled to unit length when ``modules.json`` ends with a Normalize module.
Every one of those files (and the other small model files) is checked by hash first
(`tools.embeddings.verify_model`), before the ONNX graph is read (or exported, the first time).

A query (up to `SMALL_BATCH` texts) runs on a session of one intra-op thread, bulk batches on
a session with ONNX Runtime's default pool (one thread per core): a query is too small to
split across threads on these shared cores (`benchmarks/embed_threads.py`). The bulk session
is made on first bulk use, so a query-only process never pays for it.
"""

from __future__ import annotations

import functools
import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from tools.dense import normalize
from tools.embeddings import (
    MODEL_FILES,
    MODEL_NAME,
    WEIGHTS,
    EmbeddingError,
    model_dir,
    verify_model,
)
from tools.onnx_export import ensure_export, file_key, read_export

BATCH_SIZE = 16
"""Texts per ONNX Runtime call: on these CPUs 16 embedded more passages a second than 32 or 64
(longer batches pay for attention over more padding and leave the caches); texts are sorted
by length first, as sentence-transformers does."""
SMALL_BATCH = 8
"""Up to this many texts (a query) are embedded on the one-thread session."""
CONFIG_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "sentence_bert_config.json",
    "modules.json",
    "1_Pooling/config.json",
)
"""The files read here; every other model file but the weights is checked too (the weights
and the transformer's config are in the exported graph, checked when it was made)."""
POOLING_MODES = ("cls_token", "mean_tokens", "max_tokens", "mean_sqrt_len_tokens")
MODULE_TYPES = ("Transformer", "Pooling", "Normalize")
"""The sentence-transformers modules this runtime implements, by class name."""


class OnnxEmbeddings(Embeddings):
    """The checked model's ONNX graph, CPU only, float32 vectors pooled as the model says."""

    name = MODEL_NAME

    def __init__(self, folder: Path) -> None:
        checked = verify_model(folder, tuple(n for n in MODEL_FILES if n != WEIGHTS))
        files = {k: json.loads(checked[k]) for k in CONFIG_FILES if k != "tokenizer.json"}
        from tokenizers import Tokenizer

        self.folder = folder
        self.graph = ensure_export(folder)  # after the cheap checks: a bad file costs no export
        self._tokenizer = Tokenizer.from_str(checked["tokenizer.json"].decode("utf-8"))
        self._tokenizer.no_padding()
        limits = files["tokenizer_config.json"].get("model_max_length", 1 << 30)
        self.max_length = min(int(files["sentence_bert_config.json"]["max_seq_length"]), limits)
        self._tokenizer.enable_truncation(max_length=self.max_length)
        pad = str(files["tokenizer_config.json"].get("pad_token", "[PAD]"))
        self._pad_id = self._tokenizer.token_to_id(pad) or 0
        pooling = files["1_Pooling/config.json"]
        self.pooling, self.normalize = _pipeline(files["modules.json"], pooling)
        width = int(pooling["word_embedding_dimension"])
        self.dimension = width * len(self.pooling)
        self._sessions: dict[int, Any] = {}
        self._lock = threading.Lock()

    def session(self, threads: int) -> Any:
        """The ONNX Runtime session with `threads` intra-op threads (0: the default pool)."""
        with self._lock:
            if threads not in self._sessions:
                import onnxruntime as ort

                options = ort.SessionOptions()
                options.intra_op_num_threads = threads
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                before = file_key(self.graph)  # checked again just before ONNX Runtime opens it
                if before is None or not read_export(self.graph.parent):
                    raise EmbeddingError(f"{self.graph}: changed since it was checked; try again")
                session = ort.InferenceSession(
                    str(self.graph), options, providers=["CPUExecutionProvider"]
                )
                if file_key(self.graph) != before:
                    raise EmbeddingError(f"{self.graph}: changed while it was loaded; try again")
                self._sessions[threads] = session
            return self._sessions[threads]

    def encode(self, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
        """float32 vectors (unit length for this model), one row per text, in order."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        session = self.session(1 if len(texts) <= SMALL_BATCH else 0)
        stripped = [str(text).strip() for text in texts]
        order = sorted(range(len(texts)), key=lambda i: -len(stripped[i]))  # less padding
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            out[rows] = self._embed_batch(session, [stripped[i] for i in rows])
        return out

    def _embed_batch(self, session: Any, texts: list[str]) -> np.ndarray:
        """Pooled (and normalized) vectors of one batch."""
        encodings = self._tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in encodings)
        ids = np.full((len(texts), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        types = np.zeros((len(texts), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            n = len(encoding.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = encoding.ids, 1, encoding.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        tokens = session.run(None, feeds)[0]
        vectors = pool(tokens, mask, self.pooling)
        return normalize(vectors) if self.normalize else vectors

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """LangChain's interface: one vector per document."""
        return self.encode(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """LangChain's interface: the vector of one query."""
        return self.encode([text])[0].tolist()


def _pipeline(modules: Any, pooling: dict[str, Any]) -> tuple[tuple[str, ...], bool]:
    """The pooling modes switched on and whether vectors are normalized; refuse what we lack."""
    kinds = [str(m.get("type", "")).rpartition(".")[2] for m in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or not set(kinds) <= set(MODULE_TYPES):
        raise EmbeddingError(f"unsupported sentence-transformers modules: {', '.join(kinds)}")
    modes = tuple(m for m in POOLING_MODES if pooling.get(f"pooling_mode_{m}"))
    unknown = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v]
    if not modes or len(unknown) != len(modes):
        raise EmbeddingError(f"unsupported pooling: {', '.join(unknown) or 'none'}")
    return modes, kinds[-1] == "Normalize"


def pool(tokens: np.ndarray, mask: np.ndarray, modes: tuple[str, ...]) -> np.ndarray:
    """Sentence vectors from token vectors, one part per mode, side by side.

    The order is sentence-transformers': cls, mean, max, mean over the square root of the length.
    """
    weights = mask[..., None].astype(np.float32)
    counts = np.clip(weights.sum(axis=1), 1e-9, None)
    summed = (tokens * weights).sum(axis=1)
    parts = {
        "cls_token": tokens[:, 0],
        "mean_tokens": summed / counts,
        "max_tokens": np.where(weights > 0, tokens, -1e9).max(axis=1),
        "mean_sqrt_len_tokens": summed / np.sqrt(counts),
    }
    return np.concatenate([parts[m] for m in modes], axis=1).astype(np.float32)


@functools.cache
def _load(folder: str) -> OnnxEmbeddings:
    """One model per folder per process (exported to ONNX on first use)."""
    return OnnxEmbeddings(Path(folder))


def default_embeddings() -> OnnxEmbeddings:
    """The checked model (loaded once per process); EmbeddingError with what to install."""
    return _load(str(model_dir()))
