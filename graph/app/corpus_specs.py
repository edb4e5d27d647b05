"""Which corpus a run searches: a saved index by name, or documents loaded from a path.

`open_corpus_spec` is what `--corpus` means everywhere (ask, resume, eval, the Python API);
`demo_retriever` is seed 000's `RAG_REAL_EMBED` switch for `agent demo`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graph.app.terminal import safe_text


def indexes_dir() -> Path:
    """``$AGENT_HOME/indexes``: where saved indexes live."""
    from graph.app.home import home_folder
    from tools.index_versions import indexes_root

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
                f"set {REAL_EMBED_ENV}=1 for all-MiniLM-L6-v2 embeddings)"
            )
    else:
        chosen = "dense"
    try:
        default_encoder()
    except EmbeddingError as e:
        return "bm25", f"[embed] {chosen} retrieval unavailable ({e}); using BM25"
    return chosen, (
        f"[embed] using {chosen} retrieval: all-MiniLM-L6-v2 on ONNX Runtime "
        "(every model file sha256 checked, offline)"
    )


def open_corpus_spec(spec: str, retriever: str | None = None) -> Any:
    """A saved index for a bare NAME, else a built-in corpus, else what `NAME=PATH` or `PATH` loads.

    A saved index is searched as it was built unless `retriever` says otherwise (dense and
    hybrid need an index built with vectors). Files a folder skipped are reported on standard
    error, one line.
    """
    from corpora import BUILTIN_CORPORA, CorpusError, check_name, load_builtin, parse_corpus_spec
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
    if spec in BUILTIN_CORPORA and not Path(spec).exists():
        return load_builtin(spec)
    corpus = parse_corpus_spec(spec)
    if corpus.skipped:
        note = f"note: corpus {corpus.name}: {skip_summary(list(corpus.skipped))}"
        print(safe_text(note), file=sys.stderr)
    return with_cached_vectors(corpus, retriever)


def with_cached_vectors(corpus: Any, retriever: str | None) -> Any:
    """`corpus` as is for bm25; for dense or hybrid, indexed with vectors kept between runs.

    The vectors live in ``$AGENT_HOME/embeddings/`` (`tools.embedding_cache`), keyed by each
    passage's text, so an unchanged folder is not embedded again on every ask.
    """
    from tools.retrievers import IndexedCorpus, check_retriever, default_encoder, default_retriever

    chosen = check_retriever(retriever) if retriever else default_retriever()
    if chosen == "bm25":
        return corpus
    from graph.app.home import agent_home
    from tools.bm25 import BM25
    from tools.embedding_cache import cached_dense
    from tools.embeddings import MODEL_NAME

    texts = corpus.texts()
    folder = agent_home() / "embeddings" / MODEL_NAME
    dense = cached_dense(folder, corpus.name, texts, default_encoder(), MODEL_NAME)
    return IndexedCorpus(corpus, BM25(texts), dense, chosen)


CORPORA_ENV = "AGENT_CORPORA"
"""Comma-separated saved index names or ``NAME=PATH`` specs: the default corpora of every entry
point (the graphs `langgraph.json` serves, `agent mcp serve`, the CLI, `Session`)."""


def configured_specs() -> list[str]:
    """The corpus specs ``$AGENT_CORPORA`` lists (none when it is unset or blank)."""
    raw = os.environ.get(CORPORA_ENV, "")
    return [spec.strip() for spec in raw.split(",") if spec.strip()]


def open_configured(retriever: str | None = None) -> list[Any] | None:
    """The corpora ``$AGENT_CORPORA`` names, opened (`open_corpus_spec`); None when unset.

    A bad entry is a one-line error naming the variable, at start-up.
    """
    from corpora import CorpusError

    specs = configured_specs()
    if not specs:
        return None
    try:
        return [open_corpus_spec(spec, retriever) for spec in specs]
    except ValueError as error:  # CorpusError, IndexStoreError: one line each
        raise CorpusError(f"{CORPORA_ENV}: {' '.join(str(error).split())}") from None


def spec_source(spec: str) -> str:
    """Where a corpus spec loads from, as a thread records it (`open_corpus_spec`'s order).

    ``saved:NAME`` for a saved index, ``builtin`` for a built-in corpus, else a full path.
    """
    from corpora import BUILTIN_CORPORA
    from graph.app.thread_settings import BUILTIN_SOURCE
    from tools.index_versions import saved
    from tools.saved_indexes import SAVED_PREFIX

    if "=" not in spec and "/" not in spec and not Path(spec).exists():
        if spec in BUILTIN_CORPORA and not saved(indexes_dir(), spec):
            return BUILTIN_SOURCE
        return f"{SAVED_PREFIX}{spec}"
    head, sep, tail = spec.partition("=")
    path = tail if sep and "/" not in head else spec
    return str(Path(path).resolve())


def served_corpora(specs: Sequence[str] = (), builtins: bool = False) -> list[Any]:
    """The corpora a server searches: `specs` (index names or ``NAME=PATH``), else the configured.

    The configured ones are ``$AGENT_CORPORA``, else the built-ins; with `builtins`, the
    built-ins join the named ones.
    """
    from corpora import BUILTIN_CORPORA, load_builtin

    named = [open_corpus_spec(spec) for spec in specs] if specs else open_configured()
    if named is None:
        return [load_builtin(name) for name in BUILTIN_CORPORA]
    return [*([load_builtin(n) for n in BUILTIN_CORPORA] if builtins else []), *named]
