"""Passage corpora: what one is (`corpora.model`), the built-ins and a user's own files."""

from corpora.loader import BUILTIN_CORPORA, load_builtin, load_corpus, parse_corpus_spec
from corpora.model import Corpus, CorpusError, Passage, check_name, describe, indexed_text

__all__ = [
    "BUILTIN_CORPORA",
    "Corpus",
    "CorpusError",
    "Passage",
    "check_name",
    "describe",
    "indexed_text",
    "load_builtin",
    "load_corpus",
    "parse_corpus_spec",
]
