"""The agent's tools: ``search_<corpus>`` for each corpus, then ``calculator`` and ``finish``.

Imports of LangChain and the corpora happen inside the functions, so ``import tools.bm25``
(used alone by the benchmarks) stays light.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tools.search_settings import DEFAULT_K

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from corpora import Corpus
    from tools.keyword_index import KeywordIndex
    from tools.retrievers import IndexedCorpus


@functools.cache
def builtin_index(name: str) -> KeywordIndex:
    """The BM25 index of a built-in corpus, built once per process (pure Python: they are small)."""
    from corpora import load_builtin
    from tools.keyword_build import build_keyword_index

    return build_keyword_index(load_builtin(name).texts())


def default_tools(
    k: int = DEFAULT_K,
    corpora: Sequence[Corpus | IndexedCorpus] | None = None,
    retriever: str | None = None,
) -> list[BaseTool]:
    """Return ``search_<name>`` for each corpus (default: the built-ins), then calculator, finish.

    A plain corpus is searched with `retriever` (default: ``$AGENT_RETRIEVER``, else bm25);
    an `IndexedCorpus` (a saved index) keeps its own. Built-in corpora reuse a cached index;
    other corpora are indexed on each call. Raises ValueError if two corpora share a name.
    """
    from corpora import BUILTIN_CORPORA, load_builtin
    from tools.calculator import calculator
    from tools.finish import finish
    from tools.retrievers import IndexedCorpus, check_retriever, default_retriever, index_corpus
    from tools.search import make_search_tool

    retriever = check_retriever(retriever) if retriever else default_retriever()
    if corpora is None:
        corpora = [load_builtin(name) for name in BUILTIN_CORPORA]
    names = [c.corpus.name if isinstance(c, IndexedCorpus) else c.name for c in corpora]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"two corpora are named {duplicates[0]!r}; give each a different name")
    searches: list[BaseTool] = []
    for corpus in corpora:
        if isinstance(corpus, IndexedCorpus):
            searches.append(make_search_tool(corpus, k=k))
            continue
        builtin = corpus.name in BUILTIN_CORPORA and corpus == load_builtin(corpus.name)
        index = builtin_index(corpus.name) if builtin else None
        if retriever != "bm25":
            indexed = builtin_dense(corpus.name, retriever) if builtin else None
            indexed = indexed or index_corpus(corpus, retriever, bm25=index)
            searches.append(make_search_tool(indexed, k=k))
            continue
        searches.append(make_search_tool(corpus, k=k, index=index))
    return [*searches, calculator, finish]


@functools.cache
def builtin_dense(name: str, retriever: str) -> IndexedCorpus:
    """A built-in corpus indexed for dense or hybrid search, built once per process."""
    from corpora import load_builtin
    from tools.retrievers import index_corpus

    return index_corpus(load_builtin(name), retriever, bm25=builtin_index(name))
