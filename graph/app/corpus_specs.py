"""Which corpus a run searches: a saved index by name, or documents loaded from a path.

`open_corpus_spec` is what `--corpus` means everywhere (ask, resume, eval, the Python API);
`demo_retriever` is seed 000's `RAG_REAL_EMBED` switch for `agent demo`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from graph.app.terminal import safe_text


def indexes_dir() -> Path:
    """``$AGENT_HOME/indexes``: where saved indexes live."""
    from graph.app.home import home_folder
    from tools.index_store import indexes_root

    return indexes_root(home_folder())


REAL_EMBED_ENV = "RAG_REAL_EMBED"
"""Seed 000's switch: ``1`` makes `agent demo` search the seed corpora with dense retrieval."""


def demo_retriever() -> tuple[str, str]:
    """The retriever `agent demo` uses and the ``[embed]`` line saying so, as the seed prints it.

    ``RAG_REAL_EMBED=1`` asks for all-MiniLM-L6-v2; when the model is not installed or fails
    its check, the demo says why and stays on BM25 (the seed falls back the same way).
    """
    from tools.embeddings import EmbeddingError
    from tools.retrievers import default_encoder, default_retriever

    if os.environ.get(REAL_EMBED_ENV, "").strip() != "1":
        chosen = default_retriever()
        if chosen == "bm25":
            return "bm25", (
                "[embed] using the BM25 keyword retriever (offline default; "
                f"set {REAL_EMBED_ENV}=1 for sentence-transformers all-MiniLM-L6-v2)"
            )
    else:
        chosen = "dense"
    try:
        default_encoder()
    except EmbeddingError as e:
        return "bm25", f"[embed] {chosen} retrieval unavailable ({e}); using BM25"
    return chosen, (
        f"[embed] using {chosen} retrieval: sentence-transformers all-MiniLM-L6-v2 "
        "(sha256 checked, offline)"
    )


def open_corpus_spec(spec: str, retriever: str | None = None) -> Any:
    """A saved index for a bare NAME that has one, else the corpus `NAME=PATH` or `PATH` loads.

    A saved index is searched as it was built unless `retriever` says otherwise (dense and
    hybrid need an index built with vectors). Files a folder skipped are reported on standard
    error, one line.
    """
    from corpora import CorpusError, check_name, parse_corpus_spec
    from corpora.documents import skip_summary
    from tools.index_versions import saved
    from tools.saved_indexes import open_saved

    root = indexes_dir()
    try:
        is_saved = saved(root, check_name(spec))
    except CorpusError:
        is_saved = False
    if is_saved:
        return open_saved(root, spec, retriever)
    corpus = parse_corpus_spec(spec)
    if corpus.skipped:
        note = f"note: corpus {corpus.name}: {skip_summary(list(corpus.skipped))}"
        print(safe_text(note), file=sys.stderr)
    return corpus
