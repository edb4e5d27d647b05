"""The one-time export of all-MiniLM-L6-v2 to ONNX, and the check of the exported file.

`ensure_export` returns the path of ``model.onnx`` once its sha256 matches the record written
beside it (``model.onnx.json``, which also names the hashes of the weights and config it was
made from; the hash is computed again whenever the file may have changed: `read_export`).
When either is missing, damaged or from other sources, the graph is exported again from the
checked weights (`export_onnx`): the only step that needs torch (and transformers, which
sentence-transformers brings, and onnx, which torch's TorchScript exporter writes with). The
export is deterministic: the same weights and torch give the same bytes.

Where the file is kept (`export_dir`): beside the model, in ``onnx-agent/`` of the model
folder, when that folder is writable; otherwise (a read-only site-packages) in the user's cache
folder, ``$XDG_CACHE_HOME/agentic-rag/`` (default ``~/.cache/agentic-rag/``). Files are written
under temporary names and renamed into place, so a reader never sees half an export.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import threading
import warnings
from pathlib import Path
from typing import Any

from tools.embeddings import (
    MODEL_FILES,
    MODEL_NAME,
    WEIGHTS,
    EmbeddingError,
    installed,
    read_regular,
    verify_model,
)

ONNX_FILE = "model.onnx"
RECORD_FILE = "model.onnx.json"
SOURCES = (WEIGHTS, "config.json")
"""The model files the exported graph is made from (the tokenizer and pooling stay outside)."""
OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "token_embeddings"
EXPORT_HINT = (
    "exporting the embedding model to ONNX (once) needs torch==2.13.0, transformers and onnx: "
    "pip install -e '.[dense]'"
)


def export_dir(folder: Path) -> Path:
    """Where the ONNX export of the model in `folder` is kept (see the module docstring)."""
    beside = folder / "onnx-agent"
    if os.access(beside if beside.is_dir() else folder, os.W_OK):
        return beside
    cache = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache) / "agentic-rag" / f"{MODEL_NAME}-onnx"


def ensure_export(folder: Path) -> Path:
    """The checked ``model.onnx`` of the model in `folder`, exported first if need be."""
    target = export_dir(folder)
    if read_export(target):
        return target / ONNX_FILE
    write_export(target, export_onnx(folder))
    if not read_export(target):
        raise EmbeddingError(f"{target / ONNX_FILE}: the ONNX export changed as it was written")
    return target / ONNX_FILE


def file_key(path: Path) -> list[int] | None:
    """What changes whenever a file's content can have changed: inode, size, mtime, ctime."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def read_export(target: Path) -> bool:
    """Whether the kept ``model.onnx`` matches its record, and the record our sources.

    The sha256 is computed when the file's `file_key` is not the one recorded at the last
    check (no one can edit a file without changing its ctime); a file that passes is recorded
    with its new key.
    """
    try:
        record = json.loads(read_regular(target / RECORD_FILE))
    except (EmbeddingError, ValueError):
        return False
    expected = {name: MODEL_FILES[name] for name in SOURCES}
    if not isinstance(record, dict) or record.get("sources") != expected:
        return False
    key = file_key(target / ONNX_FILE)
    if key is not None and record.get("checked") == key:
        return True
    try:
        data = read_regular(target / ONNX_FILE)
    except EmbeddingError:
        return False
    if record.get("sha256") != _sha256(data):
        return False
    _write_record(target, {**record, "checked": file_key(target / ONNX_FILE)})
    return True


def write_export(target: Path, data: bytes) -> None:
    """Keep `data` as ``model.onnx`` in `target`, then its record (each renamed into place)."""
    try:
        target.mkdir(parents=True, exist_ok=True)
        _replace(target / ONNX_FILE, data)
    except OSError as e:
        raise EmbeddingError(
            f"{target}: cannot keep the ONNX export of the embedding model: {e.strerror}"
        ) from None
    record = {
        "model": MODEL_NAME,
        "sha256": _sha256(data),
        "sources": {name: MODEL_FILES[name] for name in SOURCES},
        "opset": OPSET,
    }
    _write_record(target, record)


def _write_record(target: Path, record: dict[str, Any]) -> None:
    """Replace the record (a record that cannot be written only costs a hash next time)."""
    try:
        _replace(target / RECORD_FILE, json.dumps(record).encode())
    except OSError:
        pass


def _replace(path: Path, data: bytes) -> None:
    """Write `data` under a temporary name beside `path`, then rename it over `path`."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def export_onnx(folder: Path) -> bytes:
    """The transformer of the checked model in `folder` as ONNX bytes (token embeddings out).

    Inputs are ``input_ids``, ``attention_mask`` and ``token_type_ids`` (int64, batch x
    sequence, both axes dynamic); pooling and normalization happen after, in numpy.
    """
    files = verify_model(folder, SOURCES)
    model = _torch_model(files)
    import torch

    sample = tuple(torch.ones(2, 8, dtype=torch.int64) for _ in INPUTS)
    axes = {name: {0: "batch", 1: "sequence"} for name in (*INPUTS, OUTPUT)}
    buffer = io.BytesIO()
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            sample,
            buffer,  # type: ignore[arg-type]  # the TorchScript exporter writes to files too
            input_names=list(INPUTS),
            output_names=[OUTPUT],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )
    return buffer.getvalue()


def _torch_model(files: dict[str, bytes]) -> Any:
    """The transformer built from the checked config and weights, wrapped to return tokens."""
    try:
        import torch
        from safetensors.torch import load as load_weights
        from transformers import AutoConfig, AutoModel
        from transformers.utils import logging as hf_logging
    except ImportError:
        raise EmbeddingError(EXPORT_HINT) from None
    if not installed("onnx"):
        raise EmbeddingError(EXPORT_HINT)
    hf_logging.set_verbosity_error()
    settings = json.loads(files["config.json"])
    config = AutoConfig.for_model(settings.pop("model_type"), **settings)
    config._attn_implementation = "eager"
    transformer = AutoModel.from_config(config)
    missing = transformer.load_state_dict(load_weights(files[WEIGHTS]), strict=False).missing_keys
    if missing:
        raise EmbeddingError(f"{WEIGHTS}: lacks {len(missing)} weights, e.g. {missing[0]}")

    class TokenEmbeddings(torch.nn.Module):
        """The transformer's last hidden state for each token."""

        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            """Token embeddings, batch x sequence x dimension."""
            out = self.transformer(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )
            return out.last_hidden_state

    return TokenEmbeddings().eval()


def _sha256(data: bytes) -> str:
    """Hex sha256 of `data`."""
    return hashlib.sha256(data).hexdigest()
