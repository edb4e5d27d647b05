"""The agent's tools: ``search_<corpus>`` for each corpus, then ``calculator`` and ``finish``.

Imports of LangChain and the corpora happen inside the functions, so ``import tools.bm25``
(used alone by the benchmarks) stays light.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from corpora import Corpus
    from tools.bm25 import BM25


@functools.cache
def builtin_index(name: str) -> BM25:
    """The BM25 index of a built-in corpus, built once per process."""
    from corpora import load_builtin
    from tools.bm25 import BM25

    return BM25(load_builtin(name).texts())


def default_tools(k: int = 3, corpora: Sequence[Corpus] | None = None) -> list[BaseTool]:
    """Return ``search_<name>`` for each corpus (default: the built-ins), then calculator, finish.

    Built-in corpora reuse a cached index; other corpora are indexed on each call. Raises
    ValueError if two corpora share a name.
    """
    from corpora import BUILTIN_CORPORA, load_builtin
    from tools.calculator import calculator
    from tools.finish import finish
    from tools.search import make_search_tool

    if corpora is None:
        corpora = [load_builtin(name) for name in BUILTIN_CORPORA]
    names = [c.name for c in corpora]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"two corpora are named {duplicates[0]!r}; give each a different name")
    searches: list[BaseTool] = []
    for corpus in corpora:
        builtin = corpus.name in BUILTIN_CORPORA and corpus == load_builtin(corpus.name)
        index = builtin_index(corpus.name) if builtin else None
        searches.append(make_search_tool(corpus, k=k, index=index))
    return [*searches, calculator, finish]
