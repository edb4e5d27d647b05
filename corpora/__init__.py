"""Passage corpora: the built-in ones and a loader for a user's own files."""

from corpora.loader import (
    BUILTIN_CORPORA,
    Corpus,
    CorpusError,
    Passage,
    describe,
    load_builtin,
    load_corpus,
    parse_corpus_spec,
)

__all__ = [
    "BUILTIN_CORPORA",
    "Corpus",
    "CorpusError",
    "Passage",
    "describe",
    "load_builtin",
    "load_corpus",
    "parse_corpus_spec",
]
